import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Foundation
import XCTest

@testable import BatonValidation

/// The synthetic worst cases of field merging stay fast and report what graphql-js reports.
final class OverlappingFieldsWorstCaseTests: XCTestCase {
    func validate(_ text: String) throws -> (diagnostics: [Diagnostic], seconds: Double) {
        let schema = try XCTUnwrap(RuleFixtureTests.schema)
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "worst.graphql", text: text)).document)
        let start = DispatchTime.now().uptimeNanoseconds
        let diagnostics = Validator.validate(schema: schema, documents: [document])
        return (diagnostics, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    func testTwoThousandIdenticalLeafFields() throws {
        let text = "{ dog { " + String(repeating: "name ", count: 2_000) + "} }\n"
        let (diagnostics, seconds) = try validate(text)
        XCTAssertEqual(diagnostics, [])
        XCTAssertLessThan(seconds, 2, "2,000 identical fields took \(seconds) s")
    }

    func testTwoThousandIdenticalFieldsWithSelections() throws {
        let text = "{ dog { " + String(repeating: "owner { name pets { name } } ", count: 2_000) + "} }\n"
        let (diagnostics, seconds) = try validate(text)
        XCTAssertEqual(diagnostics, [])
        XCTAssertLessThan(seconds, 2, "2,000 identical fields with selections took \(seconds) s")
    }

    func testTwoThousandFieldsWithOneConflictingPair() throws {
        // Every `name` merges with every other except the single aliased `nickname`; graphql-js
        // reports that field against each of the 2,000 others.
        let text = "{ dog { " + String(repeating: "name ", count: 2_000) + "name: nickname } }\n"
        let (diagnostics, _) = try validate(text)
        XCTAssertEqual(diagnostics.count, 2_000)
        XCTAssertEqual(
            Set(diagnostics.map(\.message)),
            [
                "Fields \"name\" conflict because \"name\" and \"nickname\" are different fields. Use different aliases on the fields to fetch both if this was intentional."
            ])
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
        let (diagnostics, seconds) = try validate(text)
        XCTAssertEqual(diagnostics, [])
        XCTAssertLessThan(seconds, 2, "nested fragments took \(seconds) s")
    }

    func testTwoThousandIdenticalFieldsSpreadingAFragment() throws {
        let text =
            "{ dog { " + String(repeating: "owner { ...H } ", count: 2_000) + "} }\n"
            + "fragment H on Human { name pets { name } }\n"
        let (diagnostics, seconds) = try validate(text)
        XCTAssertEqual(diagnostics, [])
        XCTAssertLessThan(seconds, 5, "2,000 fields spreading a fragment took \(seconds) s")
    }
}
