#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a `Template` tree into one byte buffer, in one pass: the rules of `Template` (re-indented
/// interpolations, lines left blank by an empty interpolation removed, no line ending in spaces,
/// empty entries of a joined list skipped) applied as the bytes are written, never to a copy.
///
/// Each template being written is a level on a stack. A level's indentation is what its lines after
/// the first get: its parent's, plus the spaces and tabs that begin the parent's line where it was
/// interpolated (so indentations are prefixes of one another, kept in one buffer). An empty line gets
/// its indentation only when something is written on it (empty lines stay empty), from the innermost
/// level that started the line. What a level sees as "its current line" is that line without the
/// indentation its enclosing levels gave it, exactly as the text the level would have on its own.
struct TemplateRenderer {
    private(set) var output: [UInt8]

    /// One template being written.
    private struct Level {
        /// Where its text begins in `output`.
        var start: Int
        /// How many bytes of `indentation` its lines after the first get.
        var indentCount: Int
    }

    private var levels: [Level] = []
    /// The indentation of every level, each a prefix of the next.
    private var indentation: [UInt8] = []
    /// Where the current line begins, and how much indentation was written at its start.
    private var lineStart: Int
    private var lineIndent = 0
    /// The same for each earlier line (a removed line break makes the one before current again).
    private var earlierLines: [(start: Int, indent: Int)] = []

    private static let lineBreak = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// A renderer that appends to `bytes`, which should be empty or end with a line break.
    init(appendingTo bytes: [UInt8] = []) {
        output = bytes
        output.reserveCapacity(bytes.count + 4096)
        lineStart = bytes.count
    }

    /// A renderer that appends to `bytes`, taken over (left empty): which should be empty or end with a line break.
    init(takingOver bytes: inout [UInt8]) {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        taken.reserveCapacity(taken.count + 4096)
        output = taken
        lineStart = output.count
    }

    /// Writes `template` at the end of the output, as the outermost level.
    mutating func render(_ template: Template) {
        levels = [Level(start: output.count, indentCount: 0)]
        indentation = []
        render(template, level: 0)
    }

    // MARK: Levels

    private mutating func render(_ template: Template, level: Int) {
        switch template.node {
        case .text(let text): write(text, level: level)
        case .interpolation(let segments): renderInterpolation(segments, level: level)
        case .joined(let parts, let separator): renderJoined(parts, separator: separator, level: level)
        }
    }

    /// Renders `template` as a new level inside `level`, whose lines after the first get `extra` more
    /// indentation (bytes of the output); true when it wrote something.
    private mutating func renderNested(_ template: Template, in level: Int, extra: Range<Int>) -> Bool {
        let tail = savedTail()
        let base = levels[level].indentCount
        if indentation.count > base { indentation.removeLast(indentation.count - base) }
        indentation.append(contentsOf: output[extra])
        levels.append(Level(start: output.count, indentCount: base + extra.count))
        render(template, level: level + 1)
        let wrote = output.count > levels[level + 1].start
        levels.removeLast()
        if !wrote, let tail, output.count < tail.lineStart + tail.bytes.count || lineStart != tail.lineStart {
            restore(tail)
        }
        return wrote
    }

    /// The end of the current line, kept while a template is written that may turn out empty: its
    /// line breaks drop the spaces (and a blank line's indentation) before them, which an empty
    /// template must leave as they were.
    private struct Tail {
        var lineStart: Int
        var bytes: [UInt8]
        var lineIndent: Int
        var starts: [Int]
    }

    /// The current line when a line break could shorten it (it ends in a space, or holds only its
    /// indentation), else nil.
    private func savedTail() -> Tail? {
        let end = output.count
        guard end > lineStart, output[end - 1] == Self.space || end <= lineStart + lineIndent else { return nil }
        return Tail(
            lineStart: lineStart, bytes: Array(output[lineStart..<end]), lineIndent: lineIndent,
            starts: levels.map(\.start))
    }

    private mutating func restore(_ tail: Tail) {
        truncate(to: min(output.count, tail.lineStart))
        output.append(contentsOf: tail.bytes)
        lineIndent = tail.lineIndent
        for index in levels.indices where index < tail.starts.count { levels[index].start = tail.starts[index] }
    }

    private mutating func renderInterpolation(_ segments: [Template.Segment], level: Int) {
        // An empty interpolation on a line holding only whitespace: the line goes if nothing else follows on it.
        var lineMayVanish = false
        for segment in segments {
            switch segment {
            case .literal(let literal):
                if lineMayVanish {
                    lineMayVanish = false
                    if literal.utf8.first == Self.lineBreak {
                        removeCurrentLine(level: level)
                        write(literal.utf8.dropFirst(), level: level)
                        continue
                    }
                }
                write(literal, level: level)
            case .child(let child):
                if case .text(let text) = child.node, !Self.containsLineBreak(text) {
                    // One line: no re-indenting, no level of its own.
                    if text.isEmpty {
                        if currentLineIsBlank(level: level) { lineMayVanish = true }
                    } else {
                        lineMayVanish = false
                        write(text, level: level)
                    }
                    continue
                }
                let local = localLineStart(level: level)
                var indentEnd = local
                while indentEnd < output.count, output[indentEnd] == Self.space || output[indentEnd] == Self.tab {
                    indentEnd += 1
                }
                let blank = indentEnd == output.count
                if renderNested(child, in: level, extra: local..<indentEnd) {
                    lineMayVanish = false
                } else if blank {
                    lineMayVanish = true
                }
            }
        }
        if lineMayVanish {
            removeCurrentLine(level: level)
            // The level's text ended with a line break: it goes too.
            if lineStart > levels[level].start, output.count == lineStart { truncate(to: lineStart - 1) }
        }
    }

