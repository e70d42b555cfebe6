import BatonDiagnostics
import BatonSyntax

/// What one definition of an earlier plan gives the steps of a plan that look at every
/// definition at once, so a plan can be built for the documents an edit reaches while the others
/// stay summaries (`LensModelBuilder.build(…, outside:)`). Decisions, made here once:
///
/// - **What those steps read** of a definition: its name and kind (top-level naming, `DefinitionNaming`;
///   the operation-and-fragment name check), the file it is written in (where its generated file
///   comes from), the schema types it uses (which enums, input objects and custom scalars are
///   generated, and their names), an operation's id (the persisted-query manifest) and a fragment's
///   type condition (a module's shared table of abstract types' possible types, which follows the
///   fragments; the possible types come from the schema). Nothing
///   else of a definition reaches another definition's output except through a fragment it
///   spreads or is spread by, and such definitions are never summaries of one another: a plan with
///   summaries is built over whole groups of documents (`DocumentGroups`), which hold every
///   spreader of every fragment they define and every fragment they spread.
/// - **A summarized definition is never spelt**: its lens is empty and it has no document text;
///   the model lists it in `summarized`, and a caller keeps its file as it is on disk (or plans
///   its document again) rather than generating it.
/// - **Text**: one line of space-separated fields a summary writes (`writeFields`), checked
///   (`checkedKind`) and read back field by field (`DefinitionLines`), for `GenerationManifest`; names are
///   GraphQL names and paths go elsewhere on the line, so no field holds a space.
package struct DefinitionSummary: Sendable, Hashable {
    /// An operation's kind, or `fragment`.
    package enum Kind: String, Sendable, Hashable {
        case query, mutation, subscription, fragment
    }

    /// The fields, held once and shared by every copy until one is changed: a summary is copied into a
    /// plan's block, sorted, merged and listed (a large project's tens of thousands, several times each), and a
    /// copy of ten references cost ten reference counts where this costs one.
    private final class Storage: @unchecked Sendable {
        var kind: Kind
        var name: String
        var path: String
        var usedTypes: UsedTypeNames
        var operationID: String
        var typeCondition: String
        var documentText = ""
        var typeName: String?

        init(
            kind: Kind, name: String, path: String, usedTypes: UsedTypeNames, operationID: String,
            typeCondition: String
        ) {
            self.kind = kind
            self.name = name
            self.path = path
            self.usedTypes = usedTypes
            self.operationID = operationID
            self.typeCondition = typeCondition
        }

        var copy: Storage {
            let copy = Storage(
                kind: kind, name: name, path: path, usedTypes: usedTypes, operationID: operationID,
                typeCondition: typeCondition)
            copy.documentText = documentText
            copy.typeName = typeName
            return copy
        }
    }

    private var storage: Storage

    /// The storage to change: this summary's own (copied first when another summary shares it).
    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy }
            return storage
        }
    }

    package var kind: Kind {
        get { storage.kind }
        set { unique.kind = newValue }
    }
    package var name: String {
        get { storage.name }
        set { unique.name = newValue }
    }
    /// The display path of the file the definition is written in (its location's file; for the
    /// query of a `@refetchable` fragment, the fragment's).
    package var path: String {
        get { storage.path }
        set { unique.path = newValue }
    }
    /// The schema types the definition uses itself (`OperationModel.usedTypes`, `FragmentModel.usedTypes`).
    package var usedTypes: UsedTypeNames {
        get { storage.usedTypes }
        set { unique.usedTypes = newValue }
    }
    /// An operation's `operationID`; empty for a fragment.
    package var operationID: String {
        get { storage.operationID }
        set { unique.operationID = newValue }
    }
    /// A fragment's type condition; empty for an operation.
    package var typeCondition: String {
        get { storage.typeCondition }
        set { unique.typeCondition = newValue }
    }
    /// An operation's document text, where a caller needs it and knows it (the persisted-query
    /// manifest lists every operation's); not written by `writeFields`.
    package var documentText: String {
        get { storage.documentText }
        set { unique.documentText = newValue }
    }
    /// The generated name the plan gave the definition (`DefinitionNaming`) when it is not `name`; nil when it
    /// is. Written by `writeFields` only then (a field after the used types), so that a plan whose names are the
    /// recorded ones takes every unreached definition's name from its summary (`SummaryBlock`).
    package var typeName: String? {
        get { storage.typeName }
        set { unique.typeName = newValue }
    }

    package init(
        kind: Kind, name: String, path: String, usedTypes: UsedTypeNames, operationID: String = "",
        typeCondition: String = ""
    ) {
        storage = Storage(
            kind: kind, name: name, path: path, usedTypes: usedTypes, operationID: operationID,
            typeCondition: typeCondition)
    }

    /// Equal when every field is (as a struct of the fields would be).
    package static func == (lhs: DefinitionSummary, rhs: DefinitionSummary) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (a, b) = (lhs.storage, rhs.storage)
        return a.kind == b.kind && a.name == b.name && a.path == b.path && a.usedTypes == b.usedTypes
            && a.operationID == b.operationID && a.typeCondition == b.typeCondition
            && a.documentText == b.documentText && a.typeName == b.typeName
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(name)
        hasher.combine(path)
        hasher.combine(usedTypes)
        hasher.combine(operationID)
        hasher.combine(typeCondition)
        hasher.combine(documentText)
        hasher.combine(typeName)
    }

    /// The summary's line without its path, appended to `out`: `def`, then its fields, each after a
    /// space: kind, name, operation id and type condition (`-` for none), then the used enums, input
    /// objects and custom scalars, each a comma-separated list (`-` for none), then the generated name
    /// when it is not the name (`typeName`; no field when it is). Written as bytes (a large
    /// project's manifest holds tens of thousands), checked by `checkedKind` and read back by `DefinitionLines`.
    package func writeFields(to out: inout [UInt8]) {
        func list(_ names: [String]) {
            out.append(UInt8(ascii: " "))
            guard !names.isEmpty else { return out.append(UInt8(ascii: "-")) }
            for (index, name) in names.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: name.utf8)
            }
        }
        out.append(contentsOf: "def ".utf8)
        out.append(contentsOf: kind.rawValue.utf8)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: name.utf8)
        out.append(UInt8(ascii: " "))
        if operationID.isEmpty { out.append(UInt8(ascii: "-")) } else { out.append(contentsOf: operationID.utf8) }
        out.append(UInt8(ascii: " "))
        if typeCondition.isEmpty { out.append(UInt8(ascii: "-")) } else { out.append(contentsOf: typeCondition.utf8) }
        list(usedTypes.enums)
        list(usedTypes.inputObjects)
        list(usedTypes.customScalars)
        if let typeName, typeName != name {
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: typeName.utf8)
        }
    }

    /// The kind, when `fields` (after `def`, each a range of `bytes`) are what `writeFields` writes: 7 or 8 of
    /// them, a kind, a name (not empty, no comma), two fields, three comma-separated lists of non-empty names
    /// (`-` for none), and a generated name (never `-` nor a list) when there are 8; nil for anything else (a
    /// name outside ASCII too). The one check of a `def` line's fields, made without a `String`
    /// (`DefinitionLines` keeps the lines it passed).
    package static func checkedKind(fields: ArraySlice<Range<Int>>, in bytes: UnsafeBufferPointer<UInt8>) -> Kind? {
        guard fields.count == 7 || fields.count == 8 else { return nil }
        let first = fields.startIndex
        func field(_ offset: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[fields[first + offset]])
        }
        func isList(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
            if isNone(field) { return true }
            var start = 0
            for index in 0...field.count where index == field.count || field[index] == UInt8(ascii: ",") {
                guard index > start else { return false }
                start = index + 1
            }
            return true
        }
        let name = field(1)
        // ASCII, as GraphQL's names are: a name's bytes then order as `String`'s `<` orders it (`SummaryBlock`).
        guard let kind = Self.kind(field(0)), !name.isEmpty,
            !name.contains(where: { $0 == UInt8(ascii: ",") || $0 >= 0x80 }),
            isList(field(4)), isList(field(5)), isList(field(6))
        else { return nil }
        if fields.count == 8 {
            let given = field(7)
            guard !given.isEmpty, !isNone(given), !given.contains(UInt8(ascii: ",")) else { return nil }
        }
        return kind
    }

    /// True for a field that is `-` (none).
    static func isNone(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        field.count == 1 && field[0] == UInt8(ascii: "-")
    }

    /// The names of a list field `checkedKind` passed (none for `-`).
    static func list(_ field: UnsafeBufferPointer<UInt8>) -> [String] {
        if isNone(field) { return [] }
        var names: [String] = []
        var start = 0
        for index in 0...field.count where index == field.count || field[index] == UInt8(ascii: ",") {
            names.append(String(decoding: UnsafeBufferPointer(rebasing: field[start..<index]), as: UTF8.self))
            start = index + 1
        }
        return names
    }

    /// The kind a field names, compared as bytes.
    private static func kind(_ field: UnsafeBufferPointer<UInt8>) -> Kind? {
        func equals(_ word: StaticString) -> Bool {
            field.count == word.utf8CodeUnitCount
                && field.elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
        }
        switch field.first {
        case UInt8(ascii: "q"): return equals("query") ? .query : nil
        case UInt8(ascii: "m"): return equals("mutation") ? .mutation : nil
        case UInt8(ascii: "s"): return equals("subscription") ? .subscription : nil
        case UInt8(ascii: "f"): return equals("fragment") ? .fragment : nil
        default: return nil
        }
    }
}

