import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// A `@refetchable` fragment pages at most one connection, by variables, outside any list.
///
/// The generated pagination query sets the count and the cursor of the fragment's connection,
/// so the connection takes them from variables (`first: $count, after: $cursor`, or `last:` and
/// `before:`), is the fragment's only `@connection`, and is reached from the fragment's record
/// without passing through a list (one connection per fragment record). Reported at the
/// argument, the field or the second connection. Baton, after Relay's `usePaginationFragment`.
package final class RefetchablePaginationRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "refetchable-pagination", title: "A @refetchable fragment pages one connection by variables.",
        summary:
            "Its one @connection takes count and cursor from variables and is not inside a list.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.operation, .fragment, .field, .fieldPerDefinition]
    package let context: ValidationContext
    /// Inside a `@refetchable` fragment.
    private var inRefetchable = false
    /// The first connection of the fragment, for the note.
    private var firstConnection: Span?
    /// For each enclosing field, whether its type is a list.
    private var lists: [Bool] = []

    package init(context: ValidationContext) { self.context = context }
    package var fieldHooksActive: Bool { inRefetchable }

    override package func enterOperation(_ node: OperationDefinition) { inRefetchable = false }

    override package func enterFragment(_ node: FragmentDefinition) {
        inRefetchable = BatonDirectives.refetchable(in: node.directives) != nil
        firstConnection = nil
        lists = []
    }

    override package func enterField(_ node: Field) {
        // Only a `@refetchable` fragment is looked at (set for the whole definition, so enter and leave pair up).
        guard inRefetchable else { return }
        defer { lists.append(context.fieldDef?.type.isList ?? false) }
        guard BatonDirectives.connection(in: node.directives) != nil else { return }
        if let first = firstConnection {
            diagnose(Self.second, at: node.name.span, notes: [note("The first connection is here.", at: first)])
            return
        }
        firstConnection = node.name.span
        if lists.contains(true) { diagnose(Self.insideList(node.name.value), at: node.name.span) }
        let arguments = Dictionary(node.arguments.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        for (count, cursor) in [
            (ConnectionInterface.first, ConnectionInterface.after),
            (ConnectionInterface.last, ConnectionInterface.before),
        ] {
            guard let countArgument = arguments[count] else { continue }
            for (name, argument) in [(count, countArgument), (cursor, arguments[cursor])] {
                guard let argument else {
                    diagnose(
                        Self.missingCursor(node.name.value, count: count, cursor: cursor), at: countArgument.name.span)
                    continue
                }
                if case .variable = argument.value { continue }
                diagnose(Self.notAVariable(node.name.value, argument: name), at: argument.value.span)
            }
        }
    }

    override package func leaveField(_ node: Field) { if inRefetchable { _ = lists.popLast() } }
}

extension RefetchablePaginationRule {
    static let second =
        "A @refetchable fragment pages one connection; this is its second @connection. Split it into fragments of their own."

    static func insideList(_ field: String) -> String {
        "The connection \"\(field)\" of a @refetchable fragment must not be inside a list: the pagination query pages one connection per record."
    }

    static func missingCursor(_ field: String, count: String, cursor: String) -> String {
        "The connection \"\(field)\" of a @refetchable fragment must be given \"\(cursor)\" beside \"\(count)\" (\(count): $count, \(cursor): $cursor) so the pagination query can page it."
    }

    static func notAVariable(_ field: String, argument: String) -> String {
        "The \"\(argument)\" of the connection \"\(field)\" in a @refetchable fragment must be a variable, so the pagination query can set it."
    }
}
