import XCTest

@testable import BatonValidation

final class SuggestionListTests: XCTestCase {
    func testOrdersByDistanceThenNaturally() {
        XCTAssertEqual(SuggestionList.list("nam", ["name", "names", "nom", "id"]), ["name", "nom", "names"])
        XCTAssertEqual(SuggestionList.list("abc", ["ABC"]), ["ABC"])
        XCTAssertEqual(SuggestionList.list("greenBlack", ["blue", "green"]), ["green"])
        XCTAssertEqual(SuggestionList.list("xyzzy", ["a", "b"]), [])
    }

    func testDidYouMeanFormatting() {
        XCTAssertEqual(SuggestionList.didYouMean([]), "")
        XCTAssertEqual(SuggestionList.didYouMean(["a"]), " Did you mean \"a\"?")
        XCTAssertEqual(SuggestionList.didYouMean(["a", "b"]), " Did you mean \"a\" or \"b\"?")
        XCTAssertEqual(
            SuggestionList.didYouMean(["a", "b", "c", "d", "e", "f"]),
            " Did you mean \"a\", \"b\", \"c\", \"d\", or \"e\"?")
        XCTAssertEqual(
            SuggestionList.didYouMean("the enum value", ["A"]), " Did you mean the enum value \"A\"?")
    }

    func testNaturalCompare() {
        XCTAssertLessThan(SuggestionList.naturalCompare("a2", "a10"), 0)
        XCTAssertGreaterThan(SuggestionList.naturalCompare("b", "a"), 0)
        XCTAssertLessThan(SuggestionList.naturalCompare("a", "ab"), 0)
    }
}
