import XCTest

@testable import Baton

/// `Condition`'s five cases, evaluated as the Kotlin runtime's `Condition.holds` evaluates them.
final class ConditionTests: XCTestCase {
    func testIncludeAndSkipReadOnlyATrueBoolean() {
        let cases: [(JSONValue?, include: Bool, skip: Bool)] = [
            (.bool(true), true, false), (.bool(false), false, true), (nil, false, true), (.string("true"), false, true),
            (.null, false, true),
        ]
        for (value, include, skip) in cases {
            let variables = value.map { ["a": $0] } ?? [:]
            XCTAssertEqual(Condition.include("a").passes(variables), include, "\(String(describing: value))")
            XCTAssertEqual(Condition.skip("a").passes(variables), skip, "\(String(describing: value))")
        }
    }

    func testCombinations() {
        let either = Condition.anyOf([.allOf([.include("a")]), .allOf([.skip("b")])])
        XCTAssertTrue(either.passes(["a": .bool(true), "b": .bool(true)]))
        XCTAssertTrue(either.passes(["a": .bool(false), "b": .bool(false)]))
        XCTAssertFalse(either.passes(["a": .bool(false), "b": .bool(true)]))
        let both = Condition.allOf([.include("a"), .skip("b")])
        XCTAssertTrue(both.passes(["a": .bool(true)]))
        XCTAssertFalse(both.passes(["a": .bool(true), "b": .bool(true)]))
        XCTAssertFalse(Condition.never.passes([:]))
        XCTAssertEqual(Condition.never, .literal(false))
        XCTAssertTrue(Condition.literal(true).passes([:]))
        XCTAssertTrue(Condition.allOf([]).passes([:]))
        XCTAssertFalse(Condition.anyOf([]).passes([:]))
    }
}
