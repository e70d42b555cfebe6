import BatonDiagnostics
import BatonSyntax

/// Unique argument definition names: a field or directive defines each argument once.
/// Spec: "Field Arguments", "Directives". graphql-js: `UniqueArgumentDefinitionNamesRule`.
struct UniqueArgumentDefinitionNamesRule: SDLRule {
    static let id = "unique-argument-definition-names"

    static func check(_ context: SDLValidationContext) {
        func check(_ parent: String, _ arguments: [InputValueDefinition], _ file: SourceFile) {
            guard arguments.count > 1, hasDuplicateNames(arguments.lazy.map(\.name.value)) else { return }
            var groups: [String: [Name]] = [:]
            var order: [String] = []
            for argument in arguments {
                if groups[argument.name.value] == nil { order.append(argument.name.value) }
                groups[argument.name.value, default: []].append(argument.name)
            }
            for name in order {
                guard let names = groups[name], names.count > 1 else { continue }
                context.report(
                    onlyOnce(parent, name), rule: id, file: file, span: names[0].span,
                    notes: names.dropFirst().map { ("Also defined here.", file, $0.span) })
            }
        }
        for located in context.definitions {
            switch located.definition {
            case .directive(let node):
                check("@\(node.name.value)", node.arguments, located.file)
            case .object(let node):
                for field in node.fields { check("\(node.name.value).\(field.name.value)", field.arguments, located.file) }
            case .interface(let node):
                for field in node.fields { check("\(node.name.value).\(field.name.value)", field.arguments, located.file) }
            default: break
            }
        }
    }

    static func onlyOnce(_ parent: String, _ argument: String) -> String {
        "Argument \"\(parent)(\(argument):)\" can only be defined once."
    }
}
