import BatonDeclarations
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax
import BatonTestSupport
import XCTest

/// A plan after an edit takes the definitions the edit does not reach as one block (`SummaryBlock`,
/// `LensModel.block`) only when the definitions it plans are named and typed as the earlier plan recorded them:
/// their names, and the block's, are then the recorded ones. An edited name that collides with a block's (ignoring
/// case) is not: the block's definitions join as stand-ins and every name is claimed again, so the edited name,
/// earlier in the plan's order, pushes the untouched one's.
final class SummaryBlockTests: XCTestCase {
    static let schema = "type Query { hero: Hero }\ntype Hero { id: ID! name: String }\n"

    func plan(_ text: String, block: SummaryBlock) throws -> LensModel {
        let schema = try XCTUnwrap(
            SchemaBuilder.build(sources: [SourceFile(path: "schema.graphql", text: Self.schema)]).0)
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "F.graphql", text: text)).document)
        let (model, diagnostics) = LensModelBuilder.build(schema: schema, documents: [document], block: block)
        XCTAssertEqual(diagnostics.map(\.message), [])
        return model
    }

    /// The untouched definitions: `HeroC` recorded as named `HeroC_` (an earlier `HEROC` took its name), and a
    /// fragment.
    static let untouched: [DefinitionSummary] = [
        {
            var summary = DefinitionSummary(
                kind: .query, name: "HeroC", path: "C.graphql", usedTypes: UsedTypeNames(), operationID: "c")
            summary.typeName = "HeroC_"
            return summary
        }(),
        DefinitionSummary(
            kind: .fragment, name: "Bits", path: "Bits.graphql", usedTypes: UsedTypeNames(), typeCondition: "Hero"),
        DefinitionSummary(kind: .query, name: "Alpha", path: "A.graphql", usedTypes: UsedTypeNames(), operationID: "a"),
    ]

    func testAPlanNamedAsRecordedTakesTheBlockAndItsNames() throws {
        let recorded = [
            DefinitionSummary(kind: .query, name: "HEROC", path: "F.graphql", usedTypes: UsedTypeNames())
        ]
        let model = try plan(
            "query HEROC { hero { id } }", block: SummaryBlock(outside: Self.untouched, recordedPlanned: recorded))
        let block = try XCTUnwrap(model.block, "the planned definitions are the recorded ones: the block stands")
        XCTAssertEqual(block.operations.map { block.lines.name(at: $0) }, ["Alpha", "HeroC"], "sorted by name")
        XCTAssertEqual(model.operations.map(\.name), ["HEROC"], "only the planned definitions are models")
        XCTAssertEqual(model.summarized.operations, [])
        // The layout merges the block in the plan's order, with the recorded names: nothing claimed again.
        let layout = TopLevelLayout(model)
        let definitions = layout.declarations.filter { $0.kind == .operation || $0.kind == .fragment }
        XCTAssertEqual(definitions.map(\.name), ["Bits", "Alpha", "HEROC", "HeroC_"])
        XCTAssertEqual(definitions.map(\.inBlock), [true, true, false, true])
        XCTAssertTrue(block.contains(key: "o:HeroC"))
        XCTAssertFalse(block.contains(key: "o:HEROC"))
    }

    /// A block's operations and fragments are in `String`'s order of their names (`SummaryBlock.sortByName`, which
    /// reads each name's first sixteen bytes where they lie, as two numbers): names sharing 16, 32 and more bytes,
    /// prefixes of one another, shorter than 8 and 16 bytes (`String`'s small form) and longer, shuffled.
    func testTheBlockIsSortedAsStringsSortNames() throws {
        var generator = SeededGenerator(seed: 34)
        let stems = [
            "", "App", "AppProbl", "AppProblem", "AppProblemDismis", "AppProblemDismissByKeyAndSomeMore",
            "AppProblemDismissByKeyAndSomeMoreX",
        ]
        let tails = ["", "_", "_1", "_10", "_9", "A", "a", "Z", "_79", "__", "0"]
        for round in 0..<10 {
            var names: Set<String> = []
            while names.count < 300 {
                let name = generator.pick(stems) + (0...generator.below(3)).map { _ in generator.pick(tails) }.joined()
                if !name.isEmpty { names.insert(name) }
            }
            let shuffled = names.sorted().shuffled(using: &generator)
            let summaries = shuffled.enumerated().map { index, name in
                index % 3 == 0
                    ? DefinitionSummary(
                        kind: .fragment, name: name, path: "F.graphql", usedTypes: UsedTypeNames(),
                        typeCondition: "Hero")
                    : DefinitionSummary(kind: .query, name: name, path: "Q.graphql", usedTypes: UsedTypeNames())
            }
            let block = SummaryBlock(outside: summaries, recordedPlanned: [])
            XCTAssertEqual(
                block.operations.map { block.lines.name(at: $0) },
                summaries.filter { $0.kind != .fragment }.map(\.name).sorted(), "round \(round)")
            XCTAssertEqual(
                block.fragments.map { block.lines.name(at: $0) },
                summaries.filter { $0.kind == .fragment }.map(\.name).sorted(), "round \(round)")
            // Each name found by its key, and no name that is not there (a prefix, an extension, another case).
            for summary in summaries {
                let prefix = summary.kind == .fragment ? "f:" : "o:"
                let other = summary.kind == .fragment ? "o:" : "f:"
                XCTAssertTrue(block.contains(key: prefix + summary.name), summary.name)
                XCTAssertFalse(block.contains(key: other + summary.name), summary.name)
                for absent in [
                    summary.name + "~", summary.name.lowercased() + "~", String(summary.name.dropLast()) + "~",
                ] {
                    XCTAssertFalse(block.contains(key: prefix + absent), absent)
                }
            }
        }
    }

    /// A block taken from a summary section's lines (`PlanSummary.definitionLines`) holds the lines it was given
    /// (the others are the planned documents'), and its used types are the union of those lines' summaries'.
    func testTheBlockOfLinesHoldsTheUnplannedLinesAndTheirUsedTypes() throws {
        let summaries = DefinitionLinesTests.summaries(400, seed: 34)
        let lines = try XCTUnwrap(DefinitionLines(section: DefinitionLinesTests.section(summaries)[...]))
        let outside = summaries.indices.filter { $0 % 4 != 0 }
        let block = SummaryBlock(lines: lines, outside: outside, recordedPlanned: [])
        XCTAssertEqual(Set(block.operations + block.fragments), Set(outside))
        XCTAssertEqual(block.count, outside.count)
        XCTAssertEqual(Set(block.all), Set(outside.map { summaries[$0] }))
        var enums: Set<String> = []
        var inputs: Set<String> = []
        var scalars: Set<String> = []
        for index in outside {
            enums.formUnion(summaries[index].usedTypes.enums)
            inputs.formUnion(summaries[index].usedTypes.inputObjects)
            scalars.formUnion(summaries[index].usedTypes.customScalars)
        }
        XCTAssertEqual(
            block.usedTypes,
            UsedTypeNames(enums: enums.sorted(), inputObjects: inputs.sorted(), customScalars: scalars.sorted()))
        for index in summaries.indices {
            let key = (summaries[index].kind == .fragment ? "f:" : "o:") + summaries[index].name
            XCTAssertEqual(block.contains(key: key), index % 4 != 0, key)
        }
    }

    /// The collision on the block path: `HEROC` is new (the documents planned again recorded no such name), so the
    /// block does not stand; with every name claimed, `HEROC` (before `HeroC` in the plan's order) takes the name
    /// and the untouched `HeroC` is pushed to `HeroC_`, as a cold run names them.
    func testAnEditedNameCollidingWithTheBlockClaimsEveryNameAgain() throws {
        var untouched = Self.untouched
        untouched[0].typeName = nil  // recorded before HEROC existed
        let model = try plan(
            "query HEROC { hero { id } }", block: SummaryBlock(outside: untouched, recordedPlanned: []))
        XCTAssertNil(model.block, "a new name: the block does not stand")
        XCTAssertEqual(model.summarized.operations, ["HeroC", "Alpha"])
        XCTAssertEqual(model.operations.map(\.name), ["Alpha", "HEROC", "HeroC"])
        XCTAssertEqual(model.operations.map(\.typeName), ["Alpha", "HEROC", "HeroC_"])
    }

    func testTheRecordedNameIsWrittenOnlyWhereItIsNotTheName() throws {
        var out: [UInt8] = []
        Self.untouched[0].writeFields(to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "def query HeroC c - - - - HeroC_")
        out = []
        Self.untouched[2].writeFields(to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "def query Alpha a - - - -")
    }
}
