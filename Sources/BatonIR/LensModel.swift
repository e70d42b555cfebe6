import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

// The lens model, which is also the plan: one intermediate representation between the validated
// documents and everything that prints them (plates for people, Swift and Kotlin for compilers).
// Every decision an output depends on is made here, once, and the generators only spell it: so
// the Swift and Kotlin outputs agree by construction (`PlanAgreementTests` checks it).
//
// Shape (every type is a `Sendable` value type; the model holds no AST other than argument and
// default values, and no reference to the schema):
//
//   LensModel
//   ├─ operations: [OperationModel]          sorted by name
//   │    name, typeName (after collision resolution), kind (query | mutation | subscription),
//   │    rootType, variables [VariableModel], throwOnFieldError, onError, fragmentsUsed
//   │    (transitive, sorted), documentText (what is sent: the operation plus its fragments,
//   │    client-only directives removed, `__typename` added, printed canonically), operationID
//   │    (its SHA-256, the persisted-query id, computed once), usedTypes, lens: Lens
//   ├─ fragments: [FragmentModel]            sorted by name
//   │    name, typeName, typeCondition, spreadAccessorName (`IssueRow_issue` → `issueRow`),
//   │    throwOnFieldError, rootCanBeNil (a @required null reaches the fragment's root, so every
//   │    spread accessor of it is optional), fragmentsSpread (direct), usedTypes, lens: Lens
//   ├─ types: UsedTypes                      every enum, input object and custom scalar any
//   │                                        document uses, with its definition and typeName,
//   │                                        sorted by name
//   ├─ schemaNamespace                       where a language nests the schema's types (Swift)
//   └─ block                                 after an edit: an earlier plan's definitions the edit does not
//                                            reach, as one value (`SummaryBlock`), never spelt
//
//   Lens: typeName (the nested type's name: the operation's or fragment's name, or for a nested
//         lens the upper-camel accessor name, made unique among its siblings and ancestors),
//         recordType (schema type of the record it reads), accessors: [Accessor] (document
//         order of first appearance; selections with the same `SelectionKey` merged into one),
//         isIdentifiable (an accessor `id` reads the record's identity, for `Identifiable` lenses).
//
//   Accessor: name, reads (.field(FieldRead): response key, storage field name, arguments,
//             schema type | .parentRecord(ParentRecordRead)), base (.scalar | .enumeration |
//             .lens(Lens) | .fragment), levels ([ValueLevel], outermost first: optional in the
//             generated type, non-null in the response), required (@required's action and where
//             its null goes), catchMode (@catch), presence (one normalized condition
//             expression), semanticNonNull, underThrowOnFieldError, receivesBubbledNull, locations.
//
// Optionality is decided here, once (`OptionalityPolicy`): `levels[i].isOptional` is what the
// generated type says at level i (for a `@catch` accessor, of the Result's success value);
// `Accessor.isOptional` is whether the accessor itself reads nil. Names of generated
// definitions are decided once too (`DefinitionNaming`), in one priority order for every
// language. Plates and both generators read these and never recompute them.
//
// Later features extend the plan, not the generators: per-accessor data such as a connection's
// key and filters (`Accessor.connection`) or edge mutations (`Accessor.recordUpdate`) belongs on
// `Accessor`; operations a definition generates (a `@refetchable` fragment's pagination query,
// `OperationModel.refetchableFragment`) join `operations` with their own `typeName` and
// `operationID`; naming options (the operation suffix, the schema namespace) are applied by
// `DefinitionNaming`. The Swift access modifier is a spelling only Swift has (Kotlin's declarations
// are public): the Swift generator writes it in one place (`SwiftGenerator.access`). Connections,
// updates and optimistic responses (decided once here):
//
//   Accessor.connection       @connection's key and the argument names that identify it
//   Accessor.recordUpdate     @appendEdge … @deleteEdge, with `connections:` as written
//   Lens.connectionIDName     the member a connection's lens reads its ConnectionID through
//   Lens.optimisticTypeName   the typed optimistic-response builder a mutation's lenses (and the
//                             fragments mutations spread) declare, named apart from their members
//   Lens.recordIsAbstract     the record type is an interface or union (a builder takes `__typename`)
//   Lens.keyFields            the record type's declared key (`RecordKeyPolicy`): plates, optimistic builders
//   Accessor.recordKeys       the declared keys (other than `id`) of the object types a field returns:
//                             printed into the normalization plan, which both runtimes key records by
//   VariableModel.isClientOnly   used only by client-only directives: never sent
//   Accessor.delivery         @defer (a phase: pending, ready, failed) and @stream (the items so far)
//   FragmentModel.refetchable    @refetchable: its query's name, how it pages

