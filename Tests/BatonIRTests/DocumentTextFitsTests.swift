import BatonDiagnostics
import BatonSchema
import Foundation
import XCTest

@testable import BatonIR
@testable import BatonSyntax

/// `check` asks only whether an operation's document text would fit this thread's stack
/// (`DocumentText.fits`): the same transform as the text's, building nothing. Its answer is the built
/// document's, at every depth and with little or much stack left.
final class DocumentTextFitsTests: XCTestCase {
    func testFitsAnswersWhatBuildingTheDocumentAnswers() throws {
        final class Answers: @unchecked Sendable {
            var pairs: [(depth: Int, room: Int, fits: Bool, complete: Bool)] = []
        }
        let answers = Answers()
        let schemaText = "type Query { node: Node } type Node { id: ID, next: Node, name: String }"
        let schema = try XCTUnwrap(SchemaBuilder.build(sources: [SourceFile(path: "s.graphql", text: schemaText)]).0)
        let stackSize = 4 << 20
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            // A reserve of all the stack below here but `room` bytes leaves `room` bytes to recurse in, whatever
            // the thread's stack (its low end is read as the guard reads it).
            let low = StackGuard.currentThreadStackLow()
            guard low != 0 else { return }
            for depth in [5, 8, 20, 60, 150, 199] {
                let open = String(repeating: "next { ", count: depth)
                let close = String(repeating: " }", count: depth)
                let text = """
                    query Deep { node { \(open)id @client\(close) } ...Frag }
                    fragment Frag on Query { node { ... on Node { \(open)name\(close) } } }
                    """
                guard let document = Parser.parse(SourceFile(path: "q.graphql", text: text)).document,
                    case .operation(let operation) = document.definitions[0],
                    case .fragment(let fragment) = document.definitions[1]
                else { return }
                for room in [24 << 10, 64 << 10, 256 << 10, 1 << 20] {
                    let guardian = StackGuard(reserve: max(0, Int(StackGuard.address() - low) - room))
                    let fits = DocumentText.fits(operation: operation, fragments: [fragment], stack: guardian)
                    var complete = true
                    _ = DocumentText.document(
                        operation: operation, fragments: [fragment], schema: schema, complete: &complete,
                        stack: guardian)
                    answers.pairs.append((depth, room, fits, complete))
                }
            }
        }
        thread.stackSize = stackSize
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(answers.pairs.count, 24)
        for pair in answers.pairs {
            XCTAssertEqual(pair.fits, pair.complete, "depth \(pair.depth), \(pair.room) bytes of room")
        }
        XCTAssertTrue(answers.pairs.contains { !$0.fits }, "some depth does not fit")
        XCTAssertTrue(answers.pairs.contains { $0.fits && $0.depth > DocumentText.unguardedDepth }, "a deep one fits")
    }
}
