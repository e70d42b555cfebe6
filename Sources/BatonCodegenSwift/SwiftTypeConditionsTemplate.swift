import BatonCodegen
import BatonIR

/// The type conditions of fragments on abstract types, declared once for the module: a fragment on
/// `Node` reads `Baton.TypeCondition.on_Node` instead of spelling `Node`'s possible types (hundreds
/// of names in a large schema) in every fragment's file.
///
///     extension Baton.TypeCondition {
///         /// `Node`: an object of one of these types.
///         static let on_Node: Baton.TypeCondition = Baton.TypeCondition("Node", possibleTypes: ["Issue", "User"])
///     }
///
/// Members of the runtime's type, not module-level names, so the plan reserves no name for them;
/// `on_` and a GraphQL name is always a plain identifier. Internal whatever `accessModifier` says:
/// only the generated fragments read them (a public stored property may be initialized from them).
/// Inline fragments keep their own lists: those are the intersection with their parent's type,
/// one per place.
struct SwiftTypeConditionsTemplate {
    let generator: SwiftGenerator

    /// The file, named so that no definition's file can take the name.
    static let fileName = "Baton+TypeConditions"

    /// Each abstract type a fragment of `model` is written on, with its possible object types other
    /// than itself, sorted by name (every fragment's: a kept fragment's file reads its entry too).
    static func conditions(of model: LensModel) -> [(name: String, possibleTypes: [String])] {
        var found: [String: [String]] = [:]
        for fragment in model.fragments where found[fragment.typeCondition] == nil {
            let types = fragment.possibleTypes.filter { $0 != fragment.typeCondition }
            if !types.isEmpty { found[fragment.typeCondition] = types }
        }
        return found.sorted { $0.key < $1.key }.map { (name: $0.key, possibleTypes: $0.value) }
    }

    /// The shared condition of a fragment on `name`, or nil when it has no other possible type (an
    /// object type), which is written in place.
    static func reference(_ name: String, possibleTypes: [String]) -> String? {
        guard possibleTypes.contains(where: { $0 != name }) else { return nil }
        return "Baton.TypeCondition.on_" + name
    }

    func render() -> Template {
        var text = TextBuilder(capacity: 4096)
        text.add(generator.isolation)
        text.add("extension Baton.TypeCondition {")
        for (name, possibleTypes) in generator.sharedTypeConditions {
            text.add("\n    /// `")
            text.add(name)
            text.add("`: an object of one of these types.\n    static let on_")
            text.add(name)
            text.add(": Baton.TypeCondition = ")
            text.add(SwiftLensTemplate.typeConditionLiteral(name, possibleTypes: possibleTypes + [name]))
        }
        text.add("\n}")
        return text.template
    }
}
