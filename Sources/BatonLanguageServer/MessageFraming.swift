/// The base protocol's framing: `Content-Length: N\r\n` (and any other header lines) then a blank line, then N bytes
/// of JSON.
///
/// `FrameDecoder` is fed bytes as they arrive and hands back whole frames; it never waits for more than a frame
/// says it holds, and bad input (a header without `Content-Length`, a length that is not a number or too large,
/// header lines that never end) becomes a `.malformed` result and is skipped, so the next good frame is still read.
package struct FrameDecoder {
    /// The largest body accepted (64 MiB): a larger `Content-Length` is refused and its header skipped.
    package static let maximumBodyLength = 64 << 20
    /// The longest header block accepted before it is dropped as garbage.
    package static let maximumHeaderLength = 8 << 10

    /// What `next()` found.
    package enum Frame: Equatable {
        /// A body (not yet parsed as JSON).
        case message([UInt8])
        /// Bytes that were skipped, and why.
        case malformed(String)
    }

    private var buffer: [UInt8] = []
    /// Where unread bytes begin in `buffer` (compacted now and then, not on every frame).
    private var start = 0

    package init() {}

    /// Bytes waiting to be framed.
    package var pendingCount: Int { buffer.count - start }

    /// Adds bytes read from the stream.
    package mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil when more bytes are needed.
    package mutating func next() -> Frame? {
        guard let headerEnd = findHeaderEnd() else {
            if buffer.count - start > Self.maximumHeaderLength {
                // No blank line in 8 KiB: not a header. Drop all but the tail (which may begin the next header).
                start = buffer.count - 3
                return .malformed("A header of more than \(Self.maximumHeaderLength) bytes without an end.")
            }
            return nil
        }
        let headerBytes = buffer[start..<headerEnd]
        let bodyStart = headerEnd + 4
        guard let length = Self.contentLength(headerBytes) else {
            start = bodyStart
            return .malformed("A header without a valid Content-Length.")
        }
        guard length <= Self.maximumBodyLength else {
            start = bodyStart
            return .malformed("A Content-Length of \(length) bytes, over the limit of \(Self.maximumBodyLength).")
        }
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        start = bodyStart + length
        return .message(body)
    }

    /// The index of the `\r\n\r\n` ending the header, if it has arrived. (A lone `\n\n` is accepted too.)
    private func findHeaderEnd() -> Int? {
        var index = start
        let count = buffer.count
        while index + 3 < count {
            if buffer[index] == 0x0D && buffer[index + 1] == 0x0A && buffer[index + 2] == 0x0D
                && buffer[index + 3] == 0x0A
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The value of the `Content-Length` header (case-insensitive name), if present and a decimal number.
    static func contentLength(_ header: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: header, as: UTF8.self)
        var found: Int?
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces
            guard name == "content-length" else { continue }
            guard !value.isEmpty, value.count <= 12, value.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(value)
            else { return nil }
            found = number
        }
        return found
    }

    /// A body framed for the stream.
    package static func encode(_ body: String) -> [UInt8] {
        let bytes = Array(body.utf8)
        return Array("Content-Length: \(bytes.count)\r\n\r\n".utf8) + bytes
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
