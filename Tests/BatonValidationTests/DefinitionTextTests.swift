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

    /// The search looks for one byte of the word (`anchor`; `required` is found by its `q`) and compares the
    /// word around it: for every anchor and every span of a text full of near misses, it answers as comparing
    /// the word at each place of the span does.
    func testEveryAnchorFindsTheWordWhereAComparisonAtEachPlaceDoes() {
        let text = "qrequ required rrequiredq re-quired requirerequired q requiredrequired requir"
        let file = SourceFile(path: "q.graphql", text: text)
        let bytes = Array(text.utf8)
        let word = Array("required".utf8)
        func naive(_ start: Int, _ end: Int) -> Bool {
            let end = min(end, bytes.count)
            guard end - start >= word.count else { return false }
            return (start...(end - word.count)).contains { Array(bytes[$0..<($0 + word.count)]) == word }
        }
        var wrong: [String] = []
        var found = 0
        for anchor in word.indices {
            for start in 0...bytes.count {
                for end in start...(bytes.count + 2) {
                    let expected = naive(start, end)
                    if expected { found += 1 }
                    if ValidationContext.holds(word, anchor: anchor, in: file, Span(start: start, end: end)) != expected
                    {
                        wrong.append("anchor \(anchor), span \(start)..<\(end)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(found, 1_000, "spans that hold the word were among those tried")
        XCTAssertEqual(wrong.prefix(5), [], "\(wrong.count) spans answered wrongly")
    }
}
