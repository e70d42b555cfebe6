import BatonIR

/// Every module-level declaration of generated code, with its name and its file, decided once for every language:
/// a pure function of the plan, which every printer (Swift, Kotlin, a test's toy printer) only spells.
///
/// **One claim order**, for names and files alike: the schema namespace (when the plan has one), custom scalars,
/// enums, input objects, fragments, operations (each kind in the plan's order, which is sorted by name), then the
/// shared type conditions' file (`sharedTypeConditionsFile`, a name no GraphQL name can take). Schema types come
/// first because every document and view refers to them by the schema's names, then fragments, then operations
/// (Relay's and Apollo's precedent). Earlier claims win every collision:
///
/// 1. **Names** are the plan's (`DefinitionNaming` claimed them in this order: ignoring case, apart from every
///    name some printer reserves, `_` appended while taken). The layout states them as the declarations' names.
/// 2. **Files** are claimed here, in this order, in one `FileNaming` per output folder: the declaration's name,
///    shortened past `FileNaming.maximumBaseBytes`, with `_` appended while the name is taken ignoring case or is
///    a Windows device name (`CON`, `aux`): an enum `Con` takes the file `Con_`, and an operation named `Con_`
///    then takes `Con__`, in every language. A printer appends its extension and nothing else.
/// 3. **Test data builders** (`TestBuilderLayout`, `TestBuilderNaming`): a definition's builder is named after its
///    declared name with `Builder` appended, numbered (`Builder2`, …) while the name is taken ignoring case by a
///    declaration, a test kit's type (`TestBuilderNaming.kitTypeNames`), a nested lens's type or an earlier
///    builder; fragments' then operations', as above. Their files are claimed in their own folder's `FileNaming`,
///    in the same order. Nothing above depends on them, so they are stated apart, by the printers that write
///    builders only (a run without `testBuilders` claims no builder name: tens of thousands in a large project).
///
/// A declaration a language has no use for is still stated, so that the names and files of the others never
/// depend on the language: a host without namespaces (Kotlin, whose package is one) declares no schema namespace,
/// a host that spells type conditions in place (Kotlin) no shared type conditions, and a host that reads an
/// unmapped custom scalar as its built-in text type (Swift) no file for it (`TopLevelDeclaration.Kind`).
/// Escaping a keyword stays a printer's spelling (`IdentifierRules`); the plan's names are claimed apart from
/// every printer's reserved names, so escaping never makes two of them equal.
package struct TopLevelLayout: Sendable, Equatable {
    /// Every declaration, in the claim order.
    package private(set) var declarations: [TopLevelDeclaration] = []

    /// The base name of the file the shared type conditions are declared in (`DeclarationTree.sharedTypeConditions`):
    /// a `+` keeps it apart from every GraphQL name.
    package static let sharedTypeConditionsFile = "Baton+TypeConditions"

    /// The layout of `model`, every definition (summarized ones too: their kept files keep their paths).
    package init(_ model: LensModel) {
        var files = FileNaming()
        func add(
            _ kind: TopLevelDeclaration.Kind, _ index: Int, _ graphQLName: String, _ name: String, inBlock: Bool = false
        ) {
            var declaration = TopLevelDeclaration(
                kind: kind, index: index, graphQLName: graphQLName, name: name, file: files.claim(name))
            declaration.inBlock = inBlock
            declarations.append(declaration)
        }
        if let namespace = model.schemaNamespace { add(.schemaNamespace, 0, namespace, namespace) }
        for (index, item) in model.types.customScalars.enumerated() {
            add(.customScalar(mappedForSwift: item.mapping?.swiftType != nil), index, item.name, item.typeName)
        }
        for (index, item) in model.types.enums.enumerated() { add(.enumeration, index, item.name, item.typeName) }
        for (index, item) in model.types.inputObjects.enumerated() {
            add(.inputObject, index, item.name, item.typeName)
        }
        // A plan's block (`LensModel.block`) merged in name order: its definitions' names are the recorded ones,
        // their declarations marked `inBlock`, their index the block's.
        let block = model.block ?? .empty
        let lines = block.lines
        func definitions(
            _ kind: TopLevelDeclaration.Kind, _ names: [(name: String, typeName: String)], _ list: [Int]
        ) {
            SummaryBlock.merge(names, name: { $0.name }, list, in: lines) { index in
                add(kind, index, names[index].name, names[index].typeName)
            } block: { index in
                let (name, typeName) = lines.names(at: list[index])
                add(kind, index, name, typeName, inBlock: true)
            }
        }
        definitions(.fragment, model.fragments.map { ($0.name, $0.typeName) }, block.fragments)
        definitions(.operation, model.operations.map { ($0.name, $0.typeName) }, block.operations)
        if !DeclarationLowering.sharedTypeConditions(model).isEmpty {
            add(.sharedTypeConditions, 0, "", Self.sharedTypeConditionsFile)
        }
    }

    /// The declarations of `kinds`' kinds, listed kind by kind in that order (a printer's listing order; the names
    /// and files are the claim order's).
    package func declarations(listed kinds: [TopLevelDeclaration.Kind.Group]) -> [TopLevelDeclaration] {
        // Each kind's declarations gathered in one pass (a large project's layout holds tens of thousands).
        let groups = TopLevelDeclaration.Kind.Group.allCases
        var byGroup = [[TopLevelDeclaration]](repeating: [], count: groups.count)
        for declaration in declarations {
            if let at = groups.firstIndex(of: declaration.kind.group) { byGroup[at].append(declaration) }
        }
        return kinds.flatMap { group in groups.firstIndex(of: group).map { byGroup[$0] } ?? [] }
    }

    /// The declared names of one kind's declarations, by GraphQL name.
    package func names(_ group: TopLevelDeclaration.Kind.Group) -> [String: String] {
        var result: [String: String] = [:]
        for declaration in declarations where declaration.kind.group == group {
            result[declaration.graphQLName] = declaration.name
        }
        return result
    }

    /// The schema namespace's declaration, when the plan has one.
    package var schemaNamespace: TopLevelDeclaration? { declarations.first { $0.kind == .schemaNamespace } }
}

