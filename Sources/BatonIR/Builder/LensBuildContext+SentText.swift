import BatonSyntax

/// A fragment's part of every operation text that sends it (`DocumentText.shallowText`), printed once per build.
struct SentFragmentText {
    var text: String
    /// False when the text holds its own heading after a blank line (`\n\nfragment Name on `, in a block
    /// string, say): a search of an operation's text from its end would then not find its part where it starts
    /// (`SentTextParts`).
    var isFoundFromTheEnd: Bool
}

extension LensBuildContext {
    /// The operation's `documentText` joined from its own definition's text and each used fragment's, with how it
    /// was joined (nil when a fragment's text would not be found again from the end: `SentTextParts`); nil when
    /// the operation or a fragment it uses nests past `DocumentText.unguardedDepth`, where printing asks the stack
    /// and the text is printed whole (`DocumentText.text`). The same text: `Printer.print` joins a document's
    /// definitions with `DocumentText.separator`, and a fragment prints the same whatever operation sends it.
    /// `used` is `fragmentsUsed(by:)` (sorted by name, as `DocumentText.document` appends them).
    func sentTextFromParts(_ node: OperationDefinition, clientOnly: Set<String>, used: [String]) -> (
        text: String, parts: SentTextParts?
    )? {
        guard Self.nestingDepth(node.selectionSet) <= DocumentText.unguardedDepth else { return nil }
        var fragments: [String] = []
        fragments.reserveCapacity(used.count)
        var found = true
        var length = 0
        for name in used {
            guard let sent = sentText(ofFragment: name) else { return nil }
            fragments.append(sent.text)
            found = found && sent.isFoundFromTheEnd
            length += DocumentText.separator.utf8.count + sent.text.utf8.count
        }
        let operation = DocumentText.shallowText(
            of: .operation(node, clientOnly: clientOnly), schema: schema, keys: recordKeys, stack: stackGuard)
        let operationLength = operation.utf8.count
        var text = operation
        text.reserveCapacity(operationLength + length)
        for fragment in fragments {
            text += DocumentText.separator
            text += fragment
        }
        return (text, found ? SentTextParts(operationLength: operationLength, fragments: fragments) : nil)
    }

    /// The text of the fragment `name` in every operation text that sends it, printed on first use; nil when
    /// it nests past `DocumentText.unguardedDepth` or is not a fragment of the documents.
    func sentText(ofFragment name: String) -> SentFragmentText? {
        if let known = sentFragmentTexts[name] { return known }
        var sent: SentFragmentText? = nil
        if let (node, _) = fragmentNodes[name], Self.nestingDepth(node.selectionSet) <= DocumentText.unguardedDepth {
            let text = DocumentText.shallowText(
                of: .fragment(node), schema: schema, keys: recordKeys, stack: stackGuard)
            let heading = DocumentText.separator + "fragment " + name + " on "
            sent = SentFragmentText(text: text, isFoundFromTheEnd: !Self.text(text, contains: heading))
        }
        sentFragmentTexts[name] = .some(sent)
        return sent
    }

    /// True when `text` holds `part` (compared as UTF-8 bytes).
    static func text(_ text: String, contains part: String) -> Bool {
        let bytes = Array(text.utf8)
        let wanted = Array(part.utf8)
        guard let first = wanted.first, wanted.count <= bytes.count else { return false }
        var start = 0
        while start + wanted.count <= bytes.count {
            if bytes[start] == first, bytes[start..<start + wanted.count].elementsEqual(wanted) { return true }
            start += 1
        }
        return false
    }
}
