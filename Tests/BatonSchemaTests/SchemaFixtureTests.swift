import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import Foundation
import Testing

/// Fixture tests in relay's style: each `Fixtures/<suite>/<case>.graphql` is built as a schema
/// and `<case>.expected` holds the input and then the built schema (OUTPUT) or the diagnostics
/// (ERROR). A `*.invalid.graphql` case must produce an error and every other case none.
/// `#- path` lines split a case into several schema files. Each case is its own test (run by
/// the shared `FixtureRunner`); regenerate with `BATON_UPDATE_FIXTURES=1 swift test`.
@Suite struct SchemaFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let cases =
        FixtureRunner.cases("sdl", in: fixtures.appendingPathComponent("sdl"))
        + FixtureRunner.cases("schema", in: fixtures.appendingPathComponent("schema"))

    @Test(arguments: cases)
    func fixture(_ fixture: FixtureCase) throws {
        let sources = try fixture.sections().map { section in
            SourceFile(path: section.path, text: section.path == fixture.name ? section.text : section.text + "\n")
        }
        let (schema, diagnostics) = SchemaBuilder.build(sources: sources)
        let result = FixtureResult.diagnostics(
            diagnostics, output: schema.map(SchemaSummary.print) ?? "no schema\n")
        let problems = FixtureRunner.verify(fixture, result)
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }

    @Test func bothSuitesHaveCases() {
        #expect(Self.cases.contains { $0.suite == "sdl" } && Self.cases.contains { $0.suite == "schema" })
    }

    /// Every SDL rule has at least one invalid fixture named after its id.
    @Test func everyRuleHasAFixture() throws {
        let names = try FileManager.default.contentsOfDirectory(
            atPath: Self.fixtures.appendingPathComponent("sdl").path)
        for id in [
            "lone-schema-definition", "unique-operation-types", "unique-type-names", "unique-enum-value-names",
            "unique-field-definition-names", "unique-argument-definition-names", "unique-directive-names",
            "known-type-names", "known-directives", "unique-directives-per-location", "possible-type-extensions",
            "known-argument-names-on-directives", "unique-argument-names", "unique-input-field-names",
            "provided-required-arguments-on-directives", "apollo-client-directives",
        ] {
            #expect(
                names.contains("\(id).invalid.graphql") || names.contains("\(id).graphql"), "no fixture for \(id)")
        }
    }
}

/// A compact, stable text form of a built schema's own types and directives, for fixtures.
enum SchemaSummary {
    static func print(_ schema: GraphQLSchema) -> String {
        var lines: [String] = []
        var roots: [String] = []
        if let name = schema.queryTypeName { roots.append("query: \(name)") }
        if let name = schema.mutationTypeName { roots.append("mutation: \(name)") }
        if let name = schema.subscriptionTypeName { roots.append("subscription: \(name)") }
        lines.append("schema { \(roots.joined(separator: " ")) }")
        for name in schema.typeNames {
            guard let type = schema.type(named: name), type.location != nil else { continue }
            var head = "\(type.kind.rawValue.lowercased()) \(name)"
            if !type.interfaces.isEmpty { head += " implements " + type.interfaces.joined(separator: " & ") }
            head += type.directives.map { " @\($0.name)" }.joined()
            if !type.extensionLocations.isEmpty { head += " (\(type.extensionLocations.count) extensions)" }
            switch type.kind {
            case .object, .interface:
                lines.append(head)
                for field in type.fields {
                    let arguments =
                        field.arguments.isEmpty
                        ? "" : "(" + field.arguments.map(inputValue).joined(separator: ", ") + ")"
                    lines.append("  \(field.name)\(arguments): \(field.type)\(deprecation(field.deprecationReason))")
                }
            case .union:
                lines.append(head + " = " + type.unionMembers.joined(separator: " | "))
            case .enumType:
                lines.append(head)
                for value in type.enumValues { lines.append("  \(value.name)\(deprecation(value.deprecationReason))") }
            case .inputObject:
                lines.append(head)
                for field in type.inputFields { lines.append("  " + inputValue(field)) }
            case .scalar:
                lines.append(head)
            }
        }
        for name in schema.directiveNames {
            guard let directive = schema.directive(named: name), directive.location != nil else { continue }
            let arguments =
                directive.arguments.isEmpty
                ? "" : "(" + directive.arguments.map(inputValue).joined(separator: ", ") + ")"
            lines.append(
                "directive @\(name)\(arguments)\(directive.isRepeatable ? " repeatable" : "") on "
                    + directive.locations.map(\.rawValue).joined(separator: " | "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func inputValue(_ value: InputValue) -> String {
        var text = "\(value.name): \(value.type)"
        if let defaultValue = value.defaultValue { text += " = " + Printer.print(defaultValue) }
        return text + deprecation(value.deprecationReason)
    }

    static func deprecation(_ reason: String?) -> String { reason.map { " (deprecated: \($0))" } ?? "" }
}
