import Foundation

/// A view of one record through one selection: what a generated data type wraps.
///
/// A lens holds an immutable snapshot, so every read through it (and through lenses it produces) sees one
/// consistent store. Reads are typed by the accessor's Swift type; the directive picks the read function:
///
/// | directive                          | call                 | field error            |
/// |------------------------------------|----------------------|------------------------|
/// | none                               | `read`               | reads nil (or zero)    |
/// | `@catch` / `@catch(to: RESULT)`    | `caught`             | `.failure(FieldErrors)`|
/// | `@catch(to: NULL)`                 | `caughtToNull`       | nil                    |
/// | `@required(action: THROW)`         | `requiredOrThrow`    | throws                 |
/// | inside `@throwOnFieldError`        | `strict`             | throws                 |
/// | `@required(action: NONE / LOG)`    | `read` (non-optional; the boundary checked it) |
public struct Lens: Sendable {
    /// One reference to the lens's immutable parts, so a lens (and each `SlotRead` of it) copies with one retain.
    @usableFromInline let storage: LensStorage

    public var snapshot: StoreSnapshot { storage.snapshot }
    /// The record's key.
    public var key: RecordKey { storage.key }
    /// The record, or nil when the store does not have it.
    public var record: Record? { storage.record }
    public var context: ReadContext { storage.context }
    var path: ResponsePath? { storage.path }

    public init(snapshot: StoreSnapshot, key: RecordKey, context: ReadContext) {
        self.init(snapshot: snapshot, key: key, context: context, path: nil)
    }

    init(snapshot: StoreSnapshot, key: RecordKey, context: ReadContext, path: ResponsePath?) {
        storage = LensStorage(snapshot: snapshot, key: key, context: context, path: path)
    }

    /// The record's `__typename` (or the type it was stored as).
    public var typename: String? { record?.typename ?? key.split(separator: ":", maxSplits: 1).first.map(String.init) }

    /// True when a mutation's `@deleteRecord` deleted the record this lens reads: its fields read nil (or their
    /// zero) and nothing is reported missing.
    public var isDeleted: Bool { record?.isDeleted ?? false }

    /// True when an optimistic update (a mutation's optimistic response, not yet answered) wrote this record:
    /// what a view reads to show "sending…".
    public var isOptimistic: Bool { snapshot.optimisticRecords.contains(key) }

    /// The response path of this lens, dotted (`character.origin`).
    public var pathText: String { path?.description ?? "" }

    // MARK: Reads
    //
    // The reads are `@inlinable` so generated code specializes them for its accessor's type: a scalar read is a
    // dictionary lookup and a switch, with no allocation (the response path is built only for a report).

    /// A plain read. `T?` reads a null, a field error or missing data as nil; a non-optional `T` reads them as
    /// its fallback and reports a null or a value it cannot hold as unexpected. Missing data is reported.
    @inlinable
    public func read<T: SlotDecodable>(_ field: Field) -> T {
        if let value = storage.quietValue(field), let decoded = T.decodeQuietly(value) { return decoded }
        let read = SlotRead(lens: self, field: field)
        guard let slot = storage.slot(field) else {
            read.reportMissing()
            return T.fallback(read)
        }
        switch T.decode(slot.value, read) {
        case .value(let value): return value
        case .null:
            read.reportNull(slot)
            return T.fallback(read)
        case .unexpected(let reason):
            read.reportUnexpected(reason)
            return T.fallback(read)
        case .reported: return T.fallback(read)
        }
    }

    /// A read under `@catch`: `.failure` with the errors of the field and of the fields inside it that no closer
    /// `@catch` catches (`CaughtErrors`, as Relay's `@catch`), otherwise the value as `read` gives it.
    @inlinable
    public func caught<T: SlotDecodable>(_ field: Field) -> Result<T, FieldErrors> {
        if field.selections.isEmpty, let value = storage.quietValue(field), let decoded = T.decodeQuietly(value) {
            return .success(decoded)
        }
        if let slot = storage.slot(field) {
            let errors = field.selections.isEmpty ? slot.errors : CaughtErrors.of(field, slot: slot, in: self)
            if !errors.isEmpty { return .failure(FieldErrors(errors)) }
        }
        return .success(read(field))
    }

    /// A read under `@catch(to: NULL)`: nil without a report when the field, or a field inside it that no closer
    /// `@catch` catches, has an error (`CaughtErrors`); otherwise the value as `read` gives it.
    @inlinable
    public func caughtToNull<T: SlotDecodable>(_ field: Field) -> T? {
        if field.selections.isEmpty, let value = storage.quietValue(field), let decoded = T?.decodeQuietly(value) {
            return decoded
        }
        if let slot = storage.slot(field) {
            let errors = field.selections.isEmpty ? slot.errors : CaughtErrors.of(field, slot: slot, in: self)
            if !errors.isEmpty { return nil }
        }
        return read(field) as T?
    }

