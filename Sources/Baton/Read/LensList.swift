/// A list of lenses, as generated code reads a list field of a composite type: a random-access collection that
/// `ForEach` takes, with `.empty` for the common `nodes ?? .empty`.
///
/// Its elements are the item lenses when the schema makes the items non-null (`[Issue!]`), and `NullableItem`s when
/// it makes them nullable (`[Issue]`): a null item stays in the list, at its index, never dropped. Decoding is
/// `Array`'s: a null item where the element has no nil is reported as unexpected at the item's path and makes the
/// whole list read as nil (or `.empty` where the list has no nil), as GraphQL propagates it.
public struct LensList<Element: SlotDecodable>: RandomAccessCollection, Sendable {
    /// The items, in the server's order.
    public let elements: [Element]

    public init(_ elements: [Element]) { self.elements = elements }

    /// The list with no items.
    public static var empty: LensList { LensList([]) }

    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> Element { elements[position] }
}

extension LensList: ExpressibleByArrayLiteral {
    /// `nodes ?? []` reads as `nodes ?? .empty`.
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension LensList: SlotDecodable {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<LensList> {
        switch [Element].decode(value, read) {
        case .value(let elements): .value(LensList(elements))
        case .null: .null
        case .unexpected(let reason): .unexpected(reason)
        case .reported(let reason): .reported(reason)
        }
    }

    @inlinable
    public static func fallback(_ read: SlotRead) -> LensList { .empty }

    @inlinable
    public static func decodeQuietly(_ value: StoredValue) -> LensList? {
        [Element].decodeQuietly(value).map(LensList.init)
    }
}

/// An item of a list whose items the schema makes nullable: the item's lens, or nil where the list holds a null
/// (or a `@required` null inside the item bubbled to it), with the item's index.
///
/// Members of the lens read through it as optionals (`issue.issueRow` is nil for a null item), so a loop stays as
/// short as `if let row = issue.issueRow { IssueRow(issue: row) }` and the null is visible to it rather than dropped
/// before it. `Identifiable` when the lens is: a null item's identity is its index.
@dynamicMemberLookup
public struct NullableItem<Wrapped: LensType>: Sendable {
    /// The item's lens; nil for a null item.
    public let value: Wrapped?
    /// The item's position in the list.
    public let index: Int

    public init(_ value: Wrapped?, index: Int) {
        self.value = value
        self.index = index
    }

    /// A member of the item's lens; nil for a null item.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Wrapped, Member>) -> Member? {
        value?[keyPath: keyPath]
    }

    /// An optional member of the item's lens, flattened; nil for a null item.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Wrapped, Member?>) -> Member? {
        value?[keyPath: keyPath] ?? nil
    }
}

extension NullableItem: SlotDecodable {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<NullableItem> {
        switch Wrapped?.decode(value, read) {
        case .value(let item): .value(NullableItem(item, index: max(read.index, 0)))
        case .null: .value(NullableItem(nil, index: max(read.index, 0)))
        case .unexpected(let reason): .unexpected(reason)
        case .reported(let reason): .reported(reason)
        }
    }

    @inlinable
    public static func fallback(_ read: SlotRead) -> NullableItem { NullableItem(nil, index: max(read.index, 0)) }
}

extension NullableItem: Identifiable where Wrapped: Identifiable {
    /// The record's identity, or the index of a null item.
    public var id: NullableItemID<Wrapped.ID> {
        if let value { return .value(value.id) }
        return .null(index: index)
    }
}

/// The identity of a `NullableItem`: its lens's `id`, or the index of a null item.
public enum NullableItemID<RecordID: Hashable>: Hashable {
    case value(RecordID)
    case null(index: Int)
}

extension NullableItemID: Sendable where RecordID: Sendable {}
