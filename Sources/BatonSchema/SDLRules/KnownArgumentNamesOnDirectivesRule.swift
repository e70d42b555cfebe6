import BatonDiagnostics
import BatonSyntax

/// Known argument names on directives: a directive applied in the SDL is given only the
/// arguments it defines. Spec: "Argument Names". graphql-js: `KnownArgumentNamesOnDirectivesRule`.
struct KnownArgumentNamesOnDirectivesRule: SDLRule {
    static let id = "known-argument-names-on-directives"

    static func check(_ context: SDLValidationContext) {
        let known = context.knownDirectives
        for use in context.directiveUses {
            let name = use.directive.name.value
            guard let directive = known[name] else { continue }
            for argument in use.directive.arguments where !directive.argumentNames.contains(argument.name.value) {
                let suggestions = Suggestions.list(argument.name.value, directive.argumentNames)
                context.report(
                    unknownArgument(argument.name.value, name) + Suggestions.didYouMean(suggestions), rule: id,
                    file: use.file, span: argument.span)
            }
        }
    }

    static func unknownArgument(_ argument: String, _ directive: String) -> String {
        "Unknown argument \"\(argument)\" on directive \"@\(directive)\"."
    }
}
