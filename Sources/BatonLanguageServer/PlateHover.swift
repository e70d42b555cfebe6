import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonSyntax

/// The plate row (Docs/Plates.md) of the accessor a selection under the cursor becomes: what it reads and as
/// what, `@required` and `@catch` included. Baton's own part of a hover.
///
/// The kept compilation plans for its diagnostics only (check's `checksOnly`: no accessors), so the lens is built
/// here for the hovered document and the documents defining the fragments it reaches, with the project's options.
enum PlateHover {
    /// A Markdown table of one row, or nil when the selection makes no accessor (an invalid document, a field
    /// under a parent the schema does not know).
    static func row(for span: Span, in found: Located) -> String? {
        guard let schema = found.schema else { return nil }
        let documents = reached(from: found.document, in: found)
        let options = Compilation.modelOptions(found.compilation.project.configuration)
        let (model, _) = LensModelBuilder.build(schema: schema, documents: documents, options: options)
        var best: PlateRow?
        func visit(_ lens: Lens, inConnection: Bool) {
            for accessor in lens.accessors {
                let here = accessor.locations.contains { location in
                    location.file == found.source && location.span.start <= span.start && span.end <= location.span.end
                }
                if here {
                    best = PlateRow(
                        depth: 0, accessor: accessor.name, reads: PlatePhrase.reads(accessor),
                        phrase: PlatePhrase.phrase(for: accessor, inConnection: inConnection))
                }
                if let child = accessor.lens { visit(child, inConnection: accessor.connection != nil) }
            }
        }
        for operation in model.operations where operation.location.file == found.source {
            visit(operation.lens, inConnection: false)
        }
        for fragment in model.fragments where fragment.location.file == found.source {
            visit(fragment.lens, inConnection: false)
        }
        guard let best else { return nil }
        return "| accessor | reads | as |\n| --- | --- | --- |\n| `\(best.accessor)` | \(best.reads) | \(best.phrase) |"
    }

    /// The document and those defining every fragment it spreads, directly or through other fragments.
    static func reached(from document: Document, in found: Located) -> [Document] {
        let fragments = found.folder.fragments(of: found.compilation)
        var seen: Set<SourceFile> = [document.source]
        var pending = [document]
        var result = [document]
        while let next = pending.popLast() {
            for name in Set(Navigation.spreads(in: next).map(\.name.value)) {
                guard let site = fragments[name]?.first, seen.insert(site.document.source).inserted else { continue }
                result.append(site.document)
                pending.append(site.document)
            }
        }
        return result
    }
}
