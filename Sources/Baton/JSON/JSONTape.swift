import Foundation

/// A JSON text read into a flat tape of tokens instead of a tree of `JSONValue`s: the one JSON reader of the
/// runtime. `JSONParser` builds its tree from a tape, `TapeNormalizer` normalizes a response from one, and the
/// image decoder reads records from one.
///
/// One pass over the bytes checks the JSON and records, per value, its kind and where it is: a string or number
/// as a byte range of the text, an object or array as its member or item count. Every entry knows the index of
/// the entry after it (after the whole container for an object or array), so readers can step over values they
/// do not need. An object's entries are its members, each a key entry followed by the value's entries. No string
/// is decoded while reading: a key is compared with a field's response key byte by byte, and only the values a
/// reader keeps become `String`s.
///
/// The reader is a loop over an explicit stack of open containers, so its machine stack does not grow with the
/// text's nesting (a debug build on a 512 KiB thread reads the deepest text it accepts). Nesting is limited to
/// `maximumDepth` containers; a repeated member name marks the earlier key dead, so lookups see the last value.
final class JSONTape {
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string, object, array
        /// A member key; `deadKey` is an earlier key that a repeated member name replaced.
        case key, deadKey
    }

    /// One token: 16 bytes.
    struct Entry {
        var kind: Kind
        /// Strings and keys: `escaped` when the text has a backslash escape, `nonASCII` when it has a byte ≥ 0x80.
        /// Objects: `repeatedNames` when a member name occurs twice (some key is dead).
        var flags: UInt8
        /// Strings, keys and numbers: the byte range (without quotes). Objects and arrays: `start` is the member or
        /// item count.
        var start: Int32
        var end: Int32
        /// The index of the entry after this value (after the whole container for an object or array).
        var next: Int32
    }

    private static let typenameName: StaticString = "__typename"
    static var typenameBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: typenameName.utf8Start, count: typenameName.utf8CodeUnitCount)
    }

    static let escaped: UInt8 = 1
    static let nonASCII: UInt8 = 2
    static let repeatedNames: UInt8 = 4

    /// Why a text is not JSON: `JSONParser`'s message and the byte offset where it was found.
    struct Failure: Error, Equatable {
        var message: String
        var offset: Int

        /// The message of a text nested deeper than the reader's limit.
        static let tooDeep = "nesting too deep"
        var isTooDeep: Bool { message == Failure.tooDeep }
    }

    /// The entries, owned by this tape.
    let entries: UnsafeMutablePointer<Entry>
    let count: Int

    init(entries: UnsafeMutablePointer<Entry>, count: Int) {
        self.entries = entries
        self.count = count
    }

    deinit { entries.deallocate() }

    /// Reads `bytes` into a tape, or says why they are not one JSON value (surrounding whitespace allowed).
    /// A text of 2 GiB or more does not fit the tape's 32-bit offsets and is refused.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONParser.maximumDepth) -> Result<
        JSONTape, Failure
    > {
        guard bytes.count < Int(Int32.max) else {
            return .failure(Failure(message: "the text is 2 GiB or larger", offset: 0))
        }
        var builder = JSONTapeBuilder(bytes: bytes, maximumDepth: maximumDepth)
        defer { builder.release() }
        if let failure = builder.run() {
            return .failure(failure)
        }
        return .success(builder.finish())
    }

    /// A non-owning view of this tape over `bytes`; the caller keeps the tape and the bytes alive while using it.
    func view(_ bytes: UnsafeBufferPointer<UInt8>) -> View {
        View(entries: UnsafePointer(entries), count: count, bytes: bytes)
    }

    // MARK: Reading the tape

    /// A non-owning view of a tape and its text, for reading without reference counting.
    struct View {
        let entries: UnsafePointer<Entry>
        let count: Int
        let bytes: UnsafeBufferPointer<UInt8>
        /// The text's first byte (an empty text's stand-in is never read: no entry has a byte range in it).
        private let base: UnsafePointer<UInt8>

        init(entries: UnsafePointer<Entry>, count: Int, bytes: UnsafeBufferPointer<UInt8>) {
            self.entries = entries
            self.count = count
            self.bytes = bytes
            base = bytes.baseAddress ?? ("" as StaticString).utf8Start
        }

        @inline(__always)
        subscript(_ index: Int32) -> Entry { entries[Int(index)] }

        /// The raw bytes of a string, key or number entry (the tape's ranges lie inside the text).
        @inline(__always)
        func rawBytes(_ entry: Entry) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: base + Int(entry.start), count: Int(entry.end &- entry.start))
        }

        /// The text of a string or key entry, decoded as `JSONParser` decodes it.
        func text(_ index: Int32) -> String {
            let entry = entries[Int(index)]
            if entry.flags & JSONTape.escaped == 0 { return String(decoding: rawBytes(entry), as: UTF8.self) }
            return JSONString.decode(rawBytes(entry))
        }

        /// The literal text of a number entry.
        func numberText(_ index: Int32) -> String { String(decoding: rawBytes(entries[Int(index)]), as: UTF8.self) }

        /// Whether two string or key entries have the same text (as `String` equality decides it).
        func sameText(_ a: Int32, _ b: Int32) -> Bool {
            let first = entries[Int(a)]
            let second = entries[Int(b)]
            if (first.flags | second.flags) != 0 { return text(a) == text(b) }
            return JSONTape.equal(rawBytes(first), rawBytes(second))
        }

        /// Whether the key entry `key` is the response key of `field` (its bytes compared, or its text when either
        /// has escapes or non-ASCII bytes: `String` equality is canonical equivalence).
        @inline(__always)
        func key(_ key: Int32, isResponseKeyOf field: FieldStorage) -> Bool {
            let entry = entries[Int(key)]
            if entry.flags != 0 || !field.responseKeyIsASCII { return text(key) == field.responseKey }
            return JSONTape.equal(rawBytes(entry), field.responseKeyBytes)
        }

        /// The value entry of the live member that is `field`'s response key in the object at `object`, searching
        /// from the key entry `hint` (0: from the first member) to the end and then from the start; also returns
        /// the key entry after it.
        @inline(__always)
        func member(of object: Int32, responseKeyOf field: FieldStorage, from hint: Int32) -> (
            value: Int32, nextKey: Int32
        )? {
            let container = entries[Int(object)]
            let count = Int(container.start)
            if count == 0 { return nil }
            let first = object + 1
            let end = container.next
            var key = hint > object && hint < end ? hint : first
            for _ in 0..<count {
                let nextKey = entries[Int(key + 1)].next
                if entries[Int(key)].kind == .key, self.key(key, isResponseKeyOf: field) { return (key + 1, nextKey) }
                key = nextKey == end ? first : nextKey
            }
            return nil
        }

        /// The value entry of the live member named `name` (a short ASCII name such as `__typename`).
        func member(of object: Int32, named name: StaticString) -> Int32? {
            member(of: object, nameBytes: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }

        /// The value entry of the live member whose name is `nameBytes`.
        private func member(of object: Int32, nameBytes: UnsafeBufferPointer<UInt8>) -> Int32? {
            let container = entries[Int(object)]
            var key = object + 1
            for _ in 0..<Int(container.start) {
                let entry = entries[Int(key)]
                if entry.kind == .key {
                    let matches =
                        entry.flags == 0
                        ? JSONTape.equal(rawBytes(entry), nameBytes)
                        : text(key) == String(decoding: nameBytes, as: UTF8.self)
                    if matches { return key + 1 }
                }
                key = entries[Int(key + 1)].next
            }
            return nil
        }

        /// The value entry of the live member named `name` (a declared key field's name).
        func member(of object: Int32, field name: String) -> Int32? {
            var name = name
            return name.withUTF8 { member(of: object, nameBytes: $0) }
        }

        /// The value entries of the live `__typename` and `id` members of the object at `object` (nil when absent),
        /// found in one pass over its keys.
        func identity(of object: Int32) -> (typename: Int32?, id: Int32?) {
            var typename: Int32?
            var id: Int32?
            var key = object + 1
            for _ in 0..<Int(entries[Int(object)].start) {
                let entry = entries[Int(key)]
                if entry.kind == .key {
                    if entry.flags != 0 {
                        let name = text(key)
                        if name == "__typename" { typename = key + 1 } else if name == "id" { id = key + 1 }
                    } else {
                        let length = entry.end &- entry.start
                        let start = Int(entry.start)
                        if length == 2, bytes[start] == UInt8(ascii: "i"), bytes[start + 1] == UInt8(ascii: "d") {
                            id = key + 1
                        } else if length == 10, JSONTape.equal(rawBytes(entry), JSONTape.typenameBytes) {
                            typename = key + 1
                        }
                    }
                    if typename != nil, id != nil { break }
                }
                key = entries[Int(key + 1)].next
            }
            return (typename, id)
        }

        /// The string at `index`, when it is one.
        func stringValue(_ index: Int32?) -> String? {
            guard let index, entries[Int(index)].kind == .string else { return nil }
            return text(index)
        }

        /// The value at `index` as a `JSONValue` tree, built without recursion: a repeated member keeps its first
        /// position and its last value, as `JSONParser` has always kept it.
        func jsonValue(_ index: Int32) -> JSONValue {
            var builder = JSONTreeBuilder(view: self)
            return builder.build(index)
        }
    }

    /// Whether two byte ranges hold the same bytes: up to 16 bytes with two overlapping loads per side.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard count > 0, let aBase = a.baseAddress, let bBase = b.baseAddress else { return true }
        let x = UnsafeRawPointer(aBase)
        let y = UnsafeRawPointer(bBase)
        if count >= 8 {
            guard count <= 16 else { return memcmp(aBase, bBase, count) == 0 }
            return x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
                && x.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                    == y.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        if count >= 4 {
            return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
                && x.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                    == y.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        }
        for offset in 0..<count where aBase[offset] != bBase[offset] { return false }
        return true
    }

}

