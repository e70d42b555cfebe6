import BatonCodegen
import BatonCodegenSwift
import BatonIR
import Foundation
import XCTest

/// Generated operations carry their variables' defaults (`variableDefaults`) so the runtime keys slots and evaluates
/// `@include`/`@skip` as the server executes an unset defaulted variable, while the request leaves it absent.
final class SwiftVariableDefaultsTests: XCTestCase {
    static let schema = """
        enum Order { NEWEST OLDEST }
        input Range { from: Int to: Int }
        type Item { id: ID! name: String }
        type Query { items(first: Int, order: Order, range: Range, tags: [String!]): [Item!] }
        """

    static let documents = """
        query Items($first: Int = 10, $order: Order = NEWEST, $range: Range = {from: 1, to: 2}, $tags: [String!] = ["a"],
                    $withName: Boolean = true, $plain: Int) {
          items(first: $first, order: $order, range: $range, tags: $tags) { id name @include(if: $withName) }
          again: items(first: $plain) { id }
        }
        query NoDefaults($first: Int) { items(first: $first) { id } }
        """

    func generated() throws -> [GeneratedFile] {
        let schema = try ModelHarness.schema(sdl: Self.schema)
        let model = try ModelHarness.model(schema: schema, documents: [("defaults.graphql", Self.documents)])
        return SwiftGenerator(model: model).generate()
    }

    func testGeneratedOperationsCarryTheirDefaults() throws {
        let files = try generated()
        let items = try XCTUnwrap(files.first { $0.contents.contains("struct Items: Baton.DefaultVariablesOperation") }).contents
        XCTAssertTrue(
            items.contains(
                #"static let variableDefaults: [String: Baton.JSONValue] = ["first": .number("10"), "order": .string("NEWEST"), "#
                    + #""range": .object(Baton.JSONObject([("from", .number("1")), ("to", .number("2"))])), "#
                    + #""tags": .array([.string("a")]), "withName": .bool(true)]"#),
            items)
        XCTAssertFalse(items.contains(#""plain": "#), "a variable without a default has no entry")
        let none = try XCTUnwrap(files.first { $0.contents.contains("struct NoDefaults: Baton.DefaultVariablesOperation") })
            .contents
        XCTAssertFalse(none.contains("variableDefaults"), "no defaults: the protocol's [:] applies")
    }

    static let program = #"""
        import Baton
        import Foundation

        let store = Store()
        let body = #"{"data":{"items":[{"id":"1","name":"One"}],"again":[{"id":"2"}]}}"#
        _ = try store.commit(bytes: Data(body.utf8), for: Items())
        print("sent: \(Items().variables.keys.sorted())")
        print("keys: \(store.record("Query").map { $0.slots.keys.sorted() } ?? [])")
        let data = try store.read(Items())
        print("names: \(data.items?.map { $0.name ?? "nil" } ?? [])")
        print("set: \(Items(first: 3).resolvedVariables["first"].map { "\($0)" } ?? "nil")")
        print("none: \(NoDefaults.variableDefaults.count)")
        """#

    func testGeneratedDefaultsKeyTheStoreAsTheServerExecutes() throws {
        let files = try generated()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-defaults-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try FileWriter(root: folder.path, managedExtensions: ["swift"]).write(files)
        try Self.program.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let output = try SwiftCompiler.buildAndRun(
            files.map { folder.appendingPathComponent($0.path).path } + [
                folder.appendingPathComponent("main.swift").path
            ])
        XCTAssertEqual(
            output,
            """
            sent: []
            keys: ["items", "items({\\"first\\":10,\\"order\\":\\"NEWEST\\",\\"range\\":{\\"from\\":1,\\"to\\":2},\\"tags\\":[\\"a\\"]})"]
            names: ["One"]
            set: number("3")
            none: 0

            """)
    }
}
