import BatonDiagnostics
import BatonSyntax

/// A built schema: named types, directives and root operation types, with the derived maps
/// validation needs (possible types of abstract types, implementations of interfaces).
///
/// Made by `SchemaBuilder` (SDL) or `IntrospectionSchemaBuilder`; always contains the built-in
/// scalars, the introspection types, and the built-in directives (`@include @skip @deprecated
/// @specifiedBy @oneOf`) plus Baton's own (`@required @catch @throwOnFieldError
/// @semanticNonNull`) unless the schema declares them itself.
package final class GraphQLSchema: Sendable {
    package let description: String?
    /// Every named type by name (`schema.types[name]`), in `typeNames` order.
    package let types: SchemaTypes
    /// Type names in definition order (built-ins and introspection types last), for stable output.
    package let typeNames: [String]
    /// Every directive by name.
    package let directives: [String: DirectiveDef]
    /// Directive names in definition order.
    package let directiveNames: [String]
    package let queryTypeName: String?
    package let mutationTypeName: String?
    package let subscriptionTypeName: String?
    /// Directives applied to the schema definition.
    package let schemaDirectives: [AppliedDirective]

    /// Object types that implement each interface (directly or through another interface),
    /// and interfaces that implement each interface, in type order.
    private let implementingObjects: [String: [String]]
    private let implementingInterfaces: [String: [String]]
    /// Possible types of the abstract types with many of them (short lists are searched).
    private let possibleTypeSets: [String: Set<String>]
    /// The most lists any object or interface field's type nests (`TypeRef.listNesting`): the
    /// plan refuses a field nesting too many, and `check` asks once per schema whether any does.
    package let deepestFieldListNesting: Int

    /// `types` are the schema's named types in order (the first of a name wins).
    package init(
        description: String?, types: [NamedTypeDef], directives: [String: DirectiveDef], directiveNames: [String],
        queryTypeName: String?, mutationTypeName: String?, subscriptionTypeName: String?,
        schemaDirectives: [AppliedDirective] = []
    ) {
        self.description = description
        let table = SchemaTypes(types)
        self.types = table
        let typeList = table.list
        self.typeNames = typeList.map(\.name)
        self.directives = directives
        self.directiveNames = directiveNames
        self.queryTypeName = queryTypeName
        self.mutationTypeName = mutationTypeName
        self.subscriptionTypeName = subscriptionTypeName
        self.schemaDirectives = schemaDirectives

        var objects: [String: [String]] = [:]
        var interfaces: [String: [String]] = [:]
        for type in typeList {
            let name = type.name
            for interface in type.interfaces {
                if type.kind == .object {
                    objects[interface, default: []].append(name)
                } else if type.kind == .interface {
                    interfaces[interface, default: []].append(name)
                }
            }
        }
        self.implementingObjects = objects
        self.implementingInterfaces = interfaces
        var sets: [String: Set<String>] = [:]
        for type in typeList {
            switch type.kind {
            case .union where type.unionMembers.count > GraphQLSchema.searchLimit:
                sets[type.name] = Set(type.unionMembers)
            case .interface:
                if let implementations = objects[type.name], implementations.count > GraphQLSchema.searchLimit {
                    sets[type.name] = Set(implementations)
                }
            default: break
            }
        }
        self.possibleTypeSets = sets
        var deepest = 0
        for type in typeList {
            for field in type.fields { deepest = max(deepest, field.type.listNesting) }
        }
        self.deepestFieldListNesting = deepest
    }

    /// Lists of possible types up to this long are searched rather than hashed.
    private static let searchLimit = 8

    package func type(named name: String) -> NamedTypeDef? { types[name] }
    package func directive(named name: String) -> DirectiveDef? { directives[name] }

    /// The root type of an operation kind, if the schema has one.
    package func rootType(for operation: OperationType) -> NamedTypeDef? {
        let name: String?
        switch operation {
        case .query: name = queryTypeName
        case .mutation: name = mutationTypeName
        case .subscription: name = subscriptionTypeName
        }
        return name.flatMap { type(named: $0) }
    }

    /// The object types a value of an abstract type can be (union members; objects implementing
    /// an interface), in schema order. For an object type, the type itself.
    package func possibleTypes(of type: NamedTypeDef) -> [NamedTypeDef] {
        switch type.kind {
        case .union: return type.unionMembers.compactMap { self.type(named: $0) }
        case .interface: return (implementingObjects[type.name] ?? []).compactMap { self.type(named: $0) }
        case .object: return [type]
        default: return []
        }
    }

    /// Interfaces that declare they implement `interface`.
    package func implementingInterfaces(of interface: NamedTypeDef) -> [NamedTypeDef] {
        (implementingInterfaces[interface.name] ?? []).compactMap { type(named: $0) }
    }

    /// True when `maybeSubType` is a possible type of the abstract `abstractType`, or an
    /// interface implementing it (graphql-js's `isSubType`).
    package func isSubType(_ abstractType: NamedTypeDef, _ maybeSubType: NamedTypeDef) -> Bool {
        if abstractType.kind == .union {
            return possibleTypes(named: abstractType.name, contain: maybeSubType.name)
        }
        if abstractType.kind == .interface {
            if maybeSubType.kind == .interface {
                return maybeSubType.interfaces.contains(abstractType.name)
            }
            return possibleTypes(named: abstractType.name, contain: maybeSubType.name)
        }
        return false
    }

    /// Whether `member` is a possible type of this schema's abstract type named `name`.
    private func possibleTypes(named name: String, contain member: String) -> Bool {
        guard let own = type(named: name) else { return false }
        switch own.kind {
        case .union:
            if own.unionMembers.count > GraphQLSchema.searchLimit, let set = possibleTypeSets[name] {
                return set.contains(member)
            }
            return own.unionMembers.contains(member)
        case .interface:
            guard let implementations = implementingObjects[name] else { return false }
            if implementations.count > GraphQLSchema.searchLimit, let set = possibleTypeSets[name] {
                return set.contains(member)
            }
            return implementations.contains(member)
        default:
            return false
        }
    }

    /// True when the two composite types can share a runtime object (graphql-js's
    /// `doTypesOverlap`).
    package func typesOverlap(_ a: NamedTypeDef, _ b: NamedTypeDef) -> Bool {
        if a.name == b.name { return true }
        if a.isAbstract {
            if b.isAbstract {
                return possibleTypes(of: a).contains { isSubType(b, $0) }
            }
            return isSubType(a, b)
        }
        if b.isAbstract { return isSubType(b, a) }
        return false
    }
}

/// A schema's named types: a list in definition order with a `NameIndex` over it, so a lookup
/// by name (`schema.types[name]`, `type(named:)`, the validator's type resolution) costs an ASCII
/// hash and one string comparison instead of a `Dictionary`'s SipHash.
package struct SchemaTypes: Sendable {
    /// The types in definition order, unique by name.
    package let list: [NamedTypeDef]
    private let index: NameIndex

    /// Indexes `types`, keeping the first type of each name.
    package init(_ types: [NamedTypeDef]) {
        let index = types.withUnsafeBufferPointer { list in NameIndex(count: list.count) { list[$0].name } }
        if index.hasDuplicates {
            let unique = firstOfEachName(types) { $0.name }
            self.list = unique
            self.index = unique.withUnsafeBufferPointer { list in NameIndex(count: list.count) { list[$0].name } }
        } else {
            self.list = types
            self.index = index
        }
    }

    /// The type named `name`, if any.
    package subscript(name: String) -> NamedTypeDef? {
        list.withUnsafeBufferPointer { list in
            index.position(of: name, count: list.count) { list[$0].name }.map { list[$0] }
        }
    }

    package var count: Int { list.count }
}
