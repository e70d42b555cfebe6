import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@required` actions do not weaken inward.
///
/// A `@required` field's null makes its parent null. When the parent is `@required` too (the
/// nearest enclosing field, passing through inline fragments but not fragment spreads), that
/// null then gets the parent's action, so a child with a less severe action (`NONE < LOG <
/// THROW`) never gets its own: the parent's action should be lowered to the child's. Reported
/// on the parent's action. Baton.
package final class RequiredActionSeverityRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "required-action-severity", title: "@required actions do not weaken inward.",
        summary: "A @required field's action must not be less severe (NONE < LOG < THROW) than its @required child's.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.operation, .fragment, .field, .fieldPerDefinition]
    package let context: ValidationContext
    /// For each open field: its `@required`, and the `@required` fields selected directly in it.
    private var frames: [(required: RequiredUse?, children: [(Field, RequiredUse)])] = []
    /// Whether the definition being walked may use `@required` (`currentDefinitionMayUseRequired`): without
    /// it, nothing is kept or looked at.
    private var active = false

    package init(context: ValidationContext) { self.context = context }
    package var fieldHooksActive: Bool { active }

    override package func enterOperation(_ node: OperationDefinition) { begin() }
    override package func enterFragment(_ node: FragmentDefinition) { begin() }

    private func begin() {
        active = context.currentDefinitionMayUseRequired
        frames = active ? [(nil, [])] : []
    }

    override package func enterField(_ node: Field) {
        guard active else { return }
        let required = BatonDirectives.required(in: node.directives)
        if let required, !frames.isEmpty { frames[frames.count - 1].children.append((node, required)) }
        frames.append((required, []))
    }

    override package func leaveField(_ node: Field) {
        guard active, let frame = frames.popLast(), let parent = frame.required, let parentAction = parent.action else {
            return
        }
        // The least severe child decides the suggestion; every weaker child is a note.
        let weaker = frame.children.filter { ($0.1.action ?? parentAction) < parentAction }
        guard let suggested = weaker.compactMap({ $0.1.action }).min() else { return }
        diagnose(
            Self.message(node.name.value, action: parentAction, suggested: suggested), at: parent.actionSpan,
            notes: weaker.map {
                note(Self.noteMessage($0.0.name.value, action: $0.1.action ?? suggested), at: $0.1.actionSpan)
            })
    }
}

extension RequiredActionSeverityRule {
    static func message(_ field: String, action: RequiredAction, suggested: RequiredAction) -> String {
        "A @required field may not have an action less severe than that of its @required parent: field \"\(field)\" should probably have action: \(suggested.rawValue), not \(action.rawValue)."
    }
    static func noteMessage(_ field: String, action: RequiredAction) -> String {
        "the child field \"\(field)\" has action: \(action.rawValue)"
    }
}
