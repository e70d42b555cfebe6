import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// The response paths of one operation or fragment, collected during the walk for the rules
/// that compare selections of the same path (`required-field-mismatch`,
/// `required-action-mismatch`, `required-missing-in-parent`, `catch-conflict`).
///
/// A path is `ResponsePath`, the one notion the lens model groups by too: the chain of response
/// keys from the definition's root (so aliases are distinct paths). Inline fragments add no step
/// (the response has no level for them), so a field inside `... on User` and the same key beside
/// it are one field, and a field's children include those selected through inline fragments in
/// it. Fragment spreads are not followed: each fragment is its own scope, checked where it is
/// defined.
package final class ResponsePathTracker {
    /// One selection of a field.
    package struct FieldSelection {
        package let path: ResponsePath
        package let field: Field
        package let required: RequiredUse?
        package let catchUse: CatchUse?
    }

    /// One selection set at a path: a field's (or the definition's own, at the root).
    package struct ParentSelection {
        package let path: ResponsePath
        /// Where to point at it: the field's name, or the definition's.
        package let anchor: Span
        /// The response keys selected inside (directly, or through inline fragments).
        package var childKeys: Set<String> = []
        /// The `@required` fields among them, in order.
        package var requiredChildren: [FieldSelection] = []
    }

    package private(set) var fields: [FieldSelection] = []
    package private(set) var parents: [ParentSelection] = []
    /// The parent selection of each open field (and the root, first).
    private var scopes: [Int] = []
    /// Whether any field of the definition has `@required` or `@catch` (otherwise nothing to compare).
    package private(set) var usesBatonDirectives = false

    package init() {}

    /// Starts a definition: its root selection set is the first parent.
    package func begin(anchor: Span) {
        fields.removeAll(keepingCapacity: true)
        parents = [ParentSelection(path: ResponsePath(), anchor: anchor)]
        scopes = [0]
        usesBatonDirectives = false
    }

    package func enterField(_ node: Field) {
        guard let scope = scopes.last else { return }
        let path = parents[scope].path.appending(.of(node))
        let selection = FieldSelection(
            path: path, field: node, required: BatonDirectives.required(in: node.directives),
            catchUse: BatonDirectives.catch(in: node.directives))
        if selection.required != nil || selection.catchUse != nil { usesBatonDirectives = true }
        fields.append(selection)
        parents[scope].childKeys.insert(node.responseKey)
        if selection.required != nil { parents[scope].requiredChildren.append(selection) }
        parents.append(ParentSelection(path: path, anchor: node.name.span))
        scopes.append(parents.count - 1)
    }

    package func leaveField() { scopes.removeLast() }

    /// Groups of selections of one path (in document order), for paths selected more than once.
    package func repeatedFields() -> [[FieldSelection]] { Self.repeated(fields, \.path) }
    package func repeatedParents() -> [[ParentSelection]] { Self.repeated(parents, \.path) }

    private static func repeated<T>(_ items: [T], _ key: (T) -> ResponsePath) -> [[T]] {
        var order: [ResponsePath] = []
        var groups: [ResponsePath: [T]] = [:]
        for item in items {
            let path = key(item)
            if groups[path] == nil { order.append(path) }
            groups[path, default: []].append(item)
        }
        return order.compactMap { path in groups[path].flatMap { $0.count > 1 ? $0 : nil } }
    }
}

/// The walker hooks that feed a `ResponsePathTracker`, shared by the rules that use one.
package protocol ResponsePathRule: ValidationRule {
    var tracker: ResponsePathTracker { get }
    /// Called when an operation or fragment has been walked.
    func check()
}

extension ResponsePathRule {
    package static var hooks: ValidationHooks { [.operation, .fragment, .field] }

    package func enterOperation(_ node: OperationDefinition) {
        tracker.begin(anchor: BatonDirectives.headSpan(of: node))
    }
    package func leaveOperation(_ node: OperationDefinition) { if tracker.usesBatonDirectives { check() } }
    package func enterFragment(_ node: FragmentDefinition) { tracker.begin(anchor: node.name.span) }
    package func leaveFragment(_ node: FragmentDefinition) { if tracker.usesBatonDirectives { check() } }
    package func enterField(_ node: Field) { tracker.enterField(node) }
    package func leaveField(_ node: Field) { tracker.leaveField() }
}
