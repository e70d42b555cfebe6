import BatonDiagnostics
import BatonSyntax

/// Known type names: every type the SDL refers to is defined in it or is a built-in scalar or
/// introspection type. Spec: "Types". graphql-js: `KnownTypeNamesRule`.
struct KnownTypeNamesRule: SDLRule {
    static let id = "known-type-names"

    static func check(_ context: SDLValidationContext) {
        let defined = context.definedTypeNameSet
        var suggestionPool: [String]?
        func check(_ named: NamedType, _ file: SourceFile) {
            let name = named.name.value
            if defined.contains(name) || BuiltIns.isStandardType(name) { return }
            if suggestionPool == nil { suggestionPool = BuiltIns.standardTypeNames + context.definedTypeNames }
            let suggestions = Suggestions.list(name, suggestionPool ?? [])
            context.report(
                unknownType(name) + Suggestions.didYouMean(suggestions), rule: id, file: file, span: named.span)
        }
        func check(_ reference: TypeReference, _ file: SourceFile) { check(reference.namedType, file) }
        func check(_ arguments: [InputValueDefinition], _ file: SourceFile) {
            for argument in arguments { check(argument.type, file) }
        }
        func check(_ fields: [FieldDefinition], _ file: SourceFile) {
            for field in fields {
                check(field.arguments, file)
                check(field.type, file)
            }
        }
        for located in context.definitions {
            let file = located.file
            switch located.definition {
            case .schema(let node):
                for operationType in node.operationTypes { check(operationType.type, file) }
            case .object(let node):
                for interface in node.interfaces { check(interface, file) }
                check(node.fields, file)
            case .interface(let node):
                for interface in node.interfaces { check(interface, file) }
                check(node.fields, file)
            case .union(let node):
                for member in node.types { check(member, file) }
            case .inputObject(let node):
                check(node.fields, file)
            case .directive(let node):
                check(node.arguments, file)
            case .scalar, .enumType, .operation, .fragment:
                break
            }
        }
    }

    static func unknownType(_ name: String) -> String { "Unknown type \"\(name)\"." }
}
