import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonIR
import BatonTestSupport
import Foundation
import XCTest

/// Issue 13's observations 7 and 8: the generators spell one plan, so an accessor under
/// alternatives is conditional in both languages and a name collision resolves the same way in
/// both; and the agreement check itself catches a generator that decides on its own.
final class PlanAgreementTests: XCTestCase {
    static let schema = """
        type Query { viewer: User }
        type User { id: ID! login: String! organization: Organization }
        type Organization { id: ID! name: String }
        enum Mood { HAPPY SAD }
        """

    static func generate(_ model: LensModel) -> (swift: [GeneratedFile], kotlin: [GeneratedFile]) {
        (
            SwiftGenerator(model: model).generate(),
            KotlinGenerator.generate(model, options: KotlinGeneratorOptions(packageName: "app", includeRuntime: false))
        )
    }

    // MARK: 7. Alternatives

    static let alternatives = """
        query Alternatives($a: Boolean!, $b: Boolean!) {
          viewer {
            id
            organization @include(if: $a) { name }
            organization @skip(if: $b) { id }
          }
        }
        """

    func testAlternativesAreConditionalInBothLanguages() throws {
        let model = try ModelHarness.model(
            schema: try ModelHarness.schema(sdl: Self.schema), documents: [("a.graphql", Self.alternatives)])
        let organization = try XCTUnwrap(model.operations.first?.lens.accessors.first?.lens?.accessors.last)
        XCTAssertEqual(organization.presence.text, "@include(if: $a) or @skip(if: $b)")
        let (swift, kotlin) = Self.generate(model)
        XCTAssertEqual(PlanAgreement.problems(model, swift: swift, kotlin: kotlin), [])
        let swiftText = try XCTUnwrap(swift.first { $0.path == "Alternatives.graphql.swift" }?.contents)
        let kotlinText = try XCTUnwrap(kotlin.first { $0.path == "Alternatives.kt" }?.contents)
        XCTAssertTrue(
            swiftText.contains(#"conditions: [.anyOf([.allOf([.include("a")]), .allOf([.skip("b")])])]"#), swiftText)
        // Kotlin's plan text: the alternatives `+a` and `-b` of the field's `c=` part.
        XCTAssertTrue(kotlinText.contains("|c=+a;-b"), kotlinText)
        XCTAssertTrue(GeneratedText.kotlinConditions(kotlinText).contains("+a | -b"), kotlinText)

        // What Swift wrote before the plan carried alternatives: no conditions at all. The check sees it.
        let unconditional = swiftText.replacingOccurrences(
            of: #", conditions: [.anyOf([.allOf([.include("a")]), .allOf([.skip("b")])])]"#, with: "")
        XCTAssertNotEqual(unconditional, swiftText)
        let old = swift.map {
            $0.path == "Alternatives.graphql.swift" ? GeneratedFile(path: $0.path, contents: unconditional) : $0
        }
        XCTAssertFalse(PlanAgreement.problems(model, swift: old, kotlin: kotlin).isEmpty)
    }

    /// The generated Swift run against the runtime: with `$a` false and `$b` true the server leaves
    /// `organization` out, and the read says nil without reporting missing data (which would
    /// refetch); with `$a` true it reads the organization.
    func testSwiftRuntimeReadsAlternativesWithoutMissingData() throws {
        let model = try ModelHarness.model(
            schema: try ModelHarness.schema(sdl: Self.schema), documents: [("a.graphql", Self.alternatives)])
        let files = SwiftGenerator(model: model).generate()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-alternatives-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try FileWriter(root: folder.path, managedExtensions: ["swift"]).write(files)
        let program = #"""
            import Baton
            import Foundation

            for (a, b, response) in [
                (false, true, #"{"data": {"viewer": {"__typename": "User", "id": "u1"}}}"#),
                (true, true, #"{"data": {"viewer": {"__typename": "User", "id": "u1", "organization": {"__typename": "Organization", "name": "Baton"}}}}"#),
            ] {
                let store = Store()
                let query = Alternatives(a: a, b: b)
                _ = try store.commit(GraphQLResponse(bytes: Data(response.utf8)), for: query)
                let reporter = CollectingReporter()
                let data = try store.read(query, reporter: reporter)
                print("a=\(a) b=\(b): organization \(data.viewer?.organization?.name ?? "nil"), events \(reporter.events.count)")
            }
            """#
        try program.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let output = try SwiftCompiler.buildAndRun(
            files.map { folder.appendingPathComponent($0.path).path } + [
                folder.appendingPathComponent("main.swift").path
            ])
        XCTAssertEqual(
            output,
            """
            a=false b=true: organization nil, events 0
            a=true b=true: organization Baton, events 0

            """)
    }

    // MARK: 8. Names

    func testSchemaTypesKeepTheirNamesInBothLanguages() throws {
        let model = try ModelHarness.model(
            schema: try ModelHarness.schema(sdl: Self.schema + "\nextend type User { mood: Mood }\n"),
            documents: [("m.graphql", "query Mood { viewer { mood } }")])
        XCTAssertEqual(model.types.enums.map(\.typeName), ["Mood"])
        XCTAssertEqual(model.operations.map(\.typeName), ["Mood_"])
        let (swift, kotlin) = Self.generate(model)
        XCTAssertEqual(PlanAgreement.problems(model, swift: swift, kotlin: kotlin), [])
        XCTAssertEqual(swift.map(\.path).sorted(), ["Mood.graphql.swift", "Mood_.graphql.swift"])
        XCTAssertEqual(kotlin.map(\.path).sorted(), ["Mood.kt", "Mood_.kt"])
        XCTAssertTrue(swift.first { $0.path == "Mood.graphql.swift" }?.contents.contains("enum Mood:") == true)
        XCTAssertTrue(kotlin.first { $0.path == "Mood.kt" }?.contents.contains("sealed class Mood(") == true)
        XCTAssertTrue(
            swift.first { $0.path == "Mood_.graphql.swift" }?.contents.contains("struct Mood_: Baton.")
                == true)
        XCTAssertTrue(
            kotlin.first { $0.path == "Mood_.kt" }?.contents.contains("class Mood_ : PlanTable.Operation<") == true)
        // The operation's name as the server sees it is unchanged.
        XCTAssertTrue(swift.first { $0.path == "Mood_.graphql.swift" }?.contents.contains("query Mood {") == true)
    }

    /// A generator that names a definition on its own is caught.
    func testTheCheckCatchesANameDecidedByOneGenerator() throws {
        let model = try ModelHarness.model(
            schema: try ModelHarness.schema(sdl: Self.schema),
            documents: [("v.graphql", "query Viewer { viewer { id } }")])
        let (swift, kotlin) = Self.generate(model)
        XCTAssertEqual(PlanAgreement.problems(model, swift: swift, kotlin: kotlin), [])
        let renamed = kotlin.map { GeneratedFile(path: "Viewer_.kt", contents: $0.contents) }
        XCTAssertFalse(PlanAgreement.problems(model, swift: swift, kotlin: renamed).isEmpty)
        var otherId = model
        otherId.operations[0].operationID = String(repeating: "0", count: 64)
        XCTAssertEqual(PlanAgreement.problems(otherId, swift: swift, kotlin: kotlin).count, 2)
    }
}