    /// A read under `@required(action: THROW)`: a null, an error or missing data throws `requiredFieldNull`.
    @inlinable
    public func requiredOrThrow<T: SlotDecodable>(_ field: Field) throws(ReadError) -> T {
        if let value = storage.quietValue(field), let decoded = T.decodeQuietly(value) { return decoded }
        let read = SlotRead(lens: self, field: field)
        guard let slot = storage.slot(field) else {
            read.reportMissing()
            throw .requiredFieldNull(path: read.path.description)
        }
        switch T.decode(slot.value, read) {
        case .value(let value): return value
        case .null, .reported: throw .requiredFieldNull(path: read.path.description)
        case .unexpected(let reason):
            read.reportUnexpected(reason)
            throw .requiredFieldNull(path: read.path.description)
        }
    }

    /// A read inside a `@throwOnFieldError` fragment or operation: a field error throws `fieldErrors`; a value the
    /// type cannot hold (including a null in a `@semanticNonNull` field read as non-optional) is reported and
    /// throws; missing data is reported and throws.
    @inlinable
    public func strict<T: SlotDecodable>(_ field: Field) throws(ReadError) -> T {
        if let value = storage.quietValue(field), let decoded = T.decodeQuietly(value) { return decoded }
        let read = SlotRead(lens: self, field: field)
        guard let slot = storage.slot(field) else {
            read.reportMissing()
            throw .missingData(path: read.path.description)
        }
        if !slot.errors.isEmpty { throw .fieldErrors(FieldErrors(slot.errors)) }
        switch T.decode(slot.value, read) {
        case .value(let value): return value
        case .null:
            read.reportUnexpected("null in a non-null field")
            throw .unexpectedValue(path: read.path.description, reason: "null in a non-null field")
        case .unexpected(let reason):
            read.reportUnexpected(reason)
            throw .unexpectedValue(path: read.path.description, reason: reason)
        case .reported(let reason): throw .unexpectedValue(path: read.path.description, reason: reason)
        }
    }

    /// A fragment spread or a narrowing `... on Type`: the fragment's lens of this record, or nil when the type does
    /// not match or a `@required` null inside bubbled to the fragment's boundary.
    @inlinable
    public func fragment<L: LensType>(_ type: L.Type = L.self) -> L? {
        if let condition = L.conditionOfType, !condition.matches(record?.typename) { return nil }
        if Boundary.requiredNull(in: self, selections: L.selections) != nil { return nil }
        return L(lens: self)
    }

    /// The same as `fragment`, spelled for inline fragments on a type: `data.node.as(Node_asCharacter.self)`.
    @inlinable
    public func `as`<L: LensType>(_ type: L.Type) -> L? { fragment(type) }

    /// Whether the store has a slot for the field.
    public func has(_ field: Field) -> Bool { storage.slot(field) != nil }

    // MARK: Internals

    func lookup(_ field: Field) -> (slot: Slot?, read: SlotRead) {
        (storage.slot(field), SlotRead(lens: self, field: field))
    }
}

/// A lens's immutable parts.
@usableFromInline
final class LensStorage: Sendable {
    let snapshot: StoreSnapshot
    let key: RecordKey
    let record: Record?
    let context: ReadContext
    let path: ResponsePath?

    init(snapshot: StoreSnapshot, key: RecordKey, context: ReadContext, path: ResponsePath?) {
        self.snapshot = snapshot
        self.key = key
        self.record = snapshot[key]
        self.context = context
        self.path = path
    }

    /// The slot the field names in this lens's record, with the storage key under the read's variables.
    @usableFromInline
    func slot(_ field: Field) -> Slot? {
        guard let record else { return nil }
        return record.slots[field.readKey(variables: context.variables)]
    }

    /// The slot's value when the slot exists and has no errors: what the reads' fast path decodes.
    @usableFromInline
    func quietValue(_ field: Field) -> StoredValue? {
        guard let record, let slot = record.slots[field.readKey(variables: context.variables)], slot.errors.isEmpty
        else { return nil }
        return slot.value
    }
}

/// A generated data type: a struct wrapping a lens, with the selections it reads.
///
/// Reading a link as a `LensType` checks the lens boundary: a `@required` null inside makes the link read as null,
/// so an optional accessor produces nil (and a LOG null is reported with its path).
///
/// The protocol has only the requirements every lens implements itself. A type condition and a fragment's name are
/// requirements of the refinements `ConditionalLensType` and `FragmentLensType`, which only the lenses that have
/// them conform to: a requirement with a default that every nested lens inherited unchanged cost a witness
/// function per lens type in the app's binary and compile (issue 34). Generic code reads them through
/// `conditionOfType` and `nameOfFragment`.
public protocol LensType: SlotDecodable {
    init(lens: Lens)
    var lens: Lens { get }
    /// The selections this type reads, as generated static data.
    static var selections: [Selection] { get }
}

