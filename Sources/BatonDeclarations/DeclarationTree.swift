// The declaration tree: what the generated code declares, in no language. The plan (`LensModel`) is
// lowered into it once (`DeclarationLowering`), and every printer (Swift, Kotlin, a test's toy
// printer) spells it: a printer decides only how a declaration is written in its language (keywords,
// escaping through its `IdentifierRules`, its runtime's calls), never what is declared, what type a
// member has, how it reads, when it is present or whether it is deprecated.
//
// Shape (every type a `Sendable`, `Equatable` value; no reference to the AST, the schema or the plan):
//
//   DeclarationTree
//   ├─ sharedTypeConditions: [TypeCondition]   type conditions of fragments on abstract types, each once
//   ├─ layout: TopLevelLayout                   every module-level declaration's name and file (the test
//   │                                           data builders': `TestBuilderLayout`), in one claim order:
//   │                                           namespace, custom scalars, enums, input objects, fragments,
//   │                                           operations
//   └─ files: [DeclarationFile]                 custom scalars, enums, input objects, fragments,
//        name (the declared type's name,          operations, in the layout's claim order
//        after collision resolution), file
//        declaration: Declaration
//          .customScalar(CustomScalarDeclaration)   name, documentation, specifiedBy, the app's
//                                                   host types (`customScalarTypes`)
//          .enumeration(EnumDeclaration)            values: name, documentation, deprecation
//          .inputObject(InputObjectDeclaration)     isOneOf; fields: name, type, presence (what a
//                                                   request may send), documentation, deprecation
//          .fragment(FragmentDeclaration)           typeCondition, possibleTypes (the type condition
//                                                   a record is checked against), spreadMemberName,
//                                                   readsNilAtRoot, lens, entryPoints (refetch,
//                                                   pagination)
//          .operation(OperationDeclaration)         kind, variables, lens, entryPoints (fetch,
//                                                   subscribe, mutation call, refetch query)
//
//   LensDeclaration: typeName, recordType (isAbstract, possibleTypes), isIdentifiable,
//        connectionIDName, members: [MemberDeclaration], optimisticBuilder.
//   MemberDeclaration: name, read (a field's response key, storage name and arguments (`WrittenValue`), or the
//        parent's record under a type condition), type: DeclaredType, readMode (`ReadMode`'s decision),
//        condition (`Presence`, normalized) and runtimeCondition (what the runtimes evaluate: `@defer` dropped),
//        delivery (`@defer`'s label, `@stream`'s initial count), selection (a field's part of the runtime's
//        normalization plan: schema type, stored nullability per level, `@required`, `@catch`, `@connection`,
//        declarative update, record keys), nested lens (for a composite member), sharedLens (that nested lens is
//        the same type as an earlier one of the declaration: `LensSharing`). A spread names its fragment (type
//        condition, `@throwOnFieldError`); an inline fragment its type condition and the types it matches.
//   DeclaredType: .named(DeclaredNamedType) | .optional | .list | .result (`@catch`: the value or
//        its errors) | .deferred (a phase: pending, ready, failed) | .streamed (the items so far);
//        named: a built-in scalar, a custom scalar, an enum, an input object, a nested lens, a fragment.
//   OptimisticBuilderDeclaration: the typed optimistic response's properties (`OptimisticShape`).
//   TestBuilderDeclaration: a lens's test data builder (`TestBuilderShape`), lowered on request
//        (`DeclarationLowering.testBuilder`), its nested lenses' builders inside its properties.
//
// Naming decisions that are not spelling are stated, not left to each printer: names are the plan's
// (`DefinitionNaming`, `LensNaming`: definitions apart from each other and from every runtime's types;
// `TopLevelLayout`: each module-level declaration's file and each test data builder's name and file, in one
// claim order;
// nested lenses apart from their siblings and ancestors); `sharesNameIgnoringCase` marks a member, enum
// value or input field whose name equals another's of the same scope ignoring case (`url` and `Url`):
// a host whose names meet case-insensitively (class files) must tell them apart. Every property a JVM class
// declares states its getter (`jvmGetter`, `JVMAccessorNames`: one pass per class against the others,
// `getClass` and the class's fixed members); a JVM printer pins it where its spelling would give another. Both are
// stated for a JVM host only (`DeclarationLowering(model, jvmNames:)`, decided where each generator makes its
// lowering): a lowering for Swift leaves every getter empty and marks no case twin, work no Swift printer reads.
// Escaping a keyword (`class` → Swift's `` `class` ``, Kotlin's `` `class` ``; `self` → `self_`) is a
// printer's spelling, decided by a pure function per language (its `IdentifierRules`).

import BatonIR