    /// Whether `text` holds a line break (`memchr` over its bytes: this asks of every interpolated string).
    private static func containsLineBreak(_ text: String) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(lineBreak), bytes.count) != nil
        }
        return found ?? text.utf8.contains(lineBreak)
    }

    private mutating func renderJoined(_ parts: [Template], separator: String, level: Int) {
        let breaksLines = separator.utf8.contains(Self.lineBreak)
        var first = true
        for part in parts {
            let mark = output.count
            var tail: Tail?
            if !first {
                tail = savedTail()
                if breaksLines {
                    // The list's own text ends in no spaces before a separator that breaks the line.
                    let bound = max(lineStart, levels[level].start)
                    while output.count > bound, output[output.count - 1] == Self.space { output.removeLast() }
                    lineIndent = min(lineIndent, output.count - lineStart)
                }
                write(separator, level: level)
            }
            if renderNested(part, in: level, extra: 0..<0) {
                first = false
                continue
            }
            guard !first else { continue }
            // Nothing written: the separator goes, and the line is as it was.
            if let tail { restore(tail) } else { truncate(to: mark) }
        }
    }

    // MARK: Lines

    /// Where `level`'s current line begins, as the level's own text has it: after the indentation the
    /// enclosing levels gave the line.
    private func localLineStart(level: Int) -> Int {
        let start = levels[level].start
        let written = output.count - lineStart
        if lineStart > start { return lineStart + min(levels[level].indentCount, written) }
        if start == lineStart { return lineStart + min(lineIndent, written) }
        return start
    }

    /// Whether `level`'s current line holds only spaces and tabs (or nothing).
    private func currentLineIsBlank(level: Int) -> Bool {
        var index = localLineStart(level: level)
        while index < output.count {
            guard output[index] == Self.space || output[index] == Self.tab else { return false }
            index += 1
        }
        return true
    }

    /// Removes `level`'s current line (its line break stays), with the indentation written for it.
    private mutating func removeCurrentLine(level: Int) {
        truncate(to: localLineStart(level: level))
        let start = levels[level].start
        if output.count > lineStart, output.count == lineStart + lineIndent, lineStart >= start {
            truncate(to: lineStart)
        }
    }

    private mutating func truncate(to count: Int) {
        guard count < output.count else { return }
        output.removeLast(output.count - count)
        while lineStart > count, let earlier = earlierLines.popLast() {
            (lineStart, lineIndent) = earlier
        }
        lineIndent = min(lineIndent, count - lineStart)
    }

    // MARK: Bytes

    private mutating func write(_ text: String, level: Int) {
        var text = text
        text.withUTF8 { write(bytes: $0, level: level) }
    }

    private mutating func write(_ text: Substring.UTF8View, level: Int) {
        let done: Void? = text.withContiguousStorageIfAvailable { write(bytes: $0, level: level) }
        if done == nil { write(String(Substring(text)), level: level) }
    }

    /// Writes bytes of `level`: each line break drops the spaces before it; each line after one gets
    /// its indentation when something is written on it.
    private mutating func write(bytes: UnsafeBufferPointer<UInt8>, level: Int) {
        guard let base = bytes.baseAddress else { return }
        var index = 0
        let count = bytes.count
        while index < count {
            let rest = count - index
            let found = memchr(base + index, Int32(Self.lineBreak), rest)
            let end = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? count
            if end > index {
                if output.count == lineStart { writeIndentation(writer: level) }
                output.append(contentsOf: UnsafeBufferPointer(start: base + index, count: end - index))
            }
            guard end < count else { return }
            writeLineBreak()
            index = end + 1
        }
    }

    /// The indentation of the innermost level that started the current (empty) line.
    private mutating func writeIndentation(writer: Int) {
        var level = writer
        while level >= 0 {
            if lineStart > levels[level].start {
                let count = levels[level].indentCount
                if count > 0 { output.append(contentsOf: indentation[0..<count]) }
                lineIndent = count
                return
            }
            level -= 1
        }
    }

    private mutating func writeLineBreak() {
        let before = output.count
        while output.count > lineStart, output[output.count - 1] == Self.space { output.removeLast() }
        // Nothing but the indentation left: the line was blank, and a blank line gets no indentation.
        if output.count > lineStart, output.count <= lineStart + lineIndent {
            output.removeLast(output.count - lineStart)
        }
        if output.count < before {
            lineIndent = min(lineIndent, output.count - lineStart)
            let end = output.count
            for index in levels.indices where levels[index].start > end { levels[index].start = end }
        }
        output.append(Self.lineBreak)
        earlierLines.append((lineStart, lineIndent))
        lineStart = output.count
        lineIndent = 0
    }
}
