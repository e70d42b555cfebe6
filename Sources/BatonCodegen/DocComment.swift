#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Descriptions from a schema, written as comments that cannot end early or inject code.
package enum DocComment {
    /// The lines of `text`, split at every line break a compiler of either language honours (`\n`, `\r\n`,
    /// `\r`, U+2028, U+2029, U+0085), with control characters other than tab replaced by U+FFFD and trailing
    /// whitespace trimmed; leading and trailing blank lines are dropped.
    package static func lines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where previousWasCarriageReturn:
                previousWasCarriageReturn = false
                continue
            case "\n", "\r", "\u{2028}", "\u{2029}", "\u{85}":
                lines.append(current)
                current = ""
                previousWasCarriageReturn = scalar == "\r"
                continue
            case "\t":
                current.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                    current.unicodeScalars.append("\u{FFFD}")
                } else {
                    current.unicodeScalars.append(scalar)
                }
            }
            previousWasCarriageReturn = false
        }
        lines.append(current)
        lines = lines.map { line in
            var line = line
            while let last = line.last, last == " " || last == "\t" { line.removeLast() }
            return line
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `text` as `///` line comments (Swift, and Kotlin where line doc comments suffice); empty for no text.
    ///
    /// A line comment ends only at a line break, and every line break starts a new `///` line, so neither
    /// `*/` nor backslashes nor line breaks in a description can end the comment.
    package static func tripleSlash(_ text: String?) -> Template {
        guard let text else { return .empty }
        let lines = lines(text)
        return Template(lines.map { $0.isEmpty ? "///" : "/// " + $0 }.joined(separator: "\n"))
    }

    /// `text` as a `/** … */` block comment (KDoc, Javadoc); empty for no text.
    ///
    /// `*/` would end the comment and `/*` opens a nested comment in Kotlin, so both are broken with an HTML
    /// entity for the slash (`*&#47;`, `&#47;*`), which documentation renderers show as the original text.
    package static func block(_ text: String?) -> Template {
        guard let text else { return .empty }
        let lines = lines(text).map { line in
            line.replacingAll("*/", with: "*&#47;").replacingAll("/*", with: "&#47;*")
        }
        guard !lines.isEmpty else { return .empty }
        return Template((["/**"] + lines.map { $0.isEmpty ? " *" : " * " + $0 } + [" */"]).joined(separator: "\n"))
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement`, scanning left to right (no Foundation).
    package func replacingAll(_ target: String, with replacement: String) -> String {
        guard let first = target.utf8.first else { return self }
        // Most texts hold not even the target's first byte, and then nothing to replace: asked with
        // `memchr` (the search below, of Characters, costs thousands of instructions a call).
        let mayHold = utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(first), bytes.count) != nil
        }
        guard mayHold != false, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
