/// A JSON value with the byte span of its text, so a problem in `baton.json` or an
/// introspection file can be reported at its line and column.
///
/// Numbers keep their literal text (nothing is rounded). Object members keep their order and
/// duplicates (a caller that cares can report them). Not `indirect`: arrays already hold the
/// nested values, so a value needs no box of its own.
package enum JSONValue: Sendable {
    case object([JSONMember], Span)
    case array([JSONValue], Span)
    case string(String, Span)
    case number(String, Span)
    case bool(Bool, Span)
    case null(Span)

    package var span: Span {
        switch self {
        case .object(_, let span), .array(_, let span), .string(_, let span), .number(_, let span),
            .bool(_, let span), .null(let span):
            span
        }
    }

    /// The first member named `key`, if this is an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members, _) = self else { return nil }
        // Comparing lengths first (free for native strings) skips most unequal keys.
        let length = key.utf8.count
        for member in members where member.key.utf8.count == length && member.key == key { return member.value }
        return nil
    }

    package var stringValue: String? {
        if case .string(let value, _) = self { return value }
        return nil
    }
    package var boolValue: Bool? {
        if case .bool(let value, _) = self { return value }
        return nil
    }
    package var arrayValue: [JSONValue]? {
        if case .array(let values, _) = self { return values }
        return nil
    }
    package var objectMembers: [JSONMember]? {
        if case .object(let members, _) = self { return members }
        return nil
    }
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }
    /// A word for the kind of value, for messages: "an object", "a string", …
    package var kindDescription: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// One `"key": value` member of a JSON object.
package struct JSONMember: Sendable {
    package var key: String
    package var keySpan: Span
    package var value: JSONValue
    package init(key: String, keySpan: Span, value: JSONValue) {
        self.key = key
        self.keySpan = keySpan
        self.value = value
    }
}

/// A syntax error in JSON text, at a byte offset.
package struct JSONSyntaxError: Error, Sendable, Hashable {
    package var message: String
    package var offset: Int
    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
}

