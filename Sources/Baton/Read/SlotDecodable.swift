import Foundation

/// The outcome of decoding one stored value.
public enum Decoded<Value> {
    case value(Value)
    /// Null where the type has no nil (or a `@required` null that bubbled to a lens boundary).
    case null
    /// A value the type cannot hold, with why.
    case unexpected(String)
    /// A value the type cannot hold that its decoder has already reported where it occurred (a list whose item
    /// cannot be held: `null in a non-null list item` at `nodes.3`); the read gives nil, or the fallback, without
    /// reporting again. The text (`item 3: …`) is for a strict read's error.
    case reported(String)
}

extension Decoded: Sendable where Value: Sendable {}

/// A type a slot can be read as: scalars, enums, custom scalars, lenses, and optionals and lists of them.
///
/// Nullability lives in the Swift type: `String?` reads a null as nil; `String` cannot, so a null there is
/// reported as unexpected and reads as `fallback`. Lists decode item by item; an item the item type cannot hold (a
/// null in `[Issue!]`, a string in `[Int]`) is reported at the item's path and makes the whole list read as nil, or
/// as `[]` where the list has no nil, as GraphQL's null propagation nulls the nearest level that can be null.
public protocol SlotDecodable: Sendable {
    /// Decodes a stored value; `.null` for a null (the caller decides what a null means).
    static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<Self>
    /// The value a read produces when the type has no nil and the store gave none: the zero value for built-in
    /// scalars, `[]` for lists, `nil` for optionals, an empty lens for lenses. Mapped scalars have no honest
    /// zero, so their accessors are optional unless a directive says what a failure does (see Docs/Runtime.md).
    static func fallback(_ read: SlotRead) -> Self
    /// The value when `decode` would produce it without reporting anything, or nil to take `decode`: the read's
    /// fast path, which needs no `SlotRead`. The default is nil. A type that implements `decode` itself and wants
    /// the fast path implements this too, giving exactly what its `decode` gives as `.value` (or nil).
    static func decodeQuietly(_ value: StoredValue) -> Self?
}

extension SlotDecodable {
    @inlinable
    public static func decodeQuietly(_ value: StoredValue) -> Self? { nil }
}

/// A slot being read: the lens it belongs to, the field and the path, for decoders that need them.
///
/// Cheap to make (two references): the path is built only when something asks for it (a report or an error).
public struct SlotRead: Sendable {
    public let lens: Lens
    public let field: Field
    /// For an item of a nested list: the path of the list item that holds it; nil otherwise.
    @usableFromInline let outer: ResponsePath?
    /// The list index this read is at, or -1 for the field itself.
    @usableFromInline let index: Int

    @inlinable
    init(lens: Lens, field: Field) {
        self.lens = lens
        self.field = field
        self.outer = nil
        self.index = -1
    }

    @inlinable
    init(lens: Lens, field: Field, outer: ResponsePath?, index: Int) {
        self.lens = lens
        self.field = field
        self.outer = outer
        self.index = index
    }

    /// The response path of the value read: the lens's path, the field's response key, and list indices.
    public var path: ResponsePath {
        let base = outer ?? .appending(.key(field.responseKey), to: lens.path)
        return index < 0 ? base : .appending(.index(index), to: base)
    }

    /// The lens of a linked record.
    public func child(_ key: RecordKey) -> Lens {
        Lens(snapshot: lens.snapshot, key: key, context: lens.context, path: path)
    }

    /// The same read, one list item down.
    @inlinable
    public func item(_ index: Int) -> SlotRead {
        if self.index < 0 { return SlotRead(lens: lens, field: field, outer: nil, index: index) }
        return SlotRead(lens: lens, field: field, outer: path, index: index)
    }

    /// The type whose field is read, for reports.
    var typeName: String { lens.typename ?? "?" }

    @usableFromInline
    func reportUnexpected(_ reason: String) {
        lens.context.reporter.report(
            .unexpectedValue(type: typeName, field: field.name, reason: reason, path: path.description))
    }

    /// A null (or a field error) where the type has no nil. A link to a deleted record reads as null unreported.
    @usableFromInline
    func reportNull(_ slot: Slot) {
        if case .link(let key) = slot.value, lens.snapshot[key]?.isDeleted == true { return }
        reportUnexpected(slot.errors.isEmpty ? "null in a non-null field" : "field error: \(FieldErrors(slot.errors))")
    }

