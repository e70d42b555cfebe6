import XCTest

@testable import BatonCodegenKotlin

/// Kotlin string literals escape byte by byte what the first version escaped scalar by scalar
/// (kept here as the reference): the same text for every string, plain or not.
final class KotlinLiteralTests: XCTestCase {
    /// The scalar-by-scalar escaping `KotlinLiteral.string` replaced.
    static func reference(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "$": out += "\\$"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    func testEscapingAgreesWithTheScalarByScalarReference() {
        let pieces: [String] = [
            "a", "Z", " ", "\\", "\"", "$", "\n", "\r", "\r\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}",
            "\u{9F}", "\u{A0}", "é", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "€", "🎉", "e\u{301}", "query Q($id: ID!) {",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            XCTAssertEqual(KotlinLiteral.string(text), Self.reference(text), text.debugDescription)
        }
        XCTAssertEqual(KotlinLiteral.string("a$b\n"), #""a\$b\n""#)
        XCTAssertEqual(KotlinLiteral.string("\u{2028}\u{85}"), #""\u2028\u0085""#)
    }
}