extension LensModel {
    /// Every definition of the model that is not itself a summary, summarized, operations first,
    /// each kind in the model's order.
    package var summaries: [DefinitionSummary] {
        var result: [DefinitionSummary] = []
        let (plannedOperations, plannedFragments) = planned
        result.reserveCapacity(plannedOperations.count + plannedFragments.count)
        for operation in plannedOperations {
            let kind: DefinitionSummary.Kind =
                switch operation.kind {
                case .query: .query
                case .mutation: .mutation
                case .subscription: .subscription
                }
            var summary = DefinitionSummary(
                kind: kind, name: operation.name, path: operation.location.file.path,
                usedTypes: operation.usedTypes, operationID: operation.operationID)
            if operation.typeName != operation.name { summary.typeName = operation.typeName }
            result.append(summary)
        }
        for fragment in plannedFragments {
            var summary = DefinitionSummary(
                kind: .fragment, name: fragment.name, path: fragment.location.file.path,
                usedTypes: fragment.usedTypes, typeCondition: fragment.typeCondition)
            if fragment.typeName != fragment.name { summary.typeName = fragment.typeName }
            result.append(summary)
        }
        return result
    }
}

extension LensModel {
    /// The operations and fragments planned here, not summaries, each kind in the model's order (found by
    /// `plannedPositions` when the builder gave them).
    package var planned: (operations: [OperationModel], fragments: [FragmentModel]) {
        if let positions = plannedPositions {
            return (positions.operations.map { operations[$0] }, positions.fragments.map { fragments[$0] })
        }
        if summarized.operations.isEmpty, summarized.fragments.isEmpty { return (operations, fragments) }
        return (
            operations.filter { !summarized.operations.contains($0.name) },
            fragments.filter { !summarized.fragments.contains($0.name) }
        )
    }
}

