import BatonCodegen
import BatonIR

/// A fragment's file: its lens type, named as the fragment (`IssueRow_issue`), which every spread's accessor
/// returns (masking: the parent reads the fragment's fields only through it).
struct SwiftFragmentTemplate {
    let generator: SwiftGenerator
    let fragment: FragmentModel
    let typeName: String

    func render() -> Template {
        SwiftLensTemplate(
            generator: generator, lens: fragment.lens, typeName: typeName, role: .fragment(fragment), enclosing: []
        )
        .render()
    }
}
