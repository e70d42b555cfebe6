import BatonCodegen
import BatonDeclarations
import BatonIR
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

    func testATextThatDoesNotSplitIsKeptWhole() {
        XCTAssertNil(DocumentParts.split("query A { x }", fragments: ["F"]))
        XCTAssertNotNil(DocumentParts.split("query A { x }\n\nfragment F on T { y }", fragments: ["F"]))
    }
}
