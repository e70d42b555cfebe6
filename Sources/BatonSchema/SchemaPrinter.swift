import BatonDiagnostics
import BatonSyntax

/// Prints a built schema as SDL through BatonSyntax's `Printer` (graphql-js's `print`), sorted as graphql-js's
/// `lexicographicSortSchema` sorts it: directives, types, fields, arguments, input fields, enum values,
/// interfaces and union members by name, so the same schema always prints the same bytes whatever order the
/// server listed it in.
///
/// Left out, as graphql-js's `printSchema` leaves them out: the built-in scalars, the introspection types, the
/// spec's directives, and Baton's own directives and their enums (every Baton schema knows them). The `schema`
/// block is printed only when the root types are not named `Query`, `Mutation` and `Subscription`.
package enum SchemaPrinter {
    package static func print(_ schema: GraphQLSchema) -> String {
        var definitions: [Definition] = []
        if let block = schemaDefinition(schema) { definitions.append(.schema(block)) }
        let hidden = Set(BuiltIns.specifiedDirectiveNames + BuiltIns.batonDirectiveNames)
        for directive in schema.directives.values.sorted(by: { $0.name < $1.name })
        where !hidden.contains(directive.name) {
            definitions.append(
                .directive(
                    DirectiveDefinition(
                        description: description(directive.description), name: name(directive.name),
                        arguments: inputValues(directive.arguments), isRepeatable: directive.isRepeatable,
                        locations: directive.locations.map { name($0.rawValue) }, span: .zero)))
        }
        let hiddenTypes = BuiltIns.standardTypeNameSet.union(BuiltIns.batonTypeNames)
        for type in schema.types.list.sorted(by: { $0.name < $1.name }) where !hiddenTypes.contains(type.name) {
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
                    description: text, name: name(type.name), interfaces: type.interfaces.sorted().map(named),
                    directives: directives, fields: fields(type.fields), isExtension: false, span: .zero))
        case .interface:
            return .interface(
                InterfaceTypeDefinition(
                    description: text, name: name(type.name), interfaces: type.interfaces.sorted().map(named),
                    directives: directives, fields: fields(type.fields), isExtension: false, span: .zero))
        case .union:
            return .union(
                UnionTypeDefinition(
                    description: text, name: name(type.name), directives: directives,
                    types: type.unionMembers.sorted().map(named), isExtension: false, span: .zero))
        case .enumType:
            let values = type.enumValues.sorted { $0.name < $1.name }.map { value in
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
        fields.sorted { $0.name < $1.name }.map { field in
            FieldDefinition(
                description: description(field.description), name: name(field.name),
                arguments: inputValues(field.arguments), type: reference(field.type),
                directives: withDeprecation(field.directives, field.deprecationReason), span: .zero)
        }
    }

    private static func inputValues(_ values: [InputValue]) -> [InputValueDefinition] {
        values.sorted { $0.name < $1.name }.map { value in
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
        text.map { StringValue(value: $0, isBlock: true, span: .zero) }
    }

    private static func name(_ text: String) -> Name { Name(text, span: .zero) }
    private static func named(_ text: String) -> NamedType { NamedType(name: name(text)) }
}
