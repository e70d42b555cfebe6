import BatonDiagnostics
import BatonSchema
import BatonSyntax
import XCTest

@testable import BatonValidation

/// What the rules learn of fragment spreads from the context: the fragment a spread names (asked by several
/// rules in turn at one spread, looked up once), and each definition's spread targets in graphql-js's
/// `getFragmentSpreads` order (found by a search that keeps no node).
final class FragmentSpreadLookupTests: XCTestCase {
    static let document = """
        query Q { dog { ...A ... on Dog { ...B name } owner { name pets { name } } owner { ...C } } ...Missing pets { ...A } }
        fragment A on Dog { name ...B ... { ...C owner { ...A } } }
        fragment B on Dog { ... on Dog { ... on Dog { ...C } } ...Missing }
        fragment C on Human { name }
        fragment A on Dog { nickname ...C }
        """

    private func context() throws -> ValidationContext {
        let schema = try TestSupport.loadSchema(TestSupport.fixtures.appendingPathComponent("schema.graphqls").path)
        let parsed = Parser.parse(SourceFile(path: "q.graphql", bytes: Array(Self.document.utf8)))
        return ValidationContext(schema: schema, documents: [try XCTUnwrap(parsed.document)])
    }

    /// graphql-js's `getFragmentSpreads`, written out: a stack of selection sets, each set's spreads in order
    /// and its inner sets pushed as they are met.
    private static func graphQLJSSpreads(_ selectionSet: SelectionSet) -> [String] {
        var spreads: [String] = []
        var setsToVisit = [selectionSet]
        while let set = setsToVisit.popLast() {
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let spread): spreads.append(spread.name.value)
                case .field(let field): if let inner = field.selectionSet { setsToVisit.append(inner) }
                case .inlineFragment(let inline): setsToVisit.append(inline.selectionSet)
                }
            }
        }
        return spreads
    }

    func testEachDefinitionsSpreadTargetsAreItsSpreadsInGraphQLJSOrder() throws {
        let context = try context()
        var compared = 0
        for (index, entry) in context.definitions.enumerated() {
            let selectionSet: SelectionSet
            switch entry.definition {
            case .operation(let node): selectionSet = node.selectionSet
            case .fragment(let node): selectionSet = node.selectionSet
            default: continue
            }
            let names = Self.graphQLJSSpreads(selectionSet)
            XCTAssertEqual(
                context.spreadTargets(ofDefinition: index), names.map { context.fragmentIndexByName[$0] ?? -1 })
            XCTAssertEqual(context.fragmentSpreads(ofDefinition: index).map(\.name.value), names)
            XCTAssertEqual(ValidationContext.fragmentSpreads(in: selectionSet).map(\.name.value), names)
            for spread in names.indices {
                XCTAssertEqual(
                    context.spreadTarget(ofDefinition: index, spread), context.fragmentIndexByName[names[spread]] ?? -1)
            }
            compared += names.count
        }
        XCTAssertEqual(compared, 11)
    }

    func testEverySpreadIsAnsweredWithTheFragmentItNamesWhateverWasAskedBefore() throws {
        let context = try context()
        var spreads: [FragmentSpread] = []
        for entry in context.definitions {
            switch entry.definition {
            case .operation(let node): spreads += ValidationContext.fragmentSpreads(in: node.selectionSet)
            case .fragment(let node): spreads += ValidationContext.fragmentSpreads(in: node.selectionSet)
            default: continue
            }
        }
        // Each spread asked about once, twice in a row (as the rules ask), and again after others.
        for spread in spreads + spreads.flatMap({ [$0, $0] }) + spreads.reversed() {
            XCTAssertEqual(context.fragmentIndex(of: spread), context.fragmentIndexByName[spread.name.value])
        }
        XCTAssertEqual(spreads.filter { context.fragmentIndex(of: $0) == nil }.count, 2, "two spreads of Missing")
        let spreadOfA = try XCTUnwrap(spreads.first { $0.name.value == "A" })
        XCTAssertEqual(context.fragmentIndex(of: spreadOfA), 4, "A is its last definition")
    }

    /// The second pass finds each key of a document by its bytes in the first pass's sorted keys.
    func testEveryKeyIsFoundByItsBytesAndNoOtherIs() {
        let names = ["", "A", "AB", "ABC", "AC", "B", "Ba", "a", "ab", "b", "é", "ü"].flatMap {
            [$0, $0 + "1", "x" + $0]
        }
        let keys = Array(Set(names.flatMap { ["name:" + $0, "label:" + $0] }))
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for name in names {
            XCTAssertEqual(DocumentLinks.index(of: "name:", name, in: keys), keys.firstIndex(of: "name:" + name))
            XCTAssertEqual(DocumentLinks.index(of: "label:", name, in: keys), keys.firstIndex(of: "label:" + name))
        }
        for absent in ["C", "AA", "A2", "Bb", "c", "ab1x", "e"] {
            XCTAssertNil(DocumentLinks.index(of: "name:", absent, in: keys), absent)
            XCTAssertNil(DocumentLinks.index(of: "label:", absent, in: keys), absent)
        }
        XCTAssertNil(DocumentLinks.index(of: "nam", "", in: keys), "a beginning of a key")
        XCTAssertNil(DocumentLinks.index(of: "name:", "A", in: []))
    }
}
