/// The errors a selection set answers for, as Relay's `@catch` and `@throwOnFieldError` see them: those stored on
/// its fields and on every field inside them (through links, list items and the inline fragments the record
/// matches), except the errors inside a closer `@catch` (which that one catches, `to: NULL` or `RESULT`) and inside
/// fragment spreads (a fragment is read through its own lens, with its own policy).
///
/// A `@catch` also catches the `@required(action: THROW)` fields inside it that read null (no slot, a null, a
/// field error's null, a `@required` null bubbling into them, a mapped scalar that does not convert: what a lens
/// boundary counts as null), as Relay's does: each adds a required-field error (`required field
/// character.origin.name is null`, with its path) after the field's own errors, so the `@catch` reads failure
/// where the field's accessor would have thrown. `@throwOnFieldError` counts field errors only; a THROW null still
/// throws at its own accessor.
///
/// The Kotlin runtime's `RecordReader.fieldErrors` and `uncaughtErrors` are the same walk, collecting the same
/// errors in the same order: the field's own, then depth first in selection order.
@usableFromInline
enum CaughtErrors {
    /// The errors `field`'s `@catch` catches, given the field's slot in `lens`'s record.
    @usableFromInline
    static func of(_ field: Field, slot: Slot, in lens: Lens) -> [GraphQLError] {
        var walk = Walk(lens: lens, requiredNulls: true, base: SlotRead(lens: lens, field: field).path.components)
        walk.errors = slot.errors
        if !field.selections.isEmpty { walk.collect(slot.value, selections: field.selections) }
        return walk.errors
    }

    /// The field errors an operation's (or a fragment's) `@throwOnFieldError` answers for: those of `selections`
    /// read from `lens`'s record that no `@catch` handles, outside fragment spreads.
    static func uncaught(in lens: Lens, selections: [Selection]) -> [GraphQLError] {
        var walk = Walk(lens: lens, requiredNulls: false, base: lens.path?.components ?? [])
        walk.collect(record: lens.key, selections: selections)
        return walk.errors
    }

    /// One walk: the errors so far and the response path of the value being visited.
    private struct Walk {
        let lens: Lens
        /// Whether `@required(action: THROW)` nulls count (under `@catch`).
        let requiredNulls: Bool
        /// The path of the value being visited; built only into a required-field error's text.
        var trail: [PathComponent]
        var errors: [GraphQLError] = []

        init(lens: Lens, requiredNulls: Bool, base: [PathComponent]) {
            self.lens = lens
            self.requiredNulls = requiredNulls
            self.trail = base
        }

        mutating func collect(_ value: StoredValue, selections: [Selection]) {
            switch value {
            case .link(let key): collect(record: key, selections: selections)
            case .list(let items):
                for (index, item) in items.enumerated() {
                    trail.append(.index(index))
                    collect(item, selections: selections)
                    trail.removeLast()
                }
            default: break
            }
        }

        /// The selection tree is finite, so the walk ends even where records link in a cycle.
        mutating func collect(record key: RecordKey, selections: [Selection]) {
            guard let record = lens.snapshot[key] else { return }
            let variables = lens.context.variables
            for selection in selections {
                switch selection {
                case .field(let field):
                    if field.catchTo != nil { continue }
                    if !field.conditions.isEmpty, !field.conditions.allSatisfy({ $0.passes(variables) }) { continue }
                    trail.append(.key(field.responseKey))
                    defer { trail.removeLast() }
                    let slot = record.slots[field.storageKey(variables: variables)]
                    if let slot { errors.append(contentsOf: slot.errors) }
                    if requiredNulls, field.required == .throw, readsNull(field, in: key) {
                        let path = trail.map(\.description).joined(separator: ".")
                        errors.append(GraphQLError(message: "required field \(path) is null", path: trail))
                    }
                    if let slot, !field.selections.isEmpty { collect(slot.value, selections: field.selections) }
                case .inlineFragment(let condition, let conditions, let inner):
                    if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                    if let condition, !condition.matches(record.typename) { continue }
                    collect(record: key, selections: inner)
                case .fragment:
                    continue
                }
            }
        }

        /// Whether a `@required` field of the record `key` reads null as a lens boundary sees it, read silently
        /// (the accessor reports what it finds when the app reads it).
        private func readsNull(_ field: Field, in key: RecordKey) -> Bool {
            let silent = Lens(
                snapshot: lens.snapshot, key: key, context: ReadContext(variables: lens.context.variables),
                path: nil)
            return Boundary.nullOrigin(of: field, in: silent) != nil
        }
    }
}