/// The lens model of a set of valid documents against one schema. Built by `LensModelBuilder`.
package struct LensModel: Sendable {
    /// Every operation, sorted by name.
    package var operations: [OperationModel]
    /// Every fragment, sorted by name.
    package var fragments: [FragmentModel]
    /// Every enum, input object and custom scalar that some operation or fragment uses
    /// (in a selection or a variable's type, through input objects transitively).
    package var types: UsedTypes
    /// The namespace the schema's types are declared in where a language nests them (Swift's
    /// `output.swift.namespace`), claimed before every definition name; nil for none.
    package var schemaNamespace: String?
    /// The definitions that are summaries of an earlier plan's (`DefinitionSummary`), by name: in
    /// the model for the steps that look at every definition (names, used types), never spelt.
    /// Empty for a plan of every document.
    package var summarized: (operations: Set<String>, fragments: Set<String>) = ([], [])
    /// With summaries: the positions in `operations` and in `fragments` of the definitions planned here (the
    /// others are `summarized`), ascending, so the steps that visit only those (`summaries`, digests) find them
    /// without testing every name; nil when the builder did not say (then every definition not `summarized`).
    package var plannedPositions: (operations: [Int], fragments: [Int])?
    /// The definitions of an earlier plan this one did not plan, as one value (`SummaryBlock`): then `operations`
    /// and `fragments` hold only the planned ones, `summarized` is empty, and the steps that look at every
    /// definition merge the block in (each kind in name order). Nil for a plan of every document, or one with
    /// stand-ins (`summarized`).
    package var block: SummaryBlock?

    package init(operations: [OperationModel] = [], fragments: [FragmentModel] = [], types: UsedTypes = UsedTypes()) {
        self.operations = operations
        self.fragments = fragments
        self.types = types
    }

    package func operation(named name: String) -> OperationModel? { operations.first { $0.name == name } }
    package func fragment(named name: String) -> FragmentModel? { fragments.first { $0.name == name } }
}

// MARK: - Definitions

/// One operation: its data lens (reading a record of the root type) and what its generated type
/// needs to send it.
package struct OperationModel: Sendable {
    package var name: String
    /// The generated type's name: `name` after collision resolution (`DefinitionNaming`), the
    /// same in every language.
    package var typeName: String
    package var kind: OperationType
    /// The root type's name (`Query`): the record type of `lens`.
    package var rootType: String
    /// Variables in declaration order.
    package var variables: [VariableModel]
    /// `@throwOnFieldError` on the operation: an uncaught field error fails the operation.
    package var throwOnFieldError: Bool
    /// `onError` from baton.json (`"PROPAGATE"`, `"NULL"`, `"HALT"`), sent with the operation.
    package var onError: String?
    /// The fragments the operation spreads, directly or through other fragments, sorted.
    package var fragmentsUsed: [String]
    /// The text sent to the server: this operation followed by the fragments it uses (sorted by
    /// name), with Baton's client-only directives (`@required @catch @throwOnFieldError`)
    /// removed and `__typename` added to every selection set on a composite type, printed
    /// canonically.
    package var documentText: String
    /// The SHA-256 of `documentText`, lower-case hexadecimal: the persisted-query id, computed once.
    package var operationID: String
    /// How `documentText` was joined, when the plan joined it from parts each definition printed once
    /// (`DocumentText.shallowText`) and each fragment's part is found again by searching the text from its end
    /// (`SentTextParts`); nil otherwise.
    package var documentTextParts: SentTextParts? = nil
    /// Enums, input objects and custom scalars this operation's lens and variables use (not
    /// counting fragments it spreads), names sorted.
    package var usedTypes: UsedTypeNames
    package var lens: Lens
    /// The operation's name token (or its keyword for an anonymous operation).
    package var location: SourceRange
    /// For a query generated for a `@refetchable` fragment: the fragment's name.
    package var refetchableFragment: String? = nil

    package init(
        name: String, typeName: String? = nil, kind: OperationType, rootType: String, variables: [VariableModel],
        throwOnFieldError: Bool, onError: String?, fragmentsUsed: [String], documentText: String,
        usedTypes: UsedTypeNames, lens: Lens, location: SourceRange, hashesDocumentText: Bool = true,
        documentTextParts: SentTextParts? = nil
    ) {
        self.name = name
        self.typeName = typeName ?? name
        self.kind = kind
        self.rootType = rootType
        self.variables = variables
        self.throwOnFieldError = throwOnFieldError
        self.onError = onError
        self.fragmentsUsed = fragmentsUsed
        self.documentText = documentText
        self.operationID = hashesDocumentText ? SHA256.hexDigest(documentText) : ""
        self.documentTextParts = documentTextParts
        self.usedTypes = usedTypes
        self.lens = lens
        self.location = location
    }
}

