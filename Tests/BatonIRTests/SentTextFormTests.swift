import BatonDiagnostics
import BatonSchema
import BatonTestSupport
import Foundation
import XCTest

@testable import BatonIR
@testable import BatonSyntax

/// The sent text is the one printer's sent form (`DocumentText.sentForm`, written straight from the written
/// definitions): the text the printer gives the transformed definition (`DocumentText.sent`), and the text
/// graphql-js's `print` gives it, over every definition of the corpus's documents and over hostile ones (block
/// strings, long and wrapped arguments, escapes, client-only directives and variables, deep nesting).
final class SentTextFormTests: XCTestCase {
    static let schema = """
        directive @note(text: String, list: [String], depth: Int) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT \
        | FRAGMENT_DEFINITION | QUERY | MUTATION | VARIABLE_DEFINITION
        type Query { node(id: ID, ids: [ID!], text: String, input: In, deep: [[In]]): Node, me: Node }
        type Mutation { touch(text: String): Node }
        input In { a: String, b: [In], c: Int }
        type Node { id: ID!, name(text: String, long: String, other: String): String, next: Node, nodes: [Node] }
        """

    /// One definition's sent text both ways.
    struct Printed {
        var file: String
        /// The sent form (`DocumentText.shallowText` without record keys).
        var form: String
        /// The transformed copy printed as written.
        var transformed: String
    }

    /// Every operation and fragment `document` holds, printed both ways.
    static func print(_ document: Document, schema: GraphQLSchema, file: String) -> [Printed] {
        let fragments = document.definitions.compactMap { definition -> FragmentDefinition? in
            if case .fragment(let fragment) = definition { return fragment }
            return nil
        }
        let stack = PrintableDepth(stack: StackGuard())
        var printed: [Printed] = []
        for definition in document.definitions {
            var complete = true
            let form: String
            let transformed: String
            switch definition {
            case .operation(let operation):
                let clientOnly = DocumentText.clientOnlyVariables(operation: operation, fragments: fragments)
                form = DocumentText.shallowText(
                    of: .operation(operation, clientOnly: clientOnly), schema: schema, keys: RecordKeys(),
                    stack: StackGuard())
                transformed = Printer.print(
                    .operation(
                        DocumentText.sent(
                            operation, leavingOut: clientOnly, schema: schema, stack: stack, complete: &complete)))
            case .fragment(let fragment):
                form = DocumentText.shallowText(
                    of: .fragment(fragment), schema: schema, keys: RecordKeys(), stack: StackGuard())
                transformed = Printer.print(
                    .fragment(DocumentText.sent(fragment, schema: schema, stack: stack, complete: &complete)))
            default: continue
            }
            XCTAssertTrue(complete, file)
            printed.append(Printed(file: file, form: form, transformed: transformed))
        }
        return printed
    }

    /// The texts that differ: the form from the transformed copy, or from graphql-js's print of the transformed
    /// copy (when node and graphql-js are installed).
    static func differing(_ printed: [Printed]) throws -> [String] {
        var differing = printed.filter { $0.form != $0.transformed }.map {
            "\($0.file): form\n\($0.form)\ntransformed\n\($0.transformed)"
        }
        let outcomes: [String?]
        do {
            outcomes = try graphQLJSPrint(printed.map(\.transformed))
        } catch is XCTSkip {
            return differing
        }
        XCTAssertEqual(outcomes.count, printed.count)
        for (text, theirs) in zip(printed, outcomes) where text.form != theirs {
            differing.append("\(text.file): form\n\(text.form)\ngraphql-js\n\(theirs ?? "<failed>")")
        }
        return differing
    }

    /// graphql-js's `print(parse(text))` of each text (nil where it failed).
    static func graphQLJSPrint(_ texts: [String]) throws -> [String?] {
        try GraphQLJSPeer.run(texts.map { GraphQLJSPeer.Request.print($0) }).map(\.printed)
    }

