import BatonCodegen
import BatonCodegenKotlin
import BatonKotlinRuntime
import BatonTestSupport
import Foundation
import XCTest

/// The Kotlin runtime's one copy, the `.kt` files, as `baton` finds and checks them (`KotlinRuntimeFiles`);
/// `KotlinRuntimeLocationTests` runs an installed `baton`.
final class KotlinRuntimeFilesTests: XCTestCase {
    static let folder = TestPaths.repository.appendingPathComponent("Kotlin/runtime/baton/runtime").path

    /// The type names every plan avoids are what the files declare (`KotlinRuntimeTests` also holds them to
    /// kotlinc's classes, where kotlinc is installed).
    func testTheListedTypeNamesAreWhatTheFilesDeclare() throws {
        var declared = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder) where name.hasSuffix(".kt") {
            let text = try String(contentsOfFile: Self.folder + "/" + name, encoding: .utf8)
            declared.formUnion(KotlinRuntimeFiles.declaredTypeNames(text))
        }
        XCTAssertEqual(
            declared.subtracting(KotlinRuntimeFiles.typeNames).sorted(), [],
            "add these to Kotlin/runtime/KotlinRuntimeFiles+TypeNames.swift")
        XCTAssertEqual(
            KotlinRuntimeFiles.typeNames.subtracting(declared).sorted(), [],
            "remove these from Kotlin/runtime/KotlinRuntimeFiles+TypeNames.swift")
        XCTAssertTrue(IdentifierRules.kotlinRuntimeTypeNames.isSuperset(of: ["Operation", "RecordStore"]))
    }

    /// Lines are passed over on their first byte when they cannot declare a type: the names are those of the
    /// reading by `Character`s (which a carriage return anywhere selects; "\n\r" at the end adds a line
    /// beginning with it, which declares nothing), on every runtime file and on lines made to be hard.
    func testDeclaredTypeNamesReadOnBytesAreThoseReadAsCharacters() throws {
        let made = [
            "package baton.runtime", "", "class Plain", "  class Indented", "\tclass Tabbed", "// class Comment",
            "@Annotated class Annotated", "data class Data<T>(val t: T)", "sealed interface Sealed",
            "private class Hidden", "internal object Object_1 {", "typealias Alias = Int", "écrit class Accented",
            "e\u{301}class Combining", "enum class Kind { A }", "fun notAType() {}", "class", "open  class TwoSpaces",
            "Ωmega class Greek", "inner class Inner", "object Obj", "data  class Spaced", "enum\tclass Tab",
            "value class NotAModifier", "class \u{301}Combined", "classy Named", "",
        ].joined(separator: "\n")
        XCTAssertEqual(
            KotlinRuntimeFiles.declaredTypeNames(made),
            ["Plain", "Data", "Sealed", "Object_1", "Alias", "Kind", "TwoSpaces", "Inner", "Obj", "Spaced"])
        var texts = [made, made + "\n", "class Last", "\n\nclass AfterEmpty\n"]
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder) where name.hasSuffix(".kt") {
            texts.append(try String(contentsOfFile: Self.folder + "/" + name, encoding: .utf8))
        }
        for text in texts {
            XCTAssertEqual(
                KotlinRuntimeFiles.declaredTypeNames(text), KotlinRuntimeFiles.declaredTypeNames(text + "\n\r"),
                String(text.prefix(60)))
        }
    }

    /// Reads a folder holding one file, `name` with `text`: the problem found, with the folder's path as `<folder>`.
    private func problem(readingOne name: String, _ text: String) throws -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-runtime-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        guard case .failure(let problem) = KotlinRuntimeFiles.read(folder) else { return nil }
        return problem.description.replacingOccurrences(of: folder, with: "<folder>")
    }

    /// A runtime file with a carriage return anywhere is refused, "\r\n" included.
    func testAFileWithCarriageReturnsIsRefused() throws {
        let problem = try XCTUnwrap(problem(readingOne: "Json.kt", "package baton.runtime\nclass Json\r\n"), "accepted")
        XCTAssertTrue(problem.hasPrefix("<folder>/Json.kt: not a file of the Kotlin runtime"), problem)
    }

    /// The folders looked in are spelled as `URL` spelled them before the runtime's files were found without
    /// Foundation: the executable's path made absolute, its `bin` folder's parent (a last `..` kept), `.` and
    /// `..` worked out, links resolved where the path exists.
    func testTheFoldersLookedInAreURLs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-exe-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder + "/real/bin", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/real/bin/baton", contents: Data()))
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/linked", withDestinationPath: folder + "/real/bin")
        let executables = [
            "/usr/local/bin/baton", "/baton", "/", "/a/./b/../c/baton", "rel/bin/baton", "bin/baton", "baton",
            "/usr//local/bin/baton", "/opt/x/bin/", "/a/b/..", "/x/../..", "/a/b/./baton", "/a/../../b/bin/baton",
            "./x/y", "../x/y/z", "/nonexistent/bin/baton", folder + "/real/bin/baton", folder + "/linked/baton",
            folder + "/real/bin/../bin/baton", folder + "/linked/../x",
        ]
        for executable in executables {
            var expected: [String] = []
            let url = URL(fileURLWithPath: executable)
            for binary in [url, url.resolvingSymlinksInPath()] {
                let prefix = binary.deletingLastPathComponent().deletingLastPathComponent()
                let folder = prefix.appendingPathComponent(KotlinRuntimeFiles.installedFolder).standardizedFileURL.path
                if !expected.contains(folder) { expected.append(folder) }
            }
            expected.append(Self.folder)
            XCTAssertEqual(KotlinRuntimeFiles.folders(environment: nil, executable: executable), expected, executable)
        }
        XCTAssertEqual(
            KotlinRuntimeFiles.folders(environment: "/somewhere", executable: "/usr/bin/baton"), ["/somewhere"])
        XCTAssertEqual(KotlinRuntimeFiles.folders(environment: "", executable: nil), [Self.folder])
    }

    /// A binary with no installed copy beside it (this test process) reads the source tree it was built from.
    func testABuildFromSourceReadsTheSourceTree() throws {
        let found = try KotlinRuntimeFiles.locate(environment: nil, executable: "/nonexistent/bin/baton").get()
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".kt") }
        XCTAssertEqual(found.map(\.name), names.sorted())
        XCTAssertEqual(KotlinRuntime.sources.map(\.name), names.sorted())
    }

    /// The environment variable is the only place looked in when it is set; not found is a problem naming it.
    func testTheEnvironmentVariableIsTheOnlyPlaceWhenSet() {
        let result = KotlinRuntimeFiles.locate(environment: "/nonexistent/runtime", executable: nil)
        guard case .failure(let problem) = result else { return XCTFail("found a runtime in /nonexistent") }
        XCTAssertTrue(problem.description.contains("(looked in /nonexistent/runtime)"), problem.description)
        XCTAssertTrue(problem.description.contains("BATON_KOTLIN_RUNTIME"), problem.description)
    }

    /// A folder holding a file that is not the runtime's is refused, naming the file.
    func testAFolderWithAForeignFileIsRefused() throws {
        let problem = try XCTUnwrap(problem(readingOne: "Mine.kt", "package app\nclass Mine\n"), "accepted")
        XCTAssertTrue(problem.hasPrefix("<folder>/Mine.kt: not a file of the Kotlin runtime"), problem)
    }
}
