import BatonCompiler
import BatonDiagnostics
import BatonTestSupport
import XCTest

/// A streamed `check` builds each project's schema while the driver looks for the documents
/// (`Driver.compile`, `ProjectResolver.schemasFound`): what it reports is the unstreamed check's.
final class DriverCheckTests: XCTestCase {
    /// A workspace of two projects whose schemas differ: each document is valid against its own
    /// project's schema only, and `b`'s schema has a problem of its own.
    func workspace() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("baton.json", #"{"projects": ["a", "b"]}"#)
        try scratch.write("a/schema.graphql", "type Query { apple: String }\n")
        try scratch.write("a/Q.graphql", "query A { apple }\nquery WrongA { pear }\n")
        try scratch.write(
            "b/schema.graphql", "type Query { pear: String }\ninterface I { x: Int }\ntype T implements I { y: Int }\n")
        try scratch.write("b/Q.graphql", "query B { pear }\nquery WrongB { apple }\n")
        for name in ["a", "b"] {
            try scratch.write("\(name)/baton.json", #"{"schema": "schema.graphql", "documents": "*.graphql"}"#)
        }
        return scratch
    }

    /// The shown diagnostics of a `check` of `scratch` (path, line, rule and message each).
    func check(_ scratch: Scratch, streams: Bool, workers: Int, paths: [String] = []) -> [String] {
        var driver = Driver(request: ProjectRequest(workingDirectory: scratch.path, paths: paths))
        driver.options.checksOnly = true
        driver.options.streamsDocuments = streams
        driver.options.workers = workers
        return driver.compile(upTo: .plan).shownDiagnostics.map { diagnostic in
            "\(diagnostic.displayPath ?? "-"):\(diagnostic.location?.line ?? 0) \(diagnostic.rule) \(diagnostic.message)"
        }
    }

    func testEachProjectIsCheckedAgainstItsOwnSchemaBuiltBesideTheDiscovery() throws {
        let scratch = try workspace()
        let whole = check(scratch, streams: false, workers: 1)
        // Each project's wrong query, and `b`'s schema's problem: nothing checked against the other's schema.
        XCTAssertEqual(whole.filter { $0.hasPrefix("a/") }.count, 1, "\(whole)")
        XCTAssertTrue(whole.contains { $0.hasPrefix("a/Q.graphql:2 ") && $0.contains("\"pear\"") }, "\(whole)")
        XCTAssertTrue(whole.contains { $0.hasPrefix("b/Q.graphql:2 ") && $0.contains("\"apple\"") }, "\(whole)")
        XCTAssertTrue(whole.contains { $0.hasPrefix("b/schema.graphql:") }, "\(whole)")
        // With a PATH, its file's diagnostics are shown, and the schema's whatever the PATH.
        let onePath = check(scratch, streams: true, workers: 2, paths: ["b/Q.graphql"])
        XCTAssertEqual(onePath, whole.filter { $0.hasPrefix("b/") }, "\(onePath)")
        for workers in [1, 2, 7] {
            XCTAssertEqual(check(scratch, streams: true, workers: workers), whole, "\(workers) workers")
            XCTAssertEqual(
                check(scratch, streams: true, workers: workers, paths: ["b/Q.graphql"]),
                check(scratch, streams: false, workers: 1, paths: ["b/Q.graphql"]), "\(workers) workers, one PATH")
        }
    }

    /// `place(of:)` tells a document's path from a schema file's or baton.json's without making every path
    /// absolute (a last segment that is no schema file's and not baton.json's is a document's): it answers
    /// what the paths made absolute answer, for paths that only become a schema file's once normalized and for
    /// non-ASCII names that `String`'s `==` holds equal in two Unicode forms.
    func testPlacesOfPathsAreThoseOfThePathsMadeAbsolute() throws {
        let scratch = try Scratch()
        try scratch.write("baton.json", #"{"schema": "sch\u00e9ma.graphql", "documents": "docs/*.graphql"}"#)
        try scratch.write("sch\u{E9}ma.graphql", "type Query { a: String }\n")
        try scratch.write("docs/Q.graphql", "query Q { a }\n")
        var driver = Driver(request: ProjectRequest(workingDirectory: scratch.path))
        driver.options.checksOnly = true
        driver.options.streamsDocuments = true
        let result = driver.compile(upTo: .plan)
        func place(_ path: String) -> DiagnosticPlace {
            result.place(of: Diagnostic(.warning, "w", rule: "test", range: nil, path: path))
        }
        let expected: [(String, DiagnosticPlace)] = [
            ("sch\u{E9}ma.graphql", .schema), ("sche\u{301}ma.graphql", .schema), ("./sch\u{E9}ma.graphql", .schema),
            ("docs/../sch\u{E9}ma.graphql", .schema), ("sch\u{E9}ma.graphql/.", .schema),
            ("sch\u{E9}ma.graphql/", .schema), (scratch.path + "/sch\u{E9}ma.graphql", .schema),
            ("docs/sch\u{E9}ma.graphql", .document), ("schema.graphql", .document), ("docs/Q.graphql", .document),
            ("baton.json", .configuration), ("docs/../baton.json", .configuration), ("baton.json/.", .configuration),
            ("docs/baton.json", .document), ("docs/..", .document), (".", .document), ("Q.graphql", .document),
        ]
        for (path, place_) in expected { XCTAssertEqual(place(path), place_, path) }
    }
}