/// One module-level declaration: what it is, its name and its file.
package struct TopLevelDeclaration: Sendable, Equatable {
    /// What is declared. Every kind is stated for every language; the hosts that declare nothing for one say so in
    /// one place each (`SwiftGenerator.declares`, `KotlinGenerator.declares`), by the kind alone.
    package enum Kind: Sendable, Hashable {
        /// The namespace schema types are declared in (Swift's `output.swift.namespace`): a host with no
        /// namespaces of its own declares it; Kotlin's package is its namespace.
        case schemaNamespace
        /// A custom scalar, and whether the app maps it to a Swift type: a host that declares an alias for every
        /// custom scalar (Kotlin) declares each, one that reads unmapped ones as text with no declaration (Swift)
        /// only the mapped.
        case customScalar(mappedForSwift: Bool)
        case enumeration
        case inputObject
        case fragment
        case operation
        /// The type conditions shared by fragments on abstract types (`DeclarationTree.sharedTypeConditions`):
        /// declared once by a host that refers to them (Swift); Kotlin spells them where they are used.
        case sharedTypeConditions

        /// The kinds without their details.
        package enum Group: Sendable, Hashable, CaseIterable {
            case schemaNamespace, customScalar, enumeration, inputObject, fragment, operation, sharedTypeConditions
        }

        package var group: Group {
            switch self {
            case .schemaNamespace: .schemaNamespace
            case .customScalar: .customScalar
            case .enumeration: .enumeration
            case .inputObject: .inputObject
            case .fragment: .fragment
            case .operation: .operation
            case .sharedTypeConditions: .sharedTypeConditions
            }
        }
    }

    package var kind: Kind
    /// The position of the definition in the plan's list of its kind (`LensModel.operations`, …; the block's, for
    /// a definition `inBlock`); 0 for the namespace and the shared type conditions.
    package var index: Int
    /// The GraphQL name (the namespace's configured name; empty for the shared type conditions).
    package var graphQLName: String
    /// The declared name, after collision resolution, before any language's escaping.
    package var name: String
    /// The file's base name: a printer appends its extension (`.graphql.swift`, `.kt`) and nothing else.
    package var file: String
    /// A definition of the plan's block (`LensModel.block`): `index` is its position in the block's list of its
    /// kind, and its file is kept, never spelt.
    package var inBlock = false

    package init(kind: Kind, index: Int, graphQLName: String, name: String, file: String) {
        self.kind = kind
        self.index = index
        self.graphQLName = graphQLName
        self.name = name
        self.file = file
    }
}

extension TopLevelDeclaration {
    /// A block definition's line (in the block's `lines`) and key (`DefinitionKey`), for the kept file a printer
    /// lists for it; nil for a declaration not `inBlock`. The plan's block (`LensModel.block`, or `.empty` without
    /// one) is taken once by the caller, which lists every declaration.
    package func blockDefinition(in block: SummaryBlock) -> (line: Int, key: String)? {
        guard inBlock else { return nil }
        switch kind {
        case .operation:
            return (block.operations[index], DefinitionKey.operation(graphQLName))
        case .fragment:
            return (block.fragments[index], DefinitionKey.fragment(graphQLName))
        default: return nil
        }
    }
}

