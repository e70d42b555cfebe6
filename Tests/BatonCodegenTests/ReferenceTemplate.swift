@testable import BatonCodegen

/// The template engine as it was before it rendered into one buffer (re-indenting a copy of each
/// nested template's text at every level): the reference `TemplateRenderingTests` compares the
/// buffer renderer with, on random templates.
/// (Reference) A piece of generated source text, written as a Swift string literal with interpolations that re-indent.
///
/// Interpolating a multi-line value continues each of its lines at the indentation of the line the
/// interpolation sits on, so nested templates compose without counting spaces:
///
///     let body: Template = "let a = 1\nlet b = 2"
///     let t: Template = """
///         func f() {
///             \(body)
///         }
///         """
///     // func f() {
///     //     let a = 1
///     //     let b = 2
///     // }
///
/// An interpolation that produces nothing on a line that holds nothing else removes the whole line, so
/// conditional parts (`\(if: …)`, `\(each: …)`) leave no blank lines behind. Interpolated values should not
/// end with a line break (a template is a sequence of lines without the final one). No line a template
/// writes ends in spaces: those before each line break are dropped as the text is written (empty lines stay
/// empty when re-indenting, and a line whose interpolation produced nothing loses its indentation), so
/// generators need no pass over a finished file.
struct ReferenceTemplate: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The text, without a trailing line break unless one was written.
    private(set) var text: String

    init(_ text: String) { self.text = text }
    init(stringLiteral value: String) { self.text = value }
    init(stringInterpolation: Interpolation) {
        var interpolation = stringInterpolation
        self.text = interpolation.finish()
    }

    static let empty = ReferenceTemplate("")
    var isEmpty: Bool { text.isEmpty }
    var description: String { text }

    /// Joins templates with `separator`, skipping empty ones (so a blank entry leaves no blank line).
    static func joined(_ parts: some Sequence<ReferenceTemplate>, separator: String = "\n") -> ReferenceTemplate {
        var out = ""
        var first = true
        let breaksLines = separator.utf8.contains(UInt8(ascii: "\n"))
        for part in parts where !part.isEmpty {
            if !first {
                if breaksLines { trimTrailingSpaces(&out) }
                out += separator
            }
            out += part.text
            first = false
        }
        return ReferenceTemplate(out)
    }

    /// Removes the spaces at the end of `text` (before a line break is written after them).
    static func trimTrailingSpaces(_ text: inout String) {
        var count = 0
        for byte in text.utf8.reversed() {
            guard byte == UInt8(ascii: " ") else { break }
            count += 1
        }
        if count > 0 { text.removeLast(count) }
    }

    /// The string interpolation that re-indents interpolated lines and drops lines left blank.
    struct Interpolation: StringInterpolationProtocol {
        var text: String
        /// Set when an interpolation produced nothing on a line holding only whitespace so far: if the
        /// line ends without anything else on it, the line is removed.
        var lineMayVanish = false

        init(literalCapacity: Int, interpolationCount: Int) {
            text = ""
            text.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            if lineMayVanish {
                lineMayVanish = false
                if literal.first == "\n" {
                    removeCurrentLine()
                    appendEndingLinesTrimmed(literal.dropFirst())
                    return
                }
            }
            appendEndingLinesTrimmed(literal[...])
        }

        /// Inserts a template, re-indented to the current line's indentation.
        mutating func appendInterpolation(_ template: ReferenceTemplate) {
            insert(template.text)
        }

        /// Inserts a string, re-indented like a template (identifiers, already escaped text).
        mutating func appendInterpolation(_ string: String) {
            insert(string)
        }

        /// Inserts a number's decimal text.
        mutating func appendInterpolation(_ number: Int) {
            insert(String(number))
        }

        /// Inserts `then` when `condition` holds, otherwise nothing (and the line vanishes if it is otherwise blank).
        mutating func appendInterpolation(if condition: Bool, _ then: @autoclosure () -> ReferenceTemplate) {
            insert(condition ? then().text : "")
        }

        /// Inserts `then` when `condition` holds, otherwise `otherwise`.
        mutating func appendInterpolation(
            if condition: Bool, _ then: @autoclosure () -> ReferenceTemplate,
            else otherwise: @autoclosure () -> ReferenceTemplate
        ) {
            insert(condition ? then().text : otherwise().text)
        }

        /// Inserts `body(value)` when `optional` has a value, otherwise nothing.
        mutating func appendInterpolation<Value>(ifLet optional: Value?, _ body: (Value) -> ReferenceTemplate) {
            insert(optional.map { body($0).text } ?? "")
        }

        /// Inserts one template per element, separated by `separator` (a line break by default); elements that
        /// produce nothing are skipped.
        mutating func appendInterpolation<Items: Sequence>(
            each items: Items, separator: String = "\n", _ body: (Items.Element) -> ReferenceTemplate
        ) {
            insert(ReferenceTemplate.joined(items.lazy.map(body), separator: separator).text)
        }

        /// Inserts templates separated by `separator` (a line break by default), skipping empty ones.
        mutating func appendInterpolation(lines items: some Sequence<ReferenceTemplate>, separator: String = "\n") {
            insert(ReferenceTemplate.joined(items, separator: separator).text)
        }

        /// Inserts strings joined by `separator` (for inline lists such as parameters: `separator: ", "`).
        mutating func appendInterpolation(joined items: some Sequence<String>, separator: String) {
            insert(items.joined(separator: separator))
        }

        // MARK: Implementation

        /// Where the line being written starts (byte-wise: a line break is one ASCII byte).
        private var currentLineStart: String.Index {
            text.utf8.lastIndex(of: UInt8(ascii: "\n")).map { text.utf8.index(after: $0) } ?? text.startIndex
        }

        private mutating func removeCurrentLine() {
            text.removeSubrange(currentLineStart...)
        }

        private mutating func insert(_ value: String) {
            let line = text.utf8[currentLineStart...]
            let indentationCount = line.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
            if value.isEmpty {
                if indentationCount == line.count { lineMayVanish = true }
                return
            }
            lineMayVanish = false
            guard value.utf8.contains(UInt8(ascii: "\n")) else {
                text += value
                return
            }
            guard indentationCount > 0 else {
                appendEndingLinesTrimmed(value[...])
                return
            }
            // Re-indent over the bytes into a string of the exact size, appended once: nested templates are copied
            // once per level of nesting.
            let indentation = Array(line.prefix(indentationCount))
            var value = value
            let reindented = value.withUTF8 { source -> String in
                var indentedLines = 0
                var atLineStart = false
                for byte in source {
                    if atLineStart, byte != UInt8(ascii: "\n") { indentedLines += 1 }
                    atLineStart = byte == UInt8(ascii: "\n")
                }
                let capacity = source.count + indentedLines * indentation.count
                return String(unsafeUninitializedCapacity: capacity) { target in
                    var count = 0
                    var atLineStart = false
                    for byte in source {
                        if atLineStart, byte != UInt8(ascii: "\n") {
                            for indent in indentation {
                                target[count] = indent
                                count += 1
                            }
                        }
                        if byte == UInt8(ascii: "\n") {
                            // No line ends in spaces: those before this break (a raw string's) go.
                            while count > 0, target[count - 1] == UInt8(ascii: " ") { count -= 1 }
                        }
                        target[count] = byte
                        count += 1
                        atLineStart = byte == UInt8(ascii: "\n")
                    }
                    return count
                }
            }
            // The line the value starts on ends at its first break: no spaces before it either.
            if reindented.utf8.first == UInt8(ascii: "\n") { ReferenceTemplate.trimTrailingSpaces(&text) }
            text += reindented
        }

        /// Appends `piece`, removing the spaces before each of its line breaks (and before the
        /// first, at the end of the text so far): no line a template writes ends in spaces, so no
        /// pass over the finished file is needed.
        private mutating func appendEndingLinesTrimmed(_ piece: Substring) {
            var rest = piece
            while let lineBreak = rest.utf8.firstIndex(of: UInt8(ascii: "\n")) {
                text += rest[..<lineBreak]
                ReferenceTemplate.trimTrailingSpaces(&text)
                text += "\n"
                rest = rest[rest.utf8.index(after: lineBreak)...]
            }
            text += rest
        }

        /// The finished text: a last line left blank by an empty interpolation is removed with its line break.
        mutating func finish() -> String {
            if lineMayVanish {
                removeCurrentLine()
                if text.last == "\n" { text.removeLast() }
                lineMayVanish = false
            }
            return text
        }
    }
}
