import BatonDiagnostics
import XCTest

@testable import BatonValidation

/// `ValidationContext.holds` finds a word in a span of a source, and only there: the rules that act on
/// `@required` look for the name in a definition's text before keeping any state for it.
final class DefinitionTextTests: XCTestCase {
    func testAWordIsFoundInTheSpanOnly() {
        let file = SourceFile(path: "q.graphql", text: "rrequire required # required\nrequired")
        let word = Array("required".utf8)
        func holds(_ start: Int, _ end: Int) -> Bool {
            ValidationContext.holds(word, in: file, Span(start: start, end: end))
        }
        XCTAssertTrue(holds(0, 37))
        XCTAssertFalse(holds(0, 9), "a prefix of the word, then the span ends")
        XCTAssertFalse(holds(0, 16), "the word runs past the end")
        XCTAssertTrue(holds(0, 17))
        XCTAssertTrue(holds(9, 17))
        XCTAssertFalse(holds(10, 20), "the span starts inside the word")
        XCTAssertTrue(holds(29, 37))
        XCTAssertTrue(holds(29, 1_000), "an end past the text is the text's end")
        XCTAssertFalse(holds(37, 37))
        XCTAssertFalse(holds(40, 50))
        XCTAssertFalse(ValidationContext.holds(word, in: SourceFile(path: "e", text: ""), Span(start: 0, end: 0)))
        XCTAssertTrue(ValidationContext.holds([], in: file, Span(start: 3, end: 3)))
    }
}
