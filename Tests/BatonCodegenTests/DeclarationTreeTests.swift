import BatonCompiler
import BatonDeclarations
import BatonIR
import BatonTestSupport
import Foundation
import Testing

/// The declaration tree (`Sources/BatonDeclarations`): a toy third printer (TypeScript declarations) prints real
/// generator fixtures' trees with no change outside itself, and the lowering states what the plan decides.
@Suite struct DeclarationTreeTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let fixtures = here.appendingPathComponent("Fixtures")

    /// The plan of a generator fixture, compiled as `GeneratorFixtureTests` compiles it.
    static func model(_ name: String) throws -> LensModel {
        let fixture = FixtureCase(
            suite: "generators", file: fixtures.appendingPathComponent("generators").appendingPathComponent(name))
        var sections = try fixture.sections(keepsPreamble: true)
        if !sections.contains(where: { $0.path == "baton.json" }) {
            sections.insert(("baton.json", GeneratorFixtureTests.defaultConfiguration), at: 0)
        }
        let schema = try Data(contentsOf: fixtures.appendingPathComponent("schema.graphql"))
        let project = FixtureProject(
            sections: sections, defaultSchema: ("schema.graphql", Array(schema)), upTo: .plan, targets: .configured)
        return try #require(project.compilation.model, "\(name): no plan: \(project.diagnostics)")
    }

    /// The toy printer's output for each case, against `Fixtures/declarations/<case>.d.ts`
    /// (`BATON_UPDATE_FIXTURES=1` rewrites them).
    @Test(arguments: ["connections", "incremental", "required-and-catch", "public-pagination"])
    func toyPrinterPrintsAFixturesTree(_ name: String) throws {
        let tree = DeclarationLowering(try Self.model(name + ".graphql")).tree()
        let printed = TypeScriptDeclarationPrinter.print(tree)
        let expectedFile = Self.fixtures.appendingPathComponent("declarations").appendingPathComponent(name + ".d.ts")
        if FixtureRunner.isUpdating {
            try FileManager.default.createDirectory(
                at: expectedFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try printed.write(to: expectedFile, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: expectedFile, encoding: .utf8)
        #expect(printed == expected, "\(name): the toy printer's output differs from declarations/\(name).d.ts")
    }

    /// The proof that the tree is enough for a third language: the printer imports the tree module and nothing else
    /// (no plan, schema, AST or generator), so adding it needed no change outside its own file.
    @Test func toyPrinterImportsOnlyTheTree() throws {
        let source = try String(
            contentsOf: Self.here.appendingPathComponent("TypeScriptDeclarationPrinter.swift"), encoding: .utf8)
        let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.contains(" import ") }
        #expect(imports == ["import BatonDeclarations"])
    }

    /// The lowering states the plan's decisions: a `@catch` member reads a Result, a deferred spread a phase, a
    /// streamed list its items so far; optionality is the plan's (`Accessor.isOptional`), and the whole tree is the
    /// per-construct lowerings in the plan's order.
    @Test func memberTypesStateReadModesAndOptionality() throws {
        for name in ["incremental.graphql", "required-and-catch.graphql", "connections.graphql"] {
            let model = try Self.model(name)
            let lowering = DeclarationLowering(model)
            let tree = lowering.tree()
            #expect(
                tree.files.count
                    == model.types.customScalars.count + model.types.enums.count + model.types.inputObjects.count
                    + model.fragments.count + model.operations.count)
            var lenses = model.operations.map(\.lens) + model.fragments.map(\.lens)
            var declared =
                model.operations.map { lowering.operation($0).lens }
                + model.fragments.map {
                    lowering.fragment($0).lens
                }
            while let lens = lenses.popLast(), let declaration = declared.popLast() {
                #expect(lens.typeName == declaration.typeName)
                try #require(lens.accessors.count == declaration.members.count)
                for (accessor, member) in zip(lens.accessors, declaration.members) {
                    #expect(accessor.name == member.name)
                    switch accessor.readMode {
                    case .catchToResult:
                        guard case .result(let value) = member.type else {
                            Issue.record("\(name): \(accessor.name) is @catch but reads \(member.type)")
                            continue
                        }
                        #expect(value.isOptional == accessor.levels[0].isOptional, "\(name): \(accessor.name)")
                    case .deferred:
                        guard case .deferred = member.type.nonOptional else {
                            Issue.record("\(name): \(accessor.name) is deferred but reads \(member.type)")
                            continue
                        }
                        #expect(member.type.isOptional == accessor.isOptional, "\(name): \(accessor.name)")
                    default:
                        #expect(member.type.isOptional == accessor.isOptional, "\(name): \(accessor.name)")
                    }
                    if let nested = accessor.lens, let nestedDeclaration = member.lens {
                        lenses.append(nested)
                        declared.append(nestedDeclaration)
                    }
                }
            }
        }
    }

    /// Names the tree marks as differing only by case from a sibling's: exactly those.
    @Test func caseTwinsAreMarked() {
        #expect(
            DeclarationLowering.caseTwins(["url", "Url", "id", "self", "Self", "name"])
                == [true, true, false, true, true, false])
        #expect(DeclarationLowering.caseTwins(["only"]) == [false])
    }
}
