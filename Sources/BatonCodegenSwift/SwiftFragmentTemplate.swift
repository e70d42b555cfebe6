import BatonCodegen
import BatonDeclarations
import BatonIR

/// A fragment's file: its lens type, named as the fragment (`IssueRow_issue`), which every spread's accessor
/// returns (masking: the parent reads the fragment's fields only through it).
struct SwiftFragmentTemplate {
    let generator: SwiftGenerator
    let fragment: FragmentModel
    let typeName: String

    func render() -> Template {
        // The fragment lowered here, in the file's job: its lens and entry points, printed.
        let declaration = generator.declarations.fragment(fragment)
        return SwiftLensTemplate(
            generator: generator, lens: declaration.lens, typeName: typeName, role: .fragment(declaration),
            enclosing: []
        )
        .render()
    }
}
