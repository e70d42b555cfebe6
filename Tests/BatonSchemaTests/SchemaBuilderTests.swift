import BatonDiagnostics
import BatonSchema
import BatonSyntax
import XCTest

/// Building schemas from SDL: merging, extensions, root types, built-ins.
final class SchemaBuilderTests: XCTestCase {
    func build(_ texts: String...) -> (GraphQLSchema?, [Diagnostic]) {
        let sources = texts.enumerated().map { SourceFile(path: "schema\($0.offset).graphql", text: $0.element) }
        return SchemaBuilder.build(sources: sources)
    }

    func testBuildsObjectsWithExtensionsAcrossFiles() throws {
        let (schema, diagnostics) = build(
            """
            type Query { user(id: ID!): User }
            type User implements Node { id: ID! name: String @deprecated }
            interface Node { id: ID! }
            """,
            """
            extend type User { email: String @deprecated(reason: "Use emails.") }
            extend type Query { node(id: ID!): Node }
            """)
        XCTAssertEqual(TextRenderer.render(diagnostics), "")
        let built = try XCTUnwrap(schema)
        XCTAssertEqual(built.queryTypeName, "Query")
        XCTAssertNil(built.mutationTypeName)
        let user = try XCTUnwrap(built.type(named: "User"))
        XCTAssertEqual(user.fields.map(\.name), ["id", "name", "email"])
        XCTAssertEqual(user.field(named: "name")?.deprecationReason, "No longer supported")
        XCTAssertEqual(user.field(named: "email")?.deprecationReason, "Use emails.")
        XCTAssertEqual(user.extensionLocations.count, 1)
        XCTAssertEqual(built.type(named: "Query")?.fields.map(\.name), ["user", "node"])
        let node = try XCTUnwrap(built.type(named: "Node"))
        XCTAssertEqual(built.possibleTypes(of: node).map(\.name), ["User"])
        XCTAssertEqual(built.type(named: "Query")?.field(named: "user")?.argument(named: "id")?.type.description, "ID!")
    }

    func testBuiltInsArePresent() throws {
        let (schema, diagnostics) = build("type Query { a: String }")
        XCTAssertEqual(diagnostics.count, 0)
        let built = try XCTUnwrap(schema)
        for name in [
            "String", "Boolean", "Int", "__Schema", "__Type", "__Field", "__InputValue", "__EnumValue",
            "__Directive", "__TypeKind", "__DirectiveLocation", "RequiredFieldAction", "CatchFieldTo",
        ] {
            XCTAssertNotNil(built.type(named: name), name)
        }
        XCTAssertNil(built.type(named: "Float"), "unreferenced built-in scalars are left out, as graphql-js does")
        for name in [
            "include", "skip", "deprecated", "specifiedBy", "oneOf", "required", "catch", "throwOnFieldError",
            "semanticNonNull",
        ] {
            XCTAssertNotNil(built.directive(named: name), name)
        }
        XCTAssertNil(built.directive(named: "defer"))
        XCTAssertEqual(built.directive(named: "catch")?.argument(named: "to")?.type.description, "CatchFieldTo!")
        XCTAssertEqual(built.directive(named: "semanticNonNull")?.locations, [.fieldDefinition])
        XCTAssertEqual(built.type(named: "__Type")?.field(named: "fields")?.type.description, "[__Field!]")
    }

    func testSchemaDeclarationOfBatonDirectiveWins() throws {
        let (schema, diagnostics) = build(
            """
            directive @catch(to: String) on FIELD
            directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT
            type Query { a: String }
            """)
        XCTAssertEqual(TextRenderer.render(diagnostics), "")
        let built = try XCTUnwrap(schema)
        XCTAssertEqual(built.directive(named: "catch")?.argument(named: "to")?.type.description, "String")
        XCTAssertNotNil(built.directive(named: "defer"))
        XCTAssertNil(built.type(named: "CatchFieldTo"))
    }