/// A strict RFC 8259 JSON parser on UTF-8 bytes with a nesting limit, so hostile input gets an
/// error instead of a stack overflow.
///
/// It reads the bytes through an unsafe buffer (one bounds check per test, not per access),
/// makes strings without escapes straight from their bytes, skips indentation eight bytes at a
/// time, and collects the members and elements of the containers being parsed on two stacks,
/// moving each finished container's out into an array of exactly its size.
package struct JSONParser {
    /// Deeper nesting than this is reported as an error.
    package static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private let memberStack = MoveStack<JSONMember>()
    private let valueStack = MoveStack<JSONValue>()

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses a whole text (a leading UTF-8 BOM is skipped).
    package static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONSyntaxError> {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer)
            return parser.parseDocument()
        }
    }

    /// Parses the text of a source file.
    package static func parse(_ source: SourceFile) -> Result<JSONValue, JSONSyntaxError> { parse(source.bytes) }

    private mutating func parseDocument() -> Result<JSONValue, JSONSyntaxError> {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        do {
            skipWhitespace()
            let value = try parseValue()
            skipWhitespace()
            if index < bytes.count {
                throw JSONSyntaxError(message: "Unexpected \(describeCurrent()) after the JSON value.", offset: index)
            }
            return .success(value)
        } catch let error as JSONSyntaxError {
            return .failure(error)
        } catch {
            return .failure(JSONSyntaxError(message: "\(error)", offset: index))
        }
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20:
                index += 1
                // Indentation comes in runs of spaces: skip eight at a time.
                while index + 8 <= bytes.count,
                    UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self)
                        == 0x2020_2020_2020_2020
                {
                    index += 8
                }
            case 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "character \"\(String(UnicodeScalar(byte)))\"" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else {
            throw JSONSyntaxError(message: "Expected a JSON value, found end of file.", offset: index)
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let start = index
            let string = try parseString()
            return .string(string, Span(start: start, end: index))
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true, Span(start: index, end: index + 4)))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false, Span(start: index, end: index + 5)))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null(Span(start: index, end: index + 4)))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw JSONSyntaxError(message: "Expected a JSON value, found \(describeCurrent()).", offset: index)
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else {
            throw JSONSyntaxError(message: "Expected a JSON value, found \(describeCurrent()).", offset: index)
        }
        let expected = word.utf8Start
        for offset in 0..<length where bytes[index + offset] != expected[offset] {
            throw JSONSyntaxError(message: "Expected a JSON value, found \(describeCurrent()).", offset: index)
        }
        index += length
        return value
    }

    private mutating func enter() throws {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw JSONSyntaxError(message: "JSON nested deeper than \(JSONParser.maximumDepth) levels.", offset: index)
        }
    }

    private mutating func parseObject() throws -> JSONValue {
        let start = index
        try enter()
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([], Span(start: start, end: index))
        }
        let mark = memberStack.count
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw JSONSyntaxError(message: "Expected a string key, found \(describeCurrent()).", offset: index)
            }
            let keyStart = index
            let key = try parseString()
            let keySpan = Span(start: keyStart, end: index)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw JSONSyntaxError(message: "Expected \":\" after a key, found \(describeCurrent()).", offset: index)
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            memberStack.push(JSONMember(key: key, keySpan: keySpan, value: value))
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONSyntaxError(message: "Expected \",\" or \"}\", found end of file.", offset: index)
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(memberStack.pop(from: mark), Span(start: start, end: index))
            }
            throw JSONSyntaxError(message: "Expected \",\" or \"}\", found \(describeCurrent()).", offset: index)
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        let start = index
        try enter()
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array([], Span(start: start, end: index))
        }
        let mark = valueStack.count
        while true {
            skipWhitespace()
            valueStack.push(try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONSyntaxError(message: "Expected \",\" or \"]\", found end of file.", offset: index)
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(valueStack.pop(from: mark), Span(start: start, end: index))
            }
            throw JSONSyntaxError(message: "Expected \",\" or \"]\", found \(describeCurrent()).", offset: index)
        }
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - from
        }
        guard index < bytes.count else { throw JSONSyntaxError(message: "Invalid number.", offset: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw JSONSyntaxError(message: "Invalid number.", offset: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 {
                throw JSONSyntaxError(message: "Invalid number: expected a digit after \".\".", offset: index)
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            if digits() == 0 {
                throw JSONSyntaxError(message: "Invalid number: expected a digit in the exponent.", offset: index)
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return .number(text, Span(start: start, end: index))
    }

    /// Parses a string starting at its opening quote; leaves `index` after the closing quote.
    private mutating func parseString() throws -> String {
        let start = index
        index += 1
        let contentStart = index
        // Most strings have no escapes: make them straight from their bytes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), as: UTF8.self)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        var scalars: [UInt8] = []
        var runStart = contentStart
        while true {
            guard index < bytes.count else {
                throw JSONSyntaxError(message: "Unterminated string.", offset: start)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index += 1
                break
            }
            if byte < 0x20 {
                throw JSONSyntaxError(message: "Control character in a string; escape it.", offset: index)
            }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            index += 1
            guard index < bytes.count else { throw JSONSyntaxError(message: "Unterminated string.", offset: start) }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if code >= 0xD800 && code < 0xDC00 {
                    // A high surrogate must be followed by an escaped low surrogate.
                    if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low < 0xE000 else {
                            throw JSONSyntaxError(message: "Invalid surrogate pair in a \\u escape.", offset: index - 6)
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        throw JSONSyntaxError(message: "Lone surrogate in a \\u escape.", offset: index - 6)
                    }
                } else if code >= 0xDC00 && code < 0xE000 {
                    throw JSONSyntaxError(message: "Lone surrogate in a \\u escape.", offset: index - 6)
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw JSONSyntaxError(message: "Invalid \\u escape.", offset: index - 6)
                }
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw JSONSyntaxError(message: "Invalid escape sequence in a string.", offset: index - 2)
            }
            runStart = index
        }
        // Invalid UTF-8 inside a string is repaired rather than rejected.
        return String(decoding: scalars, as: UTF8.self)
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else {
            throw JSONSyntaxError(message: "Invalid \\u escape: expected four hex digits.", offset: index)
        }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw JSONSyntaxError(message: "Invalid \\u escape: expected four hex digits.", offset: index)
            }
            code = code * 16 + digit
            index += 1
        }
        return code
    }
}

/// A stack of the members or elements of the containers being parsed. A finished container's
/// elements are moved (not copied: no retain and release per element) into an array of exactly
/// their count, which also spares the doubling reallocations of appending to a fresh array.
private final class MoveStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 64
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always)
    func push(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    private func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Moves the elements pushed since `mark` into a new array, in order.
    func pop(from mark: Int) -> [Element] {
        let moved = count - mark
        if moved <= 0 { return [] }
        let source = base + mark
        count = mark
        return [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
            guard let destination = buffer.baseAddress else { return }
            destination.moveInitialize(from: source, count: moved)
            initialized = moved
        }
    }
}
