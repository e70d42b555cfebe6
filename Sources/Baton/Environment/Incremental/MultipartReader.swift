import Foundation

/// Why a `multipart/mixed` body cannot be read.
public enum MultipartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A part grew past the limit before its boundary came.
    case partTooLarge(limit: Int)
    /// The body ended before its closing boundary (`--boundary--`): the connection was cut between parts.
    case truncated
    /// The `Content-Type` named no boundary.
    case missingBoundary

    public var description: String {
        switch self {
        case .partTooLarge(let limit): "a part of the multipart response is larger than \(limit) bytes"
        case .truncated: "the multipart response ended before its closing boundary"
        case .missingBoundary: "the multipart response's Content-Type names no boundary"
        }
    }
}

/// An incremental reader of a `multipart/mixed` body (RFC 2046 §5.1, as GraphQL's incremental delivery and Apollo
/// Router send it): fed the bytes as they arrive, in reads of any size, it gives each part's body once the next
/// boundary has arrived. A boundary split across reads is found when its last byte comes; a part growing past
/// `partLimit` bytes is refused at once, not buffered; `finish` says whether the closing boundary came.
///
/// Each part's headers are dropped (every part is JSON); a part with no body (a heartbeat) gives nothing. Pure: no
/// I/O, so the transports of both platforms and the tests feed it the same bytes.
public struct MultipartReader: Sendable {
    /// The largest part read by default: 16 MiB.
    public static let defaultPartLimit = 16 << 20

    private let delimiter: [UInt8]
    private let partLimit: Int
    private var buffer: [UInt8] = []
    /// Where the current part's bytes start in `buffer`, once its boundary line has been read.
    private var partStart: Int?
    /// How far `buffer` has been searched for the next delimiter (a delimiter starts after it).
    private var searched = 0
    /// True once the closing boundary has been read: what comes after it is the epilogue, ignored.
    public private(set) var isClosed = false

    /// A reader of parts separated by `--boundary`.
    public init(boundary: String, partLimit: Int = MultipartReader.defaultPartLimit) {
        delimiter = Array(("--" + boundary).utf8)
        self.partLimit = partLimit
    }

    /// The boundary parameter of a `Content-Type` (`multipart/mixed; boundary="-"; deferSpec=20220824`), or nil when
    /// it is not `multipart/mixed` or names none.
    public static func boundary(ofContentType contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = parameters.first, type.lowercased() == "multipart/mixed" else { return nil }
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else {
                continue
            }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Reads `bytes`, the next bytes of the body; returns the bodies of the parts they complete, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(MultipartError) -> [[UInt8]] {
        if isClosed { return [] }
        buffer.append(contentsOf: bytes)
        var parts: [[UInt8]] = []
        while !isClosed, let found = nextDelimiter() {
            if let start = partStart {
                // The line break before the delimiter belongs to the delimiter.
                var end = found
                if end > start, buffer[end - 1] == UInt8(ascii: "\n") { end -= 1 }
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if end - start > partLimit { throw .partTooLarge(limit: partLimit) }
                if let body = Self.body(of: buffer[start..<max(start, end)]) { parts.append(body) }
            }
            // After the delimiter: `--` closes the body; otherwise the rest of its line (transport padding) goes.
            let afterDelimiter = found + delimiter.count
            guard afterDelimiter + 2 <= buffer.count else {
                // Not yet known whether it closes: keep the delimiter to read again.
                dropConsumed(upTo: found, partStarted: false)
                break
            }
            if buffer[afterDelimiter] == UInt8(ascii: "-"), buffer[afterDelimiter + 1] == UInt8(ascii: "-") {
                isClosed = true
                buffer = []
                partStart = nil
                searched = 0
                break
            }
            guard let lineEnd = buffer[afterDelimiter...].firstIndex(of: UInt8(ascii: "\n")) else {
                dropConsumed(upTo: found, partStarted: false)
                break
            }
            dropConsumed(upTo: lineEnd + 1, partStarted: true)
        }
        if let start = partStart, buffer.count - start > partLimit + delimiter.count + 2 {
            throw .partTooLarge(limit: partLimit)
        }
        return parts
    }

    /// The body has ended: an error unless the closing boundary came.
    public func finish() throws(MultipartError) {
        if !isClosed { throw .truncated }
    }

    /// The position of the next delimiter at the start of a line, searching on from where the last search stopped;
    /// nil when the buffer holds none yet.
    private mutating func nextDelimiter() -> Int? {
        let count = delimiter.count
        var index = max(searched, partStart ?? 0)
        while index + count <= buffer.count {
            if buffer[index] == delimiter[0], index == 0 || buffer[index - 1] == UInt8(ascii: "\n"),
                buffer[index..<(index + count)].elementsEqual(delimiter)
            {
                return index
            }
            index += 1
        }
        // A delimiter may begin in the last `count - 1` bytes: search them again with the next read.
        searched = max(partStart ?? 0, buffer.count - count + 1, 0)
        return nil
    }

    /// Drops what has been read before `index`; a part starts there when `partStarted` (else none has).
    private mutating func dropConsumed(upTo index: Int, partStarted: Bool) {
        buffer.removeFirst(index)
        partStart = partStarted ? 0 : nil
        searched = 0
    }

    /// A part's body: what follows its headers' blank line (all of it when it has no headers), without surrounding
    /// white space; nil when empty.
    private static func body(of part: ArraySlice<UInt8>) -> [UInt8]? {
        var content = part
        let bytes = Array(part)
        let firstNonSpace = bytes.firstIndex { !isSpace($0) }
        // A part whose first text is JSON has no headers; otherwise the headers end at the first blank line.
        if let first = firstNonSpace, bytes[first] != UInt8(ascii: "{"), bytes[first] != UInt8(ascii: "[") {
            var lineStart = 0
            var found: Int?
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
                let line = bytes[lineStart..<index]
                if line.isEmpty || line.elementsEqual([UInt8(ascii: "\r")]) {
                    found = index + 1
                    break
                }
                lineStart = index + 1
            }
            guard let found else { return nil }  // headers only
            content = part.dropFirst(found)
        }
        let trimmed = content.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        return trimmed.isEmpty ? nil : Array(trimmed)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\t")
    }
}
