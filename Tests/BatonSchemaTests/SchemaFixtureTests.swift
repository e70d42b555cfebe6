import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Foundation
import XCTest

/// Fixture tests in relay's style: each `Fixtures/<suite>/<case>.graphql` is built as a schema
/// and `<case>.expected` holds the input and then the built schema (OUTPUT) or the diagnostics
/// (ERROR). A `*.invalid.graphql` case must produce an error and every other case none.
/// `#- path` lines split a case into several schema files. Regenerate with
/// `BATON_UPDATE_FIXTURES=1 swift test --filter BatonSchemaTests`.
final class SchemaFixtureTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func testSDLRuleFixtures() throws { try runSuite("sdl") }
    func testSchemaValidationFixtures() throws { try runSuite("schema") }

    /// Every SDL rule has at least one invalid fixture named after its id.
    func testEveryRuleHasAFixture() throws {
        let names = try FileManager.default.contentsOfDirectory(
            atPath: Self.fixtures.appendingPathComponent("sdl").path)
        for id in [
            "lone-schema-definition", "unique-operation-types", "unique-type-names", "unique-enum-value-names",
            "unique-field-definition-names", "unique-argument-definition-names", "unique-directive-names",
            "known-type-names", "known-directives", "unique-directives-per-location", "possible-type-extensions",
            "known-argument-names-on-directives", "unique-argument-names", "unique-input-field-names",
            "provided-required-arguments-on-directives",
        ] {
            XCTAssertTrue(names.contains("\(id).invalid.graphql"), "no fixture for \(id)")
        }
    }

    func runSuite(_ suite: String) throws {
        let directory = Self.fixtures.appendingPathComponent(suite)
        let update = ProcessInfo.processInfo.environment["BATON_UPDATE_FIXTURES"] == "1"
        let cases = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".graphql") }.sorted()
        XCTAssertFalse(cases.isEmpty)
        for name in cases {
            let url = directory.appendingPathComponent(name)
            let input = try String(contentsOf: url, encoding: .utf8)
            let (schema, diagnostics) = SchemaBuilder.build(sources: Self.sources(name: name, text: input))
            let hasErrors = diagnostics.contains { $0.severity == .error }
            if name.hasSuffix(".invalid.graphql") {
                XCTAssertTrue(hasErrors, "\(suite)/\(name): expected an error")
            } else {
                XCTAssertFalse(hasErrors, "\(suite)/\(name): unexpected errors:\n\(TextRenderer.render(diagnostics))")
            }
            var actual = banner("INPUT") + input
            if !actual.hasSuffix("\n") { actual += "\n" }
            if diagnostics.isEmpty {
                actual += banner("OUTPUT") + (schema.map(SchemaSummary.print) ?? "no schema\n")
            } else {
                actual += banner("ERROR") + TextRenderer.render(diagnostics)
            }
            let expectedURL = url.deletingPathExtension().appendingPathExtension("expected")
            if update {
                try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
                continue
            }
            guard let expected = try? String(contentsOf: expectedURL, encoding: .utf8) else {
                XCTFail("\(suite)/\(name): missing \(expectedURL.lastPathComponent); run with BATON_UPDATE_FIXTURES=1")
                continue
            }
            XCTAssertEqual(actual, expected, "\(suite)/\(name)")
        }
    }

    func banner(_ title: String) -> String {
        let side = String(repeating: "=", count: (78 - title.count - 2) / 2)
        return "\(side) \(title) \(side)\n"
    }

    /// The schema files of a fixture: the whole text, or one file per `#- path` section.
    static func sources(name: String, text: String) -> [SourceFile] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.contains(where: { $0.hasPrefix("#- ") }) else { return [SourceFile(path: name, text: text)] }
        var sources: [SourceFile] = []
        var path: String?
        var body: [Substring] = []
        func flush() {
            if let path { sources.append(SourceFile(path: path, text: body.joined(separator: "\n") + "\n")) }
        }
        for line in lines {
            if line.hasPrefix("#- ") {
                flush()
                path = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                body = []
            } else if path != nil {
                body.append(line)
            }
        }
        flush()
        return sources
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
