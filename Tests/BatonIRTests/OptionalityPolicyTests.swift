import BatonIR
import BatonSchema
import BatonSemantics
import XCTest

/// The optionality policy, rule by rule, as a pure function: `levels` gives the generated type's
/// optionality per level (outermost first) and the response's non-null levels.
final class OptionalityPolicyTests: XCTestCase {
    typealias Field = OptionalityPolicy.Field

    /// `String` → `[true]`; `[String!]!` → `[false, false]`.
    func optional(_ field: Field) -> [Bool] { OptionalityPolicy.levels(field).levels.map(\.isOptional) }
    func nonNull(_ field: Field) -> [Bool] { OptionalityPolicy.levels(field).levels.map(\.nonNull) }

    static let string = TypeRef.named("String")
    static let nonNullString = TypeRef.nonNull(.named("String"))
    static let list = TypeRef.list(.named("String"))  // [String]
    static let nonNullList = TypeRef.nonNull(.list(.nonNull(.named("String"))))  // [String!]!

    func testNullabilityIsWhatTheSchemaSays() {
        XCTAssertEqual(optional(Field(schemaType: Self.string)), [true])
        XCTAssertEqual(optional(Field(schemaType: Self.nonNullString)), [false])
        XCTAssertEqual(optional(Field(schemaType: Self.list)), [true, true])
        XCTAssertEqual(optional(Field(schemaType: Self.nonNullList)), [false, false])
        XCTAssertEqual(nonNull(Field(schemaType: Self.nonNullList)), [true, true])
        XCTAssertEqual(nonNull(Field(schemaType: Self.list)), [false, false])
    }

    func testSemanticNonNullOnlyUnderThrowOnFieldError() {
        let field = Field(schemaType: Self.list, semanticNonNullLevels: [0, 1])
        XCTAssertEqual(optional(field), [true, true])
        XCTAssertNil(OptionalityPolicy.levels(field).semanticNonNull)
        var strict = field
        strict.underThrowOnFieldError = true
        XCTAssertEqual(optional(strict), [false, false])
        XCTAssertEqual(nonNull(strict), [true, true], "a null there is an error, not a value")
        XCTAssertEqual(OptionalityPolicy.levels(strict).semanticNonNull, [0, 1])
        // Levels out of range, or already non-null, change nothing.
        strict.semanticNonNullLevels = [5]
        XCTAssertEqual(optional(strict), [true, true])
        XCTAssertNil(OptionalityPolicy.levels(strict).semanticNonNull)
    }

    func testMappedCustomScalarReadsNilWhenItDoesNotConvert() {
        XCTAssertEqual(optional(Field(schemaType: .nonNull(.named("DateTime")), mappedCustomScalar: true)), [true])
        XCTAssertEqual(
            optional(Field(schemaType: .nonNull(.list(.nonNull(.named("DateTime")))), mappedCustomScalar: true)),
            [false, true], "the innermost value, the item of a list")
        XCTAssertEqual(
            optional(
                Field(schemaType: .nonNull(.named("DateTime")), underThrowOnFieldError: true, mappedCustomScalar: true)),
            [false], "under @throwOnFieldError a failed conversion throws")
        XCTAssertEqual(
            optional(Field(schemaType: .nonNull(.named("DateTime")), mappedCustomScalar: true, required: .log)),
            [false], "@required says what a failure does")
    }

    func testRequiredMakesTheValueNonOptional() {
        XCTAssertEqual(optional(Field(schemaType: Self.string, required: .silent)), [false])
        XCTAssertEqual(optional(Field(schemaType: Self.list, required: .throwError)), [false, true])
    }

    func testABubbledNullMakesTheInnermostValueOptional() {
        let object = TypeRef.nonNull(.named("User"))
        XCTAssertEqual(optional(Field(schemaType: object, childrenBubble: true)), [true])
        // A non-list @required field passes the null on (NONE, LOG) or throws (THROW).
        XCTAssertEqual(optional(Field(schemaType: object, required: .log, childrenBubble: true)), [false])
        XCTAssertEqual(optional(Field(schemaType: object, required: .throwError, childrenBubble: true)), [false])
        // A list's items take their children's nulls, whatever the list's own @required.
        let users = TypeRef.nonNull(.list(.nonNull(.named("User"))))
        XCTAssertEqual(optional(Field(schemaType: users, childrenBubble: true)), [false, true])
        XCTAssertEqual(optional(Field(schemaType: users, required: .log, childrenBubble: true)), [false, true])
    }

    func testCatchToNullAndConditionsMakeTheValueOptional() {
        XCTAssertEqual(optional(Field(schemaType: Self.nonNullString, catchTarget: .null)), [true])
        XCTAssertEqual(optional(Field(schemaType: Self.nonNullString, catchTarget: .result)), [false])
        XCTAssertEqual(optional(Field(schemaType: Self.nonNullList, conditional: true)), [true, false])
        XCTAssertEqual(
            optional(Field(schemaType: Self.nonNullString, required: .log, conditional: true)), [true],
            "absent is not null: a selection left out reads nil")
    }

    func testParentRecordReads() {
        XCTAssertFalse(
            OptionalityPolicy.parentRecordIsOptional(narrower: false, conditional: false, rootCanBeNil: false))
        XCTAssertTrue(OptionalityPolicy.parentRecordIsOptional(narrower: true, conditional: false, rootCanBeNil: false))
        XCTAssertTrue(OptionalityPolicy.parentRecordIsOptional(narrower: false, conditional: true, rootCanBeNil: false))
        XCTAssertTrue(OptionalityPolicy.parentRecordIsOptional(narrower: false, conditional: false, rootCanBeNil: true))
    }

    /// A value that is not a list has one level, decided in place and returned as an array shared by every such
    /// accessor: for every combination of the rules, the level is what the rules say of one level.
    func testOneLevelFollowsEveryRule() {
        var cases = 0
        for nullable in [true, false] {
            for throwing in [false, true] {
                for semantic in [nil, [0]] as [[Int]?] {
                    for mapped in [false, true] {
                        for required in [nil, .silent, .throwError] as [RequiredAction?] {
                            for bubbles in [false, true] {
                                for catchTarget in [nil, .result, .null] as [CatchTarget?] {
                                    for conditional in [false, true] {
                                        let field = Field(
                                            schemaType: nullable ? Self.string : Self.nonNullString,
                                            semanticNonNullLevels: semantic, underThrowOnFieldError: throwing,
                                            mappedCustomScalar: mapped, required: required, childrenBubble: bubbles,
                                            catchTarget: catchTarget, conditional: conditional)
                                        var optional = nullable
                                        var nonNull = !nullable
                                        if throwing, semantic != nil, optional { (optional, nonNull) = (false, true) }
                                        if mapped && !throwing { optional = true }
                                        if required != nil { optional = false }
                                        if bubbles && required == nil { optional = true }
                                        if catchTarget == .null { optional = true }
                                        if conditional { optional = true }
                                        let level = ValueLevel(
                                            schemaNullable: nullable, isOptional: optional, nonNull: nonNull)
                                        XCTAssertEqual(OptionalityPolicy.levels(field).levels, [level], "\(field)")
                                        cases += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(cases, 576)
    }
}
