import BatonDiagnostics
import BatonSyntax

/// Prints a built schema as SDL through BatonSyntax's `Printer` (graphql-js's `print`), sorted as graphql-js's
/// `lexicographicSortSchema` sorts it: directives, their locations, types, fields, arguments, input fields, enum
/// values, interfaces and union members in graphql-js's natural order (`naturalCompare`: runs of digits compare
/// as numbers), so the same schema always prints the same bytes whatever order the server listed it in.
/// Descriptions are block strings where graphql-js's `isPrintableAsBlockString` allows, as its `printSchema`
/// prints them: the result is graphql-js's `print(parse(printSchema(lexicographicSortSchema(schema))))`, which
/// `SchemaPrinterDifferentialTests` checks.
///
/// Left out, as graphql-js's `printSchema` leaves them out: the built-in scalars, the introspection types, the
/// spec's directives, and Baton's own directives and their enums (every Baton schema knows them). The `schema`
/// block is printed only when the root types are not named `Query`, `Mutation` and `Subscription`.
package enum SchemaPrinter {
    package static func print(_ schema: GraphQLSchema) -> String {
        var definitions: [Definition] = []
        if let block = schemaDefinition(schema) { definitions.append(.schema(block)) }
        let hidden = Set(BuiltIns.knownDirectiveNames)
        for directive in schema.directives.values.sorted(by: { precedes($0.name, $1.name) })
        where !hidden.contains(directive.name) {
            definitions.append(
                .directive(
                    DirectiveDefinition(
                        description: description(directive.description), name: name(directive.name),
                        arguments: inputValues(directive.arguments), isRepeatable: directive.isRepeatable,
                        locations: directive.locations.map(\.rawValue).sorted(by: precedes).map(name), span: .zero)))
        }
        let hiddenTypes = BuiltIns.standardTypeNameSet.union(BuiltIns.batonTypeNames)
        for type in schema.types.list.sorted(by: { precedes($0.name, $1.name) }) where !hiddenTypes.contains(type.name)
        {
            definitions.append(definition(type))
        }
        return Printer.print(
            Document(source: SourceFile(path: "<schema>", text: ""), definitions: definitions, span: .zero))
            + "\n"
    }

    private static func schemaDefinition(_ schema: GraphQLSchema) -> SchemaDefinition? {
        let roots: [(OperationType, String?, String)] = [
            (.query, schema.queryTypeName, "Query"), (.mutation, schema.mutationTypeName, "Mutation"),
            (.subscription, schema.subscriptionTypeName, "Subscription"),
        ]
        let conventional = roots.allSatisfy { $0.1 == nil || $0.1 == $0.2 }
        if conventional && schema.description == nil { return nil }
        return SchemaDefinition(
            description: description(schema.description), directives: [],
            operationTypes: roots.compactMap { operation, type, _ in
                type.map { OperationTypeDefinition(operation: operation, type: named($0), span: .zero) }
            }, isExtension: false, span: .zero)
    }

    private static func definition(_ type: NamedTypeDef) -> Definition {
        let text = description(type.description)
        let directives = type.directives.map(\.node)
        switch type.kind {
        case .scalar:
            return .scalar(
                ScalarTypeDefinition(
                    description: text, name: name(type.name), directives: directives, isExtension: false, span: .zero))
        case .object:
            return .object(
                ObjectTypeDefinition(
                    description: text, name: name(type.name),
                    interfaces: type.interfaces.sorted(by: precedes).map(named),
                    directives: directives, fields: fields(type.fields), isExtension: false, span: .zero))
        case .interface:
            return .interface(
                InterfaceTypeDefinition(
                    description: text, name: name(type.name),
                    interfaces: type.interfaces.sorted(by: precedes).map(named),
                    directives: directives, fields: fields(type.fields), isExtension: false, span: .zero))
        case .union:
            return .union(
                UnionTypeDefinition(
                    description: text, name: name(type.name), directives: directives,
                    types: type.unionMembers.sorted(by: precedes).map(named), isExtension: false, span: .zero))
        case .enumType:
            let values = type.enumValues.sorted { precedes($0.name, $1.name) }.map { value in
                EnumValueDefinition(
                    description: description(value.description), name: name(value.name),
                    directives: withDeprecation(value.directives, value.deprecationReason), span: .zero)
            }
            return .enumType(
                EnumTypeDefinition(
                    description: text, name: name(type.name), directives: directives, values: values,
                    isExtension: false, span: .zero))
        case .inputObject:
            return .inputObject(
                InputObjectTypeDefinition(
                    description: text, name: name(type.name), directives: directives,
                    fields: inputValues(type.inputFields), isExtension: false, span: .zero))
        }
    }

    private static func fields(_ fields: [FieldDef]) -> [FieldDefinition] {
        fields.sorted { precedes($0.name, $1.name) }.map { field in
            FieldDefinition(
                description: description(field.description), name: name(field.name),
                arguments: inputValues(field.arguments), type: reference(field.type),
                directives: withDeprecation(field.directives, field.deprecationReason), span: .zero)
        }
    }

    private static func inputValues(_ values: [InputValue]) -> [InputValueDefinition] {
        values.sorted { precedes($0.name, $1.name) }.map { value in
            InputValueDefinition(
                description: description(value.description), name: name(value.name), type: reference(value.type),
                defaultValue: value.defaultValue,
                directives: withDeprecation(value.directives, value.deprecationReason), span: .zero)
        }
    }

    /// The element's directives with `@deprecated` spelled from its reason when the directives lack it (an
    /// introspection result carries the reason, not the directive); the default reason prints bare.
    private static func withDeprecation(_ directives: [AppliedDirective], _ reason: String?) -> [Directive] {
        var nodes = directives.map(\.node)
        guard let reason, !nodes.contains(where: { $0.name.value == "deprecated" }) else { return nodes }
        let arguments =
            reason == BuiltIns.defaultDeprecationReason
            ? []
            : [
                Argument(
                    name: name("reason"), value: .string(StringValue(value: reason, isBlock: false, span: .zero)),
                    span: .zero)
            ]
        nodes.append(Directive(name: name("deprecated"), arguments: arguments, span: .zero))
        return nodes
    }

    private static func reference(_ type: TypeRef) -> TypeReference {
        switch type {
        case .named(let name): .named(named(name))
        case .list(let inner): .list(reference(inner), .zero)
        case .nonNull(let inner): .nonNull(reference(inner), .zero)
        }
    }

    private static func description(_ text: String?) -> StringValue? {
        text.map { StringValue(value: $0, isBlock: isPrintableAsBlockString($0), span: .zero) }
    }

    /// graphql-js 16's `isPrintableAsBlockString`, case for case (it lets 0x10–0x1F through, as graphql-js does).
    static func isPrintableAsBlockString(_ value: String) -> Bool {
        if value.isEmpty { return true }
        var isEmptyLine = true
        var hasIndent = false
        var hasCommonIndent = true
        var seenNonEmptyLine = false
        for unit in value.utf16 {
            switch unit {
            case 0x00...0x08, 0x0B, 0x0C, 0x0E, 0x0F, 0x0D: return false
            case 0x0A:
                if isEmptyLine && !seenNonEmptyLine { return false }  // a leading newline
                seenNonEmptyLine = true
                isEmptyLine = true
                hasIndent = false
            case 0x09, 0x20:
                hasIndent = hasIndent || isEmptyLine
            default:
                hasCommonIndent = hasCommonIndent && hasIndent
                isEmptyLine = false
            }
        }
        if isEmptyLine { return false }  // trailing empty lines
        if hasCommonIndent && seenNonEmptyLine { return false }  // an indent on every line
        return true
    }

    /// graphql-js's `naturalCompare(a, b) < 0`: runs of digits compare by value, everything else by code unit.
    static func precedes(_ a: String, _ b: String) -> Bool { naturalCompare(Array(a.utf16), Array(b.utf16)) < 0 }

    private static func naturalCompare(_ a: [UInt16], _ b: [UInt16]) -> Int {
        func isDigit(_ unit: UInt16?) -> Bool { unit.map { (48...57).contains($0) } ?? false }
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            var x: UInt16? = a[i]
            var y: UInt16? = b[j]
            if isDigit(x) && isDigit(y) {
                // graphql-js's loops, with its stop at a leading zero; wrapping where JavaScript would round.
                var left = 0
                repeat {
                    i += 1
                    left = left &* 10 &+ Int(x ?? 48) &- 48
                    x = i < a.count ? a[i] : nil
                } while isDigit(x) && left > 0
                var right = 0
                repeat {
                    j += 1
                    right = right &* 10 &+ Int(y ?? 48) &- 48
                    y = j < b.count ? b[j] : nil
                } while isDigit(y) && right > 0
                if left != right { return left < right ? -1 : 1 }
            } else {
                if let x, let y, x != y { return x < y ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        return a.count - b.count
    }

    private static func name(_ text: String) -> Name { Name(text, span: .zero) }
    private static func named(_ text: String) -> NamedType { NamedType(name: name(text)) }
}
