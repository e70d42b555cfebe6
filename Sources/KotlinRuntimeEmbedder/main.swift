// Turns the Kotlin runtime's `.kt` files (the single source, under Kotlin/runtime/baton/runtime) into Swift
// source, so the `baton` executable carries them:
//
//     swift run KotlinRuntimeEmbedder          # from the repository's root: the checked-in embedding
//     KotlinRuntimeEmbedder <output.swift> <file.kt>...
//
// writes `KotlinRuntimeFiles.sources` (each file's text) and `KotlinRuntimeFiles.typeNames` (the types each file
// declares at top level), by default into Kotlin/runtime/KotlinRuntimeFiles+Embedded.swift. A file that is not
// what the runtime must be (not UTF-8, a carriage return, another package) stops it with a message naming it,
// and the output is left as it was. The output is written only when its text changes. `KotlinRuntimeTests`
// fails while the checked-in embedding differs from the `.kt` files.
import Foundation

/// A problem that stops the build step, with the message it prints.
struct EmbedError: Error {
    var message: String
}

/// One runtime file: its name and its text (without the final newline, which the writer adds back).
struct RuntimeFile {
    var name: String
    var text: String

    init(path: String) throws(EmbedError) {
        let url = URL(fileURLWithPath: path)
        name = url.lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EmbedError(message: "\(path): cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw EmbedError(message: "\(path): not UTF-8 text")
        }
        if text.contains("\r") {
            throw EmbedError(message: "\(path): carriage return found; the runtime's files use \\n line endings")
        }
        guard text.hasPrefix("package baton.runtime\n") else {
            throw EmbedError(message: "\(path): the runtime's files begin with `package baton.runtime`")
        }
        self.text = text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// The names of the types the file declares at top level and does not make private: `class`, `interface`,
    /// `object` and `typealias` at the start of a line, after any modifiers.
    var typeNames: [String] {
        let modifiers: Set<Substring> = [
            "public", "internal", "open", "abstract", "sealed", "data", "enum", "annotation", "inline", "inner",
        ]
        let kinds: Set<Substring> = ["class", "interface", "object", "typealias"]
        var names: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first, first.isLetter else { continue }
            let words = line.split(separator: " ")
            var index = 0
            while index < words.count, modifiers.contains(words[index]) { index += 1 }
            guard index + 1 < words.count, kinds.contains(words[index]) else { continue }
            let name = words[index + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty { names.append(String(name)) }
        }
        return names
    }
}

/// `text` as a Swift raw multi-line string literal whose delimiter occurs nowhere in it.
func rawLiteral(_ text: String) -> String {
    var longest = 0
    var run = -1
    for character in text {
        if character == "\"" || character == "\\" {
            run = 0
        } else if character == "#", run >= 0 {
            run += 1
            longest = max(longest, run)
        } else {
            run = -1
        }
    }
    let hashes = String(repeating: "#", count: longest + 1)
    return hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
}

/// The Swift source of `KotlinRuntimeFiles.sources` and `KotlinRuntimeFiles.typeNames`.
func render(_ files: [RuntimeFile]) throws(EmbedError) -> String {
    var names = Set<String>()
    for file in files {
        for name in file.typeNames where !names.insert(name).inserted {
            throw EmbedError(message: "\(file.name): the type name \(name) is declared twice in the runtime")
        }
    }
    var out = "// Written by KotlinRuntimeEmbedder from Kotlin/runtime/baton/runtime. Do not edit; after changing a\n"
    out += "// .kt file there, run `swift run KotlinRuntimeEmbedder` in the repository's root.\n\n"
    out += "extension KotlinRuntimeFiles {\n"
    out += "    /// The runtime's source files, by file name, sorted: each file's text without its final newline.\n"
    out += "    package static let sources: [(name: String, text: String)] = [\n"
    for file in files { out += "(\"\(file.name)\",\n" + rawLiteral(file.text) + "),\n" }
    out += "    ]\n\n"
    out += "    /// The names of the types the runtime declares at top level (not private), sorted.\n"
    out += "    package static let typeNames: Set<String> = [\n"
    for name in names.sorted() { out += "        \"\(name)\",\n" }
    out += "    ]\n}\n"
    return out
}

func run(_ arguments: [String]) throws(EmbedError) {
    var arguments = arguments
    if arguments.isEmpty {
        // The repository's own embedding, from its root.
        let folder = "Kotlin/runtime/baton/runtime"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw EmbedError(message: "no \(folder) here: run it in the repository's root")
        }
        arguments = ["Kotlin/runtime/KotlinRuntimeFiles+Embedded.swift"] + names.sorted().map { folder + "/" + $0 }
    }
    guard arguments.count >= 2 else {
        throw EmbedError(message: "usage: KotlinRuntimeEmbedder <output.swift> <file.kt>...")
    }
    var files: [RuntimeFile] = []
    for path in arguments.dropFirst().sorted() where path.hasSuffix(".kt") { files.append(try RuntimeFile(path: path)) }
    files.sort { $0.name < $1.name }
    if files.isEmpty { throw EmbedError(message: "no .kt files given") }
    let text = try render(files)
    let output = URL(fileURLWithPath: arguments[0])
    if let existing = FileManager.default.contents(atPath: output.path), existing == Data(text.utf8) { return }
    do {
        try FileManager.default.createDirectory(
            at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: output, options: .atomic)
    } catch {
        throw EmbedError(message: "\(output.path): cannot write: \(error.localizedDescription)")
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("KotlinRuntimeEmbedder: error: \(error.message)\n".utf8))
    exit(1)
}
