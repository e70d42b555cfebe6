import BatonDiagnostics
import XCTest

final class SuggestionsTests: XCTestCase {
    func testOrdersByDistanceThenNaturally() {
        XCTAssertEqual(Suggestions.list("nam", ["name", "names", "nom", "id"]), ["name", "nom", "names"])
        XCTAssertEqual(Suggestions.list("abc", ["ABC"]), ["ABC"])
        XCTAssertEqual(Suggestions.list("greenBlack", ["blue", "green"]), ["green"])
        XCTAssertEqual(Suggestions.list("xyzzy", ["a", "b"]), [])
    }

    func testDidYouMeanFormatting() {
        XCTAssertEqual(Suggestions.didYouMean([]), "")
        XCTAssertEqual(Suggestions.didYouMean(["a"]), " Did you mean \"a\"?")
        XCTAssertEqual(Suggestions.didYouMean(["a", "b"]), " Did you mean \"a\" or \"b\"?")
        XCTAssertEqual(
            Suggestions.didYouMean(["a", "b", "c", "d", "e", "f"]),
            " Did you mean \"a\", \"b\", \"c\", \"d\", or \"e\"?")
        XCTAssertEqual(
            Suggestions.didYouMean(["A"], subMessage: "the enum value"), " Did you mean the enum value \"A\"?")
    }

    func testNaturalCompare() {
        XCTAssertLessThan(Suggestions.naturalCompare("a2", "a10"), 0)
        XCTAssertGreaterThan(Suggestions.naturalCompare("b", "a"), 0)
        XCTAssertLessThan(Suggestions.naturalCompare("a", "ab"), 0)
    }
}
