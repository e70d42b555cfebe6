/// The field errors a `@catch` field catches, as Relay's `@catch` does: those stored on the field and on every field
/// inside it (through links, list items and the inline fragments the record matches), except the errors inside a
/// closer `@catch` (which that one catches, `to: NULL` or `RESULT`) and inside fragment spreads (a fragment handles
/// its own errors). The Kotlin runtime's `RecordReader.fieldErrors` collects the same errors in the same order: the
/// field's own, then depth first in selection order.
@usableFromInline
enum CaughtErrors {
    /// The errors `field`'s `@catch` catches, given the field's slot in `lens`'s record.
    @usableFromInline
    static func of(_ field: Field, slot: Slot, in lens: Lens) -> [GraphQLError] {
        var errors = slot.errors
        if !field.selections.isEmpty {
            collect(slot.value, selections: field.selections, lens: lens, into: &errors)
        }
        return errors
    }

    private static func collect(
        _ value: StoredValue, selections: [Selection], lens: Lens, into errors: inout [GraphQLError]
    ) {
        switch value {
        case .link(let key): collect(record: key, selections: selections, lens: lens, into: &errors)
        case .list(let items):
            for item in items { collect(item, selections: selections, lens: lens, into: &errors) }
        default: break
        }
    }

    /// The selection tree is finite, so the walk ends even where records link in a cycle.
    private static func collect(
        record key: RecordKey, selections: [Selection], lens: Lens, into errors: inout [GraphQLError]
    ) {
        guard let record = lens.snapshot[key] else { return }
        let variables = lens.context.variables
        for selection in selections {
            switch selection {
            case .field(let field):
                if field.catchTo != nil { continue }
                if !field.conditions.isEmpty, !field.conditions.allSatisfy({ $0.passes(variables) }) { continue }
                guard let slot = record.slots[field.storageKey(variables: variables)] else { continue }
                errors.append(contentsOf: slot.errors)
                if !field.selections.isEmpty {
                    collect(slot.value, selections: field.selections, lens: lens, into: &errors)
                }
            case .inlineFragment(let condition, let conditions, let inner):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if let condition, !condition.matches(record.typename) { continue }
                collect(record: key, selections: inner, lens: lens, into: &errors)
            case .fragment:
                continue
            }
        }
    }
}