    /// Whether the slot read carries field errors (a null item there is the server's null for an error, not an
    /// unexpected value).
    @usableFromInline
    var slotHasErrors: Bool { lens.storage.slot(field).map { !$0.errors.isEmpty } ?? false }

    /// No slot: missing data. A deleted record's fields are gone, not missing: nothing is reported.
    @usableFromInline
    func reportMissing() {
        if lens.record?.isDeleted == true { return }
        lens.context.reporter.report(
            .missingData(type: lens.typename ?? "?", field: field.name, record: lens.key, path: path.description))
    }
}

extension Optional: SlotDecodable where Wrapped: SlotDecodable {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<Wrapped?> {
        if case .null = value { return .value(nil) }
        switch Wrapped.decode(value, read) {
        case .value(let wrapped): return .value(wrapped)
        case .null, .reported: return .value(nil)
        case .unexpected(let reason):
            read.reportUnexpected(reason)
            return .value(nil)
        }
    }

    @inlinable
    public static func fallback(_ read: SlotRead) -> Wrapped? { nil }

    @inlinable
    public static func decodeQuietly(_ value: StoredValue) -> Wrapped?? {
        if case .null = value { return Optional<Wrapped?>.some(Optional<Wrapped>.none) }
        if let wrapped = Wrapped.decodeQuietly(value) { return Optional<Wrapped?>.some(wrapped) }
        return nil
    }
}

extension Array: SlotDecodable where Element: SlotDecodable {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<[Element]> {
        switch value {
        case .null: return .null
        case .list(let items):
            var result: [Element] = []
            result.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                // An item deleted by `@deleteRecord` is gone from the list, not a null in it.
                if case .link(let key) = item, read.lens.snapshot[key]?.isDeleted == true { continue }
                let itemRead = read.item(index)
                switch Element.decode(item, itemRead) {
                case .value(let element): result.append(element)
                case .null:
                    // The server's null where the schema promised an item (`[Issue!]`) is unexpected; a null for a
                    // field error on the list, or a `@required` null bubbling into the item, is not.
                    guard case .null = item, !read.slotHasErrors else { return .null }
                    itemRead.reportUnexpected("null in a non-null list item")
                    return .reported("item \(index): null in a non-null list item")
                case .unexpected(let reason):
                    itemRead.reportUnexpected(reason)
                    return .reported("item \(index): \(reason)")
                case .reported(let reason): return .reported("item \(index): \(reason)")
                }
            }
            return .value(result)
        default:
            return .unexpected("expected a list, found \(value.kindDescription)")
        }
    }

    @inlinable
    public static func fallback(_ read: SlotRead) -> [Element] { [] }

    @inlinable
    public static func decodeQuietly(_ value: StoredValue) -> [Element]? {
        guard case .list(let items) = value else { return nil }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let element = Element.decodeQuietly(item) else { return nil }
            result.append(element)
        }
        return result
    }
}

extension StoredValue {
    /// What the value is, for unexpected-value reports.
    @usableFromInline
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .string(let text): "string \"\(text.prefix(40))\""
        case .number(let text): "number \(text)"
        case .boolean(let flag): "boolean \(flag)"
        case .json: "a JSON value"
        case .link: "an object"
        case .list: "a list"
        }
    }
}

extension String: SlotDecodable {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<String> {
        switch value {
        case .string(let text): return .value(text)
        case .null: return .null
        default:
            // An unmapped custom scalar reads as its text whatever JSON the server wrote (see `scalarText`).
            if read.field.readsScalarText, let text = value.scalarText { return .value(text) }
            return .unexpected("expected a String, found \(value.kindDescription)")
        }
    }

    @inlinable
    public static func fallback(_ read: SlotRead) -> String { "" }

    @inlinable
    public static func decodeQuietly(_ value: StoredValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }
}

extension Int: SlotDecodable {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<Int> {
        switch value {
        case .number(let text):
            if let number = Int(text) { return .value(number) }
            return .unexpected("expected an Int, found number \(text)")
        case .null: return .null
        default: return .unexpected("expected an Int, found \(value.kindDescription)")
        }
    }

    @inlinable
    public static func fallback(_ read: SlotRead) -> Int { 0 }

    @inlinable
    public static func decodeQuietly(_ value: StoredValue) -> Int? {
        if case .number(let text) = value { return Int(text) }
        return nil
    }
}

