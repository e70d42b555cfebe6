import BatonCompiler
import BatonConfig
import BatonTestSupport
import Foundation
import XCTest

/// Docs/GettingStarted.md as a new user follows it: every file it shows (each code block after a
/// `<!-- file: PATH -->` line) written into a folder as shown, `baton.json` written by `baton init`'s
/// own discovery, the code generated, the package manifest loaded by SwiftPM, the app's sources
/// (with the SwiftUI stand-in, `SwiftUIStandIn`) and the test compiled against `Baton` in Swift 6 mode with
/// warnings as errors, and the test run: the generated code and the test file built into one executable
/// with XCTest, whose runner runs each test method.
final class GettingStartedTests: XCTestCase {
    static let page = SwiftCompiler.repository.appendingPathComponent("Docs/GettingStarted.md")

    /// A fenced block of the page: its language, the file it is (when marked), the `<!-- … -->` comment on the line
    /// before it, and its text.
    struct Block {
        var language: String
        var file: String?
        var comment: String? = nil
        var text: String
    }

    /// The fenced blocks of a page of Docs (this test's by default; `TestingGuideTests` reads Testing.md's).
    static func blocks(of page: URL = page) throws -> [Block] {
        let lines = try String(contentsOf: page, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```"), line.count > 3 else {
                index += 1
                continue
            }
            var file: String?
            var comment: String?
            if index > 0, lines[index - 1].hasPrefix("<!-- "), lines[index - 1].hasSuffix(" -->") {
                comment = String(lines[index - 1].dropFirst("<!-- ".count).dropLast(" -->".count))
            }
            if let comment, comment.hasPrefix("file: ") { file = String(comment.dropFirst("file: ".count)) }
            let end = lines[(index + 1)...].firstIndex(of: "```") ?? lines.count
            blocks.append(
                Block(
                    language: String(line.dropFirst(3)), file: file, comment: comment,
                    text: lines[(index + 1)..<end].joined(separator: "\n") + "\n"))
            index = end + 1
        }
        return blocks
    }

    /// The page's files written into a fresh folder, with the baton.json `baton init` writes there.
    func project() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("getting-started-\(UUID())")
        for block in try Self.blocks() {
            guard let file = block.file else { continue }
            let url = folder.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try block.text.write(to: url, atomically: true, encoding: .utf8)
        }
        let configuration = try InitialConfiguration.discover(in: folder.path, choices: .init()).get()
        try configuration.text.write(to: folder.appendingPathComponent("baton.json"), atomically: true, encoding: .utf8)
        return folder
    }

    func testEverySwiftBlockIsAFile() throws {
        let swift = try Self.blocks().filter { $0.language == "swift" }
        XCTAssertGreaterThanOrEqual(swift.count, 4)
        for block in swift {
            XCTAssertNotNil(block.file, "a Swift block without a <!-- file: PATH --> line:\n\(block.text)")
        }
    }

    func testThePackageManifestLoads() throws {
        let swift = try Unavailable.executable("swift", install: "install a Swift 6 toolchain")
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try SwiftCompiler.run(swift, ["package", "--package-path", folder.path, "dump-package"])
        XCTAssertTrue(manifest.contains("\"BatonPlugin\""), manifest)
        XCTAssertTrue(manifest.contains("\"AppTests\""), manifest)
    }

    func testTheScreenAndItsTestCompileAndTheTestPasses() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        // What the plugin generates for the target (`baton gen`'s code, one file per definition here).
        let outcome = Driver(request: ProjectRequest(workingDirectory: folder.path), targets: .named(["swift"]))
            .generate(check: false)
        XCTAssertEqual(outcome.status, .clean, "\(outcome.diagnostics.map(\.message))")
        let generated = try swiftFiles(folder.appendingPathComponent("Sources/App/Generated"))
        XCTAssertEqual(
            generated.map { URL(fileURLWithPath: $0).lastPathComponent },
            ["GreetingQuery.graphql.swift", "ViewerQuery.graphql.swift"])
        let app = try swiftFiles(folder.appendingPathComponent("Sources/App")) + generated
        let test = folder.appendingPathComponent("Tests/AppTests/GreetingScreenTests.swift").path

        // The app module, with SwiftUI's stand-in: the screen compiles. (The test is compiled below, with the
        // generated code, the runtime and BatonTesting, which are built without the stand-in.)
        let importPath = try SwiftUIStandIn.importPath()
        _ = try SwiftCompiler.module(
            "App", sources: app, includes: importPath, flags: SwiftCompiler.flags + ["-enable-testing"])

        // The test run: the generated code and the test in one module (no SwiftUI needed), with a main
        // that hands XCTest's runner each test method (swift-corelibs-xctest's `XCTMain`: Linux only;
        // on macOS, `swift test` in the package runs it).
        #if !os(Linux)
            throw XCTSkip("XCTMain is swift-corelibs-xctest's: the test is compiled here, run on Linux")
        #endif
        let source = try String(contentsOfFile: test, encoding: .utf8).replacingOccurrences(
            of: "@testable import App\n", with: "")
        let names = source.components(separatedBy: "func ").dropFirst().compactMap { part -> String? in
            let name = part.prefix { $0.isLetter || $0.isNumber }
            return name.hasPrefix("test") ? String(name) : nil
        }
        let tests = folder.appendingPathComponent("run/GreetingScreenTests.swift")
        let main = folder.appendingPathComponent("run/main.swift")
        try FileManager.default.createDirectory(
            at: tests.deletingLastPathComponent(), withIntermediateDirectories: true)
        try source.write(to: tests, atomically: true, encoding: .utf8)
        let entries = names.map { "(\"\($0)\", asyncTest(GreetingScreenTests.\($0)))" }.joined(separator: ", ")
        try "import XCTest\n\nXCTMain([testCase([\(entries)])])\n".write(to: main, atomically: true, encoding: .utf8)
        let output = try SwiftCompiler.buildAndRun(generated + [tests.path, main.path], testKit: true)
        XCTAssertTrue(output.contains("Executed \(names.count) tests, with 0 failures"), output)
    }

    func swiftFiles(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
            .map { folder.appendingPathComponent($0).path }
    }
}
