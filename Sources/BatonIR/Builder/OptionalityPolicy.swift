import BatonSchema
import BatonSemantics

/// The optionality policy: what the generated type says at every level of an accessor's value.
/// The heart of "nullability is what the schema says", as one small pure function.
///
/// A level of a field's value is optional exactly when the schema makes it nullable, unless one of
/// these rules, applied in this order, says otherwise:
///
/// 1. `@semanticNonNull(levels:)` on the field, under `@throwOnFieldError`, makes the named
///    nullable levels non-optional (and non-null in a valid response: a null there is an error);
/// 2. a custom scalar mapped to an app type reads nil when its text does not convert, so its
///    innermost level is optional, unless `@throwOnFieldError` makes a failed read throw;
/// 3. `@required` makes the value itself (level 0) non-optional;
/// 4. a `@required(action: NONE | LOG)` child's null arriving at the innermost value makes that
///    level optional (the item of a list, or the value), unless the field is itself a non-list
///    `@required` field, which passes the null on (NONE, LOG) or throws (THROW);
/// 5. `@catch(to: NULL)` makes level 0 optional: an error reads nil;
/// 6. a selection that can be absent (`@include`, `@skip`, `@defer`) makes level 0 optional.
///
/// A read of the parent's record (a fragment spread, an inline fragment on a narrower type) is
/// optional when the record may not match, the selection may be absent, or a `@required` null can
/// reach the fragment's root.
package enum OptionalityPolicy {
    /// What decides a field accessor's optionality.
    package struct Field: Sendable, Hashable {
        /// The field's type as the schema declares it.
        package var schemaType: TypeRef
        /// The levels the field's `@semanticNonNull` names, if it has one.
        package var semanticNonNullLevels: [Int]?
        /// The definition has `@throwOnFieldError`.
        package var underThrowOnFieldError: Bool
        /// The field is a custom scalar that `customScalarTypes` maps to an app type.
        package var mappedCustomScalar: Bool
        /// `@required`'s action, if the field has it.
        package var required: RequiredAction?
        /// A `@required(action: NONE | LOG)` null from the field's own selections arrives at it.
        package var childrenBubble: Bool
        /// `@catch`'s target, if the field has it.
        package var catchTarget: CatchTarget?
        /// The field can be absent from the response.
        package var conditional: Bool

        package init(
            schemaType: TypeRef, semanticNonNullLevels: [Int]? = nil, underThrowOnFieldError: Bool = false,
            mappedCustomScalar: Bool = false, required: RequiredAction? = nil, childrenBubble: Bool = false,
            catchTarget: CatchTarget? = nil, conditional: Bool = false
        ) {
            self.schemaType = schemaType
            self.semanticNonNullLevels = semanticNonNullLevels
            self.underThrowOnFieldError = underThrowOnFieldError
            self.mappedCustomScalar = mappedCustomScalar
            self.required = required
            self.childrenBubble = childrenBubble
            self.catchTarget = catchTarget
            self.conditional = conditional
        }
    }

    /// The levels of a field accessor's value, outermost first, and the `@semanticNonNull`
    /// levels that took effect (sorted; nil when none did).
    package static func levels(_ field: Field) -> (levels: [ValueLevel], semanticNonNull: [Int]?) {
        // A value that is not a list (most fields) has one level: decided in place, and returned as one of the
        // arrays of one level shared by every such accessor (no array made per field).
        if let level = singleSchemaLevel(field.schemaType) {
            var one = CollectionOfOne(level)
            let semanticNonNull = apply(field, to: &one)
            return (sharedSingleLevel(one[0]), semanticNonNull)
        }
        var levels = schemaLevels(field.schemaType)
        let semanticNonNull = apply(field, to: &levels)
        return (levels, semanticNonNull)
    }

    /// The rules above, applied to the schema's `levels` of `field` (at least one); the `@semanticNonNull`
    /// levels that took effect.
    private static func apply<Levels: MutableCollection<ValueLevel>>(
        _ field: Field, to levels: inout Levels
    ) -> [Int]? where Levels.Index == Int {
        let last = levels.count - 1
        var semanticNonNull: [Int]?
        if field.underThrowOnFieldError, let declared = field.semanticNonNullLevels {
            var changed = false
            for level in declared where level >= 0 && level <= last && levels[level].isOptional {
                levels[level].isOptional = false
                levels[level].nonNull = true
                changed = true
            }
            if changed { semanticNonNull = Array(Set(declared)).sorted() }
        }
        if field.mappedCustomScalar && !field.underThrowOnFieldError { levels[last].isOptional = true }
        if field.required != nil { levels[0].isOptional = false }
        if field.childrenBubble && !(last == 0 && field.required != nil) { levels[last].isOptional = true }
        if field.catchTarget == .null { levels[0].isOptional = true }
        if field.conditional { levels[0].isOptional = true }
        return semanticNonNull
    }

    /// The one level of a type that is not a list (`T`, `T!`); nil for a list.
    private static func singleSchemaLevel(_ type: TypeRef) -> ValueLevel? {
        switch type {
        case .named: ValueLevel(schemaNullable: true, isOptional: true)
        case .nonNull(.named): ValueLevel(schemaNullable: false, isOptional: false)
        case .list, .nonNull: nil
        }
    }

    /// Every array of one `ValueLevel`, by its three flags (`sharedSingleLevel`): made once, shared.
    private static let singleLevels: [[ValueLevel]] = (0..<8).map { bits in
        [ValueLevel(schemaNullable: bits & 1 != 0, isOptional: bits & 2 != 0, nonNull: bits & 4 != 0)]
    }

    /// `[level]`, shared.
    private static func sharedSingleLevel(_ level: ValueLevel) -> [ValueLevel] {
        let shared = singleLevels[(level.schemaNullable ? 1 : 0) | (level.isOptional ? 2 : 0) | (level.nonNull ? 4 : 0)]
        // `ValueLevel` is its three flags; should it hold more, an array is made rather than a wrong one shared.
        return shared[0] == level ? shared : [level]
    }

    /// Whether a read of the parent's record through a fragment is optional.
    package static func parentRecordIsOptional(narrower: Bool, conditional: Bool, rootCanBeNil: Bool) -> Bool {
        narrower || conditional || rootCanBeNil
    }

    /// The schema's nullability per level, outermost first (without recursion: a type may nest as
    /// many lists as the parser allows).
    package static func schemaLevels(_ type: TypeRef) -> [ValueLevel] {
        var result: [ValueLevel] = []
        result.reserveCapacity(type.listNesting + 1)
        var current = type
        while true {
            var nullable = true
            if case .nonNull(let inner) = current {
                nullable = false
                current = inner
            }
            result.append(ValueLevel(schemaNullable: nullable, isOptional: nullable))
            guard case .list(let inner) = current else { break }
            current = inner
        }
        return result
    }
}
