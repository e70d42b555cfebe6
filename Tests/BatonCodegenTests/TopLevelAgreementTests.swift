import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonDeclarations
import BatonIR
import BatonTestSupport
import Foundation
import Testing

/// Swift and Kotlin agree on the module-level declarations by construction: for every generator fixture and both
/// hostile schemas, the files each printer writes map one to one onto the tree's list (`TopLevelLayout`), at the
/// layout's file with the printer's extension, each declaring the layout's name; the declarations a printer leaves
/// out are exactly those its `declares` rule names by kind; and the test data builders' files are the layout's.
/// (Checked to fail with Kotlin's file list claimed in its own order again.)
@Suite struct TopLevelAgreementTests {
    static var fixtureCases: [FixtureCase] {
        GeneratorFixtureTests.cases.filter { !$0.description.contains(".invalid") }
    }

    @Test(arguments: fixtureCases)
    func fixtureFilesAreTheLayouts(_ fixture: FixtureCase) throws {
        let project = try GeneratorFixtureTests.project(fixture, upTo: .plan)
        let model = try #require(project.compilation.model, "\(fixture): no plan")
        #expect(Self.problems(model).isEmpty, Comment(rawValue: Self.problems(model).joined(separator: "\n")))
    }

    @Test func kotlinHostileSchemaFilesAreTheLayouts() throws {
        let model = try KotlinHostileSchema.model()
        let problems = Self.problems(model)
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }

    @Test func swiftHostileSchemaFilesAreTheLayouts() throws {
        let schema = try ModelHarness.schema(sdl: SwiftHostileSchemaTests.schema)
        let model = try ModelHarness.model(
            schema: schema, documents: [("hostile.graphql", SwiftHostileSchemaTests.documents)])
        let problems = Self.problems(model)
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }

    /// The collision fixture's layout, stated: the claim order decides who keeps the plain file name.
    @Test func claimOrderDecidesCollisions() throws {
        let fixture = try #require(
            GeneratorFixtureTests.cases.first { $0.description.contains("top-level-collisions") })
        let model = try #require(try GeneratorFixtureTests.project(fixture, upTo: .plan).compilation.model)
        let layout = TopLevelLayout(model)
        let files = layout.declarations.map { "\($0.kind.group):\($0.name)→\($0.file)" }
        #expect(
            files == [
                "customScalar:Data_→Data_", "enumeration:Con→Con_", "enumeration:Status→Status",
                "fragment:status_→status_", "operation:Con_→Con__",
            ])
        #expect(TestBuilderLayout(model).builders.map(\.file) == ["status_Builder", "Con_Builder"])
    }

    /// Every disagreement between the layout and the files the two printers write for `model`.
    static func problems(_ model: LensModel) -> [String] {
        let layout = TopLevelLayout(model)
        var problems: [String] = []
        let swiftFiles = SwiftGenerator(model: model).generate(workers: 1)
        let kotlinFiles = KotlinGenerator.generate(
            model, options: KotlinGeneratorOptions(packageName: "agreement", includeRuntime: false), workers: 1)
        func check(
            _ language: String, _ files: [GeneratedFile], _ expected: [TopLevelDeclaration], extension ext: String,
            declaration: (TopLevelDeclaration, String) -> Bool
        ) {
            let paths = files.map(\.path)
            if Set(paths).count != paths.count { problems.append("\(language): a path written twice: \(paths)") }
            let expectedPaths = expected.map { $0.file + ext }
            if paths.sorted() != expectedPaths.sorted() {
                problems.append("\(language): files \(paths.sorted()) ≠ the layout's \(expectedPaths.sorted())")
                return
            }
            let text = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.contents) })
            for entry in expected where !declaration(entry, text[entry.file + ext] ?? "") {
                problems.append("\(language): \(entry.file + ext) does not declare \(entry.name)")
            }
        }
        let swiftExpected = layout.declarations.filter { SwiftGenerator.declares($0.kind) }
        check("Swift", swiftFiles, swiftExpected, extension: ".graphql.swift") { entry, text in
            let name = IdentifierRules.swift.quoted(entry.name)
            switch entry.kind {
            case .customScalar: return text.contains("private func _\(model.types.customScalars[entry.index].name)")
            case .sharedTypeConditions: return text.contains("extension Baton.TypeCondition")
            case .enumeration, .inputObject:
                // Inside the namespace, when there is one.
                return text.contains("enum \(name)") || text.contains("struct \(name)")
            default: return text.contains("enum \(name)") || text.contains("struct \(name)")
            }
        }
        let kotlinExpected = layout.declarations.filter { KotlinGenerator.declares($0.kind) }
        check("Kotlin", kotlinFiles, kotlinExpected, extension: ".kt") { entry, text in
            let name = IdentifierRules.kotlin.quoted(entry.name)
            return text.contains("class \(name)") || text.contains("typealias \(name) ")
                || text.contains("object \(name)")
        }
        // What each leaves out is its rule's, by kind: Kotlin the namespace and the shared type conditions, Swift the
        // custom scalars it reads as text.
        for entry in layout.declarations {
            switch entry.kind {
            case .schemaNamespace, .sharedTypeConditions:
                if KotlinGenerator.declares(entry.kind) || !SwiftGenerator.declares(entry.kind) {
                    problems.append("\(entry.name): only Swift declares it")
                }
            case .customScalar(let mapped):
                if SwiftGenerator.declares(entry.kind) != mapped || !KotlinGenerator.declares(entry.kind) {
                    problems.append("\(entry.name): Swift declares a custom scalar when mapped, Kotlin always")
                }
            default:
                if !SwiftGenerator.declares(entry.kind) || !KotlinGenerator.declares(entry.kind) {
                    problems.append("\(entry.name): both languages declare it")
                }
            }
        }
        // The test data builders: one file per definition in each language, at the layout's file.
        let builders = TestBuilderLayout(model).builders.map(\.file)
        let swiftBuilders = SwiftGenerator(model: model).generateTestBuilders().map(\.path)
        let kotlinBuilders = KotlinGenerator.generateTestBuilders(model, packageName: "agreement").map(\.path)
        if swiftBuilders.sorted() != builders.map({ $0 + ".graphql.swift" }).sorted() {
            problems.append("Swift builders \(swiftBuilders) ≠ the layout's \(builders)")
        }
        if kotlinBuilders.sorted() != builders.map({ $0 + ".kt" }).sorted() {
            problems.append("Kotlin builders \(kotlinBuilders) ≠ the layout's \(builders)")
        }
        return problems
    }
}