extension Double: SlotDecodable {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<Double> {
        switch value {
        case .number(let text):
            if let number = Double(text) { return .value(number) }
            return .unexpected("expected a Float, found number \(text)")
        case .null: return .null
        default: return .unexpected("expected a Float, found \(value.kindDescription)")
        }
    }

    @inlinable
    public static func fallback(_ read: SlotRead) -> Double { 0 }

    @inlinable
    public static func decodeQuietly(_ value: StoredValue) -> Double? {
        if case .number(let text) = value { return Double(text) }
        return nil
    }
}

extension Bool: SlotDecodable {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<Bool> {
        switch value {
        case .boolean(let flag): .value(flag)
        case .null: .null
        default: .unexpected("expected a Boolean, found \(value.kindDescription)")
        }
    }

    @inlinable
    public static func fallback(_ read: SlotRead) -> Bool { false }

    @inlinable
    public static func decodeQuietly(_ value: StoredValue) -> Bool? {
        if case .boolean(let flag) = value { return flag }
        return nil
    }
}

/// A schema enum: a case per value the build knows and `unknown(String)` for one it does not.
///
/// Generated enums declare `init(rawText:)` and `rawText`; decoding and the fallback come from here.
public protocol GraphQLEnum: SlotDecodable, Hashable {
    /// The case for a value's text; a text the build did not know becomes `unknown(text)`.
    init(rawText: String)
    /// The value's text as the schema spells it.
    var rawText: String { get }
}

extension GraphQLEnum {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<Self> {
        switch value {
        case .string(let text): .value(Self(rawText: text))
        case .null: .null
        default: .unexpected("expected an enum value, found \(value.kindDescription)")
        }
    }

    /// An enum read where the store gave nothing: the case for the empty text (generated enums' `unknown("")`).
    @inlinable
    public static func fallback(_ read: SlotRead) -> Self { Self(rawText: "") }
}

/// A custom scalar mapped to an app type: converted from the stored text at the read.
///
/// A text that does not convert is reported as unexpected and reads as nil. `placeholder` exists only because
/// Swift needs a value for a non-optional accessor: generated code reads mapped scalars non-optionally only under
/// `@required(NONE|LOG)`, whose boundary has already converted the text, so it is never shown for a failure.
public protocol CustomScalar: SlotDecodable {
    /// Converts the text the server wrote: a string's contents, a number's literal, `true`/`false`, or an object's
    /// or a list's JSON (`StoredValue.scalarText`).
    init?(scalarText: String)
    /// See the type's documentation: never produced from a failed conversion through a checked lens.
    static var placeholder: Self { get }
}

extension CustomScalar {
    @inlinable
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<Self> {
        if case .null = value { return .null }
        guard let text = value.scalarText else {
            return .unexpected("expected a \(Self.self) text, found \(value.kindDescription)")
        }
        if let converted = Self(scalarText: text) { return .value(converted) }
        return .unexpected("\"\(text.prefix(40))\" does not convert to \(Self.self)")
    }

    @inlinable
    public static func fallback(_ read: SlotRead) -> Self { placeholder }
}

extension Decimal: CustomScalar {
    public init?(scalarText: String) {
        guard let value = Decimal(string: scalarText, locale: Locale(identifier: "en_US_POSIX")),
            scalarText.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true
        else { return nil }
        self = value
    }

    public static var placeholder: Decimal { 0 }
}

extension Date: CustomScalar {
    /// ISO 8601 with or without fractional seconds (`2017-11-04T18:48:46.250Z`).
    public init?(scalarText: String) {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(scalarText) {
            self = date
        } else if let date = try? Date.ISO8601FormatStyle().parse(scalarText) {
            self = date
        } else {
            return nil
        }
    }

    public static var placeholder: Date { Date(timeIntervalSince1970: 0) }
}

extension URL: CustomScalar {
    public init?(scalarText: String) {
        guard !scalarText.isEmpty, let url = URL(string: scalarText) else { return nil }
        self = url
    }

    public static var placeholder: URL { URL(fileURLWithPath: "/") }
}

extension UUID: CustomScalar {
    public init?(scalarText: String) {
        guard let uuid = UUID(uuidString: scalarText) else { return nil }
        self = uuid
    }

    public static var placeholder: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}
