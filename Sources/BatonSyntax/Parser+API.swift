import BatonDiagnostics

/// The result of parsing one source: the document (nil when a syntax error stopped the parse,
/// as graphql-js stops at its first syntax error) and the diagnostics.
package struct ParseResult: Sendable {
    package var document: Document?
    package var diagnostics: [Diagnostic]
    package init(document: Document?, diagnostics: [Diagnostic]) {
        self.document = document
        self.diagnostics = diagnostics
    }
}

/// The GraphQL parser: source text in, AST and syntax diagnostics out.
///
/// It follows graphql-js 16 (`language/parser.js`): the same grammar, the same first error and
/// the same message (`Syntax Error: Expected Name, found "}".`) at the same place, reported
/// with rule id `syntax`. It reads UTF-8 bytes and runs in time linear in the input.
///
/// One deliberate difference: graphql-js has no nesting limit and overflows its stack on very
/// deep documents. Baton stops at `maximumDepth` nested selection sets, list or object values
/// and list types, with a syntax error at the token that opens one level too many.
package enum Parser {
    /// The most nested selection sets, list values, object values and list types a document
    /// may have. Real documents stay below 30. A debug build spends about 4 KiB of stack per
    /// level, so 1,000 levels fit the 8 MiB of a main thread with room to spare; on smaller
    /// stacks a `StackGuard` stops the parse earlier, still with a diagnostic.
    package static let maximumDepth = 1_000

    /// Parses an executable or type-system document (or a mix), stopping at the first syntax error.
    /// Without `decodingDescriptions`, every description's value is empty (its token read and checked as
    /// ever, its span and kind kept): for a reader that never shows them (`check`), a schema's descriptions are
    /// a large share of its parse and of its memory (a megabyte of text for GitHub's).
    package static func parse(_ source: SourceFile, decodingDescriptions: Bool = true) -> ParseResult {
        var names = NameTable()
        return parse(source, decodingDescriptions: decodingDescriptions, names: &names)
    }

    /// `parse(_:decodingDescriptions:)` with a table of names kept across parses: each distinct name is made
    /// into a `String` once for all of them (a batch of files shares most of its names). The documents are
    /// the same as with a table of their own.
    package static func parse(
        _ source: SourceFile, decodingDescriptions: Bool = true, names: inout NameTable
    ) -> ParseResult {
        // Spans hold 32-bit offsets: a source past 4 GiB is refused rather than mislocated.
        guard source.bytes.count <= Span.maximumOffset else {
            let error = SyntaxError("Document is too large: more than 4 GiB.", span: .zero)
            return ParseResult(document: nil, diagnostics: [error.diagnostic(in: source)])
        }
        return source.bytes.withUnsafeBufferPointer { bytes in
            var parser = RecursiveDescentParser(bytes: bytes, maximumDepth: maximumDepth)
            parser.decodesDescriptions = decodingDescriptions
            // Swapped in and out, never copied: a copy would share the table's storage and copy it on the
            // first new name.
            swap(&parser.names, &names)
            defer { swap(&parser.names, &names) }
            do throws(SyntaxError) {
                let definitions = try parser.parseDocument()
                let document = Document(
                    source: source, definitions: definitions, span: Span(start: 0, end: bytes.count))
                return ParseResult(document: document, diagnostics: [])
            } catch {
                return ParseResult(document: nil, diagnostics: [error.diagnostic(in: source)])
            }
        }
    }

    /// Parses a whole source as one input value (graphql-js `parseValue`, or `parseConstValue`
    /// when `constant`), e.g. an introspection `defaultValue`.
    package static func parseValue(
        _ source: SourceFile, constant: Bool = false
    ) -> (value: Value?, diagnostics: [Diagnostic]) {
        source.bytes.withUnsafeBufferPointer { bytes in
            var parser = RecursiveDescentParser(bytes: bytes, maximumDepth: maximumDepth)
            do throws(SyntaxError) {
                try parser.advance()
                let value = try parser.parseValueLiteral(isConst: constant)
                try parser.expect(.endOfFile)
                return (value, [])
            } catch {
                return (nil, [error.diagnostic(in: source)])
            }
        }
    }

    /// Parses a whole source as one type reference (graphql-js `parseType`): `[String!]!`.
    package static func parseType(_ source: SourceFile) -> (type: TypeReference?, diagnostics: [Diagnostic]) {
        source.bytes.withUnsafeBufferPointer { bytes in
            var parser = RecursiveDescentParser(bytes: bytes, maximumDepth: maximumDepth)
            do throws(SyntaxError) {
                try parser.advance()
                let type = try parser.parseTypeReference()
                try parser.expect(.endOfFile)
                return (type, [])
            } catch {
                return (nil, [error.diagnostic(in: source)])
            }
        }
    }

    /// `parseValue` on a string (no file): the value, or nil with the error's message.
    package static func parseValue(_ text: String, constant: Bool = false) -> Value? {
        parseValue(SourceFile(path: "<value>", text: text), constant: constant).value
    }

    /// `parseType` on a string (no file).
    package static func parseType(_ text: String) -> TypeReference? {
        parseType(SourceFile(path: "<type>", text: text)).type
    }
}