/// An operation's `documentText` as the plan joined it: the operation's own definition, then, after a blank line
/// each (`DocumentText.separator`), the text of each fragment of `fragmentsUsed`, in that order. Kept only when no
/// fragment's text holds its own heading after a blank line (`\n\nfragment Name on `), so a search of the text
/// from its end for each fragment's heading finds the same parts (`DocumentParts`).
package struct SentTextParts: Sendable {
    /// How many UTF-8 bytes of `documentText` the operation's own definition is.
    package var operationLength: Int
    /// Each used fragment's text (shared by every operation that sends it), in `fragmentsUsed`' order.
    package var fragments: [String]
}

/// One fragment: its lens reads a record of its type condition.
package struct FragmentModel: Sendable {
    package var name: String
    /// The generated type's name: `name` after collision resolution, the same in every language.
    package var typeName: String
    package var typeCondition: String
    /// The name every spread of this fragment has as an accessor (`IssueRow_issue` → `issueRow`).
    package var spreadAccessorName: String
    /// `@throwOnFieldError` on the fragment.
    package var throwOnFieldError: Bool
    /// True when a `@required(action: NONE | LOG)` null can reach the fragment's root: its lens
    /// then reads nil as a whole, and every spread accessor of it is optional.
    package var rootCanBeNil: Bool
    /// Fragments this one spreads itself (not through other fragments), sorted. (Transitive lists
    /// are an operation's: per fragment they would grow with the square of a chain's length.)
    package var fragmentsSpread: [String]
    package var usedTypes: UsedTypeNames
    package var lens: Lens
    /// The fragment's name token.
    package var location: SourceRange
    /// The object types a record may have to satisfy the type condition, sorted (the condition itself when it
    /// is an object type): what generated code checks a record's `__typename` against before reading it
    /// through this fragment. Empty means "the condition's name only".
    package var possibleTypes: [String]
    /// `@refetchable(queryName:)`: the query generated for it and how it pages.
    package var refetchable: RefetchableModel? = nil

    package init(
        name: String, typeCondition: String, spreadAccessorName: String, throwOnFieldError: Bool, rootCanBeNil: Bool,
        fragmentsSpread: [String], usedTypes: UsedTypeNames, lens: Lens, location: SourceRange,
        possibleTypes: [String] = []
    ) {
        self.possibleTypes = possibleTypes
        self.name = name
        self.typeName = name
        self.typeCondition = typeCondition
        self.spreadAccessorName = spreadAccessorName
        self.throwOnFieldError = throwOnFieldError
        self.rootCanBeNil = rootCanBeNil
        self.fragmentsSpread = fragmentsSpread
        self.usedTypes = usedTypes
        self.lens = lens
        self.location = location
    }
}

/// `$name: Type = default`.
package struct VariableModel: Sendable {
    package var name: String
    package var type: TypeRef
    /// The default literal as written, if any.
    package var defaultValue: Value?
    package var location: SourceRange
    package init(name: String, type: TypeRef, defaultValue: Value?, location: SourceRange) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.location = location
    }
    /// A variable may be left out of the request when it is nullable or has a default.
    package var isOptional: Bool { !type.isNonNull || defaultValue != nil }
    /// Used only by client-only directives (`$connections` of `@appendEdge`): the document sent
    /// leaves it out, and the request never carries it; the runtime reads it.
    package var isClientOnly = false
    /// Named by a declarative update's `connections:`: its IDs are `ConnectionID`s (the guide's
    /// `connections: [connectionID]`).
    package var holdsConnectionIDs = false
}

