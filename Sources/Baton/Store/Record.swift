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
/// Plain `Hashable` over its two strings: a commit hashes no slot ID (it lists the slots it changed, each once by
/// construction; see `CommitResult.changedSlots`), so a set of slot IDs is built only where one is asked for — a
/// subscription's watched slots, the notifications of a store with subscribers, `CommitResult.changed`.
public struct SlotID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var record: RecordKey
    public var storageKey: String

    public init(_ record: RecordKey, _ storageKey: String) {
        self.record = record
        self.storageKey = storageKey
    }

    public var description: String { "\(record).\(storageKey)" }

    public static func < (lhs: SlotID, rhs: SlotID) -> Bool { lhs.description < rhs.description }
}
