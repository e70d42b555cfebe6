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
        if nodes.isEmpty { return [] }
        return firstOfEachName(nodes.map { inputValue($0, file) }) { $0.name }
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
            isRepeatable: node.isRepeatable,
            locations: node.locations.compactMap { DirectiveLocation(rawValue: $0.value) },
            location: location(node.name.span, file))
    }

    /// Builds the named type of a type definition with its same-kind extensions applied in
    /// order. Returns nil for definitions that are not type definitions. Duplicate fields,
    /// values and input fields are dropped by `NamedTypeDef` (first wins).
    func namedType(_ definition: Definition, extensions: [LocatedDefinition], file: SourceFile) -> NamedTypeDef? {
        let extensionLocations =
            keepLocations && !extensions.isEmpty ? extensions.compactMap { Self.nameLocation($0) } : []
        switch definition {
        case .scalar(let node):
            var directives = applied(node.directives, file)
            for located in extensions {
                guard case .scalar(let ext) = located.definition else { continue }
                directives += applied(ext.directives, located.file)
            }
            return NamedTypeDef(
                kind: .scalar, name: node.name.value, description: node.description?.value, directives: directives,
                location: location(node.name.span, file), extensionLocations: extensionLocations)
        case .object(let node):
            var fields = fieldDefs(node.fields, file)
            var interfaces = node.interfaces.isEmpty ? [] : node.interfaces.map(\.name.value)
            var directives = applied(node.directives, file)
            for located in extensions {
                guard case .object(let ext) = located.definition else { continue }
                fields += fieldDefs(ext.fields, located.file)
                interfaces += ext.interfaces.map(\.name.value)
                directives += applied(ext.directives, located.file)
            }
            return NamedTypeDef(
                kind: .object, name: node.name.value, description: node.description?.value, fields: fields,
                interfaces: interfaces, directives: directives, location: location(node.name.span, file),
                extensionLocations: extensionLocations)
        case .interface(let node):
            var fields = fieldDefs(node.fields, file)
            var interfaces = node.interfaces.isEmpty ? [] : node.interfaces.map(\.name.value)
            var directives = applied(node.directives, file)
            for located in extensions {
                guard case .interface(let ext) = located.definition else { continue }
                fields += fieldDefs(ext.fields, located.file)
                interfaces += ext.interfaces.map(\.name.value)
                directives += applied(ext.directives, located.file)
            }
            return NamedTypeDef(
                kind: .interface, name: node.name.value, description: node.description?.value, fields: fields,
                interfaces: interfaces, directives: directives, location: location(node.name.span, file),
                extensionLocations: extensionLocations)
        case .union(let node):
            var members = node.types.map(\.name.value)
            var directives = applied(node.directives, file)
            for located in extensions {
                guard case .union(let ext) = located.definition else { continue }
                members += ext.types.map(\.name.value)
                directives += applied(ext.directives, located.file)
            }
            return NamedTypeDef(
                kind: .union, name: node.name.value, description: node.description?.value, unionMembers: members,
                directives: directives, location: location(node.name.span, file), extensionLocations: extensionLocations
            )
        case .enumType(let node):
            var values: [EnumValueDef] = []
            values.reserveCapacity(node.values.count)
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
            for located in extensions {
                guard case .enumType(let ext) = located.definition else { continue }
                add(ext.values, located.file)
                directives += applied(ext.directives, located.file)
            }
            return NamedTypeDef(
                kind: .enumType, name: node.name.value, description: node.description?.value, enumValues: values,
                directives: directives, location: location(node.name.span, file), extensionLocations: extensionLocations
            )
        case .inputObject(let node):
            var fields = node.fields.map { inputValue($0, file) }
            var directives = applied(node.directives, file)
            for located in extensions {
                guard case .inputObject(let ext) = located.definition else { continue }
                for field in ext.fields { fields.append(inputValue(field, located.file)) }
                directives += applied(ext.directives, located.file)
            }
            return NamedTypeDef(
                kind: .inputObject, name: node.name.value, description: node.description?.value, inputFields: fields,
                directives: directives, location: location(node.name.span, file), extensionLocations: extensionLocations
            )
        case .operation, .fragment, .schema, .directive:
            return nil
        }
    }

    /// `map` hands each node over borrowed and builds the array in place: no copies.
    private func fieldDefs(_ nodes: [FieldDefinition], _ file: SourceFile) -> [FieldDef] {
        nodes.map { field($0, file) }
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
