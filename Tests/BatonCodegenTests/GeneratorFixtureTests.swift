import BatonCodegen
import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonTestSupport
import Foundation
import Testing

/// Generator fixtures, in the style of the plate fixtures: `Fixtures/generators/<case>.graphql` is
/// compiled by the driver, in memory, as `baton gen` compiles a project (a `#- baton.json` section
/// may set `customScalarTypes`, `onError` and `output`; by default both languages are generated),
/// and `<case>.expected` holds the input and then every generated file (`//- swift/…`,
/// `//- kotlin/…`; Kotlin's runtime support, the same for every case, left out) and the plan
/// (`//- plan`), or the diagnostics. Every case is also checked with `PlanAgreement`: its Swift and
/// Kotlin come from its plan. Each case is its own test; regenerate with
/// `BATON_UPDATE_FIXTURES=1 swift test`.
@Suite struct GeneratorFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let cases = FixtureRunner.cases("generators", in: fixtures.appendingPathComponent("generators"))

    static let defaultConfiguration = """
        {"schema": "schema.graphql", "output": {"swift": {"path": "swift"}, "kotlin": {"path": "kotlin", "package": "fixture"}}}
        """

    @Test func suiteHasCases() { #expect(!Self.cases.isEmpty) }

    /// A fixture compiled as `baton gen` compiles a project, up to `stage` (`DeclarationTreeTests` compiles them too).
    static func project(_ fixture: FixtureCase, upTo stage: Compilation.Stage = .generate) throws -> FixtureProject {
        var sections = try fixture.sections(keepsPreamble: true)
        if !sections.contains(where: { $0.path == "baton.json" }) {
            sections.insert(("baton.json", Self.defaultConfiguration), at: 0)
        }
        let schema = try Data(contentsOf: Self.fixtures.appendingPathComponent("schema.graphql"))
        return FixtureProject(
            sections: sections, defaultSchema: ("schema.graphql", Array(schema)), upTo: stage, targets: .configured)
    }

    @Test(arguments: cases)
    func generators(_ fixture: FixtureCase) throws {
        let project = try Self.project(fixture)
        let compilation = project.compilation
        var problems: [String] = []
        var output = ""
        if let model = compilation.model {
            var swift: [GeneratedFile] = []
            var kotlin: [GeneratedFile] = []
            var swiftBuilders: [GeneratedFile] = []
            for generated in compilation.outputs {
                let files = generated.files.filter {
                    !$0.path.hasPrefix("baton/runtime/") && !$0.path.hasPrefix("baton/testing/")
                }
                switch generated.target.name {
                case "swift": swift = files
                case "kotlin": kotlin = files
                case "swift-test-builders": swiftBuilders = files
                default: break
                }
                for file in files { output += "//- \(generated.target.name)/\(file.path)\n" + file.contents }
            }
            output += "//- plan\n" + PlanText.render(model)
            if !swift.isEmpty && !kotlin.isEmpty {
                problems += PlanAgreement.problems(model, swift: swift, kotlin: kotlin).map { "\(fixture): \($0)" }
            }
            if !swift.isEmpty && !FixtureRunner.isUpdating { problems += typechecks(swift, fixture) }
            if !swiftBuilders.isEmpty && !FixtureRunner.isUpdating {
                problems += typechecks(swiftBuilders, fixture, testKit: true)
            }
        }
        problems += FixtureRunner.verify(fixture, FixtureResult.diagnostics(project.diagnostics, output: output))
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }

    /// The case's Swift compiles (Swift 6, strict concurrency, warnings as errors) against the runtime, as it is
    /// and with the main actor as the target's default isolation (Xcode 26's new app targets).
    /// With `testKit`, the files are test builders, checked against `BatonTesting` (`SwiftCompiler.testKit()`).
    func typechecks(_ files: [GeneratedFile], _ fixture: FixtureCase, testKit: Bool = false) -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-fixture-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try FileWriter(root: folder.path, managedExtensions: ["swift"]).write(files)
            let paths = files.map { folder.appendingPathComponent($0.path).path }
            try SwiftCompiler.typecheck(paths, testKit: testKit)
            try SwiftCompiler.typecheck(paths, extraFlags: SwiftCompiler.mainActorDefault, testKit: testKit)
            return []
        } catch {
            return ["\(fixture): the generated Swift does not compile: \(error)"]
        }
    }
}
