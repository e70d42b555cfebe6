import BatonDiagnostics
import BatonSyntax

/// Provided required arguments on directives: a directive applied in the SDL is given every
/// non-null argument that has no default. Spec: "Required Arguments".
/// graphql-js: `ProvidedRequiredArgumentsOnDirectivesRule`.
struct ProvidedRequiredArgumentsOnDirectivesRule: SDLRule {
    static let id = "provided-required-arguments-on-directives"

    static func check(_ context: SDLValidationContext) {
        let known = context.knownDirectives
        for use in context.directiveUses {
            let name = use.directive.name.value
            guard let directive = known[name], !directive.requiredArguments.isEmpty else { continue }
            for required in directive.requiredArguments
            where !use.directive.arguments.contains(where: { $0.name.value == required.name }) {
                context.report(
                    missing(name, required.name, required.type), rule: id, file: use.file, span: use.directive.span)
            }
        }
    }

    static func missing(_ directive: String, _ argument: String, _ type: String) -> String {
        "Directive \"@\(directive)\" argument \"\(argument)\" of type \"\(type)\" is required, but it was not provided."
    }
}
