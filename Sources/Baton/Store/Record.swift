import Foundation

/// A record's key in the store: its data ID.
///
/// `Type:id` when the record has an `id` (e.g. `Character:1`); otherwise its parent's key, a dot and the
/// storage key of the field that reached it, plus `.index` for list items
/// (e.g. `Query.character({"id":"1"}).origin`, `Query.characters.results.0`). The root of a query is `Query`.
public typealias RecordKey = String

/// What a slot holds: a scalar exactly as the server wrote it, a link, a list, or null.
public enum StoredValue: Sendable, Hashable {
    case null
    case string(String)
    /// A number's literal text, never rounded.
    case number(String)
    case boolean(Bool)
    /// A custom scalar the server wrote as a JSON object or array.
    case json(JSONValue)
    /// A link to another record.
    case link(RecordKey)
    case list([StoredValue])
}

/// A field of a record under its storage key: the value and, beside it, the field errors that produced it.
public struct Slot: Sendable, Hashable {
    public var value: StoredValue
    /// Field errors attached to this slot. An error whose path ends at this field makes a plain read see nil;
    /// an error deeper inside (a list item) leaves the value readable and is seen by `@catch`.
    public var errors: [GraphQLError]

    public init(value: StoredValue, errors: [GraphQLError] = []) {
        self.value = value
        self.errors = errors
    }
}

/// A normalized record: its slots, its type name and its age.
public struct Record: Sendable, Hashable {
    public var typename: String?
    public var slots: [String: Slot]
    /// When a server response last wrote this record (seconds since 1970; kept in the image).
    public var updatedAt: Double
    /// Marked stale by an invalidation of the record or its type; cleared when a response writes it.
    public var invalidated: Bool
    /// Deleted by a mutation's `@deleteRecord`: the record has no slots, links to it read as null, and a lens that
    /// still holds it reads `isDeleted` (never missing data). A response that writes the record again revives it.
    public var isDeleted: Bool

    public init(
        typename: String?, slots: [String: Slot] = [:], updatedAt: Double = 0, invalidated: Bool = false,
        isDeleted: Bool = false
    ) {
        self.typename = typename
        self.slots = slots
        self.updatedAt = updatedAt
        self.invalidated = invalidated
        self.isDeleted = isDeleted
    }
}

/// One slot of one record, as notifications name it: `Character:1.gender`.
///
/// It keeps the hashes of its two strings, so the sets subscriptions and notifications build hash two integers per
/// slot instead of two strings (a commit lists its changed slots without hashing them, computing a record key's
/// hash once for all its slots and taking each storage key's from the plan).
public struct SlotID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var record: RecordKey { didSet { recordHash = record.hashValue } }
    public var storageKey: String { didSet { storageKeyHash = storageKey.hashValue } }
    private var recordHash: Int
    private var storageKeyHash: Int

    public init(_ record: RecordKey, _ storageKey: String) {
        self.init(record, storageKey, recordHash: record.hashValue, storageKeyHash: storageKey.hashValue)
    }

    /// A slot ID whose strings' hashes are known (`String.hashValue` of each, in this process).
    init(_ record: RecordKey, _ storageKey: String, recordHash: Int, storageKeyHash: Int) {
        self.record = record
        self.storageKey = storageKey
        self.recordHash = recordHash
        self.storageKeyHash = storageKeyHash
    }

    public var description: String { "\(record).\(storageKey)" }

    public static func == (lhs: SlotID, rhs: SlotID) -> Bool {
        lhs.recordHash == rhs.recordHash && lhs.storageKeyHash == rhs.storageKeyHash && lhs.record == rhs.record
            && lhs.storageKey == rhs.storageKey
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordHash)
        hasher.combine(storageKeyHash)
    }

    /// What `Set` and `Dictionary` hash a slot ID with (`Hashable`'s requirement behind `hash(into:)`): the two
    /// strings' hashes are already SipHash values under the process's random seed, so they are mixed with the
    /// table's seed by a 64-bit finalizer (splitmix64's) instead of a second SipHash: about 200 instructions an
    /// insert or lookup fewer (239 against 432 for `hash(into:)` alone), and notifying a subscriber that watches a
    /// 1 MB response looks up and inserts every changed slot. Equal slot IDs have equal hashes, as `==` compares
    /// both hashes first.
    public func _rawHashValue(seed: Int) -> Int {
        var mixed =
            UInt64(truncatingIfNeeded: recordHash)
            ^ (UInt64(truncatingIfNeeded: storageKeyHash) &* 0x9E37_79B9_7F4A_7C15)
            ^ UInt64(truncatingIfNeeded: seed)
        mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: mixed ^ (mixed &>> 31))
    }

    public static func < (lhs: SlotID, rhs: SlotID) -> Bool { lhs.description < rhs.description }
}