/// Every declaration generated code holds, one file each.
package struct DeclarationTree: Sendable, Equatable {
    package var files: [DeclarationFile]
    /// The type conditions declared once and referred to by every fragment on them (`TypeCondition.isShared`),
    /// sorted by name.
    package var sharedTypeConditions: [TypeCondition]
    /// Every module-level declaration's name and file, the namespace's, the shared type conditions' and the test
    /// data builders' too, in the one claim order (`TopLevelLayout`).
    package var layout: TopLevelLayout
    package init(files: [DeclarationFile], sharedTypeConditions: [TypeCondition] = [], layout: TopLevelLayout) {
        self.files = files
        self.sharedTypeConditions = sharedTypeConditions
        self.layout = layout
    }
}

/// One file: one module-level declaration.
package struct DeclarationFile: Sendable, Equatable {
    /// The declared type's name (after collision resolution, `TopLevelLayout`).
    package var name: String
    /// The file's base name (`TopLevelLayout`): a printer appends its extension.
    package var file: String
    package var declaration: Declaration
    package init(name: String, file: String, declaration: Declaration) {
        self.name = name
        self.file = file
        self.declaration = declaration
    }
}

/// A module-level declaration.
package enum Declaration: Sendable, Equatable {
    case customScalar(CustomScalarDeclaration)
    case enumeration(EnumDeclaration)
    case inputObject(InputObjectDeclaration)
    case fragment(FragmentDeclaration)
    case operation(OperationDeclaration)
}

/// Why something is deprecated: the schema's reason, or the spec's default for an empty one (`DeprecationMessage`).
package struct Deprecation: Sendable, Hashable {
    package var reason: String
    package init(reason: String) { self.reason = reason }
}

// MARK: - Types

/// A type as a declaration uses it, in no language: optionality is explicit (`.optional`), never implied.
package indirect enum DeclaredType: Sendable, Hashable {
    case named(DeclaredNamedType)
    /// The value may be absent (nil, null).
    case optional(DeclaredType)
    case list(DeclaredType)
    /// `@catch(to: RESULT)`: the value, or the field errors at or inside the field.
    case result(DeclaredType)
    /// `@defer`: a phase (pending, ready with the value, failed with its errors).
    case deferred(DeclaredType)
    /// `@stream`: the items so far, whether more are coming, the initial count asked for.
    case streamed(DeclaredType)

    /// The type without its outer optionality.
    package var nonOptional: DeclaredType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// True when the outermost level may be absent.
    package var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The value a read holds, without what its read mode makes of it: a Result's value, a phase's value,
    /// streamed items as their list (`.optional` and `.list` only, around the named type).
    package var value: DeclaredType {
        switch self {
        case .named: self
        case .optional(let wrapped): .optional(wrapped.value)
        case .list(let item): .list(item.value)
        case .result(let value), .deferred(let value): value.value
        case .streamed(let items): .list(items.value)
        }
    }

    /// The named type at the bottom of every wrapper.
    package var named: DeclaredNamedType {
        switch self {
        case .named(let named): named
        case .optional(let inner), .list(let inner), .result(let inner), .deferred(let inner), .streamed(let inner):
            inner.named
        }
    }
}

/// The type at the bottom of a `DeclaredType`.
package enum DeclaredNamedType: Sendable, Hashable {
    /// `String`, `ID`, `Int`, `Float`, `Boolean`.
    case builtInScalar(String)
    /// A custom scalar of the schema, by name (its declaration says how each language reads it).
    case customScalar(String)
    /// An enum of the schema, by name.
    case enumeration(String)
    /// An input object of the schema, by name.
    case inputObject(String)
    /// A lens nested in the enclosing declaration, by its type name.
    case lens(String)
    /// A fragment's lens, by the fragment's name.
    case fragment(String)
    /// The optimistic builder named `builder`, declared in a nested lens (`lens`, by its type name) or in a
    /// fragment's lens (`fragment`, by the fragment's name).
    case optimisticBuilder(lens: String?, fragment: String?, builder: String)
}

// MARK: - Schema types

/// A custom scalar of the schema that some document uses.
package struct CustomScalarDeclaration: Sendable, Equatable {
    package var name: String
    package var typeName: String
    package var documentation: String?
    package var specifiedBy: String?
    /// The app's types from `customScalarTypes`, per language; nil: the scalar reads as its text.
    package var swiftType: String?
    package var kotlinType: String?
    package var kotlinConverter: String?
}

/// An enum of the schema: a value per value the build knows (a printer adds one for values it does not).
package struct EnumDeclaration: Sendable, Equatable {
    package var name: String
    package var typeName: String
    package var documentation: String?
    /// Values in schema order.
    package var values: [EnumValueDeclaration]
}

