import BatonTestSupport
import XCTest

@testable import BatonCodegen

/// The one-buffer renderer (`TemplateRenderer`) against the engine it replaced (`ReferenceTemplate`,
/// which re-indented a copy of each nested template's text): the same text for random templates
/// built from the pieces generators use (indented and blank lines, trailing spaces, tabs, empty and
/// conditional interpolations, joined lists with empty entries, several levels of nesting). Tabs
/// appear only inside lines: generators indent with spaces, and a blank line whose indentation
/// holds a tab is now always empty (the copying engine kept the tab when the blank line came from
/// a raw string).
final class TemplateRenderingTests: XCTestCase {
    private static let literals = [
        "", "a", "  ", "\n", "x \n", "    foo", "\n    ", "a\tb", "bar  \n  baz", ",", " ", "\n\n", "{\n    ",
        "\n}", "\n    \n", "let x = ", "  y\tz",
    ]
    private static let texts = ["", "id", "first  \n   \nlast ", "a\nb", "  x\n y\t", "\n", "q ", "one\n\ntwo"]
    private static let separators = ["\n", "\n\n", ", ", ",\n", ",\n    "]

    /// The same template built for both engines.
    private func make(_ random: inout SeededGenerator, depth: Int) -> (Template, ReferenceTemplate) {
        switch depth > 3 ? 0 : random.below(4) {
        case 0:
            let text = Self.texts[random.below(Self.texts.count)]
            return (Template(text), ReferenceTemplate(text))
        case 1:
            var parts: [Template] = []
            var references: [ReferenceTemplate] = []
            for _ in 0..<random.below(4) {
                let (part, reference) = make(&random, depth: depth + 1)
                parts.append(part)
                references.append(reference)
            }
            let separator = Self.separators[random.below(Self.separators.count)]
            return (
                Template.joined(parts, separator: separator), ReferenceTemplate.joined(references, separator: separator)
            )
        default:
            let count = random.below(6)
            var interpolation = Template.Interpolation(literalCapacity: 0, interpolationCount: count)
            var reference = ReferenceTemplate.Interpolation(literalCapacity: 0, interpolationCount: count)
            for _ in 0..<count {
                let literal = Self.literals[random.below(Self.literals.count)]
                interpolation.appendLiteral(literal)
                reference.appendLiteral(literal)
                switch random.below(4) {
                case 0:
                    interpolation.appendInterpolation(if: false, Template("never"))
                    reference.appendInterpolation(if: false, ReferenceTemplate("never"))
                case 1:
                    let text = Self.texts[random.below(Self.texts.count)]
                    interpolation.appendInterpolation(text)
                    reference.appendInterpolation(text)
                default:
                    let (child, childReference) = make(&random, depth: depth + 1)
                    interpolation.appendInterpolation(child)
                    reference.appendInterpolation(childReference)
                }
            }
            let literal = Self.literals[random.below(Self.literals.count)]
            interpolation.appendLiteral(literal)
            reference.appendLiteral(literal)
            return (Template(stringInterpolation: interpolation), ReferenceTemplate(stringInterpolation: reference))
        }
    }

    func testSameTextAsTheCopyingEngineOnRandomTemplates() {
        var differences = 0
        for seed in 0..<20_000 {
            var random = SeededGenerator(seed: UInt64(seed))
            let (template, reference) = make(&random, depth: 0)
            // A list at the top is not re-indented by anything: both engines' texts are compared inside
            // an interpolation, as generators use them.
            let wrapped: Template = "begin\n    \(template)\nend"
            let wrappedReference: ReferenceTemplate = "begin\n    \(reference)\nend"
            if wrapped.text != wrappedReference.text {
                differences += 1
                if differences <= 3 {
                    XCTFail(
                        "seed \(seed): \(describeTemplate(template)) \(wrapped.text.debugDescription) != \(wrappedReference.text.debugDescription)"
                    )
                }
            }
            guard case .interpolation = template.node else { continue }
            if template.text != reference.text {
                differences += 1
                if differences <= 3 {
                    XCTFail(
                        "seed \(seed) alone: \(template.text.debugDescription) != \(reference.text.debugDescription)")
                }
            }
        }
        XCTAssertEqual(differences, 0)
    }

    func testWriteAppendsAfterExistingLines() {
        let body: Template = "struct S {\n    \(Template("a\nb"))\n}"
        var bytes = Array("// header\n\n".utf8)
        body.write(to: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "// header\n\nstruct S {\n    a\n    b\n}")
    }
}

/// The tree of a template, for a failure message.
private func describeTemplate(_ t: Template, _ indent: String = "") -> String {
    switch t.node {
    case .text(let s): return indent + "text \(s.debugDescription)\n"
    case .joined(let parts, let sep):
        return indent + "joined sep=\(sep.debugDescription)\n"
            + parts.map { describeTemplate($0, indent + "  ") }.joined()
    case .interpolation(let segs):
        var out = indent + "interp\n"
        for s in segs {
            switch s {
            case .literal(let l): out += indent + "  lit \(l.debugDescription)\n"
            case .child(let c): out += describeTemplate(c, indent + "  ")
            }
        }
        return out
    }
}
