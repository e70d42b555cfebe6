import BatonIR

/// Operations' document texts as one constant per fragment: each operation's text is its own definition followed by
/// the fragments it uses, so generated code can declare each fragment's text once (on the fragment's type) and build
/// an operation's text by joining, keeping generated size linear in the definitions instead of repeating every
/// shared fragment in every operation.
///
/// The split is checked, not assumed: an operation's parts joined with a blank line must give back its
/// `documentText` exactly, and every fragment part must be the same text in every operation that uses it. An
/// operation whose text does not split that way keeps its whole text (`parts` is nil), so the text sent, and its
/// SHA-256 operation id, never change.
package struct DocumentParts: Sendable {
    /// What joins definitions in a document text (the canonical printer's blank line).
    package static let separator = DocumentText.separator

    /// An operation's own definition and the fragments appended to it, by name, in the order they are joined.
    package struct Parts: Sendable, Equatable {
        package var operation: String
        package var fragments: [String]
    }

    /// Each fragment's text, for fragments some operation uses.
    package private(set) var fragmentTexts: [String: String] = [:]
    /// Each operation's parts, by operation name; missing when its text is kept whole.
    package private(set) var operations: [String: Parts] = [:]

    package init(model: LensModel) {
        var candidates: [(name: String, operation: String, fragments: [(String, String)])] = []
        // A summarized operation (`LensModel.summarized`) is never spelt, and spreads none of the
        // fragments that are.
        for operation in model.planned.operations {
            guard let split = Self.split(operation) else { continue }
            candidates.append((operation.name, split.operation, split.fragments))
        }
        // A fragment's text is the one every operation agrees on; an operation that disagrees keeps its whole text.
        var texts: [String: String] = [:]
        var conflicting: Set<String> = []
        for candidate in candidates {
            for (name, text) in candidate.fragments {
                if let known = texts[name], known != text { conflicting.insert(name) } else { texts[name] = text }
            }
        }
        for name in conflicting { texts[name] = nil }
        for candidate in candidates where candidate.fragments.allSatisfy({ texts[$0.0] != nil }) {
            operations[candidate.name] = Parts(operation: candidate.operation, fragments: candidate.fragments.map(\.0))
            for (name, text) in candidate.fragments { fragmentTexts[name] = text }
        }
    }

    /// The operation's text split as `split(_:fragments:)` splits it: taken from the parts the plan joined it from
    /// when it kept them (`OperationModel.documentTextParts`, which a search finds again), else searched.
    package static func split(_ operation: OperationModel) -> (operation: String, fragments: [(String, String)])? {
        guard let parts = operation.documentTextParts, parts.fragments.count == operation.fragmentsUsed.count else {
            return split(operation.documentText, fragments: operation.fragmentsUsed)
        }
        let own = String(decoding: operation.documentText.utf8.prefix(parts.operationLength), as: UTF8.self)
        return (own, Array(zip(operation.fragmentsUsed, parts.fragments)))
    }

    /// `text` split into the operation's definition and one text per fragment of `fragments` (sorted by name, as
    /// the text appends them), or nil when it does not split into exactly those parts.
    package static func split(_ text: String, fragments: [String]) -> (
        operation: String, fragments: [(String, String)]
    )? {
        let bytes = Array(text.utf8)
        var end = bytes.count
        var parts: [(String, String)] = []
        // From the end: the last fragment's definition starts after the last "\n\nfragment Name on ".
        for name in fragments.sorted().reversed() {
            let marker = Array((separator + "fragment " + name + " on ").utf8)
            guard let start = lastIndex(of: marker, in: bytes, before: end) else { return nil }
            let definition = start + separator.utf8.count
            parts.append((name, String(decoding: bytes[definition..<end], as: UTF8.self)))
            end = start
        }
        let operation = String(decoding: bytes[0..<end], as: UTF8.self)
        parts.reverse()
        guard ([operation] + parts.map(\.1)).joined(separator: separator) == text else { return nil }
        return (operation, parts)
    }

    /// Where the last occurrence of `marker` ending at or before `end` starts.
    private static func lastIndex(of marker: [UInt8], in bytes: [UInt8], before end: Int) -> Int? {
        guard !marker.isEmpty, marker.count <= end else { return nil }
        var start = end - marker.count
        while start >= 0 {
            if bytes[start] == marker[0], bytes[start..<start + marker.count].elementsEqual(marker) { return start }
            start -= 1
        }
        return nil
    }
}