extension EnumDeclaration {
    /// The most current (not deprecated) values a printer finds a value's text among with a branch per value
    /// (issue 34). Beyond it every printer finds the value through a table built once: a `switch` over strings
    /// compiles to one comparison after another, and saleor's 779-value `LanguageCodeEnum` took 12.6 s of CPU to
    /// compile in Swift debug and 31.6 s in release that way, against 1.5 s and 4.2 s with the table; see
    /// Docs/Performance.md, "Compile of generated code".
    package static let branchLimit = 32

    /// More current values than `branchLimit`: the value of a text is found through a table (decided here once for
    /// every printer).
    package var findsValueThroughTable: Bool {
        values.lazy.filter { $0.deprecation == nil }.count > Self.branchLimit
    }
}

package struct EnumValueDeclaration: Sendable, Equatable {
    /// The value's text, as the schema and the wire spell it.
    package var name: String
    package var documentation: String?
    package var deprecation: Deprecation?
    /// Another value of the enum has this name ignoring case.
    package var sharesNameIgnoringCase: Bool
}

/// An input object of the schema.
package struct InputObjectDeclaration: Sendable, Equatable {
    package var name: String
    package var typeName: String
    package var documentation: String?
    /// `@oneOf`: exactly one field is set (a printer declares a choice, not a record).
    package var isOneOf: Bool
    /// Fields in schema order.
    package var fields: [InputFieldDeclaration]
    /// Some field is deprecated (a printer that must silence its own use of them reads this).
    package var hasDeprecatedField: Bool { fields.contains { $0.deprecation != nil } }
}

package struct InputFieldDeclaration: Sendable, Equatable {
    /// The field's name, as the wire spells it.
    package var name: String
    /// The value's type: optional where the schema's type is nullable.
    package var type: DeclaredType
    /// What a request may send for the field (`InputFieldModel.Presence`).
    package var presence: InputFieldPresence
    package var documentation: String?
    package var deprecation: Deprecation?
    /// Another field of the object has this name ignoring case.
    package var sharesNameIgnoringCase: Bool
    /// The getter of its property on a JVM host (`JVMAccessorNames`: distinct from the other fields' in one class;
    /// for a `@oneOf` object, whose fields are one class each, distinct from `getClass` only).
    package var jvmGetter: String
}

/// What a request may send for an input field.
package enum InputFieldPresence: Sendable, Equatable {
    /// Non-null without a default: a value.
    case required
    /// Non-null with a default: left out (the server's default applies) or a value, never null.
    case absentOrValue
    /// Nullable: left out, null, or a value.
    case absentNullOrValue

    /// The field may be left out of a request.
    package var mayBeLeftOut: Bool { self != .required }
}

// MARK: - Definitions

/// A fragment: its lens, the type condition a record is checked against, and what a `@refetchable` one adds.
package struct FragmentDeclaration: Sendable, Equatable {
    package var name: String
    package var typeName: String
    package var typeCondition: TypeCondition
    /// The name every spread of the fragment reads it by.
    package var spreadMemberName: String
    /// A `@required(action: NONE | LOG)` null can reach the root: every spread of it reads optional.
    package var readsNilAtRoot: Bool
    /// `@throwOnFieldError` on the fragment: an uncaught field error inside it fails the read.
    package var throwOnFieldError: Bool
    package var lens: LensDeclaration
    package var entryPoints: [EntryPoint]
    /// The fragment's definition as the operations that use it send it, when they all agree (`DocumentParts`): what
    /// a printer may declare once and join into their documents; nil when no operation's text splits on it.
    package var documentText: String?
}

/// The type a record must be for a fragment or an inline fragment to read it.
package struct TypeCondition: Sendable, Hashable {
    /// The type condition as written.
    package var name: String
    /// The object types a record may be, sorted; empty: the condition's name only.
    package var possibleTypes: [String]
    /// True when the condition is an abstract type with object types of its own: one shared declaration of it
    /// serves every fragment written on it.
    package var isShared: Bool { possibleTypes.contains { $0 != name } }
    package init(name: String, possibleTypes: [String]) {
        self.name = name
        self.possibleTypes = possibleTypes
    }
}

