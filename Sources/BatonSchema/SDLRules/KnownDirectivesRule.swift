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
        // Apollo's client directives the schema does not declare itself: one warning per name and
        // file, at the first use, saying what Baton does with them.
        let declared = Set(
            context.index.directivePositions.compactMap { position -> String? in
                guard case .directive(let node) = context.definitions[position].definition else { return nil }
                return node.name.value
            })
        var apolloUses: [String: (first: DirectiveUse, count: Int)] = [:]
        var apolloOrder: [String] = []
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
            if BuiltIns.apolloDirectiveMeaning[name] != nil && !declared.contains(name) {
                let key = use.file.path + "\u{0}" + name
                if let seen = apolloUses[key] {
                    apolloUses[key] = (seen.first, seen.count + 1)
                } else {
                    apolloUses[key] = (use, 1)
                    apolloOrder.append(key)
                }
            }
        }
        for key in apolloOrder {
            guard let (use, count) = apolloUses[key] else { continue }
            context.report(
                apolloDirective(use.directive.name.value, count: count), rule: apolloRule, file: use.file,
                span: use.directive.span, severity: .warning)
        }
    }

    /// The id of the warning at Apollo's client directives.
    static let apolloRule = "apollo-client-directives"

    static func apolloDirective(_ name: String, count: Int) -> String {
        let uses = count == 1 ? "" : " (\(count) uses in this file)"
        return
            "@\(name) is an Apollo client directive: Baton knows it, so the project loads, and does not act on it\(uses): \(BuiltIns.apolloDirectiveMeaning[name] ?? ""). Docs/Migrating.md maps it to Baton's way."
    }

    static func unknownDirective(_ name: String) -> String { "Unknown directive \"@\(name)\"." }
    static func misplaced(_ name: String, _ location: String) -> String {
        "Directive \"@\(name)\" may not be used on \(location)."
    }
}
