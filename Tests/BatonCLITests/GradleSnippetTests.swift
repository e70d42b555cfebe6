import BatonTestSupport
import Foundation
import XCTest

/// Docs/BuildIntegration.md's Gradle snippet, without Gradle (Baton's CI has none): its command line,
/// declared inputs and output folder are read from the snippet, and its baton.json from the block beside
/// it; the command is run in a project laid out as they say.
final class GradleSnippetTests: XCTestCase {
    static let document = TestPaths.repository.appendingPathComponent("Docs/BuildIntegration.md")

    /// The code block after `<!-- marker -->`.
    func block(after marker: String) throws -> String {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "<!-- \(marker) -->\n```"), marker)
        let rest = text[start.upperBound...]
        let bodyStart = try XCTUnwrap(rest.firstIndex(of: "\n"))
        let end = try XCTUnwrap(rest.range(of: "\n```\n"))
        return String(rest[rest.index(after: bodyStart)..<end.lowerBound])
    }

    /// The string literals of the first call of `function` in the snippet.
    func arguments(of function: String, in snippet: String) throws -> [String] {
        let line = try XCTUnwrap(snippet.split(separator: "\n").first { $0.contains(function + "(") }, function)
        return line.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    func testTheSnippetsCommandLine() throws {
        let snippet = try block(after: "baton-gradle-snippet")
        let configuration = try block(after: "baton-gradle-config")
        let command = try arguments(of: "commandLine", in: snippet)
        XCTAssertEqual(command.first, "baton")
        // The project the snippet describes: rootProject holds baton.json and the schema; the app module
        // (`app/`) holds the documents under src/main/graphql and builds into app/build.
        let scratch = try Scratch()
        try scratch.write("baton.json", configuration)
        let inputs = snippet.split(separator: "\n").filter { $0.contains("inputs.file") }.map(String.init)
        XCTAssertTrue(inputs.contains { $0.contains(#"rootProject.file("baton.json")"#) }, snippet)
        let schema = try XCTUnwrap(
            inputs.compactMap { line in line.contains("schema.graphqls") ? "schema.graphqls" : nil }.first)
        try scratch.write(schema, "type Query { hello(name: String): String }\n")
        let documents = try XCTUnwrap(inputs.first { $0.contains("fileTree(") }, snippet)
        let documentFolder = "app/" + (try XCTUnwrap(try arguments(of: "fileTree", in: documents).first))
        try scratch.write(documentFolder + "/Hello.graphql", "query Hello { hello(name: \"Gradle\") }\n")
        let output = try XCTUnwrap(try arguments(of: "outputs.dir(layout.buildDirectory.dir", in: snippet).first)
        let outputFolder = scratch.path + "/app/build/" + output

        let run = try BatonProcess.run(Array(command.dropFirst()), in: scratch.path)
        XCTAssertEqual(run.status, 0, "\(run)")
        XCTAssertEqual(run.stdout, "", "--quiet: nothing on stdout for Gradle's log")
        XCTAssertTrue(FileManager.default.fileExists(atPath: outputFolder + "/HelloQuery.kt"), outputFolder)
        XCTAssertTrue(FileManager.default.fileExists(atPath: outputFolder + "/baton/runtime/Store.kt"))
        // Up to date: a second run writes nothing (Gradle's outputs stay as they were).
        let dates = try modificationDates(outputFolder)
        XCTAssertEqual(try BatonProcess.run(Array(command.dropFirst()), in: scratch.path).status, 0)
        XCTAssertEqual(try modificationDates(outputFolder), dates)
        let check = try BatonProcess.run(["gen", "--lang", "kotlin", "--check"], in: scratch.path)
        XCTAssertEqual(check.status, 0, "\(check)")
        // A document outside the declared input folder is not one baton.json reads (so Gradle's inputs are complete).
        try scratch.write("app/src/other/Stray.graphql", "query Stray { nope }\n")
        XCTAssertEqual(try BatonProcess.run(Array(command.dropFirst()), in: scratch.path).status, 0)
    }

    func modificationDates(_ folder: String) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let next = enumerator?.nextObject() as? String {
            dates[next] =
                try FileManager.default.attributesOfItem(atPath: folder + "/" + next)[.modificationDate] as? Date
        }
        return dates
    }
}