/// An operation.
package struct OperationDeclaration: Sendable, Equatable {
    /// The operation's keyword (`query`, `mutation`, `subscription`).
    package enum Kind: String, Sendable, Equatable { case query, mutation, subscription }
    package var name: String
    package var typeName: String
    package var kind: Kind
    /// The root type the data's lens reads.
    package var rootType: String
    /// The document as sent: the operation's definition and the fragments it uses (a printer may join it from the
    /// fragments' own texts, `documentParts`, as long as the text sent is this).
    package var documentText: String
    /// `documentText` split into the operation's own definition and the fragments whose `documentText` it appends
    /// (`DocumentParts`: checked to join back to it exactly); nil when it is kept whole.
    package var documentParts: DocumentParts.Parts?
    /// `@throwOnFieldError` on the operation: an uncaught field error fails the operation.
    package var throwOnFieldError: Bool
    /// The `onError` a request asks the server for (baton.json's), if any.
    package var onError: String?
    /// Some selection of the operation or of a fragment it uses is `@defer`red or `@stream`ed: the request accepts
    /// an incremental (multipart) answer.
    package var deliversIncrementally: Bool
    /// Variables in declaration order.
    package var variables: [VariableDeclaration]
    /// The data's lens, reading the root type.
    package var lens: LensDeclaration
    package var entryPoints: [EntryPoint]
    /// The persisted-query id (SHA-256 of the text sent).
    package var operationID: String
}

package struct VariableDeclaration: Sendable, Equatable {
    package var name: String
    package var type: DeclaredType
    /// The default the document declares, if any.
    package var defaultValue: WrittenValue?
    /// The variable may be left out of a request (nullable, or with a default).
    package var mayBeLeftOut: Bool
    /// Used only by client-only directives: never sent.
    package var isClientOnly: Bool
    /// Its values are connection ids (`connections:` of a declarative update).
    package var holdsConnectionIDs: Bool
    /// The getter of its property on a JVM host (`JVMAccessorNames`: after the operation's own members,
    /// `JVMAccessorNames.operationMembers`).
    package var jvmGetter: String
}

/// A way app code reaches a definition's data, besides reading its lens.
package enum EntryPoint: Sendable, Equatable {
    /// A query: fetched (and watched) through the environment.
    case fetch
    /// A subscription: its events through the environment.
    case subscribe
    /// A mutation: called like a function with its variables.
    case mutationCall(MutationCallEntryPoint)
    /// The query generated for a `@refetchable` fragment (by the fragment's name): the pagination sends it.
    case refetchQuery(fragment: String)
    /// A `@refetchable` fragment: fetched again, and paged when it has a `@connection`.
    case refetch(RefetchEntryPoint)
}

/// A mutation's call: its variables, typed, and a typed optimistic response when its lens has a builder.
package struct MutationCallEntryPoint: Sendable, Equatable {
    package var operationName: String
    /// The data lens's optimistic builder's name; nil: the call takes no optimistic response.
    package var optimisticBuilder: String?
}

/// A `@refetchable` fragment's query and how it pages.
package struct RefetchEntryPoint: Sendable, Equatable {
    /// The generated query's name (an operation of the plan).
    package var query: String
    /// The query reaches the record through `node(id:)`; false for a fragment on the query type.
    package var throughNode: Bool
    /// Member names from the fragment's lens down to its `@connection` member, that one last; empty without one.
    package var connectionPath: [String]
    package var forward: PageVariables?
    package var backward: PageVariables?
}

/// The variables that page a connection in one direction.
package struct PageVariables: Sendable, Equatable {
    package var count: String?
    package var cursor: String?
}

extension [EntryPoint] {
    /// The mutation call among them, if any.
    package var mutationCall: MutationCallEntryPoint? {
        for point in self { if case .mutationCall(let call) = point { return call } }
        return nil
    }

    /// The refetch entry point of a `@refetchable` fragment, if any.
    package var refetch: RefetchEntryPoint? {
        for point in self { if case .refetch(let refetch) = point { return refetch } }
        return nil
    }

    /// For the query generated for a `@refetchable` fragment: the fragment's name.
    package var refetchedFragment: String? {
        for point in self { if case .refetchQuery(let fragment) = point { return fragment } }
        return nil
    }
}

/// A value as a document writes it (an argument's, a variable's default), in no language.
package indirect enum WrittenValue: Sendable, Hashable {
    /// `$name`: the variable's value at run time.
    case variable(String)
    /// A number, as written.
    case int(String)
    case float(String)
    case string(String)
    case boolean(Bool)
    case null
    case enumValue(String)
    case list([WrittenValue])
    /// Fields in the order written.
    case object([WrittenField])
}

/// `name: value` in an object value or an argument list.
package struct WrittenField: Sendable, Hashable {
    package var name: String
    package var value: WrittenValue
    package init(name: String, value: WrittenValue) {
        self.name = name
        self.value = value
    }
}

// MARK: - Lenses