/// `@refetchable(queryName:)` on a fragment: the generated query and, with a `@connection`, how
/// it pages.
package struct RefetchableModel: Sendable, Hashable {
    /// The generated query's name (an operation of the model).
    package var queryName: String
    /// True when the query reaches the record through `node(id:)` (its `id` variable); false for
    /// a fragment on the query type.
    package var throughNode: Bool
    /// Accessor names from the fragment's lens to its `@connection` accessor, that one last; empty
    /// without a connection.
    package var connectionPath: [String]
    /// The variables the connection's count and cursor take, per direction.
    package var forwardCount: String?
    package var forwardCursor: String?
    package var backwardCount: String?
    package var backwardCursor: String?

    package init(queryName: String, throughNode: Bool, connectionPath: [String] = []) {
        self.queryName = queryName
        self.throughNode = throughNode
        self.connectionPath = connectionPath
    }
}

/// The declared key of one object type a field can return: its records are keyed
/// `Type:` + the key fields' values as canonical JSON (`MediaList:{"id":1,"mediaId":7}`).
package struct RecordKeyModel: Sendable, Hashable {
    package var typeName: String
    /// The key fields, in the order declared.
    package var fields: [String]
    package init(typeName: String, fields: [String]) {
        self.typeName = typeName
        self.fields = fields
    }
}

/// One field of a record type's declared key.
package struct KeyFieldModel: Sendable, Hashable {
    package var name: String
    /// The field's type in the schema (a scalar or an enum, not a list).
    package var schemaType: TypeRef
    package init(name: String, schemaType: TypeRef) {
        self.name = name
        self.schemaType = schemaType
    }
}

/// `@connection(key:filters:)` on an accessor: its pages merge into one connection record per
/// parent, key and filter values.
package struct ConnectionModel: Sendable, Hashable {
    package var key: String
    /// The argument names that identify the connection, sorted: the `filters:` written, or every
    /// non-paging argument the field is given.
    package var filters: [String]
    package init(key: String, filters: [String]) {
        self.key = key
        self.filters = filters
    }
}

/// A declarative update on an accessor (`@appendEdge` … `@deleteEdge`), applied by the runtime
/// to the value the response has there.
package struct RecordUpdateModel: Sendable {
    package var kind: RecordUpdateKind
    /// `connections:` as written (a variable in valid documents); nil for `@deleteRecord`.
    package var connections: Value?
    package var edgeTypeName: String?
    package var typeName: String?
    package init(kind: RecordUpdateKind, connections: Value?, edgeTypeName: String?, typeName: String?) {
        self.kind = kind
        self.connections = connections
        self.edgeTypeName = edgeTypeName
        self.typeName = typeName
    }
}

// MARK: - Lenses and accessors

/// A view of one record through one selection: the accessors a generated lens type has.
package struct Lens: Sendable {
    /// The generated type's name: the operation's or fragment's name for a root lens; for a nested
    /// lens the accessor's name upper-camel-cased (`issues` → `Issues`, `asUser` → `AsUser`), with a
    /// number appended when it would repeat a sibling lens's or an enclosing lens's type name, or an
    /// accessor name of the lens it is declared in (`DeleteActivity` → `DeleteActivity2`).
    package var typeName: String
    /// The schema type of the record this lens reads.
    package var recordType: String
    /// Accessors in order of first appearance in the document.
    package var accessors: [Accessor]
    /// True when the record type is an interface or a union (a response says which object it is).
    package var recordIsAbstract = false
    /// For an abstract record type: the object types a record may be, sorted (what a test builder writes as
    /// `__typename` when it is not given). Empty for an object type.
    package var possibleTypes: [String] = []
    /// For the lens of a `@connection` accessor: the member that reads its `ConnectionID`
    /// (`connectionID`, apart from the lens's accessor names).
    package var connectionIDName: String?
    /// The fields that key the record type's records when declared (`keyFields`,
    /// `@typePolicy`; `RecordKeyPolicy`), with their schema types: what plates show and optimistic
    /// builders require.
    package var keyFields: [KeyFieldModel]?
    /// For the lenses of a mutation, and of the fragments mutations spread: the name of the
    /// nested optimistic-response builder type (`Optimistic`, apart from the lens's accessor and
    /// nested type names and its enclosing types).
    package var optimisticTypeName: String?

    package init(typeName: String, recordType: String, accessors: [Accessor]) {
        self.typeName = typeName
        self.recordType = recordType
        self.accessors = accessors
    }

    /// True when the lens reads its record's identity: an accessor `id` reads the field `id` as a plain non-null
    /// scalar (no alias, `@catch`, `@required(action: THROW)`, `@throwOnFieldError` or condition), so the generated
    /// type is `Identifiable` (Swift) by that `id` and a list of it can be looped over without naming a key. Not
    /// when the record type declares a key other than `id` (`keyFields`): two records may share an `id` then.
    package var isIdentifiable: Bool {
        if let keyFields, keyFields.map(\.name) != ["id"] { return false }
        return accessors.contains { accessor in
            guard accessor.name == "id", case .field(let read) = accessor.reads, read.fieldName == "id",
                case .scalar(let scalar) = accessor.base, scalar.mapping == nil, accessor.levels.count == 1,
                !accessor.isOptional, accessor.readMode == .plain, accessor.presence.isAlways
            else { return false }
            return true
        }
    }
}

