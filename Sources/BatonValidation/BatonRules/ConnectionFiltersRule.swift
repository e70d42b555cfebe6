import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// A connection's filters name arguments the field is given, and never a paging argument.
///
/// The filter values are the connection record's identity beside its key: `issues(states:
/// [OPEN])` and `issues(states: [CLOSED])` are two connections. A filter must be a string
/// literal naming an argument the field is given; `first`, `last`, `after` and `before` page
/// the connection and are never part of it. Without `filters:`, every non-paging argument the
/// field is given is a filter. Reported at the filter. Baton, after Relay.
package final class ConnectionFiltersRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "connection-filters", title: "Connection filters name non-paging arguments the field is given.",
        summary:
            "@connection(filters:) lists string literals, each an argument the field is given other than first, last, after and before.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard let connection = BatonDirectives.connection(in: node.directives),
            let argument = connection.filtersArgument
        else { return }
        if connection.filtersMalformed {
            diagnose(Self.notLiterals, at: argument.value.span)
            return
        }
        let given = Set(node.arguments.map(\.name.value))
        for (name, span) in connection.filters ?? [] {
            if ConnectionInterface.pagingArguments.contains(name) {
                diagnose(Self.paging(name, field: node.name.value), at: span)
            } else if !given.contains(name) {
                diagnose(Self.notGiven(name, field: node.name.value), at: span)
            }
        }
    }
}

extension ConnectionFiltersRule {
    static let notLiterals =
        "The filters of @connection must be a list of string literals naming the field's arguments."

    static func paging(_ name: String, field: String) -> String {
        "The filter \"\(name)\" of @connection on \"\(field)\" is a paging argument: a connection's identity never includes first, last, after or before."
    }

    static func notGiven(_ name: String, field: String) -> String {
        "The filter \"\(name)\" of @connection on \"\(field)\" is not an argument the field is given."
    }
}