/// A view of one record through one selection: a generated type with a member per accessor.
package struct LensDeclaration: Sendable, Equatable {
    package var typeName: String
    package var recordType: String
    /// The record type is an interface or a union; `possibleTypes` its object types, sorted.
    package var recordIsAbstract: Bool
    package var possibleTypes: [String]
    /// A member `id` reads the record's identity (`Lens.isIdentifiable`).
    package var isIdentifiable: Bool
    /// For a `@connection`'s lens: the member reading its connection id.
    package var connectionIDName: String?
    /// The getter of the connection id's property on a JVM host (`JVMAccessorNames`, after the members').
    package var connectionIDJVMGetter: String?
    /// Members in document order.
    package var members: [MemberDeclaration]
    /// The typed optimistic response, for the lenses of mutations and of the fragments they spread.
    package var optimisticBuilder: OptimisticBuilderDeclaration?
}

extension LensDeclaration {
    /// Some member at any depth below this lens shares an earlier lens of its declaration
    /// (`MemberDeclaration.sharedLens`, marked by `LensSharing`): most declarations share none.
    package var sharesLens: Bool { members.contains { $0.sharesLensHereOrBelow } }
}

/// One member of a lens.
///
/// Its fields are held behind one reference, copied on write (issue 34): printers and `LensSharing` copy members
/// as they walk a lens, and a copy of a member is then one retain, not one per field (a member holds a dozen
/// strings, arrays and its nested lens). A value all the same: equal when its fields are, changed only in its copy.
package struct MemberDeclaration: Sendable, Equatable {
    package var name: String {
        get { storage.name }
        set { unique().name = newValue }
    }
    package var source: MemberSource {
        get { storage.source }
        set { unique().source = newValue }
    }
    /// What a read of the member returns.
    package var type: DeclaredType {
        get { storage.type }
        set { unique().type = newValue }
    }
    package var readMode: MemberReadMode {
        get { storage.readMode }
        set { unique().readMode = newValue }
    }
    /// When the member is in the response (`Presence`, normalized): any alternative holding makes it present, an
    /// alternative holds when every condition of it holds. `[[]]`: always.
    package var condition: [[ConditionAtom]] {
        get { storage.condition }
        set { unique().condition = newValue }
    }
    /// What the runtimes evaluate (`Presence.atRuntime`): `condition` without its `@defer` atoms (a deferred
    /// selection is read once its payload arrives). `[[]]`: always; `[]`: never.
    package var runtimeCondition: [[ConditionAtom]] {
        get { storage.runtimeCondition }
        set { unique().runtimeCondition = newValue }
    }
    /// How the member's data arrives (`@defer`'s label, `@stream`'s initial count).
    package var delivery: MemberDelivery {
        get { storage.delivery }
        set { unique().delivery = newValue }
    }
    /// For a field member: what the runtime's normalization plan states about the field.
    package var selection: FieldSelection? {
        get { storage.selection }
        set { unique().selection = newValue }
    }
    /// The nested lens a composite member reads (a field's record, an inline fragment's narrower view).
    package var lens: LensDeclaration? {
        get { storage.lens }
        set {
            let storage = unique()
            storage.lens = newValue
            storage.hasLens = newValue != nil
        }
    }
    /// Whether the member reads a nested lens (`lens != nil`), answered without copying the lens out (a comparison of
    /// the optional lens with nil copies it: a retain and a release per field of the lens).
    package var hasLens: Bool { storage.hasLens }
    /// The nested lens's type name, without copying the rest of the lens out; nil without a nested lens.
    package var lensTypeName: String? { storage.hasLens ? storage.lens?.typeName : nil }
    /// The member shares an earlier lens (`sharedLens`), or a member at any depth below it does, read in place: no
    /// nested lens is copied out of its member (`LensDeclaration.sharesLens`).
    fileprivate var sharesLensHereOrBelow: Bool {
        storage.sharedLens != nil || (storage.hasLens && storage.lens?.sharesLens == true)
    }
    /// Another member of the lens has this name ignoring case (stated for a JVM host only: `DeclarationLowering`'s
    /// `jvmNames`).
    package var sharesNameIgnoringCase: Bool {
        get { storage.sharesNameIgnoringCase }
        set { unique().sharesNameIgnoringCase = newValue }
    }
    /// The getter a JVM host's property for the member has (`JVMAccessorNames`: distinct from the lens's other
    /// getters, `getClass` and the connection id's); empty when the lowering states no JVM names.
    package var jvmGetter: String {
        get { storage.jvmGetter }
        set { unique().jvmGetter = newValue }
    }
    /// The member's nested lens is the same type as an earlier one of its declaration (`LensSharing`: equal
    /// selections, so every read through either reads alike): the member indices from the declaration's root lens
    /// down to that one. A printer may declare this one as a name for that type instead of a second copy (`lens`
    /// still holds it in full). nil: the member declares its own (or has no nested lens).
    package var sharedLens: [Int]? {
        get { storage.sharedLens }
        set { unique().sharedLens = newValue }
    }

    private var storage: Storage

    package init(
        name: String, source: MemberSource, type: DeclaredType, readMode: MemberReadMode,
        condition: [[ConditionAtom]], runtimeCondition: [[ConditionAtom]], delivery: MemberDelivery,
        selection: FieldSelection?, lens: LensDeclaration?, sharesNameIgnoringCase: Bool, jvmGetter: String,
        sharedLens: [Int]? = nil
    ) {
        storage = Storage(
            name: name, source: source, type: type, readMode: readMode, condition: condition,
            runtimeCondition: runtimeCondition, delivery: delivery, selection: selection, lens: lens,
            sharesNameIgnoringCase: sharesNameIgnoringCase, jvmGetter: jvmGetter, sharedLens: sharedLens)
    }

    /// The storage, copied first when another member holds it too.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    package static func == (one: MemberDeclaration, other: MemberDeclaration) -> Bool {
        let (a, b) = (one.storage, other.storage)
        return a === b
            || (a.name == b.name && a.source == b.source && a.type == b.type && a.readMode == b.readMode
                && a.condition == b.condition && a.runtimeCondition == b.runtimeCondition && a.delivery == b.delivery
                && a.selection == b.selection && a.lens == b.lens
                && a.sharesNameIgnoringCase == b.sharesNameIgnoringCase
                && a.jvmGetter == b.jvmGetter && a.sharedLens == b.sharedLens)
    }

    /// A member's fields. Changed only through a member that holds it alone (`unique()`), so it is never changed
    /// while another thread reads it: `Sendable` as the value it stands for.
    private final class Storage: @unchecked Sendable {
        var name: String
        var source: MemberSource
        var type: DeclaredType
        var readMode: MemberReadMode
        var condition: [[ConditionAtom]]
        var runtimeCondition: [[ConditionAtom]]
        var delivery: MemberDelivery
        var selection: FieldSelection?
        var lens: LensDeclaration?
        /// `lens != nil`, kept with `lens`.
        var hasLens: Bool
        var sharesNameIgnoringCase: Bool
        var jvmGetter: String
        var sharedLens: [Int]?

        init(
            name: String, source: MemberSource, type: DeclaredType, readMode: MemberReadMode,
            condition: [[ConditionAtom]], runtimeCondition: [[ConditionAtom]], delivery: MemberDelivery,
            selection: FieldSelection?, lens: LensDeclaration?, sharesNameIgnoringCase: Bool, jvmGetter: String,
            sharedLens: [Int]?
        ) {
            self.name = name
            self.source = source
            self.type = type
            self.readMode = readMode
            self.condition = condition
            self.runtimeCondition = runtimeCondition
            self.delivery = delivery
            self.selection = selection
            self.lens = lens
            hasLens = lens != nil
            self.sharesNameIgnoringCase = sharesNameIgnoringCase
            self.jvmGetter = jvmGetter
            self.sharedLens = sharedLens
        }

        func copy() -> Storage {
            Storage(
                name: name, source: source, type: type, readMode: readMode, condition: condition,
                runtimeCondition: runtimeCondition, delivery: delivery, selection: selection, lens: lens,
                sharesNameIgnoringCase: sharesNameIgnoringCase, jvmGetter: jvmGetter, sharedLens: sharedLens)
        }
    }
}