/// One accessor of a lens: what it reads, what it is, and whether and how it can fail.
///
/// Its fields are held behind one reference, copied on write (issue 34), as `MemberDeclaration`'s are: the plan
/// builder, the lowering and the generators copy accessors as they walk lenses, and a copy is then one retain, not
/// one per field (an accessor holds a dozen strings, arrays, its conditions and its nested lens). A value all the
/// same: changed only in its copy.
package struct Accessor: Sendable {
    /// The accessor's name: the response key (alias or field name); for a fragment spread the
    /// fragment's spread accessor name; for an inline fragment on a narrower type `as<Type>`.
    package var name: String {
        get { storage.fields.name }
        set { unique().fields.name = newValue }
    }
    package var reads: Reads {
        get { storage.fields.reads }
        set { unique().fields.reads = newValue }
    }
    package var base: AccessorBase {
        get { storage.fields.base }
        set { unique().fields.base = newValue }
    }
    /// Optionality per level, outermost first: index 0 is the accessor's value (the success value
    /// under `@catch`), index 1 the items of its list, and so on; the last is the named value.
    /// `levels.count - 1` is the number of list levels. Never empty.
    package var levels: [ValueLevel] {
        get { storage.fields.levels }
        set { unique().fields.levels = newValue }
    }
    /// `@required` on the field, with where a null goes.
    package var required: RequiredEffect? {
        get { storage.fields.required }
        set { unique().fields.required = newValue }
    }
    /// `@catch` on the field.
    package var catchMode: CatchTarget? {
        get { storage.fields.catchMode }
        set { unique().fields.catchMode = newValue }
    }
    /// When the accessor is in the response, under `@include`, `@skip` and `@defer`: any of its
    /// occurrences present makes it present, and an occurrence is present when every condition on
    /// the path to it holds. `.always` when some occurrence is unconditional.
    package var presence: Presence {
        get { storage.fields.presence }
        set { unique().fields.presence = newValue }
    }
    /// The schema's `@semanticNonNull(levels:)` of the field, when `@throwOnFieldError` applies
    /// and it made some level non-optional; nil otherwise.
    package var semanticNonNull: [Int]? {
        get { storage.fields.semanticNonNull }
        set { unique().fields.semanticNonNull = newValue }
    }
    /// True inside a fragment or operation with `@throwOnFieldError`: an uncaught field error at
    /// this accessor fails the read (or the operation).
    package var underThrowOnFieldError: Bool {
        get { storage.fields.underThrowOnFieldError }
        set { unique().fields.underThrowOnFieldError = newValue }
    }
    /// True when a `@required(action: NONE | LOG)` null inside this accessor's lens (or, for a
    /// fragment spread, at the fragment's root) makes this accessor's innermost value nil: the
    /// value for a single lens, the item for a list.
    package var receivesBubbledNull: Bool {
        get { storage.fields.receivesBubbledNull }
        set { unique().fields.receivesBubbledNull = newValue }
    }
    /// The selections this accessor was merged from, in document order.
    package var locations: [SourceRange] {
        get { storage.fields.locations }
        set { unique().fields.locations = newValue }
    }
    /// `@connection` on the field.
    package var connection: ConnectionModel? {
        get { storage.fields.connection }
        set { unique().fields.connection = newValue }
    }
    /// A declarative update on the field.
    package var recordUpdate: RecordUpdateModel? {
        get { storage.fields.recordUpdate }
        set { unique().fields.recordUpdate = newValue }
    }
    /// For a composite field: the object types it can return whose records are keyed by declared
    /// fields other than `id` (`RecordKeyPolicy`), sorted by type name. The normalization plan
    /// carries them, so each runtime keys such a record `Type:{"f":v,…}` and no other way.
    package var recordKeys: [RecordKeyModel] {
        get { storage.fields.recordKeys }
        set { unique().fields.recordKeys = newValue }
    }
    /// `@defer` on a spread or inline fragment, `@stream` on a list field (`Delivery`): how its data arrives.
    package var delivery: Delivery {
        get { storage.fields.delivery }
        set { unique().fields.delivery = newValue }
    }

    private var storage: Storage

    package init(
        name: String, reads: Reads, base: AccessorBase, levels: [ValueLevel], required: RequiredEffect? = nil,
        catchMode: CatchTarget? = nil, presence: Presence = .always, semanticNonNull: [Int]? = nil,
        underThrowOnFieldError: Bool = false, receivesBubbledNull: Bool = false, locations: [SourceRange]
    ) {
        storage = Storage(
            Fields(
                name: name, reads: reads, base: base, levels: levels, required: required, catchMode: catchMode,
                presence: presence, semanticNonNull: semanticNonNull, underThrowOnFieldError: underThrowOnFieldError,
                receivesBubbledNull: receivesBubbledNull, locations: locations))
    }

    /// The storage, copied first when another accessor holds it too.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    /// An accessor's fields, as the properties above read and write them.
    private struct Fields {
        var name: String
        var reads: Reads
        var base: AccessorBase
        var levels: [ValueLevel]
        var required: RequiredEffect?
        var catchMode: CatchTarget?
        var presence: Presence
        var semanticNonNull: [Int]?
        var underThrowOnFieldError: Bool
        var receivesBubbledNull: Bool
        var locations: [SourceRange]
        var connection: ConnectionModel? = nil
        var recordUpdate: RecordUpdateModel? = nil
        var recordKeys: [RecordKeyModel] = []
        var delivery: Delivery = .immediate
    }

    /// The fields of one accessor. Changed only through an accessor that holds it alone (`unique()`), so it is
    /// never changed while another thread reads it: `Sendable` as the value it stands for.
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// The number of list levels.
    package var listDepth: Int { max(0, levels.count - 1) }
    /// True when the accessor itself reads nil. A `@catch` (to: RESULT) accessor reads a Result,
    /// never nil; its success value's optionality is `levels[0].isOptional`.
    package var isOptional: Bool {
        if catchMode == .result { return false }
        return levels.first?.isOptional ?? true
    }
    /// True when the accessor throws at the read (`@required(action: THROW)`).
    package var isThrowing: Bool { required?.action == .throwError }
    /// The nested lens, for a lens of a composite type.
    package var lens: Lens? {
        if case .lens(let lens) = base { return lens }
        return nil
    }
    /// The first location (the selection the accessor is reported at).
    package var location: SourceRange? { locations.first }
}

