import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// `check` builds the plan for its diagnostics only (`LensModelOptions.checksOnly`): no lenses
/// kept, no document texts printed. Its diagnostics must be the full plan's, byte for byte, on
/// every plate and generator fixture, on the corpus projects and on selections nested past
/// where the document text asks the stack.
final class CheckingPlanTests: XCTestCase {
    /// Every diagnostic of a compilation to the plan, rendered, full and checking.
    static func bothWays(_ sections: [(path: String, text: String)], schema: (path: String, bytes: [UInt8]))
        -> (full: String, checking: String, checkingModel: LensModel?)
    {
        let full = FixtureProject(sections: sections, defaultSchema: schema, upTo: .plan, targets: .configured)
        let checking = FixtureProject(
            sections: sections, defaultSchema: schema, upTo: .plan, targets: .configured, checksOnly: true)
        return (
            TextRenderer.render(full.diagnostics), TextRenderer.render(checking.diagnostics),
            checking.compilation.model
        )
    }

    func testFixturesGiveTheSameDiagnosticsWhenChecking() throws {
        let irFixtures = PlateFixtures.fixtures
        let codegenFixtures = irFixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BatonCodegenTests/Fixtures")
        let suites: [(URL, URL)] = [
            (irFixtures.appendingPathComponent("plates"), irFixtures.appendingPathComponent("schema.graphql")),
            (
                codegenFixtures.appendingPathComponent("generators"),
                codegenFixtures.appendingPathComponent("schema.graphql")
            ),
        ]
        var compared = 0
        var withErrors = 0
        for (folder, schemaURL) in suites {
            let schema = ("schema.graphql", Array(try Data(contentsOf: schemaURL)))
            for fixture in FixtureRunner.cases("checking", in: folder) {
                let text = try fixture.input()
                guard PlateFixtures.corpusSchema(text) == nil else { continue }
                let (full, checking, _) = Self.bothWays(try fixture.sections(keepsPreamble: true), schema: schema)
                XCTAssertEqual(checking, full, "\(fixture)")
                compared += 1
                if full.contains("error") { withErrors += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 20)
        XCTAssertGreaterThanOrEqual(withErrors, 2)  // the plate fixtures' two .invalid cases
    }

    func testDeepSelectionsGiveTheSameDiagnosticsWhenChecking() throws {
        let schema = Array(
            """
            type Query { node: Node }
            type Node { id: ID!, next: Node, name: String }
            """.utf8)
        // 10 levels (past the depth where the document text asks the stack) and 230 levels (past
        // the plan's 200: an error), each in an operation and in a fragment.
        for depth in [10, 230] {
            let open = String(repeating: "next { ", count: depth)
            let close = String(repeating: " }", count: depth)
            let document = """
                query Deep\(depth) { node { \(open)id\(close) } ...DeepFragment\(depth) }
                fragment DeepFragment\(depth) on Query { node { \(open)name\(close) } }
                """
            let (full, checking, model) = Self.bothWays(
                [("Deep.graphql", document)], schema: ("schema.graphql", schema))
            XCTAssertEqual(checking, full, "depth \(depth)")
            XCTAssertEqual(full.contains(LensDiagnosticRule.nestingTooDeep), depth > 200, full)
            if depth < 200 {
                // Checking keeps what can refuse and no more.
                let operation = try XCTUnwrap(model?.operations.first)
                XCTAssertEqual(operation.documentText, "")
                XCTAssertEqual(operation.operationID, "")
                XCTAssertTrue(operation.lens.accessors.isEmpty)
                XCTAssertTrue(try XCTUnwrap(model?.fragments.first).lens.accessors.isEmpty)
            }
        }
    }

    /// Checking lists an operation's fragments only when one of the documents' fragments nests past
    /// `DocumentText.unguardedDepth` (only then can they make the text's transform refuse); its
    /// diagnostics are the full plan's either way.
    func testCheckingListsTheFragmentsUsedOnlyWhenOneNestsDeep() throws {
        let schema = Array(
            """
            type Query { node: Node }
            type Node { id: ID!, next: Node, name: String }
            """.utf8)
        for (depth, listed) in [(2, false), (10, true)] {
            let open = String(repeating: "next { ", count: depth)
            let close = String(repeating: " }", count: depth)
            let document = """
                query Shallow { node { id } ...Used }
                fragment Used on Query { node { \(open)name\(close) } }
                """
            let (full, checking, model) = Self.bothWays(
                [("Shallow.graphql", document)], schema: ("schema.graphql", schema))
            XCTAssertEqual(checking, full, "depth \(depth)")
            XCTAssertEqual(
                try XCTUnwrap(model?.operations.first).fragmentsUsed, listed ? ["Used"] : [], "depth \(depth)")
        }
    }

    func testDeepInputFieldsGiveTheSameDiagnosticsWhenChecking() throws {
        // An input object a variable reaches, with a field nesting more lists than the generators
        // write: `gen` refuses it, so `check` must too.
        let lists = LensModelBuilder.maximumListLevels + 1
        let type = String(repeating: "[", count: lists) + "Int" + String(repeating: "]", count: lists)
        let schema = Array(
            """
            type Query { node(filter: Filter): Node }
            type Node { id: ID! }
            input Filter { deep: \(type) }
            """.utf8)
        let document = "query Filtered($filter: Filter) { node(filter: $filter) { id } }"
        let (full, checking, _) = Self.bothWays([("Filtered.graphql", document)], schema: ("schema.graphql", schema))
        XCTAssertTrue(full.contains("The input field Filter.deep nests"), full)
        XCTAssertEqual(checking, full)
    }

    func testCorpusProjectsGiveTheSameDiagnosticsWhenChecking() throws {
        var operations = 0
        try CorpusLensTests.eachProject { project, schema, documents in
            var options = LensModelOptions()
            let (full, fullDiagnostics) = LensModelBuilder.build(schema: schema, documents: documents, options: options)
            options.checksOnly = true
            let (checking, checkingDiagnostics) = LensModelBuilder.build(
                schema: schema, documents: documents, options: options)
            XCTAssertEqual(TextRenderer.render(checkingDiagnostics), TextRenderer.render(fullDiagnostics), project)
            XCTAssertEqual(checking.operations.map(\.name), full.operations.map(\.name), project)
            XCTAssertEqual(checking.fragments.map(\.name), full.fragments.map(\.name), project)
            XCTAssertTrue(checking.operations.allSatisfy { $0.documentText.isEmpty && $0.lens.accessors.isEmpty })
            operations += full.operations.count
        }
        XCTAssertGreaterThan(operations, 100)
    }

    /// Each refusal the plan's walk makes, next to what `check`'s screen (`RefusalScreen`) cannot
    /// clear: checking gives the full plan's diagnostics on both sides of each, whether the screen
    /// skips the walk or not.
    func testRefusalsNearTheScreenGiveTheSameDiagnosticsWhenChecking() throws {
        let schema = Array(
            """
            scalar JSON
            directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT
            type Query { node: Node, items: [Item], data(value: JSON): String }
            type Node @typePolicy(keyFields: "id") { id: ID!, next: Node, name: String, user: Node, asPost: String, data(value: JSON): String }
            interface Item { id: ID! }
            type Post implements Item { id: ID!, title: String }
            type Photo implements Item { id: ID!, url: String }
            """.utf8)
        let deepValue = String(repeating: "[", count: 70) + "1" + String(repeating: "]", count: 70)
        let cases: [(name: String, document: String, refuses: String?)] = [
            ("clean", "fragment User_a on Node { id name } query Q { node { ...User_a next { id } } }", nil),
            (
                "field and spread", "fragment User_a on Node { id } query Q { node { user { id } ...User_a } }",
                LensDiagnosticRule.accessorNameConflict
            ),
            (
                "two fragments, one name",
                "fragment Item_a on Node { id } fragment Item_b on Node { name } query Q { node { ...Item_a ...Item_b } }",
                LensDiagnosticRule.accessorNameConflict
            ),
            (
                "a spread inside the field of its name",
                "fragment User_a on Node { id } query Q { node { user { ...User_a } } }", nil
            ),
            (
                "one name in two lenses",
                "fragment Item_a on Node { id } fragment Item_b on Node { name } query Q { node { ...Item_a next { ...Item_b } } }",
                nil
            ),
            (
                "field and inline fragment", "query Q { items { id ... on Post { title } } node { asPost } }",
                nil
            ),
            (
                "field and inline fragment, one lens",
                "query Q { items { ... on Post { title } asPost: id } }", LensDiagnosticRule.accessorNameConflict
            ),
            ("a key field taken", "query Q { node { id: name } }", LensDiagnosticRule.keyFieldTaken),
            (
                "an argument too deep", "query Q { node { data(value: \(deepValue)) } }",
                LensDiagnosticRule.nestingTooDeep
            ),
            (
                "deferred inline fragment without a type",
                "query Q { node { ... @defer { name } asNode: name } }", LensDiagnosticRule.accessorNameConflict
            ),
        ]
        for (name, document, refuses) in cases {
            let (full, checking, _) = Self.bothWays([("Q.graphql", document)], schema: ("schema.graphql", schema))
            XCTAssertEqual(checking, full, name)
            if let refuses {
                XCTAssertTrue(full.contains(refuses), "\(name): \(full)")
            } else {
                XCTAssertFalse(full.contains("error"), "\(name): \(full)")
            }
        }
    }
}
