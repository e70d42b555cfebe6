/// Factories for generated code, shaped for the type checker: each has one name, no overloads and no defaulted
/// parameters, and takes plain strings, so a generated description costs one cheap call to check instead of an
/// initializer with nine defaulted parameters and nested implicit-member expressions.
extension Field {
    /// A field without alias, arguments or directives whose value is a scalar or an enum.
    /// `type` is the schema's notation (`[String!]!`).
    public static func leaf(_ name: String, _ type: String) -> Field {
        Field(name, type: GraphQLType(notation: type))
    }

    /// A field without alias, arguments or directives that has a selection set.
    public static func composite(_ name: String, _ type: String, _ selections: [Selection]) -> Field {
        Field(name, type: GraphQLType(notation: type), selections: selections)
    }
}

extension Array where Element == Selection {
    /// The field description at `index` of a lens's `selections`: what a generated accessor reads. A generated lens
    /// keeps its field descriptions in its one `selections` table, so the module holds one lazily built constant per
    /// lens rather than one per field (issue 34). Not `@inlinable`: one shared body, not a copy per accessor.
    ///
    /// Generated code only asks for an index that holds a field; any other index is a generator bug and traps.
    public func field(_ index: Int) -> Field {
        guard indices.contains(index), case .field(let field) = self[index] else {
            preconditionFailure("selection \(index) of \(count) is not a field")
        }
        return field
    }
}

extension Selection {
    /// A generated lens's selections from a table of plain values, built once (issue 34): the generated initializer is
    /// one string literal and two short arrays rather than a factory call and an enum payload per field.
    ///
    /// `spec` lists the entries in order, separated by single spaces: `name:Type` is a field without alias, arguments
    /// or directives whose value is a scalar or an enum (`Field.leaf(name, "Type")`), `name:Type:` one that has a
    /// selection set, the next of `nested` (`Field.composite`), and `*` the next of `others`, written out. GraphQL names
    /// and type notation hold no space or colon. A table that does not match its arrays is a generator bug and traps.
    public static func table(_ spec: String, _ nested: [[Selection]], _ others: [Selection]) -> [Selection] {
        var result: [Selection] = []
        result.reserveCapacity(nested.count + others.count + 8)
        var nextNested = nested.makeIterator()
        var nextOther = others.makeIterator()
        for entry in spec.split(separator: " ") {
            if entry == "*" {
                guard let other = nextOther.next() else { preconditionFailure("selection table: too few entries") }
                result.append(other)
                continue
            }
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
                preconditionFailure("selection table: malformed entry \(entry)")
            }
            if parts.count == 2 {
                result.append(.field(Field.leaf(String(parts[0]), String(parts[1]))))
            } else {
                guard let selections = nextNested.next() else { preconditionFailure("selection table: too few nested") }
                result.append(.field(Field.composite(String(parts[0]), String(parts[1]), selections)))
            }
        }
        return result
    }
}

extension GraphQLType {
    /// The type written in the schema's notation: `String`, `[Character]!`, `[[Int!]]`. Text that is not in that
    /// notation reads as a named type of that text (generated code only writes well-formed types).
    public init(notation: String) {
        var text = Substring(notation)
        if text.hasSuffix("!") {
            self = .nonNull(GraphQLType(notation: String(text.dropLast())))
            return
        }
        if text.hasPrefix("["), text.hasSuffix("]") {
            text = text.dropFirst().dropLast()
            self = .list(GraphQLType(notation: String(text)))
            return
        }
        self = .named(notation)
    }
}

extension GraphQLNullable {
    /// `.value` of a value, `.absent` for nil: what a plain optional initializer parameter means.
    public init(absentIfNil value: Wrapped?) {
        if let value { self = .value(value) } else { self = .absent }
    }
}

/// The document an operation sends: its own definition and the fragments it uses, each a constant of its
/// fragment's generated type, joined as the canonical printer joins definitions (a blank line between them).
public func documentText(_ definitions: [String]) -> String {
    definitions.joined(separator: "\n\n")
}