/// One level of an accessor's value.
package struct ValueLevel: Sendable, Hashable {
    /// What the schema says: nullable at this level.
    package var schemaNullable: Bool
    /// What the generated type says: optional at this level, after directives, bubbling and
    /// custom-scalar conversion.
    package var isOptional: Bool
    /// What a valid response holds: never null at this level, because the schema says non-null
    /// or, under `@throwOnFieldError`, `@semanticNonNull` does. A null stored here is unexpected.
    package var nonNull: Bool
    package init(schemaNullable: Bool, isOptional: Bool, nonNull: Bool? = nil) {
        self.schemaNullable = schemaNullable
        self.isOptional = isOptional
        self.nonNull = nonNull ?? !schemaNullable
    }
}

/// What an accessor reads.
package enum Reads: Sendable {
    /// A field of the record (a slot), with its arguments.
    case field(FieldRead)
    /// The record the parent lens reads, through another selection (a fragment spread or an
    /// inline fragment).
    case parentRecord(ParentRecordRead)
}

/// A field read: the response key it arrives under, the slot's field name and arguments (the
/// storage key), and the field's schema type.
package struct FieldRead: Sendable {
    /// The key in the response: the alias, or the field name.
    package var responseKey: String
    /// The schema field name (not the alias): with the arguments, the record slot it is stored in.
    package var fieldName: String
    /// Arguments as written, sorted by name (the canonical order of a storage key); variables
    /// are resolved at run time.
    package var arguments: [ArgumentModel]
    /// The field's type as the schema declares it.
    package var schemaType: TypeRef
    /// The type the field is declared on (the lens's record type, or an interface it implements).
    package var parentType: String
    package init(
        responseKey: String? = nil, fieldName: String, arguments: [ArgumentModel], schemaType: TypeRef,
        parentType: String
    ) {
        self.responseKey = responseKey ?? fieldName
        self.fieldName = fieldName
        self.arguments = arguments
        self.schemaType = schemaType
        self.parentType = parentType
    }
    /// True for `__typename`.
    package var isTypename: Bool { fieldName == "__typename" }
}