    func testTheSentFormIsTheTransformPrintedOverTheCorpusDocuments() throws {
        let corpus = try Unavailable.corpus().appendingPathComponent("documents")
        let schema = try XCTUnwrap(
            SchemaBuilder.build(sources: [SourceFile(path: "s.graphql", text: Self.schema)]).0)
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: corpus.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".graphql") || $0.hasSuffix(".gql") }.sorted()
        var printed: [Printed] = []
        for path in files {
            let text = try String(contentsOf: corpus.appendingPathComponent(path), encoding: .utf8)
            guard let document = Parser.parse(SourceFile(path: path, text: text)).document else { continue }
            printed += Self.print(document, schema: schema, file: path)
        }
        XCTAssertGreaterThan(printed.count, 300)
        let differing = try Self.differing(printed)
        XCTAssertEqual(differing.count, 0, differing.prefix(3).joined(separator: "\n\n"))
    }

    static let hostile = #"""
        query Long($id: ID, $text: String = "default \"quoted\" \\ \u0001", $connections: [ID!]! @note(text: "v"), $in: In = {a: "x", b: [{c: 1}, {a: null}]}) @note(text: "q") {
          node(id: $id, text: "a string long enough to pass the eighty columns of graphql-js's rule") @appendEdge(connections: $connections) @required(action: LOG) {
            name(text: """
              block
                indented "quoted" \"""
            """, long: "éééééééééééééééééééééééééééééééééééééééééééééééééé", other: "𝔘𝔫𝔦𝔠𝔬𝔡𝔢") @catch
            aliased: name(text: "\u0085 and \u009F and \u007F and \t tab \n line") @note(text: """
              a block in a directive
              over two lines
            """)
            next { __typename id }
            nodes { renamed: __typename }
            ... on Node @required(action: THROW) { id }
            ... @note(text: "no condition") { name }
            ...Frag @catch
            ...Frag @note(depth: 3) @required(action: LOG)
          }
          deep: node(deep: [[{a: "x", b: [{b: [{b: [{c: 1}]}]}]}], [], [{}]], ids: ["a", "b"]) { id }
        }
        query { me { id } }
        query @note(text: "only directives") { me { id } }
        mutation { touch(text: """ leading space""") { id } }
        mutation Touch { touch(text: """
          ends with a quote "here"
        """) { name } }
        fragment Frag on Node @note(text: "fragment") @catch {
          name(text: "exactly at the edge of eighty columns once indented..............")
          name(text: "exactly at the edge of eighty columns once indented...............")
          name(text: "exactly at the edge of eighty columns once indented................")
          next @required(action: LOG) { next { next { next { next { next { next { next { next { name } } } } } } } } }
        }
        fragment Bare on Node { id }
        """#

    func testTheSentFormIsTheTransformPrintedOnHostileDocuments() throws {
        let schema = try XCTUnwrap(
            SchemaBuilder.build(sources: [SourceFile(path: "s.graphql", text: Self.schema)]).0)
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "hostile.graphql", text: Self.hostile)).document)
        let printed = Self.print(document, schema: schema, file: "hostile.graphql")
        XCTAssertEqual(printed.count, 7)
        let differing = try Self.differing(printed)
        XCTAssertEqual(differing.count, 0, differing.joined(separator: "\n\n"))
    }

    /// The hostile document as written, printed by the one printer as graphql-js prints it.
    func testTheHostileDocumentPrintsAsGraphQLJS() throws {
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "hostile.graphql", text: Self.hostile)).document)
        let theirs = try Self.graphQLJSPrint([Self.hostile])
        XCTAssertEqual(theirs.count, 1)
        XCTAssertEqual(Printer.print(document), theirs.first ?? nil)
    }

    /// Through the plan: every operation's text, joined from the printer's parts where it nests no deeper than
    /// `DocumentText.unguardedDepth` and printed whole through the transform deeper (`Frag` nests past it), is the
    /// text `DocumentText.text` prints the whole document as.
    func testThePlansTextsAreTheDocumentsPrintedWhole() throws {
        let schema = try XCTUnwrap(
            SchemaBuilder.build(sources: [SourceFile(path: "s.graphql", text: Self.schema)]).0)
        let named =
            Self.hostile.replacingOccurrences(of: "query { me", with: "query Short { me")
            .replacingOccurrences(of: "query @note", with: "query Noted @note")
            .replacingOccurrences(of: "mutation { touch", with: "mutation Space { touch")
            + "\nquery Shallow { me { ...Bare } }"
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "hostile.graphql", text: named)).document)
        let (model, _) = LensModelBuilder.build(schema: schema, documents: [document])
        var fragments: [String: FragmentDefinition] = [:]
        var operations: [String: OperationDefinition] = [:]
        for definition in document.definitions {
            if case .fragment(let fragment) = definition { fragments[fragment.name.value] = fragment }
            if case .operation(let operation) = definition { operations[operation.name?.value ?? ""] = operation }
        }
        XCTAssertEqual(model.operations.count, 6)
        for operation in model.operations {
            let node = try XCTUnwrap(operations[operation.name])
            let whole = DocumentText.text(
                operation: node, fragments: operation.fragmentsUsed.compactMap { fragments[$0] }, schema: schema)
            XCTAssertEqual(operation.documentText, whole, operation.name)
            XCTAssertFalse(whole.isEmpty, operation.name)
        }
        XCTAssertTrue(model.operations.contains { $0.name == "Shallow" && $0.documentTextParts != nil })
    }
}
