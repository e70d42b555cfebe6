import BatonDiagnostics
import BatonSyntax
import Foundation

extension ScaleBenchmark {
    /// `baton gen --lang swift|kotlin`: cold, nothing changed, one document edited; then the size
    /// of what was generated.
    func runGen() {
        guard let baton else {
            print("  gen: no release baton beside this benchmark (swift build -c release --product baton)")
            return
        }
        guard let edit = OneDocumentEdit(path: project.files[0]) else {
            print("  gen: cannot prepare the edit of \(project.files[0])")
            return
        }
        for (language, folder) in [("swift", "Swift"), ("kotlin", "Kotlin")] {
            print("### gen --lang \(language): \(project.files.count) operations")
            let output = "\(project.directory)/Generated/\(folder)"
            var cold = RunSeries(name: "cold")
            var unchanged = RunSeries(name: "nothing changed")
            var edited = RunSeries(name: "one document edited")
            var failed = false
            for round in 0...options.runs {
                try? FileManager.default.removeItem(atPath: output)
                func step(_ series: inout RunSeries) {
                    guard
                        let run = ChildRun.run(
                            baton, ["gen", "--lang", language], in: project.directory, scratch: scratch)
                    else { return }
                    if run.status != 0 && !failed {
                        failed = true
                        print("  \(series.name): exit status \(run.status): \(run.errors.suffix(600))")
                    }
                    if round > 0 { series.runs.append(run) }
                }
                step(&cold)
                step(&unchanged)
                edit.apply(edited: round % 2 == 0)
                step(&edited)
            }
            edit.apply(edited: false)
            for series in [cold, unchanged, edited] { print("  \(series.name): \(series.summary)") }
            let size = GeneratedSize(folder: output)
            let operations = Double(project.files.count)
            print(
                String(
                    format:
                        "  generated: %d files, %d lines, %.2f MB; per operation %.1f lines, %.0f bytes; per selected field %.2f lines, %.0f bytes",
                    size.files, size.lines, Double(size.bytes) / 1_000_000, Double(size.lines) / operations,
                    Double(size.bytes) / operations, Double(size.lines) / Double(project.fields),
                    Double(size.bytes) / Double(project.fields)))
        }
        // Leave the project as generated from unedited documents.
        _ = ChildRun.run(baton, ["gen"], in: project.directory, scratch: scratch)
    }
}

/// The edit of the "one document edited" runs: a `__typename` added at the start of the first
/// operation's selection set, or taken away again. Either way exactly one document changes and
/// its generated code with it.
struct OneDocumentEdit {
    var path: String
    var original: [UInt8]
    var edited: [UInt8]

    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = Array(data)
        guard let document = Parser.parse(SourceFile(path: path, bytes: bytes)).document else { return nil }
        var insertion: Int?
        for definition in document.definitions {
            if case .operation(let operation) = definition {
                insertion = operation.selectionSet.span.start + 1
                break
            }
        }
        guard let insertion else { return nil }
        self.path = path
        original = bytes
        edited = Array(bytes[..<insertion]) + Array(" __typename".utf8) + Array(bytes[insertion...])
    }

    func apply(edited isEdited: Bool) {
        try? Data(isEdited ? edited : original).write(to: URL(fileURLWithPath: path))
    }
}

/// Files, lines and bytes under a folder.
struct GeneratedSize {
    var files = 0
    var lines = 0
    var bytes = 0

    init(folder: String) {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return }
        while let relative = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            // Not the manifest (`.baton-manifest`): it is not generated code.
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                FileManager.default.fileExists(atPath: "\(folder)/\(relative)", isDirectory: &isFolder),
                !isFolder.boolValue, let data = FileManager.default.contents(atPath: "\(folder)/\(relative)")
            else { continue }
            files += 1
            bytes += data.count
            lines += data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
    }
}
