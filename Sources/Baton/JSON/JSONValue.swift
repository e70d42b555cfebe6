import Foundation

/// A JSON value that keeps what the server wrote: numbers as their literal text, object members in order.
///
/// Baton never round-trips a number through `Double`, so `12345678901234567890` and `1.10` survive a
/// commit, an image save and a read exactly as written.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number as its literal text, e.g. `"1.10"` or `"-3e5"`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The text of a string value.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// A JSON object whose members keep their order (so log payloads and request bodies read as written).
public struct JSONObject: Sendable, Hashable {
    /// Member names, in order.
    public private(set) var keys: [String]
    /// Member values, parallel to `keys`.
    public private(set) var values: [JSONValue]

    /// An empty object.
    public init() {
        keys = []
        values = []
    }

    /// An object with the given members, in order; a repeated name keeps its last value.
    public init(_ members: [(String, JSONValue)]) {
        self.init()
        keys.reserveCapacity(members.count)
        values.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    init(uncheckedKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// The members in order.
    public var members: [(String, JSONValue)] { Array(zip(keys, values)) }

    /// The index of the member named `key`, searching from `hint` to the end and then from the start.
    func index(of key: String, from hint: Int) -> Int? {
        let count = keys.count
        var index = hint < count ? hint : 0
        for _ in 0..<count {
            if keys[index] == key { return index }
            index += 1
            if index == count { index = 0 }
        }
        return nil
    }

    /// The value of the member named `key`; setting `nil` removes it. Linear: response objects are small.
    public subscript(key: String) -> JSONValue? {
        get {
            for index in keys.indices where keys[index] == key { return values[index] }
            return nil
        }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(floatLiteral value: Double) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// A canonical, compact serialization: object members sorted by name, no whitespace.
    ///
    /// Used for storage keys and operation identities, where two spellings of the same value must agree.
    public var canonicalText: String {
        var output: [UInt8] = []
        JSONWriter.write(self, to: &output, sortKeys: true)
        return String(decoding: output, as: UTF8.self)
    }

    /// A compact serialization that keeps member order (log payloads, request bodies).
    public var compactText: String {
        var output: [UInt8] = []
        JSONWriter.write(self, to: &output, sortKeys: false)
        return String(decoding: output, as: UTF8.self)
    }
}
