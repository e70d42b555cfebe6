import BatonIR

/// The `as` column of a plate: what an accessor is, in words, built in a fixed order:
///
/// 1. the base: `a scalar`, `an enum of E`, `a lens of T`, `the lens of F`;
/// 2. `, a list` for a list (see `listPhrase`: nested lists and non-optional items are spelt out);
/// 3. `, optional` when the accessor itself reads nil;
/// 4. the effects, in this order: custom-scalar reading, the type a parent's-record read needs,
///    `@semanticNonNull` under `@throwOnFieldError`, `@required`, `@catch`, and the `@include`,
///    `@skip` and `@defer` conditions (the plan's normalized `presence`);
/// 5. the store's part, from the plan's lens key, `connection` and `recordUpdate`: `keyed by` a record type's declared
///    key fields (`keyPhrase`), the connection record a
///    `@connection` field reads (by key and filters), what `edges` and `pageInfo` under it read, and
///    what a declarative update (`@appendEdge` … `@deleteEdge`) does to the store when the response
///    is committed (`connectionPhrase`, `inConnectionPhrase`, `updatePhrase`).
///
/// The rule for optionality: the accessor's own value is marked `optional` when it can be nil;
/// values inside it (a list's items, a Result's success value) follow GraphQL's default, nullable,
/// and are marked `non-optional` when they cannot be nil. Docs/Plates.md has the full table.
package enum PlatePhrase {
    /// `inConnection`: the accessor belongs to the lens of a `@connection` field (its `edges` and
    /// `pageInfo` read the merged pages).
    package static func phrase(for accessor: Accessor, inConnection: Bool = false) -> String {
        var parts: [String] = [base(accessor.base)]
        if accessor.listDepth > 0 { parts.append(listPhrase(accessor.levels)) }
        if accessor.isOptional { parts.append("optional") }

        if case .scalar(let scalar) = accessor.base, !scalar.isBuiltIn {
            parts.append(
                scalar.mapping == nil ? "\(scalar.name) read as its text" : "\(scalar.name) converted at the read")
        }
        if case .parentRecord(let read) = accessor.reads, read.matchingTypes != nil, let condition = read.typeCondition
        {
            parts.append("when the record is of type \(condition)")
        }
        if let levels = accessor.semanticNonNull {
            parts.append("under \(semanticNonNullText(levels)) and @throwOnFieldError")
        }
        if let required = accessor.required {
            parts.append(requiredPhrase(required))
        }
        switch accessor.readMode {
        case .catchToResult:
            let success = accessor.levels.first?.isOptional ?? true
            parts.append(success ? "a Result" : "a Result of a non-optional value")
            parts.append("under @catch")
        case .catchToNull:
            parts.append("under @catch(to: NULL)")
        case .spread, .deferred, .streamed, .typename, .throwWhenNull, .throwOnFieldError, .plain:
            break
        }
        if let delivery = accessor.delivery.text { parts.append(delivery) }
        // A deferred accessor's own `@defer` is its delivery's; the conditions that remain are the others.
        let presence: Presence =
            if case .deferred = accessor.delivery { accessor.presence.atRuntime } else { accessor.presence }
        if presence.isNever {
            parts.append("never present: its conditions are false or contradict each other")
        } else if !presence.isAlways {
            parts.append("under " + presence.text)
        }
        if case .field = accessor.reads, case .lens(let lens) = accessor.base, let key = keyPhrase(lens) {
            parts.append(key)
        }
        if let connection = accessor.connection { parts.append(connectionPhrase(connection)) }
        if inConnection, let text = inConnectionPhrase(accessor) { parts.append(text) }
        if let update = accessor.recordUpdate { parts.append(updatePhrase(update, many: accessor.listDepth > 0)) }
        return parts.joined(separator: ", ")
    }

    /// `keyed by id and mediaId`: the record type's declared key (`RecordKeyPolicy`), nil when it has none.
    static func keyPhrase(_ lens: Lens) -> String? {
        guard let fields = lens.keyFields, !fields.isEmpty else { return nil }
        let names = fields.map(\.name)
        return "keyed by "
            + (names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? ""))
    }

    /// `the connection K per f1 and f2, every page merged into it`: one record per parent, key and
    /// filter values, whatever the paging arguments say.
    static func connectionPhrase(_ connection: ConnectionModel) -> String {
        let filters = connection.filters.isEmpty ? "" : " per " + connection.filters.joined(separator: " and ")
        return "the connection \(connection.key)\(filters), every page merged into it"
    }

    /// What `edges` and `pageInfo` of a connection's lens read (the runtime's connection fields).
    static func inConnectionPhrase(_ accessor: Accessor) -> String? {
        guard case .field(let field) = accessor.reads else { return nil }
        switch field.fieldName {
        case "edges": return "the pages' edges in order, an edge already shown (its cursor or node) once"
        case "pageInfo": return "the first page's start and the last page's end"
        default: return nil
        }
    }

    /// What a declarative update does to the store when the response is committed (`many`: on a list).
    static func updatePhrase(_ update: RecordUpdateModel, many: Bool) -> String {
        let returned = many ? "one of the returned IDs" : "the returned ID"
        let connections = update.connections.map { "the connections in " + ValueText.print($0) } ?? "no connection"
        let edge = update.edgeTypeName.map { "a new \($0)" } ?? "a new edge"
        switch update.kind {
        case .appendEdge: return "@appendEdge: the edge joins the end of \(connections)"
        case .prependEdge: return "@prependEdge: the edge joins the start of \(connections)"
        case .appendNode: return "@appendNode: \(edge) holding the node joins the end of \(connections)"
        case .prependNode: return "@prependNode: \(edge) holding the node joins the start of \(connections)"
        case .deleteEdge: return "@deleteEdge: the edges whose node has \(returned) leave \(connections)"
        case .deleteRecord:
            let type = update.typeName.map { " of type \($0)" } ?? ""
            let record =
                many ? "each record\(type) the returned IDs name is" : "the record\(type) the returned ID names is"
            return "@deleteRecord: \(record) deleted, and its edges leave every connection"
        }
    }

    /// The row of a connection's lens for its `ConnectionID` member.
    static let connectionIDReads = "the connection record"
    static let connectionIDPhrase = "a ConnectionID, what a mutation's connections: names"

    /// The `reads` column: the field name, or `the parent's record`.
    package static func reads(_ accessor: Accessor) -> String {
        switch accessor.reads {
        case .field(let field): field.fieldName
        case .parentRecord: "the parent's record"
        }
    }

    static func base(_ base: AccessorBase) -> String {
        switch base {
        case .scalar: "a scalar"
        case .enumeration(let name): "an enum of \(name)"
        case .lens(let lens): "a lens of \(lens.recordType)"
        case .fragment(let fragment): "the lens of \(fragment.name)"
        }
    }

    /// `a list`, then for each inner list level ` of lists` (` of non-optional lists` when that
    /// level cannot be nil), then ` of non-optional items` when the items cannot be nil:
    /// `[T]` → `a list`; `[T!]` → `a list of non-optional items`; `[[T]]` → `a list of lists`;
    /// `[[T!]!]` → `a list of non-optional lists of non-optional items`.
    static func listPhrase(_ levels: [ValueLevel]) -> String {
        var text = "a list"
        guard levels.count > 1 else { return text }
        if levels.count > 2 {
            for level in levels[1..<(levels.count - 1)] {
                text += level.isOptional ? " of lists" : " of non-optional lists"
            }
        }
        if let items = levels.last, !items.isOptional { text += " of non-optional items" }
        return text
    }

    static func requiredPhrase(_ required: RequiredEffect) -> String {
        switch required.action {
        case .throwError:
            return "throws, under @required(action: THROW)"
        case .silent, .log:
            let logged = required.action == .log ? "is logged and " : ""
            switch required.bubblesTo {
            case .operationRoot?, nil:
                return "required: a null \(logged)fails the operation"
            case .accessor(let path)?:
                return "required: a null \(logged)bubbles to \(path.last ?? "")"
            case .fragmentSpread(_, let accessorName)?:
                return "required: a null \(logged)bubbles to \(accessorName)"
            }
        }
    }

    /// `@semanticNonNull` for the default level 0, else `@semanticNonNull(levels: [0, 1])`.
    static func semanticNonNullText(_ levels: [Int]) -> String {
        if levels == [0] { return "@semanticNonNull" }
        return "@semanticNonNull(levels: [" + levels.map(String.init).joined(separator: ", ") + "])"
    }

}
