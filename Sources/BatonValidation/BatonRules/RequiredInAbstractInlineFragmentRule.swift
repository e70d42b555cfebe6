import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// No `@required` directly inside an inline fragment on an abstract type.
///
/// Inside `... on Node { … }` a field is absent both when the object is not of that type and
/// when it is null, and at run time the two cannot be told apart, so `@required` cannot decide
/// whether to act. Use an inline fragment on an object type, or move `@required` out. Baton.
package final class RequiredInAbstractInlineFragmentRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "required-in-abstract-inline-fragment", title: "No @required directly inside an abstract inline fragment.",
        summary:
            "Inside an inline fragment on an interface or union, a null cannot be told from a record of another type.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.operation, .fragment, .inlineFragment, .field, .fieldPerDefinition]
    package let context: ValidationContext
    /// For each open field or inline fragment: the abstract type an inline fragment names, if any.
    private var enclosing: [NamedTypeDef?] = []
    /// Whether the definition being walked may use `@required` (`currentDefinitionMayUseRequired`): without
    /// it, nothing is kept or looked at.
    private var active = false

    package init(context: ValidationContext) { self.context = context }
    package var fieldHooksActive: Bool { active }

    override package func enterOperation(_ node: OperationDefinition) { begin() }
    override package func enterFragment(_ node: FragmentDefinition) { begin() }

    private func begin() {
        enclosing = []
        active = context.currentDefinitionMayUseRequired
    }

    override package func enterInlineFragment(_ node: InlineFragment) {
        guard active else { return }
        var abstract: NamedTypeDef?
        if node.typeCondition != nil, let type = context.type?.named, type.isAbstract { abstract = type }
        enclosing.append(abstract)
    }
    override package func leaveInlineFragment(_ node: InlineFragment) { if active { _ = enclosing.popLast() } }

    override package func enterField(_ node: Field) {
        guard active else { return }
        if let type = enclosing.last ?? nil, let required = BatonDirectives.required(in: node.directives) {
            let kind = type.kind == .union ? "union" : "interface"
            diagnose(Self.message(node.name.value, type: type.name, kind: kind), at: required.directive.span)
        }
        enclosing.append(nil)
    }
    override package func leaveField(_ node: Field) { if active { _ = enclosing.popLast() } }
}

extension RequiredInAbstractInlineFragmentRule {
    static func message(_ field: String, type: String, kind: String) -> String {
        "Field \"\(field)\" may not be @required directly inside an inline fragment on the \(kind) \"\(type)\": a null cannot be told from an object of another type. Use an inline fragment on an object type."
    }
}