/// `name: value` of a field read.
package struct ArgumentModel: Sendable {
    package var name: String
    package var value: Value
    package init(name: String, value: Value) {
        self.name = name
        self.value = value
    }
}

/// A read of the parent's record through a fragment.
package struct ParentRecordRead: Sendable {
    /// The type condition of the inline fragment or spread fragment (nil for an inline fragment
    /// without one).
    package var typeCondition: String?
    /// The concrete types the record must be for the accessor to read it, sorted; nil when every
    /// record the parent reads matches (a spread or inline fragment on the same or a wider type).
    package var matchingTypes: [String]?
    package init(typeCondition: String?, matchingTypes: [String]?) {
        self.typeCondition = typeCondition
        self.matchingTypes = matchingTypes
    }
}

/// What an accessor's (innermost) value is.
package enum AccessorBase: Sendable {
    /// A scalar: built-in or custom, with its mapping.
    case scalar(ScalarBase)
    /// An enum of the schema, by name.
    case enumeration(String)
    /// A lens of a composite type: a field's record, or the parent's record as a narrower type.
    case lens(Lens)
    /// The lens of a fragment (a spread).
    case fragment(FragmentBase)
}

/// A scalar accessor's type.
package struct ScalarBase: Sendable, Hashable {
    /// The scalar's name (`String`, `ID`, `DateTime`).
    package var name: String
    /// True for `Int Float String Boolean ID`.
    package var isBuiltIn: Bool
    /// The app's type for a custom scalar from `customScalarTypes`; nil reads the text.
    package var mapping: CustomScalarMapping?
    package init(name: String, isBuiltIn: Bool, mapping: CustomScalarMapping?) {
        self.name = name
        self.isBuiltIn = isBuiltIn
        self.mapping = mapping
    }
}

/// A spread's fragment.
package struct FragmentBase: Sendable, Hashable {
    package var name: String
    package var typeCondition: String
    package init(name: String, typeCondition: String) {
        self.name = name
        self.typeCondition = typeCondition
    }
}

// MARK: - Directives

/// `@required(action:)` and where its null goes. The action is `BatonSemantics`' decoding, the
/// same the validation rules read.
package struct RequiredEffect: Sendable, Hashable {
    package var action: RequiredAction
    /// For NONE and LOG: the boundary the null stops at. Nil for THROW.
    package var bubblesTo: BubbleTarget?
    package init(action: RequiredAction, bubblesTo: BubbleTarget?) {
        self.action = action
        self.bubblesTo = bubblesTo
    }
}

/// Where a `@required(action: NONE | LOG)` null stops.
package enum BubbleTarget: Sendable, Hashable {
    /// An accessor of the same definition, by its path of accessor names from the root lens (its
    /// innermost value becomes nil: the value, or the item of a list). When that accessor is
    /// `@required(action: THROW)` the read of it throws instead.
    case accessor(path: [String])
    /// The fragment's root: every spread accessor of the fragment (named `accessorName`) reads nil.
    case fragmentSpread(fragment: String, accessorName: String)
    /// The operation's root: the operation fails with the path of the first required null.
    case operationRoot
}

// MARK: - Schema types the documents use

