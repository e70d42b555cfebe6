import BatonDiagnostics
import BatonSchema
import BatonSyntax
import XCTest

@testable import BatonIR

/// `check`'s plan for its diagnostics only (`LensModelBuilder.checkDiagnostics`, batch by batch in
/// `StreamingCheck`): the diagnostics `build` gives with `checksOnly`, the same text in the same
/// order, whether it builds no fragment model (the screened build) or falls back to `run()`; and
/// the schema-wide decisions (`PlanDecisions`) given by the caller are the ones used.
final class CheckDiagnosticsTests: XCTestCase {
    static let schemaText = """
        scalar JSON
        directive @refetchable(queryName: String!) on FRAGMENT_DEFINITION
        type Query { node: Node, items: [Item], data(value: JSON): String, filtered(filter: Filter): Node }
        type Node @typePolicy(keyFields: "id") { id: ID!, next: Node, name: String, user: Node, asPost: String }
        interface Item { id: ID! }
        type Post implements Item { id: ID!, title: String }
        input Filter { deep: \(String(repeating: "[", count: 33))Int\(String(repeating: "]", count: 33)) }
        """

    static func schema() throws -> GraphQLSchema {
        try XCTUnwrap(SchemaBuilder.build(sources: [SourceFile(path: "schema.graphql", text: schemaText)]).0)
    }

    static func documents(_ texts: [String]) throws -> [Document] {
        try texts.enumerated().map { index, text in
            try XCTUnwrap(Parser.parse(SourceFile(path: "D\(index).graphql", text: text)).document, text)
        }
    }

    /// The built plan's diagnostics and the screened build's (nil when it fell back), rendered;
    /// and whether some fragment nests past the text's unguarded depth, as the screened build
    /// took it and as the fragments say.
    static func bothWays(_ schema: GraphQLSchema, _ documents: [Document]) -> (
        built: String, screened: String?, nestsPastText: (taken: Bool?, found: Bool)
    ) {
        var options = LensModelOptions()
        options.checksOnly = true
        let built = LensModelBuilder.build(schema: schema, documents: documents, options: options).1
        let context = LensBuildContext(schema: schema, documents: documents, options: options)
        let screened = context.screenedDiagnostics().map { TextRenderer.render($0) }
        // Falling back, the context is left as `run()` starts: no fragment named as built.
        if screened == nil { XCTAssertEqual(context.spreadAccessorNames, [:]) }
        let found = LensBuildContext(schema: schema, documents: documents, options: options).someFragmentNestsPastText
        return (TextRenderer.render(built), screened, (context.fragmentsNestPastText, found))
    }

