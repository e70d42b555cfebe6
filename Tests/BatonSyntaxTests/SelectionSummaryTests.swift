import BatonDiagnostics
import XCTest

@testable import BatonSyntax

/// What a selection set knows of everything below it (`SelectionSet.containsSpreads`,
/// `containsDirectives`): the searches for spreads and links skip the sets without any, so each must be
/// what a walk of the set finds, at every set of every document, and again after its selections change.
final class SelectionSummaryTests: XCTestCase {
    /// Whether a walk of `set` (every depth, not following spreads) meets a spread, and a selection with
    /// directives.
    private static func walked(_ set: SelectionSet) -> (spreads: Bool, directives: Bool) {
        var spreads = false
        var directives = false
        var pending = [set]
        while let next = pending.popLast() {
            for selection in next.selections {
                if !selection.directives.isEmpty { directives = true }
                switch selection {
                case .fragmentSpread: spreads = true
                case .field(let field): if let inner = field.selectionSet { pending.append(inner) }
                case .inlineFragment(let inline): pending.append(inline.selectionSet)
                }
            }
        }
        return (spreads, directives)
    }

    /// Every selection set of a document, outermost first.
    private static func sets(of document: Document) -> [SelectionSet] {
        var sets: [SelectionSet] = []
        var pending: [SelectionSet] = []
        for definition in document.definitions {
            switch definition {
            case .operation(let node): pending.append(node.selectionSet)
            case .fragment(let node): pending.append(node.selectionSet)
            default: continue
            }
        }
        while let next = pending.popLast() {
            sets.append(next)
            for selection in next.selections {
                switch selection {
                case .fragmentSpread: break
                case .field(let field): if let inner = field.selectionSet { pending.append(inner) }
                case .inlineFragment(let inline): pending.append(inline.selectionSet)
                }
            }
        }
        return sets
    }

    private func assertSummaries(
        _ document: Document, _ context: String, file: StaticString = #filePath, line: UInt = #line
    )
        -> (spreads: Int, directives: Int, without: Int)
    {
        var counts = (spreads: 0, directives: 0, without: 0)
        for set in Self.sets(of: document) {
            let walked = Self.walked(set)
            XCTAssertEqual(set.containsSpreads, walked.spreads, "\(context) at \(set.span)", file: file, line: line)
            XCTAssertEqual(
                set.containsDirectives, walked.directives, "\(context) at \(set.span)", file: file, line: line)
            if walked.spreads { counts.spreads += 1 }
            if walked.directives { counts.directives += 1 }
            if !walked.spreads && !walked.directives { counts.without += 1 }
        }
        return counts
    }

    static let document = """
        query Q($v: Boolean!) { a { b { c } d { ...F } } e { f @include(if: $v) { g } } h { i { j { k } } } }
        fragment F on T { x { y { ... on U { ...G } } } z ... @skip(if: true) { w } q { r } }
        fragment G on T { ... on T { ... { s @defer { t } } } u }
        subscription S { ...F @include(if: true) }
        """

    func testEachSetKnowsWhetherASpreadOrADirectiveIsBelowIt() throws {
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "q.graphql", text: Self.document)).document)
        let counts = assertSummaries(document, "q.graphql")
        // Both kinds of set, and sets with neither, are met: a summary that said the same everywhere fails.
        XCTAssertGreaterThan(counts.spreads, 3)
        XCTAssertGreaterThan(counts.directives, 3)
        XCTAssertGreaterThan(counts.without, 3)
    }

    func testASetsSummaryFollowsItsSelectionsWhenTheyChange() throws {
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "q.graphql", text: Self.document)).document)
        guard case .operation(let query) = document.definitions[0],
            case .fragment(let fragment) = document.definitions[1]
        else { return XCTFail("not the document's definitions") }
        var set = query.selectionSet
        XCTAssertTrue(set.containsSpreads)
        set.selections = Array(set.selections.suffix(1))  // `h { i { j { k } } }`: neither
        XCTAssertFalse(set.containsSpreads)
        XCTAssertFalse(set.containsDirectives)
        set.selections.append(contentsOf: fragment.selectionSet.selections)
        XCTAssertTrue(set.containsSpreads)
        XCTAssertTrue(set.containsDirectives)
    }

    func testEveryCorpusDocumentsSetsKnowWhatIsBelowThem() throws {
        var documents = 0
        for url in try CorpusTests.corpusFiles() where url.pathExtension != "graphqls" {
            guard let document = Parser.parse(try CorpusTests.source(url)).document else { continue }
            _ = assertSummaries(document, url.path)
            documents += 1
        }
        XCTAssertGreaterThan(documents, 100)
    }
}
