import BatonDiagnostics
import BatonSchema
import BatonSyntax
import XCTest

@testable import BatonValidation

/// `ValidationHooks.enterField`, `.leaveField` and `.fieldPerDefinition`: a rule is called on the side
/// of a field it declares, and only in the definitions where it says it is active; a debug build
/// reports a rule that breaks either promise. Also the name tables the walk looks fragments up in.
final class FieldHookSideTests: XCTestCase {
    /// Reports each field it enters.
    final class EnterRule: ValidationRuleBase, ValidationRule {
        static let id = "enter-side"
        static let hooks: ValidationHooks = [.enterField]
        let context: ValidationContext
        init(context: ValidationContext) { self.context = context }
        override func enterField(_ node: Field) { report("enter \(node.name.value)", at: node.name.span) }
    }

    /// Reports each field it leaves.
    final class LeaveRule: ValidationRuleBase, ValidationRule {
        static let id = "leave-side"
        static let hooks: ValidationHooks = [.leaveField]
        let context: ValidationContext
        init(context: ValidationContext) { self.context = context }
        override func leaveField(_ node: Field) { report("leave \(node.name.value)", at: node.name.span) }
    }

    /// Declares `.enterField` but overrides `leaveField` too.
    final class UndeclaredLeaveRule: ValidationRuleBase, ValidationRule {
        static let id = "undeclared-leave"
        static let hooks: ValidationHooks = [.enterField]
        let context: ValidationContext
        init(context: ValidationContext) { self.context = context }
        override func enterField(_ node: Field) {}
        override func leaveField(_ node: Field) {}
    }

    /// Active only in fragments, and honest about it: reports the fields of fragments.
    final class FragmentFieldsRule: ValidationRuleBase, ValidationRule {
        static let id = "fragment-fields"
        static let hooks: ValidationHooks = [.operation, .fragment, .field, .fieldPerDefinition]
        let context: ValidationContext
        private var inFragment = false
        init(context: ValidationContext) { self.context = context }
        var fieldHooksActive: Bool { inFragment }
        override func enterOperation(_ node: OperationDefinition) { inFragment = false }
        override func enterFragment(_ node: FragmentDefinition) { inFragment = true }
        override func enterField(_ node: Field) {
            if inFragment { report("fragment field \(node.name.value)", at: node.name.span) }
        }
        override func leaveField(_ node: Field) {}
    }

    /// Says it is inactive everywhere but reports every field anyway.
    final class DishonestRule: ValidationRuleBase, ValidationRule {
        static let id = "dishonest"
        static let hooks: ValidationHooks = [.field, .fieldPerDefinition]
        let context: ValidationContext
        init(context: ValidationContext) { self.context = context }
        var fieldHooksActive: Bool { false }
        override func enterField(_ node: Field) { report("field \(node.name.value)", at: node.name.span) }
        override func leaveField(_ node: Field) {}
    }

    static let document = "query Q { dog { name } } fragment F on Dog { nickname owner { name } }"

    func diagnostics(_ rules: [any ValidationRule.Type]) throws -> [Diagnostic] {
        let schema = try TestSupport.loadSchema(TestSupport.fixtures.appendingPathComponent("schema.graphqls").path)
        let parsed = Parser.parse(SourceFile(path: "q.graphql", bytes: Array(Self.document.utf8)))
        let document = try XCTUnwrap(parsed.document)
        return Validator.validate(schema: schema, documents: [document], rules: rules)
    }

    func testEachSideIsCalledAloneAndInOrder() throws {
        XCTAssertTrue(ValidationHooks.enterField.callsField(withDirectives: false))
        XCTAssertFalse(ValidationHooks.enterField.callsLeaveField(withDirectives: true))
        XCTAssertTrue(ValidationHooks.leaveField.callsLeaveField(withDirectives: false))
        XCTAssertFalse(ValidationHooks.leaveField.callsField(withDirectives: true))
        XCTAssertTrue(ValidationHooks.field.callsLeaveField(withDirectives: false))
        XCTAssertTrue(ValidationHooks.fieldWithDirectives.callsLeaveField(withDirectives: true))
        XCTAssertFalse(ValidationHooks.fieldWithDirectives.callsLeaveField(withDirectives: false))
        let found = try diagnostics([EnterRule.self, LeaveRule.self])
        // Reports are ordered by position; at one position, in the order they were made.
        XCTAssertEqual(
            found.map(\.message),
            [
                "enter dog", "leave dog", "enter name", "leave name", "enter nickname", "leave nickname", "enter owner",
                "leave owner", "enter name", "leave name",
            ])
    }

    func testAPerDefinitionRuleSeesTheFieldsOfTheDefinitionsItIsActiveIn() throws {
        let found = try diagnostics([FragmentFieldsRule.self])
        XCTAssertEqual(
            found.map(\.message), ["fragment field nickname", "fragment field owner", "fragment field name"])
    }

    func testADebugBuildReportsARuleBreakingItsDeclaration() throws {
        #if DEBUG
            let undeclared = try diagnostics([UndeclaredLeaveRule.self]).filter { $0.rule == "validation-hooks" }
            XCTAssertEqual(undeclared.count, 1)
            XCTAssertTrue(undeclared.first?.message.contains("undeclared-leave") == true)
            let dishonest = try diagnostics([DishonestRule.self]).filter { $0.rule == "validation-hooks" }
            XCTAssertEqual(dishonest.count, 1)
            XCTAssertTrue(dishonest.first?.message.contains("fieldPerDefinition") == true)
        #else
            print("skipped: only a debug build calls the hooks a rule did not declare")
        #endif
    }

    func testTheFragmentIndexKeepsTheLastDefinitionOfAName() {
        var index = FragmentIndex()
        index.set("UserFields", 3)
        index.set("Other", 4)
        index.set("UserFields", 7)
        // A name longer than eight bytes, and one equal only under canonical equivalence.
        index.set("ALongerFragmentName", 9)
        index.set("Caf\u{E9}", 10)
        XCTAssertEqual(index["UserFields"], 7)
        XCTAssertEqual(index["Other"], 4)
        XCTAssertEqual(index["ALongerFragmentName"], 9)
        XCTAssertEqual(index["Cafe\u{301}"], 10)
        XCTAssertNil(index["userFields"])
        XCTAssertNil(index["ALongerFragmentNam"])
    }

    func testFirstPlacesAnswersWhereANameWasFirstSeen() {
        let file = SourceFile(path: "a.graphql", bytes: Array("query A { a } query A { a }".utf8))
        var places = FirstPlaces()
        let first = SourceRange(file: file, span: Span(start: 6, end: 7))
        XCTAssertNil(places.first("A", at: first))
        XCTAssertEqual(places.first("A", at: SourceRange(file: file, span: Span(start: 20, end: 21)))?.span, first.span)
        XCTAssertNil(places.first("B", at: SourceRange(file: file, span: Span(start: 0, end: 1))))
    }
}
