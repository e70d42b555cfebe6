import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Fragment spread is possible.
///
/// A fragment may be spread only where its type condition can apply to the parent type: the
/// two types must share at least one possible object type.
/// Spec: 5.5.2.3 Fragment spread is possible.
package final class PossibleFragmentSpreadsRule: ValidationRuleBase, ValidationRule {
    package static let id = "possible-fragment-spreads"
    package static let hooks: ValidationHooks = [.inlineFragment, .fragmentSpread]
    package let context: ValidationContext
    /// `typesOverlap` answers by pair of types: two abstract types are compared through every
    /// possible type of one (hundreds for an interface like GitHub's `Node`), and documents
    /// repeat the same spreads.
    private var overlaps: [TypePair: Bool] = [:]
    /// By definition index: the schema's type named by the fragment's type condition, once looked up
    /// (`typeLookedUp`); a unit's spreads name the same fragments many times.
    @exclusivity(unchecked) private var fragmentTypes: [NamedTypeDef?] = []
    @exclusivity(unchecked) private var typeLookedUp: [Bool] = []
    package init(context: ValidationContext) { self.context = context }

    /// The schema's type named by the type condition of the fragment defined at `index`.
    private func type(ofFragment index: Int) -> NamedTypeDef? {
        if typeLookedUp.isEmpty {
            fragmentTypes = Array(repeating: nil, count: context.definitions.count)
            typeLookedUp = Array(repeating: false, count: context.definitions.count)
        }
        if typeLookedUp[index] { return fragmentTypes[index] }
        guard case .fragment(let node) = context.definitions[index].definition else { return nil }
        let type = context.schema.type(named: node.typeCondition.name.value)
        fragmentTypes[index] = type
        typeLookedUp[index] = true
        return type
    }

    private struct TypePair: Hashable {
        let a: ObjectIdentifier
        let b: ObjectIdentifier
    }

    private func overlap(_ a: NamedTypeDef, _ b: NamedTypeDef) -> Bool {
        if a === b { return true }
        let pair = TypePair(a: ObjectIdentifier(a), b: ObjectIdentifier(b))
        if let known = overlaps[pair] { return known }
        let result = context.schema.typesOverlap(a, b)
        overlaps[pair] = result
        return result
    }

    override package func enterInlineFragment(_ node: InlineFragment) {
        guard let fragmentType = context.type?.named, fragmentType.isComposite,
            let parentType = context.parentType, parentType.isComposite, !overlap(fragmentType, parentType)
        else { return }
        report(
            Self.inlineMessage(parentType.name, fragmentType.name),
            at: Span(start: node.span.start, end: node.selectionSet.span.start))
    }

    override package func enterFragmentSpread(_ node: FragmentSpread) {
        guard let fragment = context.fragmentIndex(of: node), let fragmentType = type(ofFragment: fragment),
            fragmentType.isComposite,
            let parentType = context.parentType, !overlap(fragmentType, parentType)
        else { return }
        report(Self.spreadMessage(node.name.value, parentType.name, fragmentType.name), at: node.span)
    }
}

extension PossibleFragmentSpreadsRule {
    static func inlineMessage(_ parent: String, _ fragmentType: String) -> String {
        "Fragment cannot be spread here as objects of type \"\(parent)\" can never be of type \"\(fragmentType)\"."
    }
    static func spreadMessage(_ fragment: String, _ parent: String, _ fragmentType: String) -> String {
        "Fragment \"\(fragment)\" cannot be spread here as objects of type \"\(parent)\" can never be of type \"\(fragmentType)\"."
    }
}
