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
/// so Baton parses bytes itself. Nesting is limited (`maximumDepth`) so hostile input cannot exhaust the stack.
public enum JSONParser {
    /// The deepest nesting accepted.
    public static let maximumDepth = 512

    /// Parses one JSON value occupying all of `data` (surrounding whitespace allowed).
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var reader = Reader(bytes: bytes)
            do throws(JSONParseError) {
                reader.skipWhitespace()
                let value = try reader.parseValue(depth: 0)
                reader.skipWhitespace()
                if reader.position != bytes.count { throw reader.error("unexpected text after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON value from a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// Scratch stacks for the members and items of the objects and arrays being read (shared by every
        /// nesting level), so each finished object or array is copied once into exactly-sized storage.
        var memberKeys: [String] = []
        var memberValues: [JSONValue] = []
        var items: [JSONValue] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            memberKeys.reserveCapacity(64)
            memberValues.reserveCapacity(64)
            items.reserveCapacity(64)
        }

        /// A reader at `position` without scratch space, to read one string (`JSONTape` decodes escapes with it).
        init(bytes: UnsafeBufferPointer<UInt8>, position: Int) {
            self.bytes = bytes
            self.position = position
        }

        func error(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: position) }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
            guard position < bytes.count else { throw error("unexpected end of input") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"):
                try expectWord("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expectWord("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expectWord("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return .number(try parseNumber())
            default:
                throw error("unexpected character")
            }
        }

        mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count else { throw error("unexpected end of input") }
            let start = word.utf8Start
            for index in 0..<count where bytes[position + index] != start[index] {
                throw error("unexpected character")
            }
            position += count
        }

        mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
            if depth > JSONParser.maximumDepth { throw error("nesting too deep") }
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(JSONObject())
            }
            let base = memberKeys.count
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw error("expected a member name")
                }
                let key = try parseString()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                skipWhitespace()
                let value = try parseValue(depth: depth)
                if let index = memberKeys[base...].firstIndex(of: key) {
                    memberValues[index] = value
                } else {
                    memberKeys.append(key)
                    memberValues.append(value)
                }
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of input") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    let object = JSONObject(
                        uncheckedKeys: Array(memberKeys[base...]), values: Array(memberValues[base...]))
                    memberKeys.removeSubrange(base...)
                    memberValues.removeSubrange(base...)
                    return .object(object)
                } else {
                    throw error("expected ',' or '}'")
                }
            }
        }

        mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
            if depth > JSONParser.maximumDepth { throw error("nesting too deep") }
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array([])
            }
            let base = items.count
            while true {
                skipWhitespace()
                let item = try parseValue(depth: depth)
                items.append(item)
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of input") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    let array = Array(items[base...])
                    items.removeSubrange(base...)
                    return .array(array)
                } else {
                    throw error("expected ',' or ']'")
                }
            }
        }

        mutating func parseNumber() throws(JSONParseError) -> String {
            let start = position
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count else { throw error("unexpected end of input") }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else if isDigit(bytes[position]) {
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            } else {
                throw error("expected a digit")
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit") }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit") }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        mutating func parseString() throws(JSONParseError) -> String {
            position += 1
            let start = position
            // Fast path: no escapes.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    position += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw error("control character in string") }
                position += 1
            }
            var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return String(decoding: buffer, as: UTF8.self)
                }
                if byte < 0x20 { throw error("control character in string") }
                if byte != UInt8(ascii: "\\") {
                    buffer.append(byte)
                    position += 1
                    continue
                }
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        // A surrogate pair, if the low half follows; otherwise the replacement character.
                        if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        {
                            position += 2
                            let low = try parseHex4()
                            if (0xDC00...0xDFFF).contains(low) {
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                code = 0xFFFD
                            }
                        } else {
                            code = 0xFFFD
                        }
                    }
                    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                    buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("invalid escape")
                }
            }
            throw error("unterminated string")
        }

        mutating func parseHex4() throws(JSONParseError) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("unexpected end of input") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("invalid \\u escape")
                }
                value = value * 16 + digit
                position += 1
            }
            return value
        }
    }
}
