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
///
/// One tracker serves all four rules: the walker feeds it (`ValidationContext.responsePaths`)
/// once per field, whichever of the rules run. The walk records only positions (which parent
/// each field is in); paths, child keys and the Baton directives of each selection are worked
/// out when a rule first asks, which is only for definitions that use `@required` or `@catch`
/// at all (most do not).
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

    /// A field as the walk records it: the parent (index of the enclosing field's record plus
    /// one, 0 for the root) whose selection set holds it.
    private struct RecordedField {
        let scope: Int32
        let field: Field
    }

    /// What the walk records, in memory the tracker owns rather than in stored properties: the
    /// walker updates it at every field, and each access to a class's stored `var` pays a
    /// dynamic exclusivity check (as `ValidationContext.info`).
    private struct Recording {
        var fields: [RecordedField] = []
        var rootAnchor = Span.zero
        /// The parent selection each open scope adds to.
        var scopes: [Int32] = []
        var usesBatonDirectives = false
        /// The selections with their paths, worked out on first use after the walk of a definition.
        var worked: (fields: [FieldSelection], parents: [ParentSelection])?
    }

    private let recording: UnsafeMutablePointer<Recording>

    package init() {
        recording = UnsafeMutablePointer<Recording>.allocate(capacity: 1)
        recording.initialize(to: Recording())
    }

    deinit {
        recording.deinitialize(count: 1)
        recording.deallocate()
    }

    /// Whether any field of the definition has `@required` or `@catch` (otherwise nothing to compare).
    package var usesBatonDirectives: Bool { recording.pointee.usesBatonDirectives }
    /// Every field selection of the definition, in document order.
    package var fields: [FieldSelection] { work().fields }
    /// Every parent selection of the definition (the root first, then one per field), in document order.
    package var parents: [ParentSelection] { work().parents }

    /// Starts a definition: its root selection set is the first parent.
    package func begin(anchor: Span) {
        recording.pointee.fields.removeAll(keepingCapacity: true)
        recording.pointee.rootAnchor = anchor
        recording.pointee.scopes.removeAll(keepingCapacity: true)
        recording.pointee.scopes.append(0)
        recording.pointee.usesBatonDirectives = false
        recording.pointee.worked = nil
    }

    package func enterField(_ node: Field) {
        guard let scope = recording.pointee.scopes.last else { return }
        if !recording.pointee.usesBatonDirectives && !node.directives.isEmpty
            && (BatonDirectives.first(BatonDirectives.required, in: node.directives) != nil
                || BatonDirectives.first(BatonDirectives.catch, in: node.directives) != nil)
        {
            recording.pointee.usesBatonDirectives = true
        }
        recording.pointee.fields.append(RecordedField(scope: scope, field: node))
        // The field's own selection set is parent number (its index + 1).
        recording.pointee.scopes.append(Int32(recording.pointee.fields.count))
    }

    package func leaveField() { recording.pointee.scopes.removeLast() }

    /// Groups of selections of one path (in document order), for paths selected more than once.
    package func repeatedFields() -> [[FieldSelection]] { Self.repeated(fields, \.path) }
    package func repeatedParents() -> [[ParentSelection]] { Self.repeated(parents, \.path) }

    /// Paths, child keys and directives from what the walk recorded (a field is recorded before
    /// anything inside it, so each parent's path is known when its children need it).
    private func work() -> (fields: [FieldSelection], parents: [ParentSelection]) {
        if let worked = recording.pointee.worked { return worked }
        let recorded = recording.pointee.fields
        var parents: [ParentSelection] = []
        parents.reserveCapacity(recorded.count + 1)
        parents.append(ParentSelection(path: ResponsePath(), anchor: recording.pointee.rootAnchor))
        var fields: [FieldSelection] = []
        fields.reserveCapacity(recorded.count)
        for entry in recorded {
            let node = entry.field
            let scope = Int(entry.scope)
            let path = parents[scope].path.appending(.of(node))
            let selection = FieldSelection(
                path: path, field: node, required: BatonDirectives.required(in: node.directives),
                catchUse: BatonDirectives.catch(in: node.directives))
            fields.append(selection)
            parents[scope].childKeys.insert(node.responseKey)
            if selection.required != nil { parents[scope].requiredChildren.append(selection) }
            parents.append(ParentSelection(path: path, anchor: node.name.span))
        }
        recording.pointee.worked = (fields, parents)
        return (fields, parents)
    }

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

/// A rule that compares the selections of one response path: it reads the shared tracker the
/// walker keeps (`ValidationContext.responsePaths`) when an operation or fragment has been walked.
/// It derives from `ResponsePathRuleBase`, which overrides the two hooks and calls `check()`; nothing else
/// derives from that class, so the walker tells these rules by it (a class cast, not a protocol cast).
package protocol ResponsePathRule: ResponsePathRuleBase, ValidationRule {}

/// The hooks of a `ResponsePathRule`: after an operation or a fragment that uses `@required` or
/// `@catch`, `check()`.
package class ResponsePathRuleBase: ValidationRuleBase {
    /// The response paths of the definition just walked (the context's, which outlives the rule).
    package unowned(unsafe) let tracker: ResponsePathTracker

    package init(tracker: ResponsePathTracker) { self.tracker = tracker }

    /// Called when an operation or fragment that uses `@required` or `@catch` has been walked.
    package func check() {}

    override package func leaveOperation(_ node: OperationDefinition) { if tracker.usesBatonDirectives { check() } }
    override package func leaveFragment(_ node: FragmentDefinition) { if tracker.usesBatonDirectives { check() } }
}

extension ResponsePathRule {
    package static var hooks: ValidationHooks { [.operation, .fragment] }
}