/// How a member's data arrives.
package enum MemberDelivery: Sendable, Equatable {
    case immediate
    /// `@defer` on a spread or inline fragment: its label, if any.
    case deferred(label: String?)
    /// `@stream` on a list field: the number of items the initial payload holds.
    case streamed(initialCount: StreamInitialCount)
}

/// `@stream(initialCount:)`: a number as written, or a variable's value at run time.
package enum StreamInitialCount: Sendable, Equatable {
    case literal(Int)
    case variable(String)
}

/// A field as the runtime's normalization plan describes it (what it stores, checks and updates).
///
/// What few fields carry (`@required`, `@catch`, `@connection`, a declarative update, record keys) is held behind one
/// reference, nil when a field has none of it (issue 34): a member's selection is then its schema type, its levels
/// and no more, copied and destroyed as three references instead of a dozen fields. A value all the same: equal when
/// its fields are (the details are set when it is made: no printer changes them).
package struct FieldSelection: Sendable, Equatable {
    /// The field's type as the schema declares it (optional where the schema's type is nullable).
    package var schemaType: DeclaredType
    /// Per level of the member's value, outermost first: a null stored there is unexpected (`ValueLevel.nonNull`:
    /// the schema's non-null, or `@semanticNonNull` under `@throwOnFieldError`).
    package var nonNullLevels: [Bool]
    /// `@required(action:)`.
    package var required: RequiredNullAction? { details?.value.required }
    /// `@catch(to:)`.
    package var catches: CatchTo? { details?.value.catches }
    /// `@connection(key:filters:)`.
    package var connection: ConnectionDeclaration? { details?.value.connection }
    /// A declarative update (`@appendEdge`, `@deleteRecord`, …).
    package var recordUpdate: RecordUpdateDeclaration? { details?.value.recordUpdate }
    /// The object types it can return whose records are keyed by fields other than `id`, sorted by type name.
    package var recordKeys: [RecordKeyDeclaration] { details?.value.recordKeys ?? [] }

    /// The fields few selections carry; nil when every one of them is absent (or empty).
    private let details: Box?

    package init(
        schemaType: DeclaredType, nonNullLevels: [Bool], required: RequiredNullAction?, catches: CatchTo?,
        connection: ConnectionDeclaration?, recordUpdate: RecordUpdateDeclaration?, recordKeys: [RecordKeyDeclaration]
    ) {
        self.schemaType = schemaType
        self.nonNullLevels = nonNullLevels
        let details = Details(
            required: required, catches: catches, connection: connection, recordUpdate: recordUpdate,
            recordKeys: recordKeys)
        self.details = details.isEmpty ? nil : Box(value: details)
    }

    package static func == (one: FieldSelection, other: FieldSelection) -> Bool {
        one.schemaType == other.schemaType && one.nonNullLevels == other.nonNullLevels
            && (one.details === other.details || one.details?.value == other.details?.value)
    }

    /// What few selections carry.
    private struct Details: Sendable, Equatable {
        var required: RequiredNullAction?
        var catches: CatchTo?
        var connection: ConnectionDeclaration?
        var recordUpdate: RecordUpdateDeclaration?
        var recordKeys: [RecordKeyDeclaration]

        var isEmpty: Bool {
            required == nil && catches == nil && connection == nil && recordUpdate == nil && recordKeys.isEmpty
        }
    }

    /// `Details` behind one reference, never changed once made.
    private final class Box: Sendable {
        let value: Details
        init(value: Details) { self.value = value }
    }
}

