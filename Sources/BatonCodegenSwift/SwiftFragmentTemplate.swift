import BatonCodegen
import BatonDeclarations
import BatonIR

/// A fragment's file: its lens type, named as the fragment (`IssueRow_issue`), which every spread's accessor
/// returns (masking: the parent reads the fragment's fields only through it).
struct SwiftFragmentTemplate {
    let generator: SwiftGenerator
    let fragment: FragmentModel
    let typeName: String

    /// Writes the fragment's lens type into `text` (which is empty or ends with a line break), ending without a line
    /// break: the lens writer writes it straight into the file's bytes.
    func write(into text: inout TextBuilder) {
        // The fragment lowered here, in the file's job: its lens and entry points, printed.
        let declaration = generator.declarations.fragment(fragment)
        var written = SwiftLensTemplate.WrittenLenses()
        SwiftLensTemplate(
            generator: generator, lens: declaration.lens, typeName: typeName, role: .fragment(declaration),
            enclosing: []
        )
        .write(into: &text, indent: "", written: &written)
    }
}