    func testTheScreenedBuildGivesTheBuiltPlansDiagnostics() throws {
        let schema = try Self.schema()
        let deep = String(repeating: "next { ", count: 9) + "id" + String(repeating: " }", count: 9)
        // Each case: its documents, whether the screened build can stand for `run()`, and a rule
        // its diagnostics must hold (nil: no error).
        let cases: [(name: String, documents: [String], screened: Bool, holds: String?)] = [
            (
                "a chain of fragments, the spreading ones first",
                [
                    "query Q { node { ...A_a } }", "fragment A_a on Node { id ...B_b }",
                    "fragment B_b on Node { name ...C_c }", "fragment C_c on Node { user { id } }",
                ], true, nil
            ),
            (
                "a fragment the screen does not clear, spreading one it does",
                [
                    "query Q { node { ...Deep_a } }", "fragment Deep_a on Node { \(deep) ...User_b }",
                    "fragment User_b on Node { user: name ...User_c }", "fragment User_c on Node { id }",
                ], true, LensDiagnosticRule.accessorNameConflict
            ),
            (
                "fragments walked, each with a conflict, and a deep operation",
                [
                    "fragment Z_z on Node { user { id } ...User_b next { \(deep) } }",
                    "fragment A_a on Node { asPost: name ... on Node { id } ...User_b user: id }",
                    "fragment User_b on Node { id }", "query Q { node { ...Z_z ...A_a next { \(deep) } } }",
                ], true, LensDiagnosticRule.accessorNameConflict
            ),
            (
                "an operation and a fragment of one name, twice",
                [
                    "query Same { node { id } } query Other { node { ...Other } }",
                    "fragment Same on Node { id } fragment Other on Node { name }",
                ], true, LensDiagnosticRule.definitionNameConflict
            ),
            (
                "operations of one name, only the second's variable reaching a deep input",
                ["query Q { node { id } }", "query Q($filter: Filter) { filtered(filter: $filter) { id } }"], true,
                nil
            ),
            (
                "a variable reaching a deep input", ["query R($filter: Filter) { filtered(filter: $filter) { id } }"],
                true, LensDiagnosticRule.nestingTooDeep
            ),
            ("an anonymous operation", ["{ node { id: name } }"], true, LensDiagnosticRule.anonymousOperation),
            (
                "a key field taken, in a fragment",
                ["fragment F_f on Node { id: name }", "query Q { node { ...F_f } }"],
                true, LensDiagnosticRule.keyFieldTaken
            ),
            (
                "a spread cycle",
                [
                    "fragment A_a on Node { ...B_b }", "fragment B_b on Node { next { ...A_a } }",
                    "query Q { node { ...A_a } }",
                ],
                false, nil
            ),
            ("a fragment spreading itself", ["fragment A_a on Node { next { ...A_a } }"], false, nil),
            (
                "a fragment on a type the schema lacks",
                ["fragment A_a on Missing { id }", "query Q { node { ...A_a } }"], false, nil
            ),
            (
                "a refetchable fragment",
                ["fragment A_a on Query @refetchable(queryName: \"Again\") { node { id } }", "query Q { ...A_a }"],
                false, nil
            ),
            (
                "a spread of a fragment nowhere defined", ["query Q { node { ...Nowhere_a user { id } } }"], true,
                nil
            ),
        ]
        var nestingPastText = 0
        for (name, texts, screened, holds) in cases {
            let (built, fast, nestsPastText) = Self.bothWays(schema, try Self.documents(texts))
            if screened {
                XCTAssertEqual(fast, built, name)
                XCTAssertEqual(nestsPastText.taken, nestsPastText.found, name)
                if nestsPastText.found { nestingPastText += 1 }
            } else {
                XCTAssertNil(fast, name)
            }
            if let holds {
                XCTAssertTrue(built.contains(holds), "\(name): \(built)")
            } else if screened {
                XCTAssertFalse(built.contains("error"), "\(name): \(built)")
            }
            // The entry point gives the built plan's diagnostics either way.
            var options = LensModelOptions()
            options.checksOnly = true
            let checked = LensModelBuilder.checkDiagnostics(
                schema: schema, documents: try Self.documents(texts), options: options)
            XCTAssertEqual(TextRenderer.render(checked), built, name)
        }
        XCTAssertEqual(nestingPastText, 2, "the cases with a fragment nesting past the text's depth")
    }

    func testTheCorpusProjectsAreScreenedWithTheBuiltPlansDiagnostics() throws {
        var screened = 0
        try CorpusLensTests.eachProject { project, schema, documents in
            let (built, fast, nestsPastText) = Self.bothWays(schema, documents)
            if let fast {
                XCTAssertEqual(fast, built, project)
                XCTAssertEqual(nestsPastText.taken, nestsPastText.found, project)
                screened += 1
            }
        }
        XCTAssertGreaterThan(screened, 5)
    }

    /// The decisions a caller gives are the build's: a key declared in them alone is one the plan
    /// refuses to see taken, and is not without them.
    func testTheDecisionsGivenAreTheOnesUsed() throws {
        let schema = try XCTUnwrap(
            SchemaBuilder.build(sources: [
                SourceFile(path: "s.graphql", text: "type Query { node: Node } type Node { id: ID!, name: String }")
            ]).0)
        let documents = try Self.documents(["query Q { node { id: name } }"])
        var keyed = LensModelOptions()
        keyed.keyFields = [KeyFieldsDeclaration(typeName: "Node", fields: ["id"], origin: .configuration, range: nil)]
        let decisions = PlanDecisions(schema: schema, options: keyed)
        XCTAssertEqual(decisions.recordKeys.fields(of: "Node"), ["id"])
        let plain = LensModelOptions()
        let given = LensModelBuilder.checkDiagnostics(
            schema: schema, documents: documents, options: plain, decisions: decisions)
        let own = LensModelBuilder.checkDiagnostics(schema: schema, documents: documents, options: plain)
        XCTAssertEqual(given.map(\.rule), [LensDiagnosticRule.keyFieldTaken])
        XCTAssertEqual(own.map(\.rule), [])
    }

