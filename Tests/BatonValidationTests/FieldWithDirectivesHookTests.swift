import BatonDiagnostics
import BatonSchema
import BatonSyntax
import XCTest

@testable import BatonValidation

/// `ValidationHooks.fieldWithDirectives`: a rule that reads only a field's directives is not called
/// at the fields that have none (most), and a debug build reports one that would have reported there.
final class FieldWithDirectivesHookTests: XCTestCase {
    /// Reports every field it is called at.
    final class EveryFieldRule: ValidationRuleBase, ValidationRule {
        static let id = "every-field"
        static let hooks: ValidationHooks = [.fieldWithDirectives]
        let context: ValidationContext
        init(context: ValidationContext) { self.context = context }
        override func enterField(_ node: Field) { report("field \(node.name.value)", at: node.name.span) }
    }

    /// Reports the fields that have directives, as the Baton rules declaring the hook do.
    final class DirectedFieldRule: ValidationRuleBase, ValidationRule {
        static let id = "directed-field"
        static let hooks: ValidationHooks = [.fieldWithDirectives]
        let context: ValidationContext
        init(context: ValidationContext) { self.context = context }
        override func enterField(_ node: Field) {
            guard !node.directives.isEmpty else { return }
            report("field \(node.name.value)", at: node.name.span)
        }
    }

    static let query =
        "query Q($on: Boolean!) { dog { name nickname @include(if: $on) owner @skip(if: $on) { name } } }"

    func diagnostics(_ rule: any ValidationRule.Type) throws -> [Diagnostic] {
        let schema = try TestSupport.loadSchema(TestSupport.fixtures.appendingPathComponent("schema.graphqls").path)
        let parsed = Parser.parse(SourceFile(path: "q.graphql", bytes: Array(Self.query.utf8)))
        let document = try XCTUnwrap(parsed.document)
        return Validator.validate(schema: schema, documents: [document], rules: [rule])
    }

    func testTheWalkCallsSuchARuleOnlyAtFieldsWithDirectives() {
        XCTAssertTrue(ValidationHooks.fieldWithDirectives.callsField(withDirectives: true))
        XCTAssertFalse(ValidationHooks.fieldWithDirectives.callsField(withDirectives: false))
        XCTAssertTrue(ValidationHooks.field.callsField(withDirectives: false))
        XCTAssertTrue(ValidationHooks.all.callsField(withDirectives: false))
        XCTAssertFalse(ValidationHooks.selectionSet.callsField(withDirectives: true))
    }

    func testARuleReportingOnlyFieldsWithDirectivesSeesThemAll() throws {
        let found = try diagnostics(DirectedFieldRule.self)
        XCTAssertEqual(found.map(\.message), ["field nickname", "field owner"])
        XCTAssertEqual(found.map(\.rule), ["directed-field", "directed-field"])
    }

    func testADebugBuildReportsSuchARuleReportingAFieldWithoutDirectives() throws {
        #if DEBUG
            let found = try diagnostics(EveryFieldRule.self)
            let hooks = found.filter { $0.rule == "validation-hooks" }
            XCTAssertEqual(hooks.count, 1, "\(found.map(\.message))")
            XCTAssertTrue(hooks.first?.message.contains("every-field") == true)
        #else
            print("skipped: only a debug build calls a .fieldWithDirectives rule at a field without directives")
        #endif
    }
}
