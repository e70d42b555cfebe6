import BatonCodegen
import BatonDeclarations

/// A mapped custom scalar's file: documentation of the mapping and a compile-time check that the app's type
/// conforms to `Baton.CustomScalar` (so a missing conformance is reported here, at the mapping, rather than
/// at every accessor). Unmapped custom scalars read as `String` and need no file.
struct SwiftCustomScalarTemplate {
    let generator: SwiftGenerator
    let model: CustomScalarDeclaration
    let swiftType: String

    func render() -> Template {
        let checkName = "_" + model.name + "IsCustomScalar"
        return """
            \(DocComment.tripleSlash(model.documentation))
            /// `\(model.name)` reads as `\(swiftType)` (`customScalarTypes` in baton.json): converted from the
            /// server's text at the read; a text that does not convert is reported and reads as nil.
            \(ifLet: model.specifiedBy, { DocComment.tripleSlash("Specified by \($0).") })
            \(generator.isolation)private func \(checkName)(_ type: \(swiftType).Type) -> any Baton.CustomScalar.Type { type }
            """
    }
}