    func testCyclesAreFound() {
        XCTAssertFalse(LensBuildContext.hasCycle([]))
        XCTAssertFalse(LensBuildContext.hasCycle([[1, 2], [2], []]))
        XCTAssertFalse(LensBuildContext.hasCycle([[], [0], [0, 1]]))
        XCTAssertTrue(LensBuildContext.hasCycle([[0]]))
        XCTAssertTrue(LensBuildContext.hasCycle([[1], [2], [0]]))
        XCTAssertTrue(LensBuildContext.hasCycle([[], [2], [3], [1]]))
    }

    /// The fragments by name keep the first definition of a name, as validation's order has it.
    func testTheFirstFragmentOfANameIsTheOneKept() throws {
        let schema = try Self.schema()
        let documents = try Self.documents([
            "fragment F on Node { id } fragment G on Node { name }", "query Q { node { ...F } }",
            "fragment F on Node { name } fragment G on Node { id }",
        ])
        var options = LensModelOptions()
        options.checksOnly = true
        let context = LensBuildContext(schema: schema, documents: documents, options: options)
        for (name, index) in [("F", 0), ("G", 1)] {
            guard case .fragment(let first) = documents[0].definitions[index] else { return XCTFail("not a fragment") }
            XCTAssertTrue(context.fragmentNodes[name]?.0 === first, name)
            XCTAssertEqual(context.fragmentNodes[name]?.1.path, "D0.graphql", name)
        }
        XCTAssertEqual(context.fragmentNodes.count, 2)
    }

    /// A variable's list levels counted on its syntax are its `TypeRef`'s.
    func testAVariablesListLevelsAreItsTypesOnes() throws {
        let deep = String(repeating: "[", count: 33) + "Int" + String(repeating: "]", count: 33)
        let document = try XCTUnwrap(
            try Self.documents(["query Q($a: Int, $b: [Int], $c: [[Int!]!]!, $d: [Int]!, $e: \(deep)) { node { id } }"])
                .first)
        guard case .operation(let operation) = document.definitions.first else { return XCTFail("not an operation") }
        let levels = operation.variableDefinitions.map { LensModelBuilder.listDepth($0.type) }
        XCTAssertEqual(levels, [0, 1, 2, 1, 33])
        XCTAssertEqual(levels, operation.variableDefinitions.map { LensModelBuilder.listDepth(TypeRef($0.type)) })
    }

    /// A selection set the screen clears is not walked again to learn whether it nests past the text's
    /// unguarded depth: the answer is the walk's at every depth, cleared or not.
    func testWhetherASetNestsPastTheTextIsTheWalksAnswer() throws {
        for depth in 0...12 {
            let open = String(repeating: "next { ", count: depth)
            let close = String(repeating: " }", count: depth)
            let document = try XCTUnwrap(try Self.documents(["query Q { node { \(open)id\(close) } }"]).first)
            guard case .operation(let operation) = document.definitions.first else {
                return XCTFail("not an operation")
            }
            let set = operation.selectionSet
            var screen = RefusalScreen(keyFieldNames: ["id"], someFieldNestsTooManyLists: false)
            let cleared = screen.clears(set, spreadAccessorName: { _ in nil }, inlineAccessorName: { _ in nil })
            XCTAssertEqual(cleared, depth + 1 < RefusalScreen.clearedLevels, "depth \(depth)")
            let nests = LensBuildContext.nestingDepth(set) > DocumentText.unguardedDepth
            XCTAssertEqual(LensBuildContext.mayNestPastText(set, screened: cleared), nests, "depth \(depth)")
            XCTAssertEqual(LensBuildContext.mayNestPastText(set, screened: false), nests, "depth \(depth)")
        }
    }
}
