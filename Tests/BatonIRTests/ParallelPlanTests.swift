import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// The plan's operations built on several threads (`LensModelBuilder.build(…, workers:)`) give the
/// model and the diagnostics one thread gives, in the same order, whatever the number of threads.
final class ParallelPlanTests: XCTestCase {
    static let workerCounts = [2, 3, 8]

    func plan(_ schema: GraphQLSchema, _ documents: [Document], workers: Int) -> (String, String) {
        let (model, diagnostics) = LensModelBuilder.build(schema: schema, documents: documents, workers: workers)
        return (LensModelJSON.model(model).rendered(), diagnostics.map(TextRenderer.render).joined())
    }

    func testTheCorpusPlansAlikeOnAnyNumberOfThreads() throws {
        var operations = 0
        try CorpusLensTests.eachProject { project, schema, documents in
            let (model, _) = LensModelBuilder.build(schema: schema, documents: documents)
            operations += model.operations.count
            let one = plan(schema, documents, workers: 1)
            for workers in Self.workerCounts {
                let many = plan(schema, documents, workers: workers)
                XCTAssertEqual(many.0, one.0, "\(project): the model on \(workers) threads")
                XCTAssertEqual(many.1, one.1, "\(project): the diagnostics on \(workers) threads")
            }
        }
        XCTAssertGreaterThan(operations, 100)
    }

    /// Operations that report, shallow ones built on other threads and deep ones (built on the
    /// calling thread, whose stack the builder checks) in between: every one is built, and the
    /// diagnostics come in the order one thread reports them.
    func testDiagnosticsKeepTheirOrderAndDeepOperationsAreBuilt() throws {
        let url = PlateFixtures.fixtures.appendingPathComponent("schema.graphql")
        let schemaSource = SourceFile(path: "schema.graphql", bytes: Array(try Data(contentsOf: url)))
        let schema = try XCTUnwrap(SchemaBuilder.build(sources: [schemaSource]).0)
        var text = "fragment IssueRow_user on User { name }\n"
        // Fragments on three levels of the spread graph, some reporting a conflict of their own.
        for index in 0..<12 {
            let spread = index < 4 ? "...IssueRow_user" : "...Level\(index % 4)_user"
            let conflict = index % 3 == 0 ? "issueRow: login " : ""
            text += "fragment Level\(index)_user on User { \(conflict)\(spread) bestFriend { login } }\n"
        }
        text += "query Levels { viewer { " + (0..<12).map { "...Level\($0)_user" }.joined(separator: " ") + " } }\n"
        for index in 0..<40 {
            switch index % 4 {
            case 0:  // the spread's accessor conflicts with the alias: the model's own error
                text += "query Conflict\(index) { viewer { issueRow: login ...IssueRow_user } }\n"
            case 1:  // nested past the depth where the builder asks the stack: built on the calling thread
                let depth = 8 + index % 5
                text +=
                    "query Deep\(index) { viewer " + String(repeating: "{ bestFriend ", count: depth)
                    + "{ login issueRow: name ...IssueRow_user }" + String(repeating: " }", count: depth) + " }\n"
            case 2:
                text += "query Plain\(index)($first: Int) { viewer { login friends(first: $first) { id } } }\n"
            default:
                text += "query Typed\(index) { viewer { __typename ... on User { email } bestFriend { login } } }\n"
            }
        }
        // Several files, so each thread's share holds operations of more than one.
        let lines = text.split(separator: "\n")
        var documents: [Document] = []
        for start in stride(from: 0, to: lines.count, by: 7) {
            let chunk = lines[start..<min(start + 7, lines.count)].joined(separator: "\n")
            let parsed = Parser.parse(SourceFile(path: "file\(start).graphql", text: chunk))
            documents.append(try XCTUnwrap(parsed.document, "file\(start)"))
        }
        let (model, diagnostics) = LensModelBuilder.build(schema: schema, documents: documents, workers: 1)
        XCTAssertEqual(model.operations.count, 41)
        XCTAssertEqual(model.fragments.count, 13)
        XCTAssertEqual(diagnostics.count, 22, "each conflict, in operations and fragments, is reported")
        XCTAssertEqual(Set(diagnostics.map(\.rule)), [LensDiagnosticRule.accessorNameConflict])
        let one = plan(schema, documents, workers: 1)
        for workers in Self.workerCounts {
            let many = plan(schema, documents, workers: workers)
            XCTAssertEqual(many.0, one.0, "the model on \(workers) threads")
            XCTAssertEqual(many.1, one.1, "the diagnostics on \(workers) threads")
        }
        // A fragment nesting past the stack checks' depth: every fragment on the calling thread.
        let deep = Parser.parse(
            SourceFile(
                path: "deep.graphql",
                text: "fragment Deep_user on User " + String(repeating: "{ bestFriend ", count: 9) + "{ login }"
                    + String(repeating: " }", count: 9) + "\nquery UsesDeep { viewer { ...Deep_user } }\n"))
        let withDeep = documents + [try XCTUnwrap(deep.document)]
        let oneDeep = plan(schema, withDeep, workers: 1)
        XCTAssertEqual(plan(schema, withDeep, workers: 3).0, oneDeep.0)
        XCTAssertEqual(plan(schema, withDeep, workers: 3).1, oneDeep.1)
    }

