import BatonDiagnostics
import XCTest

@testable import BatonSyntax

/// The parser's names interned by their bytes (`NameTable`), the spaces the lexer skips a word at a time, and
/// the lists gathered on stacks (`ListStack`): none of them may change a token, a name or a tree.
final class NameTableTests: XCTestCase {
    /// Every name of `text` (ASCII names split at anything else) looked up in `table`, with its offsets.
    private func lookUp(_ text: String, in table: inout NameTable) -> [(String, String)] {
        let bytes = Array(text.utf8)
        var found: [(String, String)] = []
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                guard isNameContinueByte(buffer[start]) else {
                    start += 1
                    continue
                }
                var end = start
                while end < buffer.count && isNameContinueByte(buffer[end]) { end += 1 }
                let expected = String(decoding: buffer[start..<end], as: UTF8.self)
                found.append((table.name(buffer, start, end), expected))
                start = end
            }
        }
        return found
    }

    func testEachDistinctNameIsOneEntryWhateverFollowsIt() {
        // Prefixes of one another, of every length around the two words' edges (7, 8, 9, 15, 16, 17 bytes),
        // followed by other bytes and, last, ending the text (where the bytes are read one by one).
        let long = "abcdefghijklmnopqrstuvwxyz_0123456789"
        var words: [String] = []
        for length in [1, 2, 7, 8, 9, 14, 15, 16, 17, 24, 25, 37] { words.append(String(long.prefix(length))) }
        let text = (words + words.reversed() + ["x", "xy", "X", "_", "a"]).joined(separator: " ") + " " + long
        var table = NameTable()
        let found = lookUp(text, in: &table)
        for (name, expected) in found { XCTAssertEqual(name, expected) }
        XCTAssertEqual(table.distinctCount, Set(found.map(\.1)).count)
        XCTAssertEqual(table.distinctCount, 16)

        // A name read again from another text, near its end or not, is the entry already made.
        for other in ["a", " abcdefghijklmnop", "abcdefghijklmnopq ", "zz abcdefg", "abcdefghi"] {
            for (name, expected) in lookUp(other, in: &table) { XCTAssertEqual(name, expected) }
        }
        XCTAssertEqual(table.distinctCount, 17)  // only "zz" is new
    }

    func testLongNamesAreComparedByEveryByte() {
        // Two long names of one length met with one hash are told apart by their bytes: a difference at any
        // place (in each word, and in the last word, which overlaps the one before) is seen; equal bytes are equal.
        for length in 8...41 {
            let name = (0..<length).map { UInt8(0x61 + $0 % 26) }
            for place in 0..<length {
                var other = name
                other[place] = 0x5F
                name.withUnsafeBytes { a in
                    other.withUnsafeBytes { b in
                        XCTAssertFalse(
                            NameTable.sameBytes(a.baseAddress!, b.baseAddress!, length), "\(length) \(place)")
                    }
                }
            }
            let copy = name
            name.withUnsafeBytes { a in
                copy.withUnsafeBytes { b in XCTAssertTrue(NameTable.sameBytes(a.baseAddress!, b.baseAddress!, length)) }
            }
        }
    }

    func testATableGrowsAndKeepsEveryName() {
        // Thousands of names, short and long, in a table that starts small: all kept across its growth.
        let names = (0..<5_000).map { index in
            index % 3 == 0 ? "aLongNameOfSomeField_\(index)" : "n\(index)"
        }
        var table = NameTable()
        let found = lookUp(names.joined(separator: "\n"), in: &table)
        XCTAssertEqual(found.map(\.0), names)
        let again = lookUp(names.reversed().joined(separator: ","), in: &table)
        XCTAssertEqual(again.map(\.0), names.reversed())
        XCTAssertEqual(table.distinctCount, names.count)
    }

    func testDocumentsParsedWithOneTableAreTheirOwn() throws {
        let texts = [
            "query A($id: ID!) { node(id: $id) { id ... on User { name friendsConnection { edges { node { id } } } } } }",
            "fragment UserDetailsFragmentWithALongName on User { id name avatarUrl(size: 64) @include(if: true) }",
            "query B { viewer { ...UserDetailsFragmentWithALongName } node(id: \"id\") { id } }",
            "type Query { node(id: ID!): Node users(first: Int = 10, orderBy: UserOrder): [User!]! }\n"
                + "enum UserOrder { NAME_ASCENDING NAME_DESCENDING } input I { a: Int b: [String!] = [\"x\"] }",
        ]
        var names = NameTable()
        var counts: [Int] = []
        for (index, text) in texts.enumerated() {
            let source = SourceFile(path: "\(index).graphql", text: text)
            let shared = try XCTUnwrap(Parser.parse(source, names: &names).document)
            let own = try XCTUnwrap(Parser.parse(source).document)
            XCTAssertEqual(ASTDump.of(shared, spans: true), ASTDump.of(own, spans: true))
            counts.append(names.distinctCount)
        }
        // The table kept every text's names: each text added some, and a text parsed again adds none.
        XCTAssertEqual(counts, counts.sorted())
        XCTAssertEqual(Set(counts).count, texts.count)
        _ = Parser.parse(SourceFile(path: "again.graphql", text: texts[0]), names: &names)
        XCTAssertEqual(names.distinctCount, counts.last)
    }

    func testRunsOfSpacesOfEveryLengthEndWhereTheNextTokenStarts() throws {
        // Indentation of 0 to 20 spaces, after a line feed and after a name, and at the very end of the text.
        for count in 1...20 {
            let spaces = String(repeating: " ", count: count)
            let text = "{" + "\n" + spaces + "a" + spaces + "b\t" + spaces + ",c" + spaces
            let bytes = Array(text.utf8)
            var starts: [Int] = []
            try bytes.withUnsafeBufferPointer { buffer in
                let lexer = Lexer(bytes: buffer)
                var token = try lexer.next(from: 0)
                while token.kind != .endOfFile {
                    starts.append(token.start)
                    token = try lexer.next(from: token.end)
                }
                XCTAssertEqual(token.start, buffer.count)
            }
            XCTAssertEqual(starts, [0, 2 + count, 3 + 2 * count, 6 + 3 * count], "\(count) spaces")
        }
    }

    func testEightBytesAtATimeTellNameBytesAsOneByteAtATimeDoes() {
        // Every byte value in every lane, among name bytes and among bytes that end a name.
        for fill in [UInt8(ascii: "a"), UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "7"), 0x20, 0xFF, 0x40] {
            for lane in 0..<8 {
                for value in 0...255 {
                    var lanes = [UInt8](repeating: fill, count: 8)
                    lanes[lane] = UInt8(value)
                    let word = lanes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
                    let others = nonNameBytes(word)
                    for (index, byte) in lanes.enumerated() {
                        XCTAssertEqual(
                            others >> (8 * index + 7) & 1 == 1, !isNameContinueByte(byte),
                            "byte \(byte) in lane \(index), beside \(fill)")
                    }
                }
            }
        }
    }

    func testANameEndsAtTheFirstByteThatIsNotANameByte() throws {
        // Names of 1 to 20 bytes, then each kind of end (punctuation, space, a non-ASCII byte, the end of the text).
        for length in 1...20 {
            let name = String((0..<length).map { Array("aZ_09yB")[$0 % 7] })
            for end in ["", " ", "(", ":", "\u{e9}", "{x}", "-"] {
                let bytes = Array((name + end).utf8)
                let token = try bytes.withUnsafeBufferPointer { try Lexer(bytes: $0).next(from: 0) }
                XCTAssertEqual(token.kind, .name)
                XCTAssertEqual(token.end, length, "\(name)\(end)")
            }
        }
    }

    func testListsGatheredOnStacksKeepTheirOrderAtEveryDepth() throws {
        // Selection sets, arguments and directives nested in one another, each list longer than a stack's
        // first allocation (16) somewhere, and a failed parse that leaves elements on the stacks.
        let fields = (0..<40).map { "f\($0)" }.joined(separator: " ")
        let arguments = (0..<20).map { "a\($0): \($0)" }.joined(separator: ", ")
        let directives = (0..<18).map { "@d\($0)(x: \($0))" }.joined(separator: " ")
        let text = "query Q { a(\(arguments)) \(directives) { \(fields) b { \(fields) c(x: 1) { d } } } \(fields) }"
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "q.graphql", text: text)).document)
        guard case .operation(let operation) = document.definitions.first else { return XCTFail("no operation") }
        let top = operation.selectionSet.selections
        XCTAssertEqual(top.count, 41)
        guard case .field(let a) = top[0] else { return XCTFail("no field") }
        XCTAssertEqual(a.arguments.map(\.name.value), (0..<20).map { "a\($0)" })
        XCTAssertEqual(a.directives.map(\.name.value), (0..<18).map { "d\($0)" })
        let inner = try XCTUnwrap(a.selectionSet).selections
        XCTAssertEqual(inner.count, 41)
        let names = inner.compactMap { selection -> String? in
            if case .field(let field) = selection { return field.name.value }
            return nil
        }
        XCTAssertEqual(names, (0..<40).map { "f\($0)" } + ["b"])
        let failed = Parser.parse(SourceFile(path: "bad.graphql", text: "{ a { \(fields) b(x: 1, y: ) } }"))
        XCTAssertNil(failed.document)
        XCTAssertEqual(failed.diagnostics.count, 1)
    }
}