/// What a `@required` field's null does.
package enum RequiredNullAction: Sendable, Equatable {
    /// `NONE`: it bubbles to the boundary.
    case none
    /// `LOG`: it bubbles and is logged.
    case log
    /// `THROW`: the read throws.
    case throwError
}

/// Where `@catch` puts a field error.
package enum CatchTo: Sendable, Equatable {
    case result, null
}

/// `@connection`: the key and the arguments that tell its connections apart.
package struct ConnectionDeclaration: Sendable, Equatable {
    package var key: String
    package var filters: [String]
}

/// A declarative update on a mutation's field.
package struct RecordUpdateDeclaration: Sendable, Equatable {
    /// The directive's name (`appendEdge`, `deleteRecord`, …).
    package var kind: String
    /// `connections:` as written.
    package var connections: WrittenValue?
    package var edgeTypeName: String?
    package var typeName: String?
}

/// The fields a record of an object type is keyed by.
package struct RecordKeyDeclaration: Sendable, Equatable {
    package var typeName: String
    package var fields: [String]
}

/// Where a member's value comes from.
package enum MemberSource: Sendable, Equatable {
    /// A field of the record: under `responseKey` in a response, stored as `fieldName` with its arguments (sorted by
    /// name, the storage key's order; variables resolved at run time).
    case field(responseKey: String, fieldName: String, arguments: [WrittenField])
    /// The parent's record, read through a fragment's spread (`fragment` non-nil) or an inline fragment;
    /// `typeCondition` as written (nil for an inline fragment without one), `matchingTypes` the object types the
    /// record must be, sorted (nil: every record the parent reads).
    case parentRecord(fragment: SpreadFragment?, typeCondition: String?, matchingTypes: [String]?)
}

/// The fragment a spread member reads.
package struct SpreadFragment: Sendable, Equatable {
    package var name: String
    package var typeCondition: String
    /// The fragment has `@throwOnFieldError`.
    package var throwOnFieldError: Bool
}

/// How a member reads (`ReadMode`, the plan's decision).
package enum MemberReadMode: Sendable, Equatable {
    case spread, deferred, streamed, typename, catchToResult, catchToNull, throwWhenNull, throwOnFieldError, plain
}

/// One condition of a member's presence.
package enum ConditionAtom: Sendable, Hashable {
    case include(variable: String)
    case skip(variable: String)
    case deferred(label: String?, variable: String?)
}