/// The test data builders' declarations: one per fragment and operation, in the claim order (fragments', then
/// operations'), with their names and files in their own folder (`TopLevelLayout`'s header states the rule).
package struct TestBuilderLayout: Sendable, Equatable {
    /// The builders, in the claim order.
    package private(set) var builders: [TopLevelDeclaration] = []
    /// The builders' names by fragment and by operation name.
    package let naming: TestBuilderNaming

    package init(_ model: LensModel) {
        naming = TestBuilderNaming(model)
        var files = FileNaming()
        func add(_ kind: TopLevelDeclaration.Kind, _ index: Int, _ graphQLName: String, _ name: String?) {
            let name = name ?? graphQLName + "Builder"
            builders.append(
                TopLevelDeclaration(
                    kind: kind, index: index, graphQLName: graphQLName, name: name, file: files.claim(name)))
        }
        for (index, item) in model.fragments.enumerated() {
            add(.fragment, index, item.name, naming.fragments[item.name])
        }
        for (index, item) in model.operations.enumerated() {
            add(.operation, index, item.name, naming.operations[item.name])
        }
    }
}

/// The names of the test data builders' top-level types, claimed by `TestBuilderLayout` (`TopLevelLayout`'s header
/// states the rule).
package struct TestBuilderNaming: Sendable, Equatable {
    /// The test kits' type names (`BatonTesting`, `baton.testing`), which generated builders refer to unqualified.
    package static let kitTypeNames: Set<String> = [
        "BatonTesting", "BuiltField", "BuildContext", "BuilderResolver", "DataBuilder", "OperationDataBuilder",
        "BuiltResponse", "BuiltNode", "BuilderFill", "BuilderNarrowing",
    ]

    /// Builder type names by operation name.
    package private(set) var operations: [String: String] = [:]
    /// Builder type names by fragment name.
    package private(set) var fragments: [String: String] = [:]

    init() {}

    init(_ model: LensModel) {
        var taken = Self.kitTypeNames
        taken.formUnion(model.operations.map(\.typeName))
        taken.formUnion(model.fragments.map(\.typeName))
        taken.formUnion(model.types.enums.map(\.typeName))
        taken.formUnion(model.types.inputObjects.map(\.typeName))
        taken.formUnion(model.types.customScalars.map(\.typeName))
        if let namespace = model.schemaNamespace { taken.insert(namespace) }
        func nested(_ lens: Lens) {
            for accessor in lens.accessors {
                guard case .lens(let inner) = accessor.base else { continue }
                taken.insert(inner.typeName)
                nested(inner)
            }
        }
        for operation in model.operations { nested(operation.lens) }
        for fragment in model.fragments { nested(fragment.lens) }
        // Names differing only in case collide as file names on macOS and Windows.
        var folded = Set(taken.map { $0.lowercased() })
        func claim(_ typeName: String) -> String {
            var name = typeName + "Builder"
            var number = 2
            while folded.contains(name.lowercased()) {
                name = typeName + "Builder" + String(number)
                number += 1
            }
            folded.insert(name.lowercased())
            return name
        }
        // The claim order: fragments, then operations.
        for fragment in model.fragments { fragments[fragment.name] = claim(fragment.typeName) }
        for operation in model.operations { operations[operation.name] = claim(operation.typeName) }
    }
}

extension TestBuilderDefinition {
    /// Every builder of `layout`, with what its file needs, in the claim order (fragments', then operations').
    package static func all(_ model: LensModel, layout: TestBuilderLayout) -> [(TestBuilderDefinition, file: String)] {
        layout.builders.map { builder in
            switch builder.kind {
            case .fragment:
                let fragment = model.fragments[builder.index]
                return (
                    TestBuilderDefinition(
                        typeName: builder.name, lens: fragment.lens, operationName: nil, fragmentName: fragment.name,
                        definitionKey: fragment.definitionKey, origin: fragment.location.file.path), builder.file
                )
            default:
                let operation = model.operations[builder.index]
                return (
                    TestBuilderDefinition(
                        typeName: builder.name, lens: operation.lens, operationName: operation.name,
                        fragmentName: nil, definitionKey: operation.definitionKey,
                        origin: operation.location.file.path), builder.file
                )
            }
        }
    }
}