extension LensBuildContext {
    /// The names of a type condition's possible types, sorted, as a fragment built here has them
    /// (`fragmentModel(named:)`); none for a type the schema does not have.
    func possibleTypeNames(_ condition: String) -> [String] {
        schema.type(named: condition).map { schema.possibleTypes(of: $0).map(\.name).sorted() } ?? []
    }

    /// Adds a stand-in for each of `outside` whose name this build did not define: an operation
    /// (kept in `planned`, unless an operation of its name was) or a fragment (to `fragmentModels`) with its
    /// name, kind, file, used types and (a fragment) type condition with its possible types, an
    /// empty lens and no text. Returns the names added.
    func addSummaries(
        _ outside: [DefinitionSummary], to planned: inout PlannedOperations
    ) -> (operations: Set<String>, fragments: Set<String>) {
        var added: (operations: Set<String>, fragments: Set<String>) = ([], [])
        var files: [String: SourceFile] = [:]
        var possible: [String: [String]] = [:]
        // As a fragment built here has them (`fragmentModel(named:)`), once per type.
        func possibleTypes(_ condition: String) -> [String] {
            if let known = possible[condition] { return known }
            let names = possibleTypeNames(condition)
            possible[condition] = names
            return names
        }
        func location(_ path: String) -> SourceRange {
            let file = files[path] ?? SourceFile(path: path, bytes: [])
            files[path] = file
            return SourceRange(file: file, span: Span(start: 0, end: 0))
        }
        for summary in outside {
            let kind: OperationType
            switch summary.kind {
            case .fragment:
                guard fragmentModels[summary.name] == nil else { continue }
                fragmentModels[summary.name] = FragmentModel(
                    name: summary.name, typeCondition: summary.typeCondition,
                    spreadAccessorName: LensNaming.spreadAccessorName(fragment: summary.name), throwOnFieldError: false,
                    rootCanBeNil: false, fragmentsSpread: [], usedTypes: summary.usedTypes,
                    lens: Lens(typeName: summary.name, recordType: summary.typeCondition, accessors: []),
                    location: location(summary.path), possibleTypes: possibleTypes(summary.typeCondition))
                added.fragments.insert(summary.name)
                continue
            case .query: kind = .query
            case .mutation: kind = .mutation
            case .subscription: kind = .subscription
            }
            guard !planned.has(summary.name) else { continue }
            var model = OperationModel(
                name: summary.name, kind: kind, rootType: "", variables: [], throwOnFieldError: false, onError: nil,
                fragmentsUsed: [], documentText: summary.documentText, usedTypes: summary.usedTypes,
                lens: Lens(typeName: summary.name, recordType: "", accessors: []), location: location(summary.path),
                hashesDocumentText: false)
            model.operationID = summary.operationID
            planned.keep(model)
            added.operations.insert(summary.name)
        }
        return added
    }
}
