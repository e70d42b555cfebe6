/// Writes JSON text: string escaping and small builders for the machine formats.
package enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    package static func quote(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// An object from key/value pairs whose values are already JSON text, in the given order.
    package static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// An array of JSON texts.
    package static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",") + "]" }

    /// An optional integer as JSON (`null` when absent).
    package static func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
}

/// The counts a summary reports.
package struct DiagnosticSummary: Sendable, Hashable {
    package var errors: Int
    package var warnings: Int
    package init(_ diagnostics: [Diagnostic]) {
        errors = diagnostics.count { $0.severity == .error }
        warnings = diagnostics.count { $0.severity == .warning }
    }
}

/// `--format json`: one versioned object with stable keys, on stdout.
///
/// `{"version":1,"diagnostics":[{"rule","severity","message","file","line","column","endLine",
/// "endColumn","notes":[{"message","file","line","column"}]}],"summary":{"errors":N,"warnings":N}}`
/// Lines and columns are 1-based (columns in UTF-16 code units); they are `null`, as is
/// `file`, when a diagnostic has no place. `extra` members (JSON text) follow `summary`: `gen`
/// adds the files it wrote, so its one document says everything.
package enum JSONRenderer {
    package static func render(_ diagnostics: [Diagnostic], extra: [(String, String)] = []) -> String {
        let sorted = diagnostics.sorted(by: Diagnostic.sortKey)
        let items = sorted.map { diagnostic -> String in
            let start = diagnostic.range?.start
            let end = diagnostic.range?.end
            let notes = diagnostic.notes.map { note -> String in
                let place = note.range?.start
                return JSONText.object([
                    ("message", JSONText.quote(note.message)),
                    ("file", place.map { JSONText.quote($0.file.path) } ?? "null"),
                    ("line", JSONText.number(place?.location.line)),
                    ("column", JSONText.number(place?.location.column)),
                ])
            }
            return JSONText.object([
                ("rule", JSONText.quote(diagnostic.rule)),
                ("severity", JSONText.quote(diagnostic.severity.rawValue)),
                ("message", JSONText.quote(diagnostic.message)),
                ("file", diagnostic.displayPath.map(JSONText.quote) ?? "null"),
                ("line", JSONText.number(start?.location.line)),
                ("column", JSONText.number(start?.location.column)),
                ("endLine", JSONText.number(end?.location.line)),
                ("endColumn", JSONText.number(end?.location.column)),
                ("notes", JSONText.array(notes)),
            ])
        }
        let summary = DiagnosticSummary(diagnostics)
        return JSONText.object(
            [
                ("version", "1"),
                ("diagnostics", JSONText.array(items)),
                ("summary", JSONText.object([("errors", "\(summary.errors)"), ("warnings", "\(summary.warnings)")])),
            ] + extra) + "\n"
    }
}

