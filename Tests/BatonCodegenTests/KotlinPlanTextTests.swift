import XCTest

@testable import BatonCodegenKotlin

/// The plan text's escaping (what `PlanTable` splits on never appears plain in a name or string); its pieces are
/// `JVMStringConstant`'s (below).
final class KotlinPlanTextTests: XCTestCase {
    func testEscapingMakesEverySeparatorPlain() {
        XCTAssertEqual(PlanText.item("a|b,c;d:e\\f\ng"), #"a\|b\,c\;d\:e\\f\ng"#)
        XCTAssertEqual(PlanText.part("a|b,c;d:e\\f\ng"), #"a\|b,c;d:e\\f\ng"#)
        XCTAssertEqual(PlanText.item("plain_Name1"), "plain_Name1")
    }
}

/// The one splitter of long generated text into JVM string constants (`JVMStringConstant`): pieces of at most
/// `limit` bytes of modified UTF-8, cut at line ends where a line fits, between characters otherwise.
final class JVMStringConstantTests: XCTestCase {
    func testWeightsAreModifiedUTF8() {
        let scalars: [(Unicode.Scalar, Int)] = [
            ("\u{0}", 2), ("a", 1), ("\u{7F}", 1), ("é", 2), ("\u{7FF}", 2),
            ("€", 3), ("\u{FFFF}", 3), ("😀", 6),
        ]
        for (scalar, weight) in scalars {
            XCTAssertEqual(JVMStringConstant.weight(scalar), weight, "\(scalar.value)")
            XCTAssertEqual(JVMStringConstant.weight(String(Character(scalar))), weight, "\(scalar.value)")
        }
        XCTAssertEqual(JVMStringConstant.weight("a\u{0}é€😀"), 14)
        // 30,000 NULs are 60,000 bytes, one more is over; 20,000 `€` are 60,000 bytes.
        XCTAssertTrue(JVMStringConstant.fits(String(repeating: "\u{0}", count: 30_000)))
        XCTAssertFalse(JVMStringConstant.fits(String(repeating: "\u{0}", count: 30_001)))
        XCTAssertTrue(JVMStringConstant.fits(String(repeating: "€", count: 20_000)))
        XCTAssertFalse(JVMStringConstant.fits(String(repeating: "€", count: 20_000) + "a"))
        XCTAssertFalse(JVMStringConstant.fits(String(repeating: "😀", count: 10_000) + "a"))
    }

    func testPiecesAreCutAtLineEndsAndHoldTheWholeText() {
        let line = String(repeating: "a", count: 25_000)
        let text = line + "\n" + line + "\n" + line
        XCTAssertEqual(JVMStringConstant.pieces(text), [line + "\n" + line + "\n", line])
        XCTAssertEqual(JVMStringConstant.pieces(""), [""])
        XCTAssertEqual(JVMStringConstant.pieces("short\n"), ["short\n"])
    }

    func testALineLongerThanAPieceIsCutBetweenCharacters() {
        // `é` is two bytes: 40,000 of them weigh 80,000, over one constant. One `x` before 20,000 `€` puts a
        // three-byte character across the limit (59,998 + 3), a `😀` after 59,999 bytes a six-byte one.
        let texts = [
            String(repeating: "b", count: 130_000), "x\n" + String(repeating: "é", count: 40_000) + "\ny",
            "x" + String(repeating: "€", count: 20_000), String(repeating: "a", count: 59_999) + "😀" + "z",
            String(repeating: "\u{0}", count: 30_001), "$" + String(repeating: "\\$€\n", count: 12_000),
        ]
        for text in texts {
            let pieces = JVMStringConstant.pieces(text)
            XCTAssertEqual(pieces.joined(), text)
            XCTAssertGreaterThan(pieces.count, 1)
            for piece in pieces {
                XCTAssertLessThanOrEqual(JVMStringConstant.weight(piece), JVMStringConstant.limit)
                XCTAssertFalse(piece.isEmpty)
            }
        }
        let cut = JVMStringConstant.pieces("x" + String(repeating: "€", count: 20_000))
        XCTAssertEqual(cut, ["x" + String(repeating: "€", count: 19_999), "€"])
        XCTAssertEqual(
            JVMStringConstant.pieces(String(repeating: "a", count: 59_999) + "😀z"),
            [String(repeating: "a", count: 59_999), "😀z"])
    }

    func testALineEndsRestLeavesRoomForTheNextCharacter() {
        // A line end one byte in: its rest (59,999 bytes) and a six-byte character cannot share a piece.
        let text = "\n" + String(repeating: "a", count: 59_999) + "😀"
        XCTAssertEqual(JVMStringConstant.pieces(text), ["\n", String(repeating: "a", count: 59_999), "😀"])
    }
}
