import BatonSchema

/// The shape of a lens's typed optimistic-response builder (`Lens.optimisticTypeName`), decided once for every
/// language: which properties the builder has and in what order, what each one holds, whether a caller may leave
/// it out, and how it goes into the response object. The Swift and Kotlin templates only spell it: names through
/// their own scopes and escaping, types and encodings in their own syntax.
///
/// `__typename` comes first when the record type is abstract (the caller names the concrete type) and is
/// otherwise written from the record type; a field accessor reading `__typename` itself has no property. A field
/// is written under its response key, its nested builder's object when it reads a lens; a fragment spread or an
/// inline fragment merges its builder's object into this one.
package struct OptimisticShape: Sendable {
    /// What one property holds.
    package enum Part: Sendable {
        /// A field, written under `responseKey`, typed as the response holds `schemaType`; `nested` when it
        /// reads a nested lens, whose builder the property holds (in lists as the schema's type has them).
        case field(responseKey: String, schemaType: TypeRef, nested: Bool)
        /// A named fragment's spread: the fragment's builder, merged in.
        case fragment(name: String)
        /// An inline fragment read through a nested lens: that lens's builder, merged in.
        case inlineFragment
    }

    /// One property of the builder.
    package struct Property: Sendable {
        /// The index of the accessor it stands for in the lens's `accessors`.
        package var accessor: Int
        package var part: Part
        /// A caller may leave it out: absent from the response unless given (`Accessor.optimisticPartIsOptional`).
        package var mayBeLeftOut: Bool
        /// Its initializer parameter defaults to nothing: it may be left out, or it is a field whose schema type
        /// is nullable (its default is null).
        package var hasDefault: Bool
    }

    /// The record type, written as `__typename` when it is not abstract.
    package var recordType: String
    /// The caller gives `__typename` first (the record type is an interface or a union).
    package var takesTypename: Bool
    /// The properties after `__typename`, in accessor order.
    package var properties: [Property]
    /// The record type's key fields (`RecordKeyPolicy`) that no property gives: each a required property of its
    /// own, after `properties`, written under its name. A builder for a type with a declared key always gives
    /// the whole key, so the optimistic record is the record the server's response will key (a key field the
    /// lens selects is a property without default; one a spread of a fragment on the same type gives is that
    /// fragment builder's).
    package var keyFields: [KeyFieldModel] = []

    /// The shape of `lens`'s builder.
    package init(_ lens: Lens) {
        recordType = lens.recordType
        takesTypename = lens.recordIsAbstract
        properties = []
        for (index, accessor) in lens.accessors.enumerated() {
            let mayBeLeftOut = accessor.optimisticPartIsOptional
            switch accessor.reads {
            case .field(let read):
                if read.isTypename { continue }
                let nested: Bool = if case .lens = accessor.base { true } else { false }
                properties.append(
                    Property(
                        accessor: index,
                        part: .field(responseKey: read.responseKey, schemaType: read.schemaType, nested: nested),
                        mayBeLeftOut: mayBeLeftOut, hasDefault: mayBeLeftOut || !read.schemaType.isNonNull))
            case .parentRecord:
                let part: Part
                switch accessor.base {
                case .fragment(let fragment): part = .fragment(name: fragment.name)
                case .lens: part = .inlineFragment
                default: continue
                }
                properties.append(
                    Property(accessor: index, part: part, mayBeLeftOut: mayBeLeftOut, hasDefault: mayBeLeftOut))
            }
        }
        // The declared key of an object record type is required (an abstract record's key depends on the type
        // the caller names, and is the caller's to give through the inline fragments and spreads).
        guard let key = lens.keyFields, !lens.recordIsAbstract else { return }
        for field in key {
            if let position = properties.firstIndex(where: { property in
                guard case .field(let responseKey, _, _) = property.part, responseKey == field.name,
                    case .field(let read) = lens.accessors[property.accessor].reads
                else { return false }
                return read.fieldName == field.name && read.arguments.isEmpty
            }) {
                properties[position].mayBeLeftOut = false
                properties[position].hasDefault = false
                continue
            }
            let givenBySpread = properties.contains { property in
                guard case .fragment = property.part, !property.mayBeLeftOut,
                    case .fragment(let fragment) = lens.accessors[property.accessor].base
                else { return false }
                return fragment.typeCondition == lens.recordType
            }
            if !givenBySpread { keyFields.append(field) }
        }
    }
}
