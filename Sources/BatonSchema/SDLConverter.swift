import BatonDiagnostics
import BatonSyntax

/// A definition with the file it was parsed from.
package struct LocatedDefinition: Sendable {
    package var definition: Definition
    package var file: SourceFile
    package init(_ definition: Definition, file: SourceFile) {
        self.definition = definition
        self.file = file
    }
}

/// Turns type-system AST nodes into schema model values. Duplicate fields, arguments, enum
/// values and input fields keep their first definition (the SDL rules report the others);
/// union members and implemented interfaces are kept as written, duplicates included, because
/// schema validation reports those.
struct SDLConverter {
    /// False for the built-ins, which have no place in any user file.
    var keepLocations: Bool

    private func location(_ span: Span, _ file: SourceFile) -> SchemaLocation? {
        keepLocations ? SchemaLocation(file: file, span: span) : nil
    }

    func applied(_ directives: [Directive], _ file: SourceFile) -> [AppliedDirective] {
        if directives.isEmpty { return [] }
        return directives.map { AppliedDirective(node: $0, location: location($0.span, file)) }
    }

    /// graphql-js's `getDeprecationReason`: the `reason` of the first `@deprecated`, its default
    /// when omitted, nil for an explicit `null` or no `@deprecated` at all.
    static func deprecationReason(_ directives: [Directive]) -> String? {
        guard let deprecated = directives.first(where: { $0.name.value == "deprecated" }) else { return nil }
        guard let argument = deprecated.arguments.first(where: { $0.name.value == "reason" }) else {
            return BuiltIns.defaultDeprecationReason
        }
        switch argument.value {
        case .string(let string): return string.value
        case .null: return nil
        default: return BuiltIns.defaultDeprecationReason
        }
    }

    func inputValue(_ node: InputValueDefinition, _ file: SourceFile) -> InputValue {
        InputValue(
            name: node.name.value, description: node.description?.value, type: TypeRef(node.type),
            defaultValue: node.defaultValue, deprecationReason: SDLConverter.deprecationReason(node.directives),
            directives: applied(node.directives, file), location: location(node.name.span, file))
    }

    func inputValues(_ nodes: [InputValueDefinition], _ file: SourceFile) -> [InputValue] {
        firstOfEachName(nodes.map { inputValue($0, file) }, name: \.name)
    }

    func field(_ node: FieldDefinition, _ file: SourceFile) -> FieldDef {
        FieldDef(
            name: node.name.value, description: node.description?.value,
            arguments: node.arguments.isEmpty ? [] : inputValues(node.arguments, file), type: TypeRef(node.type),
            deprecationReason: SDLConverter.deprecationReason(node.directives),
            directives: applied(node.directives, file), location: location(node.name.span, file))
    }

    func directive(_ node: DirectiveDefinition, file: SourceFile) -> DirectiveDef {
        DirectiveDef(
            name: node.name.value, description: node.description?.value, arguments: inputValues(node.arguments, file),
            isRepeatable: node.isRepeatable, locations: node.locations.compactMap { DirectiveLocation(rawValue: $0.value) },
            location: location(node.name.span, file))
    }

    /// Builds the named type of a type definition with its same-kind extensions applied in
    /// order. Returns nil for definitions that are not type definitions.
    func namedType(_ definition: Definition, extensions: [LocatedDefinition], file: SourceFile) -> NamedTypeDef? {
        let extensionLocations = keepLocations ? extensions.compactMap { Self.nameLocation($0) } : []
        switch definition {
        case .scalar(let node):
            var directives = applied(node.directives, file)
            for case (.scalar(let ext), let extFile) in extensions.map({ ($0.definition, $0.file) }) {
                directives += applied(ext.directives, extFile)
            }
            return NamedTypeDef(
                kind: .scalar, name: node.name.value, description: node.description?.value, directives: directives,
                location: location(node.name.span, file), extensionLocations: extensionLocations)
        case .object(let node):
            var parts: [(fields: [FieldDefinition], interfaces: [NamedType], directives: [Directive], file: SourceFile)] = [
                (node.fields, node.interfaces, node.directives, file)
            ]
            for case (.object(let ext), let extFile) in extensions.map({ ($0.definition, $0.file) }) {
                parts.append((ext.fields, ext.interfaces, ext.directives, extFile))
            }
            return composite(
                .object, node.name, node.description, parts, file: file, extensionLocations: extensionLocations)
        case .interface(let node):
            var parts: [(fields: [FieldDefinition], interfaces: [NamedType], directives: [Directive], file: SourceFile)] = [
                (node.fields, node.interfaces, node.directives, file)
            ]
            for case (.interface(let ext), let extFile) in extensions.map({ ($0.definition, $0.file) }) {
                parts.append((ext.fields, ext.interfaces, ext.directives, extFile))
            }
            return composite(
                .interface, node.name, node.description, parts, file: file, extensionLocations: extensionLocations)
        case .union(let node):
            var members = node.types.map(\.name.value)
            var directives = applied(node.directives, file)
            for case (.union(let ext), let extFile) in extensions.map({ ($0.definition, $0.file) }) {
                members += ext.types.map(\.name.value)
                directives += applied(ext.directives, extFile)
            }
            return NamedTypeDef(
                kind: .union, name: node.name.value, description: node.description?.value, unionMembers: members,
                directives: directives, location: location(node.name.span, file), extensionLocations: extensionLocations)
        case .enumType(let node):
            var values: [EnumValueDef] = []
            var directives = applied(node.directives, file)
            func add(_ nodes: [EnumValueDefinition], _ file: SourceFile) {
                for value in nodes {
                    values.append(
                        EnumValueDef(
                            name: value.name.value, description: value.description?.value,
                            deprecationReason: SDLConverter.deprecationReason(value.directives),
                            directives: applied(value.directives, file), location: location(value.name.span, file)))
                }
            }
            add(node.values, file)
            for case (.enumType(let ext), let extFile) in extensions.map({ ($0.definition, $0.file) }) {
                add(ext.values, extFile)
                directives += applied(ext.directives, extFile)
            }
            return NamedTypeDef(
                kind: .enumType, name: node.name.value, description: node.description?.value,
                enumValues: firstOfEachName(values, name: \.name),
                directives: directives, location: location(node.name.span, file), extensionLocations: extensionLocations)
        case .inputObject(let node):
            var fields: [InputValue] = []
            var directives = applied(node.directives, file)
            func add(_ nodes: [InputValueDefinition], _ file: SourceFile) {
                for field in nodes { fields.append(inputValue(field, file)) }
            }
            add(node.fields, file)
            for case (.inputObject(let ext), let extFile) in extensions.map({ ($0.definition, $0.file) }) {
                add(ext.fields, extFile)
                directives += applied(ext.directives, extFile)
            }
            return NamedTypeDef(
                kind: .inputObject, name: node.name.value, description: node.description?.value,
                inputFields: firstOfEachName(fields, name: \.name),
                directives: directives, location: location(node.name.span, file), extensionLocations: extensionLocations)
        case .operation, .fragment, .schema, .directive:
            return nil
        }
    }

