import BatonDiagnostics
import XCTest

@testable import BatonSyntax

/// What a selection set knows of everything below it (`SelectionSet.containsSpreads`,
/// `containsDirectives`, `bareLevels`) and of its own fields (`keysAreDistinct`): the searches for spreads
/// and links skip the sets without any, `check`'s screen the bare ones and field merging the sets of distinct
/// keys, so each must be what a walk of the set finds, at every set of every document, and again after its
/// selections change.
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

    /// The levels of sets `set` makes when every selection at any depth is a field without alias or
    /// arguments, at most `bareLevelsLimit`; 0 otherwise.
    private static func walkedBareLevels(_ set: SelectionSet) -> Int {
        var below = 0
        for selection in set.selections {
            guard case .field(let field) = selection, field.alias == nil, field.arguments.isEmpty else { return 0 }
            if let inner = field.selectionSet {
                let levels = walkedBareLevels(inner)
                if levels == 0 { return 0 }
                below = max(below, levels)
            }
        }
        return min(below + 1, Int(SelectionSet.bareLevelsLimit))
    }

    /// Whether `set` is fields only, at most `distinctKeysLimit`, whose response keys differ.
    private static func walkedDistinctKeys(_ set: SelectionSet) -> Bool {
        var keys: Set<String> = []
        for selection in set.selections {
            guard case .field(let field) = selection, keys.insert(field.responseKey).inserted else { return false }
        }
        return keys.count <= SelectionSet.distinctKeysLimit
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
        -> (spreads: Int, directives: Int, without: Int, bare: Int, distinct: Int, all: Int)
    {
        var counts = (spreads: 0, directives: 0, without: 0, bare: 0, distinct: 0, all: 0)
        for set in Self.sets(of: document) {
            let walked = Self.walked(set)
            XCTAssertEqual(set.containsSpreads, walked.spreads, "\(context) at \(set.span)", file: file, line: line)
            XCTAssertEqual(
                set.containsDirectives, walked.directives, "\(context) at \(set.span)", file: file, line: line)
            let bareLevels = Self.walkedBareLevels(set)
            XCTAssertEqual(Int(set.bareLevels), bareLevels, "\(context) at \(set.span)", file: file, line: line)
            let distinct = Self.walkedDistinctKeys(set)
            XCTAssertEqual(set.keysAreDistinct, distinct, "\(context) at \(set.span)", file: file, line: line)
            counts.all += 1
            if bareLevels > 0 { counts.bare += 1 }
            if distinct { counts.distinct += 1 }
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
        XCTAssertGreaterThan(counts.bare, 3)
        XCTAssertGreaterThan(counts.distinct, 3)
        XCTAssertLessThan(counts.bare, counts.all - 3)
        XCTAssertLessThan(counts.distinct, counts.all - 3)
    }

    /// The parser tells a set's response keys apart by their names' numbers: an alias is the key, an alias
    /// and a name of one text are one key, a nested set's keys are its own, and a set of more fields than
    /// `distinctKeysLimit` is not told.
    func testASetsKeysAreToldApartAsTheParserMeetsThem() throws {
        func sets(_ text: String) throws -> [SelectionSet] {
            let document = try XCTUnwrap(Parser.parse(SourceFile(path: "k.graphql", text: text)).document)
            return Self.sets(of: document)
        }
        func distinct(_ text: String) throws -> [Bool] { try sets(text).map(\.keysAreDistinct) }
        XCTAssertEqual(try distinct("{ a b c }"), [true])
        XCTAssertEqual(try distinct("{ a b: a }"), [true])
        XCTAssertEqual(try distinct("{ a a }"), [false])
        XCTAssertEqual(try distinct("{ x: a x: b }"), [false])
        XCTAssertEqual(try distinct("{ b a: b a }"), [false])
        XCTAssertEqual(try distinct("{ a { a } }"), [true, true])
        XCTAssertEqual(try distinct("{ a { b b } c }"), [true, false])
        XCTAssertEqual(try distinct("{ a { b } a { c } }"), [false, true, true])
        XCTAssertEqual(try distinct("{ a ... on T { b } }"), [false, true])
        XCTAssertEqual(try distinct("{ a ...F }"), [false])
        XCTAssertEqual(try distinct("{ a longer_than_fifteen_bytes_name b: longer_than_fifteen_bytes_name }"), [true])
        XCTAssertEqual(try distinct("{ a: longer_than_fifteen_bytes_name longer_than_fifteen_bytes_name: b }"), [true])
        XCTAssertEqual(try distinct("{ longer_than_fifteen_bytes_name longer_than_fifteen_bytes_name: b }"), [false])
        let limit = SelectionSet.distinctKeysLimit
        let fields = (0..<limit).map { "f\($0)" }.joined(separator: " ")
        XCTAssertEqual(try distinct("{ \(fields) }"), [true])
        XCTAssertEqual(try distinct("{ \(fields) more }"), [false])
        XCTAssertEqual(try sets("{ a { b { c } } d }").map(\.bareLevels), [3, 2, 1])
        XCTAssertEqual(try sets("{ a @include(if: true) { b } }").map(\.bareLevels), [2, 1])
        XCTAssertEqual(try sets("{ a { b(x: 1) } }").map(\.bareLevels), [0, 0])
        XCTAssertEqual(try sets("{ a { c: b } }").map(\.bareLevels), [0, 0])
        XCTAssertEqual(try sets("{ a { ... on T { b } } }").map(\.bareLevels), [0, 0, 1])
        // Made or changed outside the parser: not known.
        var set = try XCTUnwrap(sets("{ a b }").first)
        XCTAssertTrue(set.keysAreDistinct)
        set.selections = Array(set.selections.prefix(1))
        XCTAssertFalse(set.keysAreDistinct)
        XCTAssertFalse(SelectionSet(selections: set.selections, span: set.span).keysAreDistinct)
    }

    func testASetsSummaryFollowsItsSelectionsWhenTheyChange() throws {
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "q.graphql", text: Self.document)).document)
        guard case .operation(let query) = document.definitions[0],
            case .fragment(let fragment) = document.definitions[1]
        else { return XCTFail("not the document's definitions") }
        var set = query.selectionSet
        XCTAssertTrue(set.containsSpreads)
        XCTAssertEqual(set.bareLevels, 0)
        set.selections = Array(set.selections.suffix(1))  // `h { i { j { k } } }`: neither
        XCTAssertFalse(set.containsSpreads)
        XCTAssertFalse(set.containsDirectives)
        XCTAssertEqual(set.bareLevels, 4)
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
