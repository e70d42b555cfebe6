import BatonCodegen
import BatonDeclarations
import BatonDiagnostics
import BatonIR
import BatonSyntax
import XCTest

/// Operations' document texts split into one constant per fragment: the parts join back to the exact text sent
/// (whose SHA-256 is the operation id), and a fragment shared by several operations is one text.
final class DocumentPartsTests: XCTestCase {
    static let schema = """
        type User { id: ID! name: String friends: [User] }
        type Query { user(id: ID!): User me: User }
        """
    static let documents = """
        query A($id: ID!) { user(id: $id) { ...UserName ...UserFriends } }
        query B { me { ...UserName } }
        query C { me { id } }
        fragment UserName on User { name }
        fragment UserFriends on User { friends { ...UserName } }
        """

    func testPartsJoinBackToTheTextAndFragmentsAreShared() throws {
        let schema = try ModelHarness.schema(sdl: Self.schema)
        let model = try ModelHarness.model(schema: schema, documents: [("parts.graphql", Self.documents)])
        let parts = DocumentParts(model: model)
        for operation in model.operations {
            let split = try XCTUnwrap(parts.operations[operation.name], operation.name)
            XCTAssertEqual(split.fragments, operation.fragmentsUsed)
            let texts = [split.operation] + split.fragments.compactMap { parts.fragmentTexts[$0] }
            XCTAssertEqual(texts.joined(separator: DocumentParts.separator), operation.documentText, operation.name)
        }
        XCTAssertEqual(parts.operations["A"]?.fragments, ["UserFriends", "UserName"])
        XCTAssertEqual(parts.operations["C"]?.fragments, [])
        XCTAssertTrue(parts.fragmentTexts["UserName"]?.hasPrefix("fragment UserName on User {") == true)
    }

    /// The plan joins each text from parts printed once per definition (`OperationModel.documentTextParts`): the
    /// text is the one the whole document prints (so the operation id is too), and the parts are the ones a search
    /// of the text finds. A fragment whose text holds its own heading after a blank line keeps no parts (the search
    /// finds others), and a definition nesting past the printer's unguarded depth is printed whole.
    func testTextsJoinedFromPartsAreTheTextsPrintedWhole() throws {
        let schemaText = Self.schema + "\ndirective @note(text: String) on FRAGMENT_DEFINITION"
        let documents = #"""
            query A($id: ID!, $all: Boolean!) { user(id: $id) { ...UserName ...UserFriends @include(if: $all) } }
            query B { me { ...Noted ...UserName } }
            query Deep { me { ...DeepFriends } }
            fragment UserName on User { name }
            fragment UserFriends on User { friends { ...UserName id } }
            fragment Noted on User @note(text: """
              a

            fragment Noted on User
            """) { id }
            fragment DeepFriends on User { friends { friends { friends { friends { friends { friends { friends {
              friends { name } } } } } } } } }
            """#
        let schema = try ModelHarness.schema(sdl: schemaText)
        let model = try ModelHarness.model(schema: schema, documents: [("joined.graphql", documents)])
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "joined.graphql", text: documents)).document)
        var fragments: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in document.definitions { fragments[fragment.name.value] = fragment }
        var joined: Set<String> = []
        for case .operation(let node) in document.definitions {
            let operation = try XCTUnwrap(model.operations.first { $0.name == node.name?.value })
            let whole = DocumentText.text(
                operation: node, fragments: operation.fragmentsUsed.compactMap { fragments[$0] }, schema: schema)
            XCTAssertEqual(operation.documentText, whole, operation.name)
            let searched = try XCTUnwrap(
                DocumentParts.split(operation.documentText, fragments: operation.fragmentsUsed), operation.name)
            let split = try XCTUnwrap(DocumentParts.split(operation), operation.name)
            XCTAssertEqual(split.operation, searched.operation, operation.name)
            XCTAssertEqual(split.fragments.map { $0.0 }, searched.fragments.map { $0.0 }, operation.name)
            XCTAssertEqual(split.fragments.map { $0.1 }, searched.fragments.map { $0.1 }, operation.name)
            if operation.documentTextParts != nil { joined.insert(operation.name) }
        }
        XCTAssertEqual(joined, ["A"])
    }

    func testATextThatDoesNotSplitIsKeptWhole() {
        XCTAssertNil(DocumentParts.split("query A { x }", fragments: ["F"]))
        XCTAssertNotNil(DocumentParts.split("query A { x }\n\nfragment F on T { y }", fragments: ["F"]))
    }
}
