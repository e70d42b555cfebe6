import Foundation

/// A JSON text Baton could not read: what was wrong and at which byte.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The byte offset where it was found.
    public var offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

/// A small JSON parser on UTF-8 bytes that keeps numbers' literal text.
///
/// `JSONSerialization` turns `1.10` into a `Double`; a normalized store must keep the text the server wrote,
/// so Baton parses bytes itself. The text is read into a `JSONTape` and the tree built from it, both without
/// recursion; nesting is limited to `maximumDepth` containers, the one limit of everything the runtime reads
/// (responses, the image, the SQLite cache).
public enum JSONParser {
    /// The deepest nesting accepted: a response body's root object is level 1.
    public static let maximumDepth = 512

    /// Parses one JSON value occupying all of `data` (surrounding whitespace allowed).
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch JSONTape.read(bytes) {
            case .failure(let failure):
                return .failure(JSONParseError(message: failure.message, offset: failure.offset))
            case .success(let tape):
                return .success(withExtendedLifetime(tape) { tape.view(bytes).jsonValue(0) })
            }
        }
        return try result.get()
    }

    /// Parses one JSON value from a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Data(text.utf8))
    }
}

/// Decoding the escapes of a JSON string the tape has already checked.
enum JSONString {
    /// The text of the string whose bytes (between the quotes) are `bytes`. A high surrogate escape followed by
    /// another `\u` escape reads it as its low half (U+FFFD when it is not one); a lone surrogate is U+FFFD.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(bytes.count)
        var position = 0
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            position += 1
            guard byte == UInt8(ascii: "\\"), position < count else {
                buffer.append(byte)
                continue
            }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4(bytes, at: position) else { return String(decoding: buffer, as: UTF8.self) }
                position += 4
                if (0xD800...0xDBFF).contains(code) {
                    if position + 1 < count, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u"), let low = hex4(bytes, at: position + 2)
                    {
                        position += 6
                        let isLow = (0xDC00...0xDFFF).contains(low)
                        code = isLow ? 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                    } else {
                        code = 0xFFFD
                    }
                }
                UTF8.encode(Unicode.Scalar(code) ?? "\u{FFFD}") { buffer.append($0) }
            default:
                // `"`, `\` and `/` stand for themselves (the tape accepts no other escape).
                buffer.append(escape)
            }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[start + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * 16 + digit
        }
        return value
    }
}
