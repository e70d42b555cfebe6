import BatonDiagnostics
import BatonSyntax

/// Unique argument names: a directive applied in the SDL is given each argument once.
/// Spec: "Argument Uniqueness". graphql-js: `UniqueArgumentNamesRule`.
struct UniqueArgumentNamesRule: SDLRule {
    static let id = "unique-argument-names"

    static func check(_ context: SDLValidationContext) {
        for use in context.directiveUses
        where use.directive.arguments.count > 1 && hasDuplicateNames(use.directive.arguments.lazy.map(\.name.value)) {
            var groups: [String: [Name]] = [:]
            var order: [String] = []
            for argument in use.directive.arguments {
                if groups[argument.name.value] == nil { order.append(argument.name.value) }
                groups[argument.name.value, default: []].append(argument.name)
            }
            for name in order {
                guard let names = groups[name], names.count > 1 else { continue }
                context.report(
                    onlyOne(name), rule: id, file: use.file, span: names[0].span,
                    notes: names.dropFirst().map { ("Also given here.", use.file, $0.span) })
            }
        }
    }

    static func onlyOne(_ name: String) -> String { "There can be only one argument named \"\(name)\"." }
}