/// Names of the enums, input objects and custom scalars one definition uses, each sorted.
package struct UsedTypeNames: Sendable, Hashable {
    package var enums: [String]
    package var inputObjects: [String]
    package var customScalars: [String]
    package init(enums: [String] = [], inputObjects: [String] = [], customScalars: [String] = []) {
        self.enums = enums
        self.inputObjects = inputObjects
        self.customScalars = customScalars
    }
}

/// The definitions of every enum, input object and custom scalar the documents use, sorted by
/// name, so generators need not read the schema.
package struct UsedTypes: Sendable {
    package var enums: [EnumModel]
    package var inputObjects: [InputObjectModel]
    package var customScalars: [CustomScalarModel]
    package init(
        enums: [EnumModel] = [], inputObjects: [InputObjectModel] = [], customScalars: [CustomScalarModel] = []
    ) {
        self.enums = enums
        self.inputObjects = inputObjects
        self.customScalars = customScalars
    }
}

/// A schema enum.
package struct EnumModel: Sendable {
    package var name: String
    /// The generated type's name, after collision resolution.
    package var typeName: String
    package var description: String?
    /// Values in schema order.
    package var values: [EnumValueModel]
    package init(name: String, description: String?, values: [EnumValueModel]) {
        self.name = name
        self.typeName = name
        self.description = description
        self.values = values
    }
}

/// One value of an enum.
package struct EnumValueModel: Sendable {
    package var name: String
    package var description: String?
    /// Why the value is deprecated, never empty (`DeprecationMessage`); nil when it is not.
    package var deprecationReason: String?
    package init(name: String, description: String?, deprecationReason: String?) {
        self.name = name
        self.description = description
        self.deprecationReason = deprecationReason
    }
}

/// The text a deprecation shows: the schema's reason, or the spec's default when the reason is empty, decided once
/// so every language's annotation says the same.
package enum DeprecationMessage {
    package static func of(_ reason: String?) -> String? {
        guard let reason else { return nil }
        return reason.isEmpty ? BuiltIns.defaultDeprecationReason : reason
    }
}

/// A schema input object.
package struct InputObjectModel: Sendable {
    package var name: String
    /// The generated type's name, after collision resolution.
    package var typeName: String
    package var description: String?
    /// `@oneOf`: exactly one field is set.
    package var isOneOf: Bool
    /// Fields in schema order.
    package var fields: [InputFieldModel]
    package init(name: String, description: String?, isOneOf: Bool, fields: [InputFieldModel]) {
        self.name = name
        self.typeName = name
        self.description = description
        self.isOneOf = isOneOf
        self.fields = fields
    }
}

/// One field of an input object.
package struct InputFieldModel: Sendable {
    package var name: String
    package var description: String?
    package var type: TypeRef
    package var defaultValue: Value?
    /// Why the field is deprecated, never empty (`DeprecationMessage`); nil when it is not.
    package var deprecationReason: String?

    /// What a request may send for the field, decided here for every language.
    package enum Presence: Sendable, Equatable {
        /// Non-null without a default: the field must be given a value.
        case required
        /// Non-null with a default: left out (the server's default applies) or given a value, never null.
        case absentOrValue
        /// Nullable: left out, null, or a value, three different requests.
        case absentNullOrValue
    }

    /// What a request may send for the field: its type's nullability and whether the schema gives it a default.
    package var presence: Presence {
        !type.isNonNull ? .absentNullOrValue : (defaultValue != nil ? .absentOrValue : .required)
    }
    package init(name: String, description: String?, type: TypeRef, defaultValue: Value?, deprecationReason: String?) {
        self.name = name
        self.description = description
        self.type = type
        self.defaultValue = defaultValue
        self.deprecationReason = deprecationReason
    }
}

/// A custom scalar and how it reads.
package struct CustomScalarModel: Sendable {
    package var name: String
    /// The generated type's name (where a language declares one), after collision resolution.
    package var typeName: String
    package var description: String?
    /// `@specifiedBy(url:)`, if any.
    package var specifiedByURL: String?
    /// From `customScalarTypes`; nil reads the scalar's text as a string.
    package var mapping: CustomScalarMapping?
    package init(name: String, description: String?, specifiedByURL: String?, mapping: CustomScalarMapping?) {
        self.name = name
        self.typeName = name
        self.description = description
        self.specifiedByURL = specifiedByURL
        self.mapping = mapping
    }
}