/// `--format sarif`: SARIF 2.1.0 for code-scanning tools, with a description of every rule
/// that reported something.
package enum SARIFRenderer {
    /// `descriptions` maps rule ids to a one-sentence description; `version` is the tool's.
    package static func render(_ diagnostics: [Diagnostic], descriptions: [String: String], version: String) -> String {
        let sorted = diagnostics.sorted(by: Diagnostic.sortKey)
        var ruleIDs: [String] = []
        for diagnostic in sorted where !ruleIDs.contains(diagnostic.rule) { ruleIDs.append(diagnostic.rule) }
        ruleIDs.sort()
        let rules = ruleIDs.map { id in
            JSONText.object([
                ("id", JSONText.quote(id)),
                ("shortDescription", JSONText.object([("text", JSONText.quote(descriptions[id] ?? id))])),
            ])
        }
        let results = sorted.map { diagnostic -> String in
            var members: [(String, String)] = [
                ("ruleId", JSONText.quote(diagnostic.rule)),
                ("ruleIndex", "\(ruleIDs.firstIndex(of: diagnostic.rule) ?? 0)"),
                ("level", JSONText.quote(level(diagnostic.severity))),
                ("message", JSONText.object([("text", JSONText.quote(diagnostic.message))])),
            ]
            if let location = location(range: diagnostic.range, path: diagnostic.path) {
                members.append(("locations", JSONText.array([location])))
            }
            let related = diagnostic.notes.enumerated().compactMap { index, note -> String? in
                guard let range = note.range, let physical = physicalLocation(range) else { return nil }
                return JSONText.object([
                    ("id", "\(index)"),
                    ("physicalLocation", physical),
                    ("message", JSONText.object([("text", JSONText.quote(note.message))])),
                ])
            }
            if !related.isEmpty { members.append(("relatedLocations", JSONText.array(related))) }
            return JSONText.object(members)
        }
        let driver = JSONText.object([
            ("name", JSONText.quote("baton")),
            ("version", JSONText.quote(version)),
            ("rules", JSONText.array(rules)),
        ])
        let run = JSONText.object([
            ("tool", JSONText.object([("driver", driver)])),
            ("columnKind", JSONText.quote("utf16CodeUnits")),
            ("results", JSONText.array(results)),
        ])
        return JSONText.object([
            ("$schema", JSONText.quote("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", JSONText.quote("2.1.0")),
            ("runs", JSONText.array([run])),
        ]) + "\n"
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    static func location(range: SourceRange?, path: String?) -> String? {
        if let range, let physical = physicalLocation(range) {
            return JSONText.object([("physicalLocation", physical)])
        }
        guard let path else { return nil }
        return JSONText.object([
            (
                "physicalLocation",
                JSONText.object([("artifactLocation", JSONText.object([("uri", JSONText.quote(uri(path)))]))])
            )
        ])
    }

    static func physicalLocation(_ range: SourceRange) -> String? {
        let start = range.start
        let end = range.end
        // SARIF regions are 1-based and end after the last character; keep them non-empty.
        var endLine = end.location.line
        var endColumn = end.location.column
        if (endLine, endColumn) <= (start.location.line, start.location.column) {
            endLine = start.location.line
            endColumn = start.location.column + 1
        }
        return JSONText.object([
            ("artifactLocation", JSONText.object([("uri", JSONText.quote(uri(start.file.path)))])),
            (
                "region",
                JSONText.object([
                    ("startLine", "\(max(1, start.location.line))"),
                    ("startColumn", "\(max(1, start.location.column))"),
                    ("endLine", "\(max(1, endLine))"),
                    ("endColumn", "\(max(1, endColumn))"),
                ])
            ),
        ])
    }

    /// A relative path as a URI reference: `/`-separated, with reserved characters escaped.
    static func uri(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let isUnreserved =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/")
            if isUnreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return path.hasPrefix("/") ? "file://" + out : out
    }
}

/// `--format github`: GitHub Actions workflow commands, which the Actions runner turns into
/// annotations on the pull request: `::error file=…,line=…,col=…::message`.
package enum GitHubRenderer {
    package static func render(_ diagnostics: [Diagnostic]) -> String {
        var out = ""
        for diagnostic in diagnostics.sorted(by: Diagnostic.sortKey) {
            let command =
                diagnostic.severity == .error ? "error" : (diagnostic.severity == .warning ? "warning" : "notice")
            var properties: [String] = []
            if let path = diagnostic.displayPath { properties.append("file=" + escapeProperty(path)) }
            if let range = diagnostic.range {
                let start = range.start.location
                let end = range.end.location
                properties.append("line=\(start.line)")
                properties.append("col=\(start.column)")
                if end.line >= start.line {
                    properties.append("endLine=\(end.line)")
                    if end.line == start.line && end.column > start.column {
                        properties.append("endColumn=\(end.column)")
                    }
                }
            }
            properties.append("title=" + escapeProperty("baton: \(diagnostic.rule)"))
            var message = diagnostic.message
            for note in diagnostic.notes {
                message += "\n"
                if let start = note.range?.start {
                    message += "\(start.file.path):\(start.location.line):\(start.location.column): "
                }
                message += "note: \(note.message)"
            }
            out += "::\(command) \(properties.joined(separator: ","))::\(escapeData(message))\n"
        }
        return out
    }

    /// Escapes a command's message as the Actions runner expects.
    static func escapeData(_ text: String) -> String { escape(text, [("%", "%25"), ("\r", "%0D"), ("\n", "%0A")]) }

    /// Escapes a property value (also `:` and `,`).
    static func escapeProperty(_ text: String) -> String {
        escape(text, [("%", "%25"), ("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C")])
    }

    private static func escape(_ text: String, _ table: [(Unicode.Scalar, String)]) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let replacement = table.first(where: { $0.0 == scalar })?.1 {
                out += replacement
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
