import BatonDiagnostics
import BatonSyntax

/// Unique argument definition names: a field or directive defines each argument once.
/// Spec: "Field Arguments", "Directives". graphql-js: `UniqueArgumentDefinitionNamesRule`.
struct UniqueArgumentDefinitionNamesRule: SDLRule {
    static let id = "unique-argument-definition-names"

    static func check(_ context: SDLValidationContext) {
        // The scan lists the argument lists with a repeated name.
        for (parent, arguments, file) in context.scan.repeatedArguments {
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
    }

    static func onlyOnce(_ parent: String, _ argument: String) -> String {
        "Argument \"\(parent)(\(argument):)\" can only be defined once."
    }
}
