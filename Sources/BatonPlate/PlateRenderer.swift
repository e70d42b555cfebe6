import BatonIR

/// `baton plate --format`.
package enum PlateFormat: String, Sendable, CaseIterable {
    /// Aligned columns for a terminal (the default).
    case text
    /// A Markdown table for docs and pull requests.
    case markdown
    /// The lens model itself (`LensModelJSON`).
    case json
}

/// Prints plates: a title line, then the table; plates separated by a blank line.
package enum PlateRenderer {
    package static let headers = ("accessor", "reads", "as")

    package static func render(_ plates: [Plate], format: PlateFormat) -> String {
        switch format {
        case .text: plates.map(text).joined(separator: "\n")
        case .markdown: plates.map(markdown).joined(separator: "\n")
        case .json: json(plates).rendered()
        }
    }

    /// The table alone, aligned: the accessor column indents two spaces per nesting level, and
    /// columns are separated by two spaces; no line has trailing spaces.
    package static func table(_ rows: [PlateRow]) -> String {
        let cells =
            [(headers.0, headers.1, headers.2)] + rows.map { (indent($0.depth) + $0.accessor, $0.reads, $0.phrase) }
        let accessorWidth = cells.map(\.0.count).max() ?? 0
        let readsWidth = cells.map(\.1.count).max() ?? 0
        var output = ""
        for (accessor, reads, phrase) in cells {
            let line = pad(accessor, accessorWidth) + "  " + pad(reads, readsWidth) + "  " + phrase
            output += trimTrailingSpaces(line) + "\n"
        }
        return output
    }

    package static func text(_ plate: Plate) -> String {
        plate.title + "\n" + table(plate.rows)
    }

    /// A title paragraph and a GitHub-flavoured Markdown table; nesting shows as `&nbsp;&nbsp;` per
    /// level (leading spaces would collapse), and `|` in a cell is escaped.
    package static func markdown(_ plate: Plate) -> String {
        var output = plate.title + "\n\n"
        output += "| accessor | reads | as |\n| --- | --- | --- |\n"
        for row in plate.rows {
            let nesting = String(repeating: "&nbsp;&nbsp;", count: row.depth)
            output += "| \(nesting)\(escape(row.accessor)) | \(escape(row.reads)) | \(escape(row.phrase)) |\n"
        }
        return output
    }

    /// `{"version": 1, "plates": [ the operation, fragment or nested lens as the model has it ]}`.
    package static func json(_ plates: [Plate]) -> JSONOutput {
        .object([
            ("version", .number(LensModelJSON.version)),
            (
                "plates",
                .array(
                    plates.map { plate in
                        switch plate.subject {
                        case .operation(let operation): LensModelJSON.operation(operation)
                        case .fragment(let fragment): LensModelJSON.fragment(fragment)
                        case .nested(let definition, let path, let lens):
                            .object([
                                ("kind", .string("lens")),
                                ("definition", .string(definition)),
                                ("path", .array(path.map { .string($0) })),
                                ("lens", LensModelJSON.lens(lens)),
                            ])
                        }
                    })
            ),
        ])
    }

    static func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func trimTrailingSpaces(_ line: String) -> String {
        var result = Substring(line)
        while result.last == " " { result = result.dropLast() }
        return String(result)
    }

    static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            if character == "|" { output += "\\" }
            output.append(character)
        }
        return output
    }
}