    private func composite(
        _ kind: TypeKind, _ name: Name, _ description: StringValue?,
        _ parts: [(fields: [FieldDefinition], interfaces: [NamedType], directives: [Directive], file: SourceFile)],
        file: SourceFile, extensionLocations: [SchemaLocation]
    ) -> NamedTypeDef {
        var fields: [FieldDef] = []
        fields.reserveCapacity(parts[0].fields.count)
        var interfaces: [String] = []
        var directives: [AppliedDirective] = []
        for part in parts {
            for node in part.fields { fields.append(field(node, part.file)) }
            interfaces += part.interfaces.map(\.name.value)
            directives += applied(part.directives, part.file)
        }
        return NamedTypeDef(
            kind: kind, name: name.value, description: description?.value, fields: firstOfEachName(fields, name: \.name),
            interfaces: interfaces,
            directives: directives, location: location(name.span, file), extensionLocations: extensionLocations)
    }

    /// The name token of a type definition or extension.
    static func typeName(_ definition: Definition) -> Name? {
        switch definition {
        case .scalar(let node): node.name
        case .object(let node): node.name
        case .interface(let node): node.name
        case .union(let node): node.name
        case .enumType(let node): node.name
        case .inputObject(let node): node.name
        case .operation, .fragment, .schema, .directive: nil
        }
    }

    /// True for `extend …` type definitions.
    static func isTypeExtension(_ definition: Definition) -> Bool {
        switch definition {
        case .scalar(let node): node.isExtension
        case .object(let node): node.isExtension
        case .interface(let node): node.isExtension
        case .union(let node): node.isExtension
        case .enumType(let node): node.isExtension
        case .inputObject(let node): node.isExtension
        case .operation, .fragment, .schema, .directive: false
        }
    }

    static func nameLocation(_ located: LocatedDefinition) -> SchemaLocation? {
        typeName(located.definition).map { SchemaLocation(file: located.file, span: $0.span) }
    }

    /// The kind a type definition defines.
    static func kind(_ definition: Definition) -> TypeKind? {
        switch definition {
        case .scalar: .scalar
        case .object: .object
        case .interface: .interface
        case .union: .union
        case .enumType: .enumType
        case .inputObject: .inputObject
        case .operation, .fragment, .schema, .directive: nil
        }
    }
}

/// Whether any two of the names are equal. Most lists (fields, arguments, values) are short,
/// and comparing pairs of short strings beats hashing them; long lists use a set.
func hasDuplicateNames<Names: Collection>(_ names: Names) -> Bool where Names.Element == String {
    let count = names.count
    if count < 2 { return false }
    if count <= 12 {
        let array = Array(names)
        for i in 1..<count {
            for j in 0..<i where array[i] == array[j] { return true }
        }
        return false
    }
    var seen = Set<String>(minimumCapacity: count)
    for name in names where !seen.insert(name).inserted { return true }
    return false
}

/// Keeps the first element of each name.
func firstOfEachName<Element>(_ elements: [Element], name: (Element) -> String) -> [Element] {
    guard hasDuplicateNames(elements.lazy.map(name)) else { return elements }
    var seen = Set<String>()
    return elements.filter { seen.insert(name($0)).inserted }
}
