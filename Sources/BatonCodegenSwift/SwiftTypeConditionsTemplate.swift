import BatonCodegen
import BatonDeclarations

/// The type conditions of fragments on abstract types (the tree's `sharedTypeConditions`), declared once for
/// the module: a fragment on `Node` reads `Baton.TypeCondition.on_Node` instead of spelling `Node`'s possible types (hundreds
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

    /// The shared condition a fragment refers to, or nil when it is not shared (`TypeCondition.isShared`: an
    /// object type), which is written in place.
    static func reference(_ condition: TypeCondition) -> String? {
        condition.isShared ? "Baton.TypeCondition.on_" + condition.name : nil
    }

    func render() -> Template {
        var text = TextBuilder(capacity: 4096)
        text.add(generator.isolation)
        text.add("extension Baton.TypeCondition {")
        for condition in generator.sharedTypeConditions {
            text.add("\n    /// `")
            text.add(condition.name)
            text.add("`: an object of one of these types.\n    static let on_")
            text.add(condition.name)
            text.add(": Baton.TypeCondition = ")
            text.add(SwiftLensTemplate.typeConditionLiteral(condition.name, possibleTypes: condition.possibleTypes))
        }
        text.add("\n}")
        return text.template
    }
}
