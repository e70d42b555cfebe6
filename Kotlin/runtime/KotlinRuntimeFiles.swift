// No Foundation: the runtime's files are found and read with the C library's calls (`BatonFiles`),
// so a `baton` process loads no Foundation at all on Linux (FoundationEssentials alone was 3 MiB of every
// process's memory and milliseconds of its start; Docs/Performance.md). On Darwin, Foundation (in the
// system's shared cache) says where the executable is.
import BatonFiles

#if canImport(Darwin)
    import Foundation
#elseif canImport(Glibc)
    import Glibc
#endif

/// The Kotlin runtime's files, as `baton gen --lang kotlin` writes them: the `.kt` files of package
/// `baton.runtime` under `Kotlin/runtime/baton/runtime` are its single copy, read when Kotlin is generated.
///
/// Decisions, made once here:
/// - **Where the files are found**, first match wins: the folder `BATON_KOTLIN_RUNTIME` names (and only
///   it, when set); `share/baton/kotlin-runtime` beside the `bin` folder of the running executable, as
///   `scripts/install.sh` and `scripts/make-artifactbundle.sh` lay it out (also through a symbolic link to the
///   executable); else the source tree this file was compiled from (`#filePath`), which is where every build
///   from source finds them: this package's own build, its tests and benchmark, and another package's
///   build of `baton` as `BatonPlugin`'s tool (SwiftPM builds it in that package's checkout of this one).
///   Not found is a problem `gen` reports at the Kotlin setting (and `check` with it), never a crash.
/// - **The type names** (`typeNames`) are written here, not read: every plan avoids them, so Swift output
///   and `check` never depend on finding the files. The files found must declare exactly these names
///   (`KotlinRuntimeTests` holds this list to the files; a folder from another version of Baton is refused).
/// - **What a runtime file is**: UTF-8, `\n` line endings, beginning with `package baton.runtime`.
package enum KotlinRuntimeFiles {
    /// The environment variable naming the folder that holds the runtime's `.kt` files.
    package static let environmentVariable = "BATON_KOTLIN_RUNTIME"

    /// The folder of the runtime's files below an installation's prefix (`PREFIX/bin/baton`).
    package static let installedFolder = "share/baton/kotlin-runtime"

    /// Why the runtime's files could not be used.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The runtime's source files, by file name, sorted: each file's text without its final newline.
    package typealias Sources = [(name: String, text: String)]

    /// The runtime this process found, looked for once.
    package static let found: Result<Sources, Problem> = locate(
        environment: FileSystem.environment(environmentVariable), executable: executablePath)

    /// The running executable's path (symbolic links resolved where the platform says so).
    static var executablePath: String? {
        #if canImport(Darwin)
            return Bundle.main.executableURL?.path
        #else
            guard case .success(let resolved) = FileSystem.resolvingLinks("/proc/self/exe") else {
                return CommandLine.arguments.first
            }
            return resolved
        #endif
    }

    /// Where the runtime's files are looked for and what they must be (`KotlinSourceFolder`), with the check that
    /// they declare exactly `typeNames`.
    package static let folder = KotlinSourceFolder(
        label: "Kotlin runtime", packageName: "baton.runtime", environmentVariable: environmentVariable,
        installedFolder: installedFolder, sourceTree: URLPath.deletingLastComponent(#filePath) + "/baton/runtime",
        check: { folder, sources in
            var declared = Set<String>()
            for source in sources { declared.formUnion(declaredTypeNames(source.text)) }
            guard declared != typeNames else { return nil }
            let unknown = declared.subtracting(typeNames).sorted()
            let missing = typeNames.subtracting(declared).sorted()
            return Problem(
                description:
                    "\(folder): the Kotlin runtime there is not the one this baton was built with (declared but not known: \(unknown.isEmpty ? "none" : unknown.joined(separator: ", ")); known but not declared: \(missing.isEmpty ? "none" : missing.joined(separator: ", "))); reinstall baton, or update KotlinRuntimeFiles.typeNames when you changed the runtime"
            )
        })

    /// The folders looked in, in order, and the first that holds the runtime, read.
    package static func locate(environment: String?, executable: String?) -> Result<Sources, Problem> {
        folder.locate(environment: environment, executable: executable)
    }

    /// The folders looked in, in order (`KotlinSourceFolder.folders`).
    package static func folders(environment: String?, executable: String?) -> [String] {
        folder.folders(environment: environment, executable: executable)
    }

    /// Every `.kt` file in `folder`, checked: what a runtime file is, and exactly `typeNames` declared.
    package static func read(_ folder: String) -> Result<Sources, Problem> { self.folder.read(folder) }

    /// The names of the types a runtime file declares at top level and does not make private: `class`,
    /// `interface`, `object` and `typealias` at the start of a line, after any modifiers.
    ///
    /// Only a line beginning with a letter can declare one, so the others are passed over on their first
    /// byte (a line beginning with an ASCII byte other than a letter); a text with a carriage return is
    /// read as `Character`s throughout, where "\r\n" is one character and no line break.
    package static func declaredTypeNames(_ text: String) -> [String] {
        guard !hasCarriageReturn(text) else {
            return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap(typeName(declaredOn:))
        }
        var text = text
        // The lines that begin with a letter or a byte past ASCII, found on bytes, read as text.
        return text.withUTF8 { bytes in
            var names: [String] = []
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let first = bytes[start] | 0x20
                if end > start, bytes[start] >= 0x80 || (first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")),
                    mayDeclare(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                {
                    let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    if let name = typeName(declaredOn: Substring(line)) { names.append(name) }
                }
                start = end + 1
            }
            return names
        }
    }

    /// True when `text` holds a carriage return, read on bytes (a `Character` comparison misses the one in "\r\n").
    static func hasCarriageReturn(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(UInt8(ascii: "\r")), bytes.count) != nil
        }
    }

    /// False when a line (of a text without carriage returns) cannot declare a type, told on its bytes: its
    /// first word, up to the first space, is ASCII and neither a modifier nor a kind. (The `Character`s of the
    /// line split its first word there too: only a non-ASCII scalar could join a space to what follows it.)
    private static func mayDeclare(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = 0
        while end < line.count, line[end] != UInt8(ascii: " ") {
            if line[end] >= 0x80 { return true }
            end += 1
        }
        let word = UnsafeBufferPointer(rebasing: line[..<end])
        return leadingWords.contains { word.elementsEqual($0) }
    }

    /// The words a declaring line can begin with, as bytes.
    private static let leadingWords: [[UInt8]] = declarationModifiers.union(declarationKinds).map { Array($0.utf8) }

    /// The type a line declares, if it begins with a letter, then any modifiers, then a kind and a name.
    private static func typeName(declaredOn line: Substring) -> String? {
        guard let first = line.first, first.isLetter else { return nil }
        let words = line.split(separator: " ")
        var index = 0
        while index < words.count, declarationModifiers.contains(words[index]) { index += 1 }
        guard index + 1 < words.count, declarationKinds.contains(words[index]) else { return nil }
        let name = words[index + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }

    private static let declarationModifiers: Set<Substring> = [
        "public", "internal", "open", "abstract", "sealed", "data", "enum", "annotation", "inline", "inner",
    ]
    private static let declarationKinds: Set<Substring> = ["class", "interface", "object", "typealias"]
}
