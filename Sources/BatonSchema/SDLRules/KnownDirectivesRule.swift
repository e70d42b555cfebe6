import BatonDiagnostics
import BatonSyntax

/// Known directives: every directive applied in the SDL is defined (by the schema, the spec,
/// or Baton) and allowed where it is used. Spec: "Directives Are Defined", "Directives Are In
/// Valid Locations". graphql-js: `KnownDirectivesRule` (which knows neither `@oneOf`, new in
/// the spec after graphql-js 16.6, nor Baton's directives).
struct KnownDirectivesRule: SDLRule {
    static let id = "known-directives"

    static func check(_ context: SDLValidationContext) {
        let known = context.knownDirectives
        for use in context.directiveUses {
            let name = use.directive.name.value
            guard let directive = known[name] else {
                context.report(unknownDirective(name), rule: id, file: use.file, span: use.directive.span)
                continue
            }
            if !directive.locations.contains(use.location.rawValue) {
                context.report(
                    misplaced(name, use.location.rawValue), rule: id, file: use.file, span: use.directive.span)
            }
        }
    }

    static func unknownDirective(_ name: String) -> String { "Unknown directive \"@\(name)\"." }
    static func misplaced(_ name: String, _ location: String) -> String {
        "Directive \"@\(name)\" may not be used on \(location)."
    }
}
