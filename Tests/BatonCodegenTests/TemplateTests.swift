import XCTest

@testable import BatonCodegen

final class TemplateTests: XCTestCase {
    func testInterpolationReindentsFollowingLines() {
        let body: Template = "let a = 1\nlet b = 2"
        let template: Template = """
            func f() {
                \(body)
            }
            """
        XCTAssertEqual(template.text, "func f() {\n    let a = 1\n    let b = 2\n}")
    }

    func testNestedReindentationAndEmptyLinesStayEmpty() {
        let inner: Template = "if x {\n    y()\n\n    z()\n}"
        let middle: Template = """
            do {
                \(inner)
            }
            """
        let outer: Template = """
            struct S {
                \(middle)
            }
            """
        XCTAssertEqual(
            outer.text, "struct S {\n    do {\n        if x {\n            y()\n\n            z()\n        }\n    }\n}")
    }

    func testEmptyInterpolationOnItsOwnLineRemovesTheLine() {
        let nothing = Template.empty
        let template: Template = """
            a
                \(nothing)
            b
            \(if: false, "c")
            """
        XCTAssertEqual(template.text, "a\nb")
    }

    func testEmptyInterpolationInsideALineKeepsTheLine() {
        let template: Template = "let x = \(Template.empty)1\n  \(Template.empty)"
        XCTAssertEqual(template.text, "let x = 1")
    }

    func testConditionalHelpers() {
        let yes: Template = "a\(if: true, "b")\(if: false, "c")\(if: false, "d", else: "e")"
        XCTAssertEqual(yes.text, "abe")
        let optional: Int? = 3
        let none: Int? = nil
        let lets: Template = "\(ifLet: optional, { "x\($0)" })\(ifLet: none, { "y\($0)" })"
        XCTAssertEqual(lets.text, "x3")
    }

    func testListHelpersSkipEmptyEntries() {
        let items = ["a", "", "b"]
        let template: Template = """
            {
                \(each: items, { item in item.isEmpty ? .empty : "case \(item)\nsecond" })
            }
            """
        XCTAssertEqual(template.text, "{\n    case a\n    second\n    case b\n    second\n}")
        let inline: Template = "f(\(joined: ["a: 1", "b: 2"], separator: ", "))"
        XCTAssertEqual(inline.text, "f(a: 1, b: 2)")
        let lines: Template = "  \(lines: ["x", .empty, "y"])"
        XCTAssertEqual(lines.text, "  x\n  y")
        let empty: Template = "a\n    \(each: [String](), { Template($0) })\nb"
        XCTAssertEqual(empty.text, "a\nb")
    }

    /// No line a template writes ends in spaces, wherever they would come from: a line whose
    /// interpolation produced nothing after other text, a raw string's lines (indented or not), a
    /// joined list's entries, nested templates' blank lines. (Generators rely on it: no pass over
    /// the finished file.)
    func testNoLineEverEndsInSpaces() {
        let raw = "first  \n   \nlast "
        let nested: Template = """
            {
                \(raw)
                key: \(Template.empty)
                \(Template.joined(["a  ", "b"], separator: "\n"))
            }
            """
        let outer: Template = """
            wrap {
                \(nested)
            }
            x \(raw)
            """
        XCTAssertEqual(
            outer.text,
            "wrap {\n    {\n        first\n\n        last\n        key:\n        a\n        b\n    }\n}\nx first\n\nlast "
        )
        for line in outer.text.split(separator: "\n").dropLast() {
            XCTAssertFalse(line.hasSuffix(" "), "\(line)")
        }
        // The open last line keeps its spaces: a template may end mid-line ("public ").
        let access: Template = "\(raw)"
        XCTAssertEqual(access.text, "first\n\nlast ")
    }

    func testJoined() {
        XCTAssertEqual(Template.joined(["a", .empty, "b"], separator: "\n\n").text, "a\n\nb")
    }
}
