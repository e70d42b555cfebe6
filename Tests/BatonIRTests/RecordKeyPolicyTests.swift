import BatonDiagnostics
import BatonIR
import BatonSchema
import XCTest

/// `RecordKeyPolicy`, the one decision of which fields key which type's records: Apollo's `keyFields` text,
/// inheritance from interfaces and unions, baton.json replacing the schema, and what it refuses.
final class RecordKeyPolicyTests: XCTestCase {
    static func schema(_ text: String) throws -> GraphQLSchema {
        try XCTUnwrap(SchemaBuilder.build(sources: [SourceFile(path: "s.graphqls", text: text)]).0)
    }

    static let base = """
        type Query { a: A }
        interface Node { id: ID! }
        interface Named { name: String }
        type A implements Node & Named { id: ID! name: String n: Int list: [Int] e: E b: B }
        type B implements Node { id: ID! code: String }
        type C { id: ID! code: String }
        union U = B | C
        enum E { X }

        """

    func decide(_ extra: String, configured: [KeyFieldsDeclaration] = []) throws -> (RecordKeys, [String]) {
        let (keys, diagnostics) = RecordKeyPolicy.decide(schema: try Self.schema(Self.base + extra), configured: configured)
        return (keys, diagnostics.map(\.message))
    }

    func testApolloKeyFieldsTextIsFieldNamesSeparatedBySpacesOrCommas() {
        XCTAssertEqual(try RecordKeyPolicy.parse(" id,  mediaId\n").get(), ["id", "mediaId"])
        XCTAssertEqual(try RecordKeyPolicy.parse("").get(), [])
        XCTAssertEqual(RecordKeyPolicy.parse("id author { id }"), .failure(.nested("author")))
        XCTAssertEqual(RecordKeyPolicy.parse("alias: id"), .failure(.unexpected("alias:")))
        XCTAssertEqual(RecordKeyPolicy.parse("id(x: 1)"), .failure(.unexpected("id(")))
    }

    func testObjectsInheritTheKeyOfTheirInterfacesAndUnions() throws {
        let (keys, problems) = try decide(
            """
            extend interface Node @typePolicy(keyFields: "id")
            extend union U @typePolicy(keyFields: "code")
            extend type C @typePolicy(keyFields: "code")
            """)
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertTrue(problems[0].contains("\"B\" inherits the key \"code\" from \"U\""), problems[0])
        XCTAssertEqual(keys.objects["A"], ["id"])
        XCTAssertNil(keys.objects["B"], "two different inherited keys: refused, so B keys by default")
        XCTAssertEqual(keys.objects["C"], ["code"])
        XCTAssertEqual(keys.abstracts, ["Node": ["id"], "U": ["code"]])
        XCTAssertFalse(keys.isCustom("A"), "a key of id alone is the default")
        XCTAssertTrue(keys.isCustom("C"))
    }

    func testBatonJSONReplacesTheSchemasKeyForItsType() throws {
        let (keys, problems) = try decide(
            "extend type A @typePolicy(keyFields: \"id name\")",
            configured: [KeyFieldsDeclaration(typeName: "A", fields: ["n", "e"], origin: .configuration, range: nil)])
        XCTAssertEqual(problems, [])
        XCTAssertEqual(keys.objects["A"], ["n", "e"], "an enum is a leaf")
    }

    func testKeysThatCannotBeHonouredAreRefused() throws {
        let (keys, problems) = try decide(
            """
            extend type A @typePolicy(keyFields: "id list")
            extend type B @typePolicy(keyFields: "id b")
            extend union U @typePolicy(keyFields: "id name")
            extend type C @typePolicy(keyFields: "id id")
            """,
            configured: [
                KeyFieldsDeclaration(typeName: "E", fields: ["x"], origin: .configuration, range: nil),
                KeyFieldsDeclaration(typeName: "Z", fields: ["x"], origin: .configuration, range: nil),
            ])
        XCTAssertEqual(keys, RecordKeys())
        XCTAssertEqual(
            problems.sorted(),
            [
                "keyFields names \"E\", which is not an object type, interface or union: only records of object types, interfaces and unions have keys.",
                "keyFields names \"Z\", which the schema does not define: only records of object types, interfaces and unions have keys.",
                "keyFields of \"A\": \"A.list\" is [Int], not a scalar or an enum; a key is made of leaf values.",
                "keyFields of \"B\": \"B\" has no field \"b\".",
                "keyFields of \"C\" names \"id\" twice.",
                "keyFields of \"U\": \"B\" has no field \"name\".",
            ].sorted())
    }
}
