import BatonDiagnostics
import BatonSchema
import BatonSyntax
import XCTest

@testable import BatonValidation

/// The synthetic worst cases of field merging report what graphql-js reports, with work bounded
/// by their size. The rule counts the pairs it compares (fields, and fragments past its memo);
/// each case's count must stay within a small multiple of the fields it selects, where comparing
/// 2,000 fields of one response key pair by pair would be about 2 million. Timings belong to the
/// release benchmark (`BatonBenchmark validation`, Performance.md), not to a unit test.
final class OverlappingFieldsWorstCaseTests: XCTestCase {
    /// The diagnostics of every rule, and how many pairs field merging compared.
    func validate(_ text: String) throws -> (diagnostics: [Diagnostic], comparisons: Int) {
        let schema = try XCTUnwrap(RuleFixtureTests.schema)
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "worst.graphql", text: text)).document)
        let diagnostics = Validator.validate(schema: schema, documents: [document])
        let context = ValidationContext(schema: schema, documents: [document], options: nil)
        let rule = OverlappingFieldsCanBeMergedRule(context: context)
        var walker = Walker(context: context, rules: [rule])
        walker.walkUnit()
        XCTAssertEqual(context.reportedDiagnostics.count, diagnostics.count, "the rule alone reports the same")
        return (diagnostics, rule.comparisons)
    }

    func testTwoThousandIdenticalLeafFields() throws {
        let text = "{ dog { " + String(repeating: "name ", count: 2_000) + "} }\n"
        let (diagnostics, comparisons) = try validate(text)
        XCTAssertEqual(diagnostics, [])
        // One class: 1 comparison today; pair by pair it would be 1,999,000.
        XCTAssertLessThanOrEqual(comparisons, 2_000, "2,000 identical fields")
    }

    func testTwoThousandIdenticalFieldsWithSelections() throws {
        let text = "{ dog { " + String(repeating: "owner { name pets { name } } ", count: 2_000) + "} }\n"
        let (diagnostics, comparisons) = try validate(text)
        XCTAssertEqual(diagnostics, [])
        // 4 today: the classes of `owner`, then of `name` and `pets` and its `name` once each.
        XCTAssertLessThanOrEqual(comparisons, 2_000, "2,000 identical fields with selections")
    }

    func testTwoThousandFieldsWithOneConflictingPair() throws {
        // Every `name` merges with every other except the single aliased `nickname`; graphql-js
        // reports that field against each of the 2,000 others.
        let text = "{ dog { " + String(repeating: "name ", count: 2_000) + "name: nickname } }\n"
        let (diagnostics, comparisons) = try validate(text)
        XCTAssertEqual(diagnostics.count, 2_000)
        XCTAssertEqual(
            Set(diagnostics.map(\.message)),
            [
                "Fields \"name\" conflict because \"name\" and \"nickname\" are different fields. Use different aliases on the fields to fetch both if this was intentional."
            ])
        // Each reported pair is one comparison (2,002 today: the two classes, then the conflicting
        // pair of classes expanded), and the clean pairs stay grouped.
        XCTAssertLessThanOrEqual(comparisons, 2 * 2_001, "2,000 fields and one conflicting")
    }

    func testFragmentsSpreadIntoEachOtherManyTimes() throws {
        // A chain of 60 fragments, each spreading the next three times and the one after twice,
        // spread 200 times at the top: the fragment-pair memo must keep this near linear.
        var text = "{ dog { " + String(repeating: "...F0 ", count: 200) + "} }\n"
        for index in 0..<60 {
            text += "fragment F\(index) on Dog { name nickname "
            if index + 1 < 60 { text += String(repeating: "...F\(index + 1) ", count: 3) }
            if index + 2 < 60 { text += String(repeating: "...F\(index + 2) ", count: 2) }
            text += "owner { name } }\n"
        }
        let (diagnostics, comparisons) = try validate(text)
        XCTAssertEqual(diagnostics, [])
        // 468 today; at most one per pair of the 60 fragments (1,770) and a few fields, where
        // following every spread without the memo would be exponential.
        XCTAssertLessThanOrEqual(comparisons, 2_000, "nested fragments")
    }

    func testTwoThousandIdenticalFieldsSpreadingAFragment() throws {
        let text =
            "{ dog { " + String(repeating: "owner { ...H } ", count: 2_000) + "} }\n"
            + "fragment H on Human { name pets { name } }\n"
        let (diagnostics, comparisons) = try validate(text)
        XCTAssertEqual(diagnostics, [])
        // 1 today: the class of `owner`; its fragment is compared once.
        XCTAssertLessThanOrEqual(comparisons, 2_000, "2,000 fields spreading a fragment")
    }
}