    func testRootTypesFromSchemaDefinition() throws {
        let (schema, diagnostics) = build(
            """
            schema { query: Root }
            extend schema { mutation: Change }
            type Root { a: Int }
            type Change { b: Int }
            type Query { c: Int }
            """)
        XCTAssertEqual(TextRenderer.render(diagnostics), "")
        let built = try XCTUnwrap(schema)
        XCTAssertEqual(built.queryTypeName, "Root")
        XCTAssertEqual(built.mutationTypeName, "Change")
    }

    func testBrokenSchemaStillBuilds() throws {
        let (schema, diagnostics) = build(
            """
            type Query { a: Missing b: String b: Int }
            """)
        let built = try XCTUnwrap(schema)
        XCTAssertEqual(built.type(named: "Query")?.fields.map(\.name), ["a", "b"])
        XCTAssertEqual(built.type(named: "Query")?.field(named: "b")?.type.description, "String")
        XCTAssertEqual(
            TextRenderer.render(diagnostics),
            """
            schema0.graphql:1:17: error: Unknown type "Missing". [known-type-names]
            schema0.graphql:1:25: error: Field "Query.b" can only be defined once. [unique-field-definition-names]
              schema0.graphql:1:35: note: Also defined here.

            """)
    }

    func testSyntaxErrorGivesNoSchema() {
        let (schema, diagnostics) = build("type Query {")
        XCTAssertNil(schema)
        XCTAssertEqual(diagnostics.map(\.rule), ["syntax"])
    }

    /// `build(sources:)` lets the syntax tree go as it builds and places schema validation's problems in the
    /// sources parsed again (`ReparsingLocator`); `build(documents:)` keeps the tree and asks it. Both must give the
    /// same schema and the same diagnostics, at the same places, across files and extensions.
    func testSourcesReleasedAsBuiltGiveTheDocumentsResult() throws {
        let cases: [[String]] = [
            // Schema validation's problems, in a type, its extension in another file, a union and an input cycle.
            [
                """
                type Query { a: A u: U i(x: In): Int }
                interface Node { id: ID! name: String }
                type A implements Node { id: ID! }
                union U = A | Node
                input In { self: In! other: Int = 1 }
                """,
                """
                extend type A { extra: [String!] @deprecated(reason: "no") }
                extend union U = A
                directive @d(arg: In) on FIELD_DEFINITION
                type B { f: In }
                """,
            ],
            // A root that is not an object, an enum without values, a field of an input type.
            ["schema { query: Q } input Q { a: Int } enum E type T { f: Q } extend type T { g: Int }"],
            // The SDL rules' problems (no schema validation), then a valid schema with extensions.
            ["type Query { a: Int a: Int } input I { x: Int } type T @d @d { f(a: Int, a: Int): Int }"],
            ["type Query { a: Int } extend type Query { b: String }", "scalar Date extend scalar Date @specifiedBy(url: \"u\")"],
        ]
        for texts in cases {
            let sources = texts.enumerated().map { SourceFile(path: "schema\($0.offset).graphql", text: $0.element) }
            let (released, releasedDiagnostics) = SchemaBuilder.build(sources: sources)
            let documents = sources.compactMap { Parser.parse($0).document }
            let (kept, keptDiagnostics) = SchemaBuilder.build(documents: documents)
            let shown = TextRenderer.render(keptDiagnostics)
            XCTAssertEqual(TextRenderer.render(releasedDiagnostics), shown, "\(texts)")
            XCTAssertEqual(releasedDiagnostics.map(\.location), keptDiagnostics.map(\.location), "\(texts)")
            XCTAssertEqual(SchemaPrinter.print(try XCTUnwrap(released)), SchemaPrinter.print(kept), "\(texts)")
        }
        // The cases reach schema validation's placing, and the SDL rules' reports.
        let first = cases[0].enumerated().map { SourceFile(path: "schema\($0.offset).graphql", text: $0.element) }
        let placed = SchemaBuilder.build(sources: first).1.filter { $0.rule == "schema" }
        XCTAssertGreaterThanOrEqual(placed.count, 4)
        XCTAssertTrue(placed.allSatisfy { $0.range != nil }, TextRenderer.render(placed))
        XCTAssertTrue(placed.contains { $0.range?.file.path == "schema1.graphql" }, TextRenderer.render(placed))
    }
}
