import BatonDeclarations
import BatonSchema
import XCTest

@testable import BatonCodegenSwift

/// The Swift printer's spellings taken from a declared type or a type's text without the detour they replace (issue
/// 34): each is the detour's answer.
final class SwiftSpellingTests: XCTestCase {
    /// `SwiftNames.notation` of a declared type is the notation of its schema type (`DeclaredType.schemaType`), for
    /// every shape of wrapper and named type (seen failing with an optional's `!` kept).
    func testNotationOfADeclaredTypeIsItsSchemaTypes() {
        let named: [DeclaredNamedType] = [
            .builtInScalar("String"), .customScalar("DateTime"), .enumeration("Status"), .inputObject("Filter"),
            .lens("Owner"), .fragment("RepoRow"),
            .optimisticBuilder(lens: "Owner", fragment: nil, builder: "Optimistic"),
            .optimisticBuilder(lens: nil, fragment: "RepoRow", builder: "Optimistic"),
            .optimisticBuilder(lens: nil, fragment: nil, builder: "Optimistic"),
        ]
        let wrappers: [(DeclaredType) -> DeclaredType] = [
            { $0 }, { .optional($0) }, { .list($0) }, { .result($0) }, { .deferred($0) }, { .streamed($0) },
        ]
        var types = named.map { DeclaredType.named($0) }
        // Every wrapper around every type so far, three levels deep (optionals of optionals included).
        for _ in 0..<3 {
            types += types.flatMap { type in wrappers.dropFirst().map { $0(type) } }
        }
        XCTAssertGreaterThan(types.count, 1_000)
        for type in types {
            XCTAssertEqual(SwiftNames.notation(type), SwiftNames.notation(type.schemaType), "\(type)")
        }
    }

    /// `isOptional` and `nonOptional` answer what `hasSuffix("?")` and `dropLast()` do, ASCII or not, where a
    /// grapheme cluster joins the `?` to what comes before (a prepended mark) and where it does not (seen failing with
    /// every text ending in `?` answered from its bytes).
    func testOptionalMarkIsTheLastCharacters() {
        let texts = [
            "", "?", "??", "Int", "Int?", "[Int?]", "[Int?]?", "Baton.LensList<Owner>?", "é?", "é", "?é", "e\u{301}?",
            "\u{600}?", "a\u{600}?", "🎉?", "x\u{200D}?", "\r?", "\n?", String(repeating: "Long", count: 8) + "?",
        ]
        for text in texts {
            XCTAssertEqual(SwiftNames.isOptional(text), text.hasSuffix("?"), text.debugDescription)
            XCTAssertEqual(
                SwiftNames.nonOptional(text), text.hasSuffix("?") ? String(text.dropLast()) : text,
                text.debugDescription)
        }
    }
}