/// A lens's typed optimistic-response builder (`OptimisticShape`, decided once).
package struct OptimisticBuilderDeclaration: Sendable, Equatable {
    package var typeName: String
    package var recordType: String
    /// The caller names the concrete type (`__typename`) first.
    package var takesTypename: Bool
    package var properties: [OptimisticPropertyDeclaration]
}

package struct OptimisticPropertyDeclaration: Sendable, Equatable {
    /// What the property stands for.
    package enum Part: Sendable, Equatable {
        /// A field, written under `responseKey`; `nestedBuilder` when it reads a nested lens, whose builder the
        /// property holds (in lists as the schema's type has them).
        case field(responseKey: String, nestedBuilder: Bool)
        /// A named fragment's spread: the fragment's builder, merged in.
        case fragmentSpread(fragment: String)
        /// An inline fragment read through a nested lens: that lens's builder, merged in.
        case inlineFragment
        /// A key field of the record type that no member gives, written under its name.
        case keyField
    }

    /// The member's name it stands for (or the key field's name).
    package var name: String
    /// The index of the lens member it stands for (a printer names the property as it named the member); nil
    /// for a key field.
    package var member: Int?
    package var part: Part
    /// The value as a response holds it (the schema's nullability; a builder for a nested lens or a spread). A
    /// property that may be left out is optional besides.
    package var type: DeclaredType
    /// A caller may leave it out: absent from the response unless given.
    package var mayBeLeftOut: Bool
    /// Its parameter defaults to nothing (left out, or null for a nullable field).
    package var hasDefault: Bool
    /// The getter of its property on a JVM host (`JVMAccessorNames`, after `typename`'s when the builder takes one).
    package var jvmGetter: String

    /// The name of the builder the property holds (a nested lens's or a fragment's), if it holds one.
    package var builder: String? {
        if case .optimisticBuilder(_, _, let builder) = type.named { return builder }
        return nil
    }
}

// MARK: - Test data builders

/// A lens's test data builder (`TestBuilderShape`, decided once, lowered): the properties a test sets, what each
/// holds when left unset, which record types a spread applies to, what `__typename` is; nested lenses' builders
/// inside their properties.
package struct TestBuilderDeclaration: Sendable, Equatable {
    /// The lens's type name (a nested builder is named after it).
    package var typeName: String
    package var recordType: String
    /// The record type is abstract: a test may name the concrete type.
    package var takesTypename: Bool
    /// The `__typename` written when none is given or implied.
    package var defaultTypename: String
    /// In the lens's members' order (`OptimisticShape`'s).
    package var properties: [TestBuilderPropertyDeclaration]
    /// The record type's key fields that no property gives.
    package var keyFields: [TestBuilderField]
    /// The getters of the key fields' properties on a JVM host (`JVMAccessorNames`, after the properties').
    package var keyFieldJVMGetters: [String]
}

/// One property of a test data builder.
package struct TestBuilderPropertyDeclaration: Sendable, Equatable {
    package indirect enum Part: Sendable, Equatable {
        /// A field; `nested` the builder of the lens it reads, when the test gives a builder.
        case field(TestBuilderField, nested: TestBuilderDeclaration?)
        /// A named fragment's spread: the fragment's builder, merged in.
        case fragmentSpread(fragment: String)
        /// An inline fragment: its nested lens's builder (nil: the lens has none, and no property is declared).
        case inlineFragment(TestBuilderDeclaration?)
    }

    /// The lens member's name it stands for.
    package var name: String
    package var part: Part
    /// For a spread or an inline fragment: the object types it applies to, sorted; nil for every record.
    package var appliesTo: [String]?
    /// The getter of its property on a JVM host (`JVMAccessorNames`: after `typename`'s and `operationName`'s).
    package var jvmGetter: String
}

/// A field a test data builder writes: under `responseKey`, given as `value`, filled by `fill` when unset.
package struct TestBuilderField: Sendable, Equatable {
    /// The key field's name, for a key field; the member's response key otherwise.
    package var responseKey: String
    package var fieldName: String
    /// The field's type as the schema declares it (in lists as the schema has them).
    package var schemaType: DeclaredType
    package var value: TestBuilderValue
    package var fill: TestBuilderFill
}

/// What a test gives a field's innermost value as: the model's decision (`TestBuilderShape.Value`), carried as it is.
package typealias TestBuilderValue = TestBuilderShape.Value

/// What a field holds when a test leaves it unset: the model's decision (`TestBuilderShape.Fill`), carried as it is.
package typealias TestBuilderFill = TestBuilderShape.Fill
