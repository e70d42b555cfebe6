import BatonDiagnostics
import BatonIR
import BatonSemantics
import BatonSyntax
import XCTest

/// The plan's one condition expression: literals folded, alternatives normalized.
final class PresenceTests: XCTestCase {
    func presence(_ directives: String) throws -> Presence {
        let text = "query Q($a: Boolean!, $b: Boolean!) { viewer \(directives) { id } }"
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "q.graphql", text: text)).document)
        guard case .operation(let operation) = document.definitions.first,
            case .field(let field) = operation.selectionSet.selections.first
        else { throw XCTSkip("unexpected parse") }
        return Presence(conditions: BatonDirectives.presence(field.directives))
    }

    func testLiteralsFold() throws {
        XCTAssertTrue(try presence("@include(if: true)").isAlways)
        XCTAssertTrue(try presence("@skip(if: false)").isAlways)
        XCTAssertTrue(try presence("@include(if: false)").isNever)
        XCTAssertTrue(try presence("@skip(if: true) @include(if: $a)").isNever)
        XCTAssertEqual(try presence("@include(if: true) @skip(if: $b)").text, "@skip(if: $b)")
    }

    func testContradictionsAndDuplicatesGo() throws {
        XCTAssertTrue(try presence("@include(if: $a) @skip(if: $a)").isNever)
        let a = Presence(alternatives: [[.include(variable: "a")]])
        let b = Presence(alternatives: [[.skip(variable: "b")]])
        XCTAssertEqual(Presence.any([a, a]).alternatives, [[.include(variable: "a")]])
        XCTAssertTrue(Presence.any([a, .always]).isAlways)
        XCTAssertEqual(Presence.any([a, .never]), a)
        // `a or (a and b)` is `a`.
        XCTAssertEqual(Presence.any([a, a.and(b)]), a)
        XCTAssertEqual(Presence.any([a.and(b), a]), a)
        XCTAssertEqual(Presence.any([a, b]).text, "@include(if: $a) or @skip(if: $b)")
        XCTAssertEqual(a.and(b).text, "@include(if: $a) and @skip(if: $b)")
    }

    func testDeferIsPresentWheneverTheDataIs() throws {
        let deferred = try presence("@include(if: $a)")
            .and(Presence(alternatives: [[.deferred(label: "later", variable: nil)]]))
        XCTAssertEqual(deferred.text, #"@include(if: $a) and @defer(label: "later")"#)
        XCTAssertEqual(deferred.atRuntime.alternatives, [[.include(variable: "a")]])
        XCTAssertTrue(Presence(alternatives: [[.deferred(label: nil, variable: "b")]]).atRuntime.isAlways)
        // `a or (b and deferred)` is `a or b` at runtime; without a deferred atom a presence is its own.
        let mixed = Presence.any([
            try presence("@include(if: $a)"),
            try presence("@skip(if: $b)").and(Presence(alternatives: [[.deferred(label: nil, variable: nil)]])),
        ])
        XCTAssertEqual(mixed.atRuntime, Presence.any([try presence("@include(if: $a)"), try presence("@skip(if: $b)")]))
        for plain in [Presence.always, .never, try presence("@include(if: $a) @skip(if: $b)")] {
            XCTAssertEqual(plain.atRuntime, plain)
        }
    }
}
