import Foundation
import XCTest

/// Docs/Testing.md as a user follows it: its Swift blocks (one test file, continued block after block) compiled
/// with the guide's generated code and test builders (Examples/GitHub/Generated/Swift, SwiftTestBuilders) against `Baton` and `BatonTesting` in Swift 6
/// mode with warnings as errors, and run: every test method passes through the real runtime.
final class TestingGuideTests: XCTestCase {
    static let page = SwiftCompiler.repository.appendingPathComponent("Docs/Testing.md")

    /// The page's test file: the block after `<!-- file: … -->` and every Swift block after it, except the manifest
    /// excerpt.
    static func testFile() throws -> (name: String, text: String) {
        var name: String?
        var text = ""
        for block in try GettingStartedTests.blocks(of: page) where block.language == "swift" {
            if block.comment == "manifest excerpt" { continue }
            if let file = block.file {
                guard name == nil else { throw SwiftCompiler.Failure(description: "a second file: \(file)") }
                name = file
            }
            guard name != nil else {
                throw SwiftCompiler.Failure(description: "a block before the file:\n\(block.text)")
            }
            text += block.text
        }
        guard let name else { throw SwiftCompiler.Failure(description: "no <!-- file: … --> block") }
        return (name, text)
    }

    func testTheManifestExcerptNamesTheProduct() throws {
        let excerpts = try GettingStartedTests.blocks(of: Self.page).filter { $0.comment == "manifest excerpt" }
        XCTAssertEqual(excerpts.count, 1)
        XCTAssertTrue(excerpts.allSatisfy { $0.text.contains(#".product(name: "BatonTesting", package: "baton")"#) })
        let manifest = try String(
            contentsOf: SwiftCompiler.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(#".library(name: "BatonTesting", targets: ["BatonTesting"])"#))
    }

    func testTheGuidesTestsCompileAndPass() throws {
        #if !os(Linux)
            throw XCTSkip("XCTMain is swift-corelibs-xctest's: the guide's tests run on Linux")
        #endif
        let (name, text) = try Self.testFile()
        XCTAssertEqual(name, "Tests/AppTests/RepositoryScreenTests.swift")
        let source = text.replacingOccurrences(of: "@testable import App\n", with: "")
        XCTAssertNotEqual(source, text, "the test imports its app")
        let names = source.components(separatedBy: "func ").dropFirst().compactMap { part -> String? in
            let name = part.prefix { $0.isLetter || $0.isNumber }
            return name.hasPrefix("test") ? String(name) : nil
        }
        XCTAssertEqual(names.count, 4)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("testing-guide-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tests = folder.appendingPathComponent("RepositoryScreenTests.swift")
        let main = folder.appendingPathComponent("main.swift")
        try source.write(to: tests, atomically: true, encoding: .utf8)
        let entries = names.map { "(\"\($0)\", asyncTest(RepositoryScreenTests.\($0)))" }.joined(separator: ", ")
        try "import XCTest\n\nXCTMain([testCase([\(entries)])])\n".write(to: main, atomically: true, encoding: .utf8)
        let generatedFolder = SwiftCompiler.repository.appendingPathComponent("Examples/GitHub/Generated/Swift")
        let buildersFolder = SwiftCompiler.repository.appendingPathComponent(
            "Examples/GitHub/Generated/SwiftTestBuilders")
        var generated: [String] = []
        for folder in [generatedFolder, buildersFolder] {
            generated += try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0).path }
        }
        let output = try SwiftCompiler.buildAndRun(generated + [tests.path, main.path], testKit: true)
        XCTAssertTrue(output.contains("Executed \(names.count) tests, with 0 failures"), output)
    }
}
