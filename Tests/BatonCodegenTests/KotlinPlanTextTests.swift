import XCTest

@testable import BatonCodegenKotlin

/// The plan text's escaping (what `PlanTable` splits on never appears plain in a name or string) and its pieces
/// (each a JVM string constant: at most `PlanText.pieceLimit` bytes of modified UTF-8, cut at line ends where a line
/// fits).
final class KotlinPlanTextTests: XCTestCase {
    func testEscapingMakesEverySeparatorPlain() {
        XCTAssertEqual(PlanText.item("a|b,c;d:e\\f\ng"), #"a\|b\,c\;d\:e\\f\ng"#)
        XCTAssertEqual(PlanText.part("a|b,c;d:e\\f\ng"), #"a\|b,c;d:e\\f\ng"#)
        XCTAssertEqual(PlanText.item("plain_Name1"), "plain_Name1")
    }

    func testPiecesAreCutAtLineEndsAndHoldTheWholeText() {
        let line = String(repeating: "a", count: 25_000)
        let text = line + "\n" + line + "\n" + line
        let pieces = PlanText.pieces(text)
        XCTAssertEqual(pieces, [line + "\n" + line + "\n", line])
    }

    func testALineLongerThanAPieceIsCutInside() {
        // `é` is two bytes: 40,000 of them weigh 80,000, over one constant.
        for text in [String(repeating: "b", count: 130_000), "x\n" + String(repeating: "é", count: 40_000) + "\ny"] {
            let pieces = PlanText.pieces(text)
            XCTAssertEqual(pieces.joined(), text)
            XCTAssertGreaterThan(pieces.count, 1)
            for piece in pieces { XCTAssertLessThanOrEqual(piece.utf8.count, PlanText.pieceLimit) }
        }
        XCTAssertEqual(PlanText.pieces(""), [""])
    }
}