/// Builds `JSONValue` trees from a tape with explicit stacks (no recursion).
private struct JSONTreeBuilder {
    let view: JSONTape.View
    /// An open object or array: where its members or items start on the scratch stacks, and how many are left.
    struct Frame {
        var isObject: Bool
        var repeatedNames: Bool
        var base: Int
        var remaining: Int
    }
    var frames: [Frame] = []
    var keys: [String] = []
    var values: [JSONValue] = []

    init(view: JSONTape.View) { self.view = view }

    mutating func build(_ root: Int32) -> JSONValue {
        var index = root
        let end = view[root].next
        var result: JSONValue = .null
        while index < end {
            let entry = view[index]
            var value: JSONValue
            switch entry.kind {
            case .key, .deadKey:
                keys.append(view.text(index))
                index += 1
                continue
            case .null: value = .null
            case .true: value = .bool(true)
            case .false: value = .bool(false)
            case .number: value = .number(view.numberText(index))
            case .string: value = .string(view.text(index))
            case .object, .array:
                let isObject = entry.kind == .object
                if entry.start > 0 {
                    frames.append(
                        Frame(
                            isObject: isObject, repeatedNames: entry.flags & JSONTape.repeatedNames != 0,
                            base: values.count, remaining: Int(entry.start)))
                    index += 1
                    continue
                }
                value = isObject ? .object(JSONObject()) : .array([])
            }
            index += 1
            // Hand the finished value to the open container, closing every container it completes.
            while true {
                guard var frame = frames.popLast() else {
                    result = value
                    break
                }
                values.append(value)
                frame.remaining -= 1
                if frame.remaining > 0 {
                    frames.append(frame)
                    break
                }
                value = close(frame)
            }
        }
        return result
    }

    /// The finished container of `frame`, taken off the scratch stacks.
    mutating func close(_ frame: Frame) -> JSONValue {
        let items = Array(values[frame.base...])
        values.removeSubrange(frame.base...)
        guard frame.isObject else { return .array(items) }
        let keyBase = keys.count - items.count
        let names = Array(keys[keyBase...])
        keys.removeSubrange(keyBase...)
        guard frame.repeatedNames else { return .object(JSONObject(uncheckedKeys: names, values: items)) }
        // A repeated name keeps its first position and its last value.
        var position: [String: Int] = [:]
        var uniqueKeys: [String] = []
        var uniqueValues: [JSONValue] = []
        for (name, value) in zip(names, items) {
            if let existing = position[name] {
                uniqueValues[existing] = value
            } else {
                position[name] = uniqueKeys.count
                uniqueKeys.append(name)
                uniqueValues.append(value)
            }
        }
        return .object(JSONObject(uncheckedKeys: uniqueKeys, values: uniqueValues))
    }
}