/// A lens read under a type condition: an inline fragment's on a type (`... on User`), or a named fragment's.
///
/// A type that declares `typeCondition` but conforms only to `LensType` has no condition as far as the runtime
/// knows: conform to this protocol (generated code does).
public protocol ConditionalLensType: LensType {
    /// The type condition a record must satisfy.
    static var typeCondition: TypeCondition? { get }
}

/// A named fragment's lens: its name and its type condition.
public protocol FragmentLensType: ConditionalLensType {
    /// The fragment's name as the document spells it.
    static var fragmentName: String? { get }
}

extension LensType {
    /// The type condition a record must satisfy to be read as this type: `typeCondition` for a
    /// `ConditionalLensType`, nil for any other lens.
    @inlinable
    public static var conditionOfType: TypeCondition? { (Self.self as? any ConditionalLensType.Type)?.typeCondition }

    /// A named fragment's name (`FragmentLensType`), or nil for any other lens.
    @inlinable
    public static var nameOfFragment: String? { (Self.self as? any FragmentLensType.Type)?.fragmentName }

    // `decode` and `fallback` are not `@inlinable`: every generated lens type's witness calls the one generic body
    // here instead of holding a specialized copy of it, which the optimizer would otherwise build and optimize for
    // each of an app's hundreds of lens types (issue 34).
    public static func decode(_ value: StoredValue, _ read: SlotRead) -> Decoded<Self> {
        switch value {
        case .link(let key):
            // A record deleted by `@deleteRecord`: the link reads as null.
            if read.lens.snapshot[key]?.isDeleted == true { return .null }
            let child = read.child(key)
            if Boundary.requiredNull(in: child, selections: selections) != nil { return .null }
            return .value(Self(lens: child))
        case .null: return .null
        default: return .unexpected("expected an object, found \(value.kindDescription)")
        }
    }

    public static func fallback(_ read: SlotRead) -> Self { Self(lens: read.child("")) }
}

/// The `@required` boundary check.
@usableFromInline
enum Boundary {
    /// The path of the first `@required(NONE|LOG)` field whose null bubbles up to this lens, or nil. LOG nulls are
    /// reported where they occur. A null bubbles through `@required` links and stops at any other field
    /// (that field's own accessor is the boundary that produces nil) and at fragment spreads (their own boundary).
    @usableFromInline
    static func requiredNull(in lens: Lens, selections: [Selection]) -> String? {
        for selection in selections {
            switch selection {
            case .field(let field):
                guard let action = field.required, action != .throw else { continue }
                if !field.conditions.isEmpty, !field.conditions.allSatisfy({ $0.passes(lens.context.variables) }) {
                    continue
                }
                guard let origin = nullOrigin(of: field, in: lens) else { continue }
                if origin.isOwn, action == .log { lens.context.reporter.report(.requiredFieldNull(path: origin.path)) }
                return origin.path
            case .inlineFragment(let condition, let conditions, let inner):
                if !conditions.allSatisfy({ $0.passes(lens.context.variables) }) { continue }
                if let condition, !condition.matches(lens.record?.typename) { continue }
                if let path = requiredNull(in: lens, selections: inner) { return path }
            case .fragment:
                continue
            }
        }
        return nil
    }

    /// Where a `@required` field of `lens`'s record reads null, as a boundary sees it, or nil when it has a value:
    /// its own path when it has no slot, holds null (as a field error's slot does) or holds a mapped scalar that
    /// does not convert; the inner field's path when it links to a record whose own `@required(NONE|LOG)` null
    /// bubbles up to it (reported there when LOG). `@catch` uses it for THROW fields too (`CaughtErrors`).
    static func nullOrigin(of field: Field, in lens: Lens) -> (path: String, isOwn: Bool)? {
        let (slot, read) = lens.lookup(field)
        switch slot?.value {
        case nil, .null?: return (read.path.description, true)
        case .link(let key)?:
            guard !field.selections.isEmpty, let inner = requiredNull(in: read.child(key), selections: field.selections)
            else { return nil }
            return (inner, false)
        case let value?:
            if let scalar = field.scalar, !converts(scalar, value, read) { return (read.path.description, true) }
            return nil
        }
    }

    private static func converts<T: SlotDecodable>(_ type: T.Type, _ value: StoredValue, _ read: SlotRead) -> Bool {
        if case .value = T.decode(value, read) { return true }
        return false
    }
}
