import BatonDiagnostics
import BatonSchema
import BatonSyntax
import XCTest

/// Building from introspection results, complete and broken.
final class IntrospectionSchemaBuilderTests: XCTestCase {
    func build(_ json: String) -> (GraphQLSchema?, [Diagnostic]) {
        IntrospectionSchemaBuilder.build(source: SourceFile(path: "schema.json", text: json))
    }

    static let scalar = #"{"kind":"SCALAR","name":"String"}"#
    static func named(_ kind: String, _ name: String) -> String {
        #"{"kind":"\#(kind)","name":"\#(name)","ofType":null}"#
    }

    static let small = #"""
        {"data":{"__schema":{
          "queryType":{"name":"Query"},"mutationType":null,"subscriptionType":null,
          "types":[
            {"kind":"OBJECT","name":"Query","description":"Root.","interfaces":[],"fields":[
              {"name":"user","args":[
                 {"name":"id","type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"ID","ofType":null}},"defaultValue":null},
                 {"name":"order","type":{"kind":"ENUM","name":"Order","ofType":null},"defaultValue":"ASC"},
                 {"name":"filter","type":{"kind":"INPUT_OBJECT","name":"Filter","ofType":null},"defaultValue":"{q: \"x\", tags: [\"a\"]}"}
               ],"type":{"kind":"OBJECT","name":"User","ofType":null},"isDeprecated":false,"deprecationReason":null},
              {"name":"search","args":[],"type":{"kind":"LIST","name":null,"ofType":{"kind":"UNION","name":"Result","ofType":null}},"isDeprecated":true,"deprecationReason":"Use find."}
            ]},
            {"kind":"OBJECT","name":"User","interfaces":[{"kind":"INTERFACE","name":"Node","ofType":null}],"fields":[
              {"name":"id","args":[],"type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"ID","ofType":null}}}]},
            {"kind":"INTERFACE","name":"Node","interfaces":null,"possibleTypes":[{"kind":"OBJECT","name":"User"}],"fields":[
              {"name":"id","args":[],"type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"ID","ofType":null}}}]},
            {"kind":"UNION","name":"Result","possibleTypes":[{"kind":"OBJECT","name":"User","ofType":null}]},
            {"kind":"ENUM","name":"Order","enumValues":[{"name":"ASC","isDeprecated":false,"deprecationReason":null},{"name":"DESC","isDeprecated":true,"deprecationReason":"No."}]},
            {"kind":"INPUT_OBJECT","name":"Filter","isOneOf":true,"inputFields":[
              {"name":"q","type":{"kind":"SCALAR","name":"String","ofType":null},"defaultValue":null},
              {"name":"tags","type":{"kind":"LIST","name":null,"ofType":{"kind":"SCALAR","name":"String","ofType":null}},"defaultValue":null}]},
            {"kind":"SCALAR","name":"DateTime","specifiedByURL":"https://example.com/datetime"},
            {"kind":"SCALAR","name":"ID"},{"kind":"SCALAR","name":"String"},{"kind":"SCALAR","name":"Boolean"},{"kind":"SCALAR","name":"Float"}
          ],
          "directives":[{"name":"cached","args":[{"name":"ttl","type":{"kind":"SCALAR","name":"Int","ofType":null},"defaultValue":"60"}],"locations":["FIELD","NOT_A_LOCATION"],"isRepeatable":true}]
        }}}
        """#

    func testBuildsFromIntrospection() throws {
        let (schema, diagnostics) = build(Self.small)
        let built = try XCTUnwrap(schema)
        // `@cached(ttl: Int)` uses Int, which the result does not list: graphql-js rejects that too.
        XCTAssertEqual(
            diagnostics.map(\.message),
            [
                "Invalid or incomplete schema, unknown type: Int. Ensure that a full introspection query is used in order to build a client schema."
            ])
        XCTAssertEqual(built.queryTypeName, "Query")
        let user = try XCTUnwrap(built.type(named: "Query")?.field(named: "user"))
        XCTAssertEqual(user.type.description, "User")
        XCTAssertEqual(user.arguments.map(\.type.description), ["ID!", "Order", "Filter"])
        XCTAssertEqual(user.arguments[1].defaultValue.map(Printer.print), "ASC")
        XCTAssertEqual(user.arguments[2].defaultValue.map(Printer.print), #"{q: "x", tags: ["a"]}"#)
        XCTAssertEqual(built.type(named: "Query")?.field(named: "search")?.deprecationReason, "Use find.")
        XCTAssertEqual(built.type(named: "Query")?.field(named: "search")?.type.description, "[Result]")
        XCTAssertEqual(built.type(named: "Order")?.enumValue(named: "DESC")?.deprecationReason, "No.")
        XCTAssertTrue(built.type(named: "Filter")?.isOneOf ?? false)
        XCTAssertEqual(built.type(named: "DateTime")?.directives.map(\.name), ["specifiedBy"])
        let node = try XCTUnwrap(built.type(named: "Node"))
        XCTAssertEqual(built.possibleTypes(of: node).map(\.name), ["User"])
        XCTAssertNotNil(built.type(named: "Float"), "listed built-in scalars are kept")
        XCTAssertEqual(built.directive(named: "cached")?.locations, [.field])
        XCTAssertNotNil(built.directive(named: "include"))
    }

    func testUnwrappedSchemaAndMissingSchema() {
        let bare =
            #"{"__schema":{"queryType":{"name":"Q"},"types":[{"kind":"OBJECT","name":"Q","interfaces":[],"fields":[{"name":"a","args":[],"type":{"kind":"SCALAR","name":"String"}}]},{"kind":"SCALAR","name":"String"}]}}"#
        let (schema, diagnostics) = build(bare)
        XCTAssertEqual(schema?.queryTypeName, "Q")
        XCTAssertEqual(diagnostics.count, 0)

        let (none, problems) = build(#"{"errors":[{"message":"no"}]}"#)
        XCTAssertNil(none)
        XCTAssertEqual(problems.first?.location?.line, 1)
        XCTAssertTrue(problems.first?.message.hasPrefix("Invalid or incomplete introspection result.") ?? false)
    }

    func testBrokenIntrospectionIsReportedNotFatal() throws {
        let json = #"""
            {"__schema":{"queryType":{"name":"Query"},"types":[
              {"kind":"OBJECT","name":"Query","interfaces":[],"fields":[
                {"name":"a","args":[],"type":{"kind":"LIST","name":null}},
                {"name":"b","args":[],"type":{"kind":"OBJECT","name":"Missing"}},
                {"name":"c","args":[{"name":"in","type":{"kind":"OBJECT","name":"Query"}}],"type":{"kind":"SCALAR","name":"String"}},
                {"name":"d","args":[],"type":{"kind":"SCALAR","name":"String"}}]},
              {"kind":"ENUM","name":"Flag","enumValues":[{"name":"true"},{"name":"ok"},{"name":"9lives"}]},
              {"kind":"WHAT","name":"Odd"},
              {"kind":"SCALAR","name":"String"}]}}
            """#
        let (schema, diagnostics) = build(json)
        let built = try XCTUnwrap(schema)
        XCTAssertEqual(built.type(named: "Query")?.fields.map(\.name), ["c", "d"])
        XCTAssertEqual(built.type(named: "Flag")?.enumValues.map(\.name), ["ok", "9lives"])
        XCTAssertEqual(
            diagnostics.map { "\($0.location?.line ?? 0): \($0.message)" },
            [
                "3: Decorated type deeper than introspection query.",
                "4: Invalid or incomplete schema, unknown type: Missing. Ensure that a full introspection query is used in order to build a client schema.",
                "5: Introspection must provide input type for arguments, but received: Query.",
                "5: The type of Query.c(in:) must be Input Type but got: Query.",
                "7: Enum values cannot be named: true",
                "7: Names must start with [_a-zA-Z] but \"9lives\" does not.",
                "8: Invalid or incomplete introspection result. Ensure that a full introspection query is used in order to build a client schema: { name: \"Odd\", … }.",
            ])
    }

    func testInvalidJSONIsASyntaxError() {
        let (schema, diagnostics) = build(#"{"__schema": [1, 2"#)
        XCTAssertNil(schema)
        XCTAssertEqual(diagnostics.map(\.rule), ["syntax"])
    }
}
