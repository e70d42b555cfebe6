import BatonCodegen
import BatonCompiler
import Foundation
import XCTest

/// `gen --build-map` (a build plugin's run: one file per document, `SwiftBuildLayout`) keeps a
/// manifest too: after each kind of edit its files are byte for byte a cold run's, a document's
/// file is written again only when a definition in it changed, and a run with nothing changed
/// compiles nothing.
final class IncrementalBuildMapTests: XCTestCase {
    var folder = ""

    static let configuration = #"""
        {"schema": "schema.graphql", "documents": ["Sources/**/*.graphql", "Sources/**/*.swift"],
         "output": {"swift": {"path": "Generated"}}}
        """#
    static let documents = [
        "Sources/HeroBits.graphql": "fragment HeroBits on Hero { id name }\n",
        "Sources/A.graphql": "query HeroA($id: ID!) { hero(id: $id) { ...HeroBits mood } }\n",
        "Sources/C.graphql": "query HeroC { hero(id: \"1\") { id } }\n",
        "Sources/Cheer.graphql": "mutation Cheer($id: ID!) { cheer(id: $id) { id mood } }\n",
        "Sources/Screen.swift": """
            import Baton

            @Query(\"\"\"
            query ScreenHero { hero(id: "2") { name } }
            \"\"\")
            struct Screen {}

            """,
        "Sources/Empty.graphql": "# nothing yet\nquery Placeholder { hero(id: \"0\") { id } }\n",
    ]

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "baton-build-map-" + UUID().uuidString
        try write("schema.graphql", IncrementalGenTests.schema)
        try write("baton.json", Self.configuration)
        for (path, text) in Self.documents { try write(path, text) }
        XCTAssertEqual(gen(in: folder).status, .clean)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func write(_ path: String, _ text: String) throws {
        let full = folder + "/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// The layout a build plugin would declare for the project in `root`: a file per source.
    func layout(_ root: String) -> SwiftBuildLayout {
        let sources = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Sources")) ?? []
        var outputs: [String: String] = [:]
        let documents = sources.sorted().map { root + "/Sources/" + $0 }
        for document in documents {
            outputs[document] = (document as NSString).lastPathComponent + ".baton.swift"
        }
        return SwiftBuildLayout(documents: documents, outputs: outputs, shared: "Baton.baton.swift")
    }

    func gen(in root: String) -> DriverResult {
        let layout = layout(root)
        var request = ProjectRequest(workingDirectory: root)
        request.buildDocuments = layout.documents
        request.swiftOutputPath = root + "/Generated"
        return Driver(request: request, targets: .named(["swift"]), swiftLayout: layout).generate(check: false)
    }

    func outputs(in root: String) throws -> [String: String] {
        var found: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: root + "/Generated") where !name.hasPrefix(".") {
            found[name] = try String(contentsOfFile: root + "/Generated/" + name, encoding: .utf8)
        }
        return found
    }

    /// Runs `gen` after `edit`; checks the files against a cold run's; returns the files written.
    @discardableResult
    func assertIncrementalIsCold(_ what: String, file: StaticString = #filePath, line: UInt = #line, _ edit: () throws -> Void)
        throws -> [String]
    {
        try edit()
        let result = gen(in: folder)
        XCTAssertEqual(result.status, .clean, "\(what): \(result.diagnostics.map(\.message))", file: file, line: line)
        let cold = try IncrementalGenTests.inFreshCopy(of: folder) { copy in
            XCTAssertEqual(gen(in: copy).status, .clean, file: file, line: line)
            return try outputs(in: copy)
        }
        let incremental = try outputs(in: folder)
        XCTAssertEqual(incremental.keys.sorted(), cold.keys.sorted(), "\(what): the files", file: file, line: line)
        for (path, text) in cold where incremental[path] != text {
            XCTFail("\(what): \(path) differs from a cold run's", file: file, line: line)
        }
        return result.folders.flatMap { $0.report.changes.map(\.path) }.sorted()
    }

    func testABuildRewritesOnlyTheDocumentsAnEditReaches() throws {
        let again = gen(in: folder)
        XCTAssertNotNil(again.compilations.first?.generation.upToDate, "nothing changed: nothing compiled")
        XCTAssertFalse(again.folders.contains { $0.report.hasChanges })

        let edited = try assertIncrementalIsCold("an operation no other document names") {
            try write("Sources/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        }
        XCTAssertEqual(edited, ["C.graphql.baton.swift"])
        XCTAssertEqual(gen(in: folder).compilations.first?.generation.upToDate?.isEmpty, false)
        // Only the edited document is read, validated and planned (`GenerationRun.partial`).
        try write("Sources/C.graphql", "query HeroC { hero(id: \"1\") { name id } }\n")
        let partial = gen(in: folder).compilations.first?.generation.partial
        XCTAssertEqual(partial?.units.map { ($0.path as NSString).lastPathComponent }, ["C.graphql"])

        // The fragment's file and the file of the query spreading it; the shared file is written
        // each run but changes only when schema types do.
        let fragment = try assertIncrementalIsCold("a fragment another document spreads") {
            try write("Sources/HeroBits.graphql", "fragment HeroBits on Hero { id name mood }\n")
        }
        XCTAssertEqual(fragment, ["A.graphql.baton.swift", "HeroBits.graphql.baton.swift"])

        try assertIncrementalIsCold("a Swift literal") {
            try write("Sources/Screen.swift", Self.documents["Sources/Screen.swift"]!.replacingOccurrences(of: "name", with: "name mood"))
        }
        try assertIncrementalIsCold("a mutation newly spreading the fragment") {
            try write("Sources/Cheer.graphql", "mutation Cheer($id: ID!) { cheer(id: $id) { ...HeroBits } }\n")
        }
        XCTAssertTrue(try outputs(in: folder)["HeroBits.graphql.baton.swift"]?.contains("struct Optimistic") == true)
        try assertIncrementalIsCold("a definition moved to another document, another added") {
            try write("Sources/Empty.graphql", "query Other { hero(id: \"5\") { id } }\n")
            try write("Sources/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\nquery Placeholder { hero(id: \"0\") { id } }\n")
        }
        try assertIncrementalIsCold("a document's file edited by hand") {
            try write("Generated/C.graphql.baton.swift", "// @generated by Baton, edited\n")
        }
    }
}
