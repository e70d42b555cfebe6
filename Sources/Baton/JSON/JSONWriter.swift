import Foundation

/// Writes JSON text as UTF-8 bytes: compact, members in order or sorted by name.
///
/// A loop over an explicit stack of open containers, so a value of any depth is written without growing the
/// machine stack. Strings escape `"`, `\`, and control characters (`\n`, `\r`, `\t`, otherwise `\u00XX`); every
/// other character is written as itself.
enum JSONWriter {
    /// An open array or object: its items or members (sorted when asked) and the next one to write.
    private enum Frame {
        case array([JSONValue], next: Int)
        case object(JSONObject, order: [Int]?, next: Int)
    }

    static func write(_ value: JSONValue, to output: inout [UInt8], sortKeys: Bool) {
        var frames: [Frame] = []
        var pending: JSONValue? = value
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: append("null", to: &output)
                case .bool(let flag): append(flag ? "true" : "false", to: &output)
                case .number(let text): output.append(contentsOf: text.utf8)
                case .string(let text): writeString(text, to: &output)
                case .array(let items):
                    output.append(UInt8(ascii: "["))
                    frames.append(.array(items, next: 0))
                case .object(let object):
                    output.append(UInt8(ascii: "{"))
                    var order: [Int]?
                    if sortKeys, object.count > 1 {
                        order = object.keys.indices.sorted { object.keys[$0] < object.keys[$1] }
                    }
                    frames.append(.object(object, order: order, next: 0))
                }
            }
            // The next item or member of the innermost open container, or its close.
            guard let frame = frames.popLast() else { return }
            switch frame {
            case .array(let items, let next):
                if next == items.count {
                    output.append(UInt8(ascii: "]"))
                    continue
                }
                if next > 0 { output.append(UInt8(ascii: ",")) }
                frames.append(.array(items, next: next + 1))
                pending = items[next]
            case .object(let object, let order, let next):
                if next == object.count {
                    output.append(UInt8(ascii: "}"))
                    continue
                }
                if next > 0 { output.append(UInt8(ascii: ",")) }
                let index = order?[next] ?? next
                writeString(object.keys[index], to: &output)
                output.append(UInt8(ascii: ":"))
                frames.append(.object(object, order: order, next: next + 1))
                pending = object.values[index]
            }
        }
    }

    private static func append(_ word: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A string in quotes with JSON escapes. Bytes of multi-byte UTF-8 sequences are all ≥ 0x80, so escaping
    /// byte by byte is escaping character by character.
    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"", to: &output)
                case UInt8(ascii: "\\"): append("\\\\", to: &output)
                case 0x0A: append("\\n", to: &output)
                case 0x0D: append("\\r", to: &output)
                case 0x09: append("\\t", to: &output)
                default:
                    append("\\u00", to: &output)
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            if runStart < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        output.append(UInt8(ascii: "\""))
    }
}
