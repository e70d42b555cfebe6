import BatonDiagnostics
import BatonIR
import BatonSyntax
import XCTest

/// `check`'s screen (`RefusalScreen`): it clears the selections real documents are made of, so
/// `check` skips the plan's walk of them, and clears none where the walk could refuse. That the
/// diagnostics are the walk's either way is `CheckingPlanTests`'.
final class RefusalScreenTests: XCTestCase {
    /// Whether the screen clears the first definition of `text`, with fragments `built` and the
    /// schema's types `known`.
    private func clears(
        _ text: String, keyFields: Set<String> = ["id"], deepLists: Bool = false,
        built: Set<String> = ["User_a", "Post_b"],
        known: Set<String> = ["Post", "Photo"]
    ) throws -> Bool {
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "d.graphql", text: text)).document)
        let set: SelectionSet
        switch try XCTUnwrap(document.definitions.first) {
        case .operation(let operation): set = operation.selectionSet
        case .fragment(let fragment): set = fragment.selectionSet
        default: throw XCTSkip("not executable")
        }
        var screen = RefusalScreen(keyFieldNames: keyFields, someFieldNestsTooManyLists: deepLists)
        return screen.clears(
            set, spreadAccessorName: { built.contains($0) ? LensNaming.spreadAccessorName(fragment: $0) : nil },
            inlineAccessorName: { known.contains($0) ? LensNaming.typeConditionAccessorName(type: $0) : nil })
    }

    func testClearsWhatRealDocumentsAreMadeOf() throws {
        XCTAssertTrue(
            try clears(
                """
                query Q($id: ID!) {
                  node(id: $id) { id ...User_a author: user { ...User_a name } items { ... on Post { ...Post_b } ... on Photo { url } } }
                  other: node(id: "2") { id ... @include(if: true) { name } ... { id } }
                  search(filter: {a: [1, 2, {b: 3}]}) { id }
                }
                """))
        XCTAssertTrue(try clears("fragment F on Node { a { b { c { d { e { f { g { h } } } } } } } }"))  // 7 levels
        // One name on different response paths: never in one lens.
        XCTAssertTrue(try clears("query Q { user { ...User_a } other: node { user } }"))
        XCTAssertTrue(try clears("query Q { node { ...User_a next { ...User_b } } }", built: ["User_a", "User_b"]))
        XCTAssertTrue(try clears("query Q { items { ... on Post { id } } asPost: id }"))
    }

    func testClearsNothingThatCouldRefuse() throws {
        // Nested 8 levels (the walk asks the stack from there), through fields or inline fragments.
        XCTAssertFalse(try clears("fragment F on Node { a { b { c { d { e { f { g { h { i } } } } } } } } }"))
        XCTAssertFalse(try clears("fragment F on Node { a { b { c { d { e { f { g { ... on Post { h } } } } } } } } }"))
        // Some field of the schema nests too many lists.
        XCTAssertFalse(try clears("query Q { id }", deepLists: true))
        // An argument too deep.
        let deep = String(repeating: "[", count: 70) + "1" + String(repeating: "]", count: 70)
        XCTAssertFalse(try clears("query Q { node(value: \(deep)) { id } }"))
        // A key field's name taken, by an alias or with arguments.
        XCTAssertFalse(try clears("query Q { node { id: name } }"))
        XCTAssertFalse(try clears("query Q { node { id(format: 1) } }"))
        XCTAssertTrue(try clears("query Q { node { id: name } }", keyFields: []))
        // Accessor names that could meet on one response path (a field's key merges its
        // selections): a spread's and a field's, two fragments', an inline fragment's and a field's.
        XCTAssertFalse(try clears("query Q { node { ...User_a } node { user } }"))
        XCTAssertFalse(
            try clears("query Q { node { ...User_a ... on Post { ...User_b } } }", built: ["User_a", "User_b"]))
        XCTAssertFalse(try clears("query Q { items { ... on Post { id } asPost: id } }"))
        XCTAssertFalse(try clears("query Q { items { ... on Post { id } ... on Photo { asPost: id } } }"))
        // Names of one length that differ do not meet; of one text, they do.
        XCTAssertTrue(try clears("query Q { node { ...User_a } node { usex } }"))
        XCTAssertTrue(try clears("query Q { items { ... on Post { id } asPosx: id } }"))
        XCTAssertTrue(
            try clears("query Q { node { ...User_a ... on Post { ...Usex_b } } }", built: ["User_a", "Usex_b"]))
        XCTAssertFalse(
            try clears("query Q { node { ...User_a ... on Post { ...User_b } } }", built: ["User_a", "User_b"]))
        // What the screen cannot name: a fragment not built, a type the schema lacks, a typeless
        // inline fragment deferred (it is named after its parent type).
        XCTAssertFalse(try clears("query Q { node { ...Other_c } }"))
        XCTAssertFalse(try clears("query Q { items { ... on Video { id } } }"))
        XCTAssertFalse(try clears("query Q { node { ... @defer { name } } }"))
    }

    /// Selections of fields only, without aliases or arguments (`SelectionSet.bareLevels`), are cleared
    /// without reading them, but their keys are still compared with the accessor names on their paths, and
    /// their nesting still counts.
    func testBareSelectionsStillMeetTheNamesOnTheirPaths() throws {
        XCTAssertFalse(try clears("query Q { a { b { ...User_a } } a { b { user } } }"))
        XCTAssertFalse(try clears("query Q { a { ... on Post { b { ...User_a } } } a { b { c user } } }"))
        XCTAssertFalse(try clears("query Q { a { ... on Post { id } } a { b { c } asPost } }"))
        XCTAssertTrue(try clears("query Q { a { b { ...User_a } } a { c { user } } }"))
        XCTAssertTrue(try clears("query Q { a { ...User_a } b { c { user } } }"))
        XCTAssertTrue(try clears("query Q { ...User_a a { user { user } } }"))
        // Nested too deep below a field with arguments or an alias, which is not bare itself.
        XCTAssertFalse(try clears("fragment F on Node { a(x: 1) { b { c { d { e { f { g { h { i } } } } } } } } }"))
        XCTAssertFalse(try clears("fragment F on Node { z: a { b { c { d { e { f { g { h { i } } } } } } } } }"))
        XCTAssertTrue(try clears("fragment F on Node { z: a { b { c { d { e { f { g { h } } } } } } } }"))
    }
}