    /// Fragments spreading fragments seven levels deep, several per level, built level by level on
    /// several threads (`fragmentsBuiltInParallel`): the models, the names and the diagnostics (the
    /// fragments' own conflicts, on every level) are the ones one thread gives. The names make the
    /// one thread's post-order differ from the levels' order (a fragment of level 0 named after
    /// fragments of higher levels). With a fragment on a type the schema lacks, spread on several
    /// levels, and with a cycle (one thread cuts it), the same.
    func testFragmentsSpreadManyLevelsDeepPlanAlike() throws {
        let url = PlateFixtures.fixtures.appendingPathComponent("schema.graphql")
        let schemaSource = SourceFile(path: "schema.graphql", bytes: Array(try Data(contentsOf: url)))
        let schema = try XCTUnwrap(SchemaBuilder.build(sources: [schemaSource]).0)
        let (levels, width) = (7, 9)
        var lines: [String] = []
        for level in 0..<levels {
            for index in 0..<width {
                var body = "login"
                if level > 0 {
                    // Two of the level below, and one two levels below where there is one.
                    body += " ...Frag\(level - 1)x\(index)_user ...Frag\(level - 1)x\((index + 4) % width)_user"
                    if level > 1 { body += " bestFriend { ...Frag\(level - 2)x\((index + 2) % width)_user }" }
                }
                if (level + index) % 4 == 0 && level > 0 {
                    // An alias taking the spread's accessor name: the fragment's own error.
                    body += " frag\(level - 1)x\(index): name"
                }
                lines.append("fragment Frag\(level)x\(index)_user on User { \(body) }")
            }
        }
        // Level 0 fragments named after every other: last in one thread's order, first in the levels'.
        for index in 0..<width {
            lines.append("fragment Zed\(index)_user on User { email zed\(index): login ...Zed\(index)_user }"
                .replacingOccurrences(of: " ...Zed\(index)_user", with: index % 2 == 0 ? " friends(first: 2) { id }" : ""))
        }
        for index in 0..<width {
            lines.append(
                "query Top\(index) { viewer { ...Frag\(levels - 1)x\(index)_user ...Zed\(index)_user "
                    + "bestFriend { ...Frag\(index % levels)x\(index)_user } } }")
        }
        func documents(_ lines: [String]) throws -> [Document] {
            var documents: [Document] = []
            for start in stride(from: 0, to: lines.count, by: 5) {
                let chunk = lines[start..<min(start + 5, lines.count)].joined(separator: "\n")
                let parsed = Parser.parse(SourceFile(path: "levels\(start).graphql", text: chunk))
                documents.append(try XCTUnwrap(parsed.document, "levels\(start)"))
            }
            return documents
        }
        let plain = try documents(lines)
        let (model, diagnostics) = LensModelBuilder.build(schema: schema, documents: plain, workers: 1)
        XCTAssertEqual(model.fragments.count, levels * width + width)
        XCTAssertEqual(model.operations.count, width)
        XCTAssertEqual(diagnostics.count, 13, "each fragment's own conflict, once")
        XCTAssertEqual(Set(diagnostics.map(\.rule)), [LensDiagnosticRule.accessorNameConflict])
        // A fragment on a type the schema lacks, spread on several levels; then a cycle.
        var missing = lines
        missing.append("fragment Gone_user on Nobody { id }")
        missing[3] = missing[3].replacingOccurrences(of: "{ login", with: "{ login ...Gone_user")
        missing[width * 3 + 1] = missing[width * 3 + 1].replacingOccurrences(of: "{ login", with: "{ login ...Gone_user")
        var cycle = lines
        cycle[2] = cycle[2].replacingOccurrences(of: "{ login", with: "{ login ...Frag3x2_user")
        for (label, set) in [("plain", plain), ("missing", try documents(missing)), ("cycle", try documents(cycle))] {
            let one = plan(schema, set, workers: 1)
            for workers in Self.workerCounts {
                let many = plan(schema, set, workers: workers)
                XCTAssertEqual(many.0, one.0, "\(label): the model on \(workers) threads")
                XCTAssertEqual(many.1, one.1, "\(label): the diagnostics on \(workers) threads")
            }
        }
    }
}
