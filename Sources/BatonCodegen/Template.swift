/// A piece of generated source text, written as a Swift string literal with interpolations that re-indent.
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
///
/// A template is a tree (its literal pieces and the templates interpolated into it), not text: it is
/// written out once, by `TemplateRenderer`, into one growing buffer, each nested line getting its
/// indentation as it is written. (Re-indenting a copy of each nested template's text at every level,
/// as the first version did, copied a file's bytes once per level of nesting: most of `gen`'s time.)
package struct Template: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// What a template is made of.
    enum Node: Sendable {
        /// Text as given (a literal without interpolations, `Template(_:)`, an interpolated string).
        case text(String)
        /// A string interpolation's pieces, in order.
        case interpolation([Segment])
        /// Templates separated by `separator`, the empty ones skipped.
        case joined([Template], separator: String)
    }

    /// One piece of an interpolation.
    enum Segment: Sendable {
        case literal(String)
        case child(Template)
    }

    let node: Node

    package init(_ text: String) { node = .text(text) }
    package init(stringLiteral value: String) { node = .text(value) }
    package init(stringInterpolation: Interpolation) { node = .interpolation(stringInterpolation.segments) }
    init(node: Node) { self.node = node }

    package static let empty = Template("")

    /// The text (written out on each call: a generator asks once per file).
    package var text: String {
        if case .text(let text) = node { return text }
        var renderer = TemplateRenderer()
        renderer.render(self)
        return String(decoding: renderer.output, as: UTF8.self)
    }

    /// Appends the text's UTF-8 bytes to `bytes` (which should be empty or end with a line break).
    package func write(to bytes: inout [UInt8]) {
        if case .text(let text) = node {
            bytes.append(contentsOf: text.utf8)
            return
        }
        // The renderer takes the buffer over (held once, so it grows in place instead of being copied first).
        var renderer = TemplateRenderer(takingOver: &bytes)
        renderer.render(self)
        bytes = renderer.output
    }

    /// Appends the text's UTF-8 bytes to `text` (which should be empty or end with a line break); a template
    /// that is not plain text is rendered on its own, then appended: the renderer never reaches back before the
    /// line break its text follows, so the bytes are those it wrote after `text`'s, without copying `text`'s
    /// bytes (most of a file, before its last template) into it and back (issue 34).
    package func write(to text: inout TextBuilder) {
        if case .text(let plain) = node {
            text.add(plain)
            return
        }
        var renderer = TemplateRenderer()
        renderer.render(self)
        renderer.output.withUnsafeBufferPointer { text.add($0) }
    }

    package var isEmpty: Bool {
        if case .text(let text) = node { return text.isEmpty }
        return text.isEmpty
    }

    package var description: String { text }

    package static func == (lhs: Template, rhs: Template) -> Bool { lhs.text == rhs.text }
    package func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Joins templates with `separator`, skipping empty ones (so a blank entry leaves no blank line).
    package static func joined(_ parts: some Sequence<Template>, separator: String = "\n") -> Template {
        Template(node: .joined(Array(parts), separator: separator))
    }

    /// Removes the spaces at the end of `text` (before a line break is written after them).
    package static func trimTrailingSpaces(_ text: inout String) {
        var count = 0
        for byte in text.utf8.reversed() {
            guard byte == UInt8(ascii: " ") else { break }
            count += 1
        }
        if count > 0 { text.removeLast(count) }
    }

    /// The string interpolation: it records the pieces; `TemplateRenderer` re-indents interpolated lines and
    /// drops lines left blank when the template is written.
    package struct Interpolation: StringInterpolationProtocol {
        var segments: [Segment] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            segments.reserveCapacity(interpolationCount * 2 + 1)
        }

        package mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            segments.append(.literal(literal))
        }

        /// Inserts a template, re-indented to the current line's indentation.
        package mutating func appendInterpolation(_ template: Template) {
            segments.append(.child(template))
        }

        /// Inserts a string, re-indented like a template (identifiers, already escaped text).
        package mutating func appendInterpolation(_ string: String) {
            segments.append(.child(Template(string)))
        }

        /// Inserts a number's decimal text.
        package mutating func appendInterpolation(_ number: Int) {
            segments.append(.child(Template(String(number))))
        }

        /// Inserts `then` when `condition` holds, otherwise nothing (and the line vanishes if it is otherwise blank).
        package mutating func appendInterpolation(if condition: Bool, _ then: @autoclosure () -> Template) {
            segments.append(.child(condition ? then() : .empty))
        }

        /// Inserts `then` when `condition` holds, otherwise `otherwise`.
        package mutating func appendInterpolation(
            if condition: Bool, _ then: @autoclosure () -> Template, else otherwise: @autoclosure () -> Template
        ) {
            segments.append(.child(condition ? then() : otherwise()))
        }

        /// Inserts `body(value)` when `optional` has a value, otherwise nothing.
        package mutating func appendInterpolation<Value>(ifLet optional: Value?, _ body: (Value) -> Template) {
            segments.append(.child(optional.map(body) ?? .empty))
        }

        /// Inserts one template per element, separated by `separator` (a line break by default); elements that
        /// produce nothing are skipped.
        package mutating func appendInterpolation<Items: Sequence>(
            each items: Items, separator: String = "\n", _ body: (Items.Element) -> Template
        ) {
            segments.append(.child(Template(node: .joined(items.map(body), separator: separator))))
        }

        /// Inserts templates separated by `separator` (a line break by default), skipping empty ones.
        package mutating func appendInterpolation(lines items: some Sequence<Template>, separator: String = "\n") {
            segments.append(.child(Template.joined(items, separator: separator)))
        }

        /// Inserts strings joined by `separator` (for inline lists such as parameters: `separator: ", "`).
        package mutating func appendInterpolation(joined items: some Sequence<String>, separator: String) {
            segments.append(.child(Template(items.joined(separator: separator))))
        }
    }
}
