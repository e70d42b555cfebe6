import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import Foundation
import XCTest

@testable import BatonValidation

/// Baton against graphql-js on invalid documents made from the corpus: each operation with the
/// fragments it needs becomes a standalone document, and deterministic text edits break it in
/// one way each (a misspelled field, a dropped argument, an unused variable, …). Both tools
/// validate every mutant file on its own; every (file, line, column, message) must agree.
final class MutationDifferentialTests: XCTestCase {
    /// Operations taken from each project (the first ones, in file order).
    static let operationsPerProject = 6

    func testMutantsAgreeWithGraphQLJS() throws {
        guard let node = TestSupport.nodeWithGraphQL() else {
            throw Unavailable.error("node with graphql-js is not installed (run ../shared/tools/install-peers.sh)")
        }
        let pairs = CorpusDifferentialTests.pairs()
        guard !pairs.isEmpty else { throw Unavailable.error("corpus not found at \(TestSupport.corpus.path)") }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-mutants-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: root) }

        // One directory of mutants per schema (and SDL mode), validated in one graphql-js run.
        var groups: [String: (directory: URL, schema: String, assumeValidSDL: Bool)] = [:]
        for pair in pairs {
            let groupKey = pair.schemaPath + (pair.assumeValidSDL ? "+assume" : "")
            let group =
                groups[groupKey]
                ?? (root.appendingPathComponent("group\(groups.count)"), pair.schemaPath, pair.assumeValidSDL)
            groups[groupKey] = group
            let directory = group.directory.appendingPathComponent(pair.project)
            if FileManager.default.fileExists(atPath: directory.path) { continue }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, text) in Self.mutants(of: pair) {
                try Data(text.utf8).write(to: directory.appendingPathComponent(name + ".graphql"))
            }
        }

        var schemas: [String: GraphQLSchema] = [:]
        var fileCount = 0
        var errorCount = 0
        var disagreeing = 0
        let sorted = groups.sorted(by: { $0.key < $1.key }).map(\.value)
        // Every group in one graphql-js run, as one run per group gave.
        let live = TestSupport.graphQLJS(
            node: node,
            jobs: sorted.map {
                .init(schema: $0.schema, paths: [$0.directory.path], merge: false, assumeValidSDL: $0.assumeValidSDL)
            })
        for (index, group) in sorted.enumerated() {
            let directory = group.directory.path
            guard let expected = live?[index] else {
                XCTFail("graphql-js failed on \(group.schema)")
                continue
            }
            let schema = try schemas[group.schema] ?? TestSupport.loadSchema(group.schema)
            schemas[group.schema] = schema
            let files = TestSupport.documentFiles(under: directory)
            let (documents, _) = TestSupport.parse(files: files)
            let actual = TestSupport.keys(Validator.validate(schema: schema, documents: documents, mode: .perFile))
            let (missing, extra) = TestSupport.difference(expected: expected, actual: actual)
            fileCount += files.count
            errorCount += expected.count
            let badFiles = Set((missing + extra).map(\.file))
            disagreeing += badFiles.count
            if !missing.isEmpty || !extra.isEmpty {
                XCTFail(
                    "mutants vs \(group.schema):\n  missing (graphql-js only):\n    "
                        + missing.prefix(40).map(\.description).joined(separator: "\n    ")
                        + "\n  extra (Baton only):\n    "
                        + extra.prefix(40).map(\.description).joined(separator: "\n    "))
            }
        }
        print(
            "mutants: \(fileCount - disagreeing) of \(fileCount) mutant files agree with graphql-js (\(errorCount) errors)"
        )
    }

    /// Merged projects (fragments shared across files) with cross-file mistakes: a fragment
    /// renamed where it is defined, an operation and a fragment repeated in a new file.
    func testMergedProjectMutantsAgreeWithGraphQLJS() throws {
        guard let node = TestSupport.nodeWithGraphQL() else {
            throw Unavailable.error("node with graphql-js is not installed (run ../shared/tools/install-peers.sh)")
        }
        let pairs = CorpusDifferentialTests.pairs().filter(\.merge)
        guard !pairs.isEmpty else { throw Unavailable.error("corpus not found at \(TestSupport.corpus.path)") }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-merged-mutants-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: root) }
        var schemas: [String: GraphQLSchema] = [:]
        var agreed = 0
        var tried = 0
        var mutated: [(pair: CorpusDifferentialTests.Pair, directory: URL)] = []
        for (index, pair) in pairs.enumerated() {
            let files = TestSupport.documentFiles(under: pair.directory)
            let (documents, _) = TestSupport.parse(files: files)
            var firstFragment: (FragmentDefinition, Int)?
            var firstOperation: (OperationDefinition, Int)?
            for (fileIndex, document) in documents.enumerated() {
                for definition in document.definitions {
                    if case .fragment(let node) = definition, firstFragment == nil { firstFragment = (node, fileIndex) }
                    if case .operation(let node) = definition, node.name != nil, firstOperation == nil {
                        firstOperation = (node, fileIndex)
                    }
                }
            }
            guard let (fragment, fragmentFile) = firstFragment, documents.count == files.count else { continue }
            let directory = root.appendingPathComponent("project\(index)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var extra = Self.slice(documents[fragmentFile].source.bytes, fragment.span) + "\n"
            if let (operation, operationFile) = firstOperation {
                extra += "\n" + Self.slice(documents[operationFile].source.bytes, operation.span) + "\n"
            }
            for (fileIndex, document) in documents.enumerated() {
                var text = document.source.text
                if fileIndex == fragmentFile {
                    text = Self.splice(text, fragment.name.span, fragment.name.value + "Renamed")
                }
                let relative = String(files[fileIndex].dropFirst(pair.directory.count + 1))
                let target = directory.appendingPathComponent(relative)
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: target)
            }
            try Data(extra.utf8).write(to: directory.appendingPathComponent("zz-repeated.graphql"))
            mutated.append((pair, directory))
        }
        // Every mutated project in one graphql-js run, as one run per project gave.
        let live = TestSupport.graphQLJS(
            node: node,
            jobs: mutated.map {
                .init(schema: $0.pair.schemaPath, paths: [$0.directory.path], merge: true, assumeValidSDL: $0.pair.assumeValidSDL)
            })
        for (index, (pair, directory)) in mutated.enumerated() {
            tried += 1
            guard let expected = live?[index] else {
                XCTFail("graphql-js failed on \(pair.schemaPath)")
                continue
            }
            let schema = try schemas[pair.schemaPath] ?? TestSupport.loadSchema(pair.schemaPath)
            schemas[pair.schemaPath] = schema
            let (documents, _) = TestSupport.parse(files: TestSupport.documentFiles(under: directory.path))
            let actual = TestSupport.keys(Validator.validate(schema: schema, documents: documents, mode: .merged))
            let (missing, more) = TestSupport.difference(expected: expected, actual: actual)
            if missing.isEmpty && more.isEmpty {
                agreed += 1
            } else {
                XCTFail(
                    "\(pair.project) (merged mutant):\n  missing:\n    "
                        + missing.map(\.description).joined(separator: "\n    ")
                        + "\n  extra:\n    " + more.map(\.description).joined(separator: "\n    "))
            }
        }
        print("merged mutants: \(agreed) of \(tried) projects agree with graphql-js")
    }

    // MARK: Building mutants

    /// Standalone documents (an operation and the fragments it needs) from a project, each
    /// broken by every applicable mutation.
    static func mutants(of pair: CorpusDifferentialTests.Pair) -> [(String, String)] {
        let (documents, _) = TestSupport.parse(files: TestSupport.documentFiles(under: pair.directory))
        var fragments: [String: (FragmentDefinition, [UInt8])] = [:]
        var operations: [(OperationDefinition, [UInt8])] = []
        for document in documents {
            for definition in document.definitions {
                switch definition {
                case .fragment(let node): fragments[node.name.value] = (node, document.source.bytes)
                case .operation(let node): operations.append((node, document.source.bytes))
                default: break
                }
            }
        }
        var result: [(String, String)] = []
        for (index, (operation, bytes)) in operations.prefix(operationsPerProject).enumerated() {
            // The operation's own text, then each fragment it reaches, once.
            var text = slice(bytes, operation.span)
            var needed: [String] = []
            var queue = ValidationContext.fragmentSpreads(in: operation.selectionSet).map(\.name.value)
            while let name = queue.first {
                queue.removeFirst()
                guard !needed.contains(name), let (fragment, fragmentBytes) = fragments[name] else { continue }
                needed.append(name)
                text += "\n\n" + slice(fragmentBytes, fragment.span)
                queue += ValidationContext.fragmentSpreads(in: fragment.selectionSet).map(\.name.value)
            }
            text += "\n"
            let source = SourceFile(path: "mutant", text: text)
            guard let document = Parser.parse(source).document,
                case .operation(let parsed) = document.definitions.first
            else { continue }
            let base = String(format: "op%02d", index)
            result.append((base + "-original", text))
            for (mutation, edit) in Self.mutations {
                if let mutated = edit(parsed, text) { result.append((base + "-" + mutation, mutated)) }
            }
        }
        return result
    }

    static func slice(_ bytes: [UInt8], _ span: Span) -> String {
        String(decoding: bytes[max(0, span.start)..<min(bytes.count, span.end)], as: UTF8.self)
    }

    /// Replaces the bytes of `span` in `text`.
    static func splice(_ text: String, _ span: Span, _ replacement: String) -> String {
        var bytes = Array(text.utf8)
        bytes.replaceSubrange(span.start..<span.end, with: Array(replacement.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    static func insert(_ text: String, at offset: Int, _ insertion: String) -> String {
        splice(text, Span(start: offset, end: offset), insertion)
    }

    /// Fields of the operation, depth first in source order.
    static func fields(_ selectionSet: SelectionSet) -> [Field] {
        var result: [Field] = []
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                result.append(field)
                if let inner = field.selectionSet { result += fields(inner) }
            case .inlineFragment(let inline): result += fields(inline.selectionSet)
            case .fragmentSpread: break
            }
        }
        return result
    }

    typealias Mutation = @Sendable (OperationDefinition, String) -> String?

    static let mutations: [(String, Mutation)] = [
        (
            "misspell-field",
            { operation, text in
                guard
                    let field = fields(operation.selectionSet).first(where: {
                        !$0.name.value.hasPrefix("__") && $0.name.value.count > 3
                    })
                else { return nil }
                return splice(text, field.name.span, String(field.name.value.dropLast()))
            }
        ),
        (
            "drop-argument",
            { operation, text in
                guard let argument = fields(operation.selectionSet).lazy.flatMap(\.arguments).first else { return nil }
                return splice(text, argument.span, "")
            }
        ),
        (
            "misspell-argument",
            { operation, text in
                guard let argument = fields(operation.selectionSet).lazy.flatMap(\.arguments).first,
                    argument.name.value.count > 2
                else { return nil }
                return splice(text, argument.name.span, String(argument.name.value.dropLast()))
            }
        ),
        (
            "wrong-argument-object",
            { operation, text in
                guard let argument = fields(operation.selectionSet).lazy.flatMap(\.arguments).first else { return nil }
                return splice(text, argument.value.span, "{batonWrong: 1}")
            }
        ),
        (
            "wrong-argument-literals",
            { operation, text in
                guard let argument = fields(operation.selectionSet).lazy.flatMap(\.arguments).first else { return nil }
                return splice(text, argument.value.span, "[BATON_ENUM, \"text\", 1.5, 99999999999, null]")
            }
        ),
        (
            "undefined-variable",
            { operation, text in
                guard let argument = fields(operation.selectionSet).lazy.flatMap(\.arguments).first else { return nil }
                return splice(text, argument.value.span, "$batonUndefined")
            }
        ),
        (
            "unused-variable",
            { operation, text in
                if let last = operation.variableDefinitions.last {
                    return insert(text, at: last.span.end, ", $batonUnused: Int = 1")
                }
                guard let name = operation.name else { return nil }
                return insert(text, at: name.span.end, "($batonUnused: [String!])")
            }
        ),
        (
            "duplicate-operation",
            { operation, text in
                text + "\n" + slice(Array(text.utf8), operation.span) + "\n"
            }
        ),
        (
            "unknown-fragment",
            { operation, text in
                insert(text, at: operation.selectionSet.span.start + 1, " ...BatonMissing ")
            }
        ),
        (
            "unknown-directive",
            { operation, text in
                guard let field = fields(operation.selectionSet).first(where: { $0.arguments.isEmpty }) else {
                    return nil
                }
                return insert(
                    text, at: field.name.span.end, " @batonUnknown @include(if: 1) @skip(if: true) @skip(if: false)")
            }
        ),
        (
            "conflicting-alias",
            { operation, text in
                for field in fields(operation.selectionSet) {
                    guard let inner = field.selectionSet else { continue }
                    let leaves = inner.selections.compactMap { selection -> Field? in
                        if case .field(let leaf) = selection, leaf.selectionSet == nil, leaf.arguments.isEmpty {
                            return leaf
                        }
                        return nil
                    }
                    guard leaves.count >= 2, leaves[0].name.value != leaves[1].name.value else { continue }
                    return insert(text, at: inner.span.start + 1, " \(leaves[0].responseKey): \(leaves[1].name.value) ")
                }
                return nil
            }
        ),
        (
            "drop-selection",
            { operation, text in
                guard let field = fields(operation.selectionSet).first(where: { $0.selectionSet != nil }),
                    let selectionSet = field.selectionSet
                else { return nil }
                return splice(text, selectionSet.span, "")
            }
        ),
        (
            "impossible-fragment",
            { operation, text in
                insert(text, at: operation.selectionSet.span.start + 1, " ... on BatonNope { id } ... on String { x } ")
            }
        ),
        (
            "subscription",
            { operation, text in
                guard operation.operation == .query, !operation.isShorthand else { return nil }
                var bytes = Array(text.utf8)
                let start = operation.span.start
                guard bytes.count >= start + 5 else { return nil }
                bytes.replaceSubrange(start..<(start + 5), with: Array("subscription".utf8))
                return String(decoding: bytes, as: UTF8.self)
            }
        ),
    ]
}
