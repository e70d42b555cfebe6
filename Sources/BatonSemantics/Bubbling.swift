import BatonSchema
import BatonSyntax

/// Where a `@required(action: NONE | LOG)` null goes, in the terms both the validation rules and
/// the lens model use.
///
/// A `@required` field's null makes the value of the lens it is read in nil: the enclosing field's
/// value (the item, for a list), an inline fragment's `as<Type>` accessor on a narrower type, or
/// the definition's root. Inline fragments that always match (on the same or a wider type) are
/// part of the enclosing lens, so a null inside them reaches the enclosing field too; fragment
/// spreads are lenses of their own, whose nulls stop at the spread.
package enum Bubbling {
    /// True when every record of `parent` is a `condition`: the same type, or a wider one. An
    /// inline fragment on such a condition is flattened into the enclosing lens.
    package static func alwaysMatches(_ parent: NamedTypeDef, _ condition: NamedTypeDef, in schema: GraphQLSchema)
        -> Bool
    {
        if parent.name == condition.name { return true }
        let wider = Set(schema.possibleTypes(of: condition).map(\.name))
        return schema.possibleTypes(of: parent).allSatisfy { wider.contains($0.name) }
    }

    /// True when a `@required(action: NONE | LOG)` field selected in `set` (a selection set on
    /// `type`, directly or through inline fragments that always match) can make a null arrive at
    /// the value holding `set`. Computed without recursion: inline fragments nest as deep as the
    /// document.
    package static func childrenCanBubble(_ set: SelectionSet, on type: NamedTypeDef, in schema: GraphQLSchema) -> Bool
    {
        var pending: [Selection] = set.selections
        while let selection = pending.popLast() {
            switch selection {
            case .field(let field):
                if BatonDirectives.required(in: field.directives)?.action?.bubbles == true { return true }
            case .inlineFragment(let inline):
                let condition = inline.typeCondition.flatMap { schema.type(named: $0.name.value) } ?? type
                if alwaysMatches(type, condition, in: schema) { pending += inline.selectionSet.selections }
            case .fragmentSpread:
                continue
            }
        }
        return false
    }

    /// True when a null arriving at a field's value from its selections moves on to the field's
    /// own parent: the field is `@required(action: NONE | LOG)` and not a list (a list's item takes
    /// the null and the list stays).
    package static func passesNullOn(required: RequiredAction?, type: TypeRef) -> Bool {
        required?.bubbles == true && !type.isList
    }
}
