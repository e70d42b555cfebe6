import BatonIR
import BatonSchema
import BatonSyntax

/// The one lowering of the plan into the declaration tree (`DeclarationTree`): pure, linear in the plan's size.
///
/// `tree()` lowers everything; each construct's function (`enumeration(_:)`, `inputObject(_:)`, …) lowers one
/// definition on its own, so a generator rendering files in parallel, or one at a time as they are written,
/// lowers each where it prints it and never holds the whole tree. Both give the same declarations.
package struct DeclarationLowering: Sendable {
    private let enumNames: Set<String>
    private let inputObjectNames: Set<String>
    private let model: LensModel
    /// Each fragment's optimistic builder's name, for the builders that merge it in.
    private let fragmentBuilders: [String: String]
    /// The fragments with `@throwOnFieldError`, which their spreads state.
    private let throwingFragments: Set<String>
    /// Operations' texts split into their own definitions and their fragments' shared texts, across operations.
    private let documents: DocumentParts
    /// Each fragment's index in the model, by name (`LensModel.fragment(named:)` searches the list).
    private let fragmentIndex: [String: Int]
    /// What only a JVM host reads is stated: every property's getter (`jvmGetter`, `JVMAccessorNames`) and the names
    /// that meet ignoring case (`sharesNameIgnoringCase`, class files). Without it getters are empty and no name
    /// shares another's: a printer for another host (Swift) does not pay for them.
    private let jvmNames: Bool
    /// Each enum, input object and custom scalar the plan lists as a declared type, non-null and nullable, made once
    /// with the lowering (the built-in scalars' are made once for all, `builtInTypes`): every member, selection,
    /// variable and input field that reads one as it is shares it rather than boxing its levels again
    /// (`DeclaredType` is an `indirect` enum).
    private let namedTypes: NamedTypes
    /// Declared types by a named type's name: non-null, nullable.
    package typealias NamedTypes = [String: (nonNull: DeclaredType, nullable: DeclaredType)]

    /// The lowering of `model`; `jvmNames: false` for a printer that reads neither getters nor case twins (the one
    /// place that decides it: each generator, where it makes its lowering).
    package init(_ model: LensModel, jvmNames: Bool = true) {
        self.model = model
        self.jvmNames = jvmNames
        var builders: [String: String] = [:]
        var index: [String: Int] = [:]
        index.reserveCapacity(model.fragments.count)
        for (position, fragment) in model.fragments.enumerated() {
            if let name = fragment.lens.optimisticTypeName { builders[fragment.name] = name }
            if index[fragment.name] == nil { index[fragment.name] = position }
        }
        fragmentBuilders = builders
        fragmentIndex = index
        throwingFragments = Set(model.fragments.lazy.filter(\.throwOnFieldError).map(\.name))
        enumNames = Set(model.types.enums.map(\.name))
        inputObjectNames = Set(model.types.inputObjects.map(\.name))
        documents = DocumentParts(model: model)
        var namedTypes: NamedTypes = [:]
        for name in [enumNames, inputObjectNames].joined() + model.types.customScalars.map(\.name) {
            let type = DeclaredType.named(
                Self.namedType(name, enumNames: enumNames, inputObjectNames: inputObjectNames))
            namedTypes[name] = (type, .optional(type))
        }
        self.namedTypes = namedTypes
    }

    /// The fragment named `name`, found in constant time (the generators' lookup too).
    package func fragment(named name: String) -> FragmentModel? {
        fragmentIndex[name].map { model.fragments[$0] }
    }

    /// Every declaration of the plan: custom scalars, enums, input objects, fragments, operations, in the layout's
    /// claim order (`TopLevelLayout`), each with its name and file. Summarized definitions (`LensModel.summarized`)
    /// are the earlier plan's and are left out (the layout keeps them: their kept files keep their paths).
    package func tree() -> DeclarationTree {
        let layout = TopLevelLayout(model)
        var files: [DeclarationFile] = []
        files.reserveCapacity(layout.declarations.count)
        for entry in layout.declarations where !entry.inBlock {
            let declaration: Declaration
            switch entry.kind {
            case .schemaNamespace, .sharedTypeConditions: continue
            case .customScalar: declaration = .customScalar(customScalar(model.types.customScalars[entry.index]))
            case .enumeration: declaration = .enumeration(enumeration(model.types.enums[entry.index]))
            case .inputObject: declaration = .inputObject(inputObject(model.types.inputObjects[entry.index]))
            case .fragment:
                let fragment = model.fragments[entry.index]
                if model.summarized.fragments.contains(fragment.name) { continue }
                declaration = .fragment(self.fragment(fragment))
            case .operation:
                let operation = model.operations[entry.index]
                if model.summarized.operations.contains(operation.name) { continue }
                declaration = .operation(self.operation(operation))
            }
            files.append(DeclarationFile(name: entry.name, file: entry.file, declaration: declaration))
        }
        return DeclarationTree(files: files, sharedTypeConditions: sharedTypeConditions(), layout: layout)
    }

    /// The type conditions of fragments on abstract types with object types of their own, each once, sorted by
    /// name (every fragment's, a summarized one's too: its kept file refers to the shared one). A printer declares
    /// each once and has every fragment on the type refer to it, rather than spell hundreds of possible types in
    /// every fragment.
    package func sharedTypeConditions() -> [TypeCondition] { Self.sharedTypeConditions(model) }

    /// `sharedTypeConditions()` of `model`, without lowering anything else.
    package static func sharedTypeConditions(_ model: LensModel) -> [TypeCondition] {
        var found: [String: [String]] = [:]
        func add(_ typeCondition: String, _ possibleTypes: [String]) {
            let condition = TypeCondition(name: typeCondition, possibleTypes: possibleTypes)
            if condition.isShared { found[typeCondition] = possibleTypes }
        }
        for fragment in model.fragments where found[fragment.typeCondition] == nil {
            add(fragment.typeCondition, fragment.possibleTypes)
        }
        // A block's fragments (`LensModel.block`): their type conditions' possible types, as the builder found them.
        if let block = model.block {
            for (typeCondition, possibleTypes) in block.possibleTypes where found[typeCondition] == nil {
                add(typeCondition, possibleTypes)
            }
        }
        return found.sorted { $0.key < $1.key }.map { TypeCondition(name: $0.key, possibleTypes: $0.value) }
    }

    // MARK: - Schema types

    package func customScalar(_ scalar: CustomScalarModel) -> CustomScalarDeclaration {
        CustomScalarDeclaration(
            name: scalar.name, typeName: scalar.typeName, documentation: scalar.description,
            specifiedBy: scalar.specifiedByURL, swiftType: scalar.mapping?.swiftType,
            kotlinType: scalar.mapping?.kotlinType, kotlinConverter: scalar.mapping?.kotlinConverter)
    }

    package func enumeration(_ item: EnumModel) -> EnumDeclaration {
        let twins = caseTwins(item.values.count) { item.values.map(\.name) }
        return EnumDeclaration(
            name: item.name, typeName: item.typeName, documentation: item.description,
            values: item.values.enumerated().map { index, value in
                EnumValueDeclaration(
                    name: value.name, documentation: value.description,
                    deprecation: value.deprecationReason.map(Deprecation.init(reason:)),
                    sharesNameIgnoringCase: twins[index])
            })
    }

    package func inputObject(_ item: InputObjectModel) -> InputObjectDeclaration {
        let twins = caseTwins(item.fields.count) { item.fields.map(\.name) }
        // A plain input object is one class of every field; a `@oneOf` one a class per field.
        let getters =
            !jvmNames
            ? [String](repeating: "", count: item.fields.count)
            : item.isOneOf
                ? item.fields.map { JVMAccessorNames.resolve([$0.name])[0] }
                : JVMAccessorNames.resolve(item.fields.map(\.name))
        return InputObjectDeclaration(
            name: item.name, typeName: item.typeName, documentation: item.description, isOneOf: item.isOneOf,
            fields: item.fields.enumerated().map { index, field in
                let presence: InputFieldPresence =
                    switch field.presence {
                    case .required: .required
                    case .absentOrValue: .absentOrValue
                    case .absentNullOrValue: .absentNullOrValue
                    }
                return InputFieldDeclaration(
                    name: field.name, type: declaredType(field.type), presence: presence,
                    documentation: field.description,
                    deprecation: field.deprecationReason.map(Deprecation.init(reason:)),
                    sharesNameIgnoringCase: twins[index], jvmGetter: getters[index])
            })
    }

    // MARK: - Definitions

    package func fragment(_ fragment: FragmentModel) -> FragmentDeclaration {
        FragmentDeclaration(
            name: fragment.name, typeName: fragment.typeName,
            typeCondition: TypeCondition(name: fragment.typeCondition, possibleTypes: fragment.possibleTypes),
            spreadMemberName: fragment.spreadAccessorName, readsNilAtRoot: fragment.rootCanBeNil,
            throwOnFieldError: fragment.throwOnFieldError,
            lens: LensSharing.mark(lens(fragment.lens)), entryPoints: entryPoints(of: fragment),
            documentText: documents.fragmentTexts[fragment.name])
    }

    /// A fragment's entry points: `@refetchable`'s refetch (and paging), or none. Cheap: a printer asks for them
    /// without lowering the fragment's lens.
    package func entryPoints(of fragment: FragmentModel) -> [EntryPoint] {
        guard let refetch = fragment.refetchable else { return [] }
        func page(_ count: String?, _ cursor: String?) -> PageVariables? {
            count == nil && cursor == nil ? nil : PageVariables(count: count, cursor: cursor)
        }
        return [
            .refetch(
                RefetchEntryPoint(
                    query: refetch.queryName, throughNode: refetch.throughNode, connectionPath: refetch.connectionPath,
                    forward: page(refetch.forwardCount, refetch.forwardCursor),
                    backward: page(refetch.backwardCount, refetch.backwardCursor)))
        ]
    }

    package func operation(_ operation: OperationModel) -> OperationDeclaration {
        let kind: OperationDeclaration.Kind =
            switch operation.kind {
            case .query: .query
            case .mutation: .mutation
            case .subscription: .subscription
            }
        return OperationDeclaration(
            name: operation.name, typeName: operation.typeName, kind: kind, rootType: operation.rootType,
            documentText: operation.documentText, documentParts: documents.operations[operation.name],
            throwOnFieldError: operation.throwOnFieldError,
            onError: operation.onError,
            deliversIncrementally: model.deliversIncrementally(operation, fragment: fragment(named:)),
            variables: variables(of: operation),
            lens: LensSharing.mark(lens(operation.lens)), entryPoints: entryPoints(of: operation),
            operationID: operation.operationID)
    }

    /// An operation's variables in declaration order. Cheap: a printer asks for them without lowering the lens.
    package func variables(of operation: OperationModel) -> [VariableDeclaration] {
        let getters = self.getters(operation.variables.count, fixed: JVMAccessorNames.operationMembers) {
            operation.variables.map(\.name)
        }
        return operation.variables.enumerated().map { index, variable in
            VariableDeclaration(
                name: variable.name, type: declaredType(variable.type),
                defaultValue: variable.defaultValue.map(WrittenValue.init), mayBeLeftOut: variable.isOptional,
                isClientOnly: variable.isClientOnly, holdsConnectionIDs: variable.holdsConnectionIDs,
                jvmGetter: getters[index])
        }
    }

    /// An operation's entry points: a query is fetched (and a `@refetchable` fragment's query is its pagination's),
    /// a subscription subscribed to, a mutation called. Cheap: a printer asks for them without lowering the lens.
    package func entryPoints(of operation: OperationModel) -> [EntryPoint] {
        var points: [EntryPoint]
        switch operation.kind {
        case .query: points = [.fetch]
        case .mutation:
            points = [
                .mutationCall(
                    MutationCallEntryPoint(
                        operationName: operation.name, optimisticBuilder: operation.lens.optimisticTypeName))
            ]
        case .subscription: points = [.subscribe]
        }
        if let fragment = operation.refetchableFragment { points.append(.refetchQuery(fragment: fragment)) }
        return points
    }

    // MARK: - Lenses

    package func lens(_ lens: Lens) -> LensDeclaration {
        let twins = caseTwins(lens.accessors.count) { lens.accessors.map(\.name) }
        // The members' getters, then the connection id's (a JVM host declares it after them).
        let getters = self.getters(lens.accessors.count + (lens.connectionIDName == nil ? 0 : 1)) {
            lens.accessors.map(\.name) + (lens.connectionIDName.map { [$0] } ?? [])
        }
        // Each accessor read in place, by index: not copied into a closure's argument.
        let accessors = lens.accessors
        let members = accessors.indices.map { index in
            member(accessors[index], sharesNameIgnoringCase: twins[index], jvmGetter: getters[index])
        }
        return LensDeclaration(
            typeName: lens.typeName, recordType: lens.recordType, recordIsAbstract: lens.recordIsAbstract,
            possibleTypes: lens.possibleTypes, isIdentifiable: lens.isIdentifiable,
            connectionIDName: lens.connectionIDName,
            connectionIDJVMGetter: lens.connectionIDName == nil ? nil : getters[lens.accessors.count], members: members,
            optimisticBuilder: lens.optimisticTypeName.map { optimisticBuilder(lens, typeName: $0) })
    }

    private func member(_ accessor: Accessor, sharesNameIgnoringCase: Bool, jvmGetter: String) -> MemberDeclaration {
        let source: MemberSource
        var selection: FieldSelection?
        // The nested lens of the plan, read once (`Accessor.lens` copies it out of the accessor's base).
        let nestedLens = accessor.lens
        switch accessor.reads {
        case .field(let read):
            source = .field(
                responseKey: read.responseKey, fieldName: read.fieldName,
                arguments: read.arguments.map { WrittenField(name: $0.name, value: WrittenValue($0.value)) })
            selection = fieldSelection(accessor, read, composite: nestedLens != nil)
        case .parentRecord(let read):
            let fragment: SpreadFragment? =
                if case .fragment(let base) = accessor.base {
                    SpreadFragment(
                        name: base.name, typeCondition: base.typeCondition,
                        throwOnFieldError: throwingFragments.contains(base.name))
                } else { nil }
            source = .parentRecord(
                fragment: fragment, typeCondition: read.typeCondition, matchingTypes: read.matchingTypes)
        }
        let delivery: MemberDelivery
        switch accessor.delivery {
        case .immediate: delivery = .immediate
        case .deferred(let fragment): delivery = .deferred(label: fragment.label)
        case .streamed(let list):
            switch list.initialCount {
            case .literal(let count): delivery = .streamed(initialCount: .literal(count))
            case .variable(let name): delivery = .streamed(initialCount: .variable(name))
            }
        }
        let condition: [[ConditionAtom]]
        let runtimeCondition: [[ConditionAtom]]
        let alternatives = accessor.presence.alternatives
        if alternatives.count == 1, alternatives[0].isEmpty {
            // Always present (almost every member): one shared value, nothing mapped or compared.
            (condition, runtimeCondition) = (Self.always, Self.always)
        } else {
            condition = alternatives.map { $0.map(Self.atom) }
            let runtime = accessor.presence.atRuntime
            runtimeCondition = runtime == accessor.presence ? condition : runtime.alternatives.map { $0.map(Self.atom) }
        }
        // Read once for the member's mode and its type (`Accessor.readMode` is computed).
        let readMode = accessor.readMode
        // The nested lens lowered by a call, not through `accessor.lens.map(lens)`: a method passed as a function
        // value copies the lowering into its context (a retain and a release per field) for every nested lens.
        let nested: LensDeclaration? = if let nestedLens { self.lens(nestedLens) } else { nil }
        return MemberDeclaration(
            name: accessor.name, source: source,
            type: Self.memberType(accessor, readMode: readMode, shared: namedTypes),
            readMode: Self.readMode(readMode), condition: condition,
            runtimeCondition: runtimeCondition,
            delivery: delivery, selection: selection, lens: nested,
            sharesNameIgnoringCase: sharesNameIgnoringCase, jvmGetter: jvmGetter)
    }

    /// The condition of a member that is always present.
    private static let always: [[ConditionAtom]] = [[]]

    /// What the normalization plan states about a field member; `composite` when it reads a nested lens (its schema
    /// type names an object, interface or union type: `declaredType(_:named:composite:)`).
    private func fieldSelection(_ accessor: Accessor, _ read: FieldRead, composite: Bool) -> FieldSelection {
        let required: RequiredNullAction? =
            switch accessor.required?.action {
            case nil: nil
            case .silent?: RequiredNullAction.none
            case .log?: .log
            case .throwError?: .throwError
            }
        let catches: CatchTo? =
            switch accessor.catchMode {
            case nil: nil
            case .result?: .result
            case .null?: .null
            }
        return FieldSelection(
            schemaType: declaredType(read.schemaType, composite: composite),
            nonNullLevels: Self.nonNullLevels(accessor.levels),
            required: required, catches: catches,
            connection: accessor.connection.map { ConnectionDeclaration(key: $0.key, filters: $0.filters) },
            recordUpdate: accessor.recordUpdate.map {
                RecordUpdateDeclaration(
                    kind: $0.kind.rawValue, connections: $0.connections.map(WrittenValue.init),
                    edgeTypeName: $0.edgeTypeName, typeName: $0.typeName)
            },
            recordKeys: accessor.recordKeys.map { RecordKeyDeclaration(typeName: $0.typeName, fields: $0.fields) })
    }

    /// The levels' `nonNull` flags, outermost first: a list of one or two levels (almost every field's) is one made
    /// once and shared, not an array allocated per member.
    private static func nonNullLevels(_ levels: [ValueLevel]) -> [Bool] {
        switch levels.count {
        case 1: return levels[0].nonNull ? oneLevel.nonNull : oneLevel.nullable
        case 2: return twoLevels[(levels[0].nonNull ? 2 : 0) + (levels[1].nonNull ? 1 : 0)]
        default: return levels.map(\.nonNull)
        }
    }

    private static let oneLevel = (nonNull: [true], nullable: [false])
    /// Indexed by the outer level's flag (2) plus the inner one's (1).
    private static let twoLevels = [[false, false], [false, true], [true, false], [true, true]]

    /// What a read of `accessor` returns: its levels (optional where the plan says, a list per level after the
    /// first) around its base, then what its read mode makes of that: a `@catch` Result, a `@defer` phase, a
    /// `@stream`ed list's items so far.
    ///
    /// `shared` holds named types' declared types made once (the lowering's `namedTypes`): a single level read as it
    /// is returns its own rather than boxing one.
    package static func memberType(_ accessor: Accessor, shared: NamedTypes = [:]) -> DeclaredType {
        memberType(accessor, readMode: accessor.readMode, shared: shared)
    }

    /// `memberType(_:shared:)` with the accessor's read mode already read (`Accessor.readMode` is computed: the
    /// lowering of a member reads it once for the member's mode and its type).
    private static func memberType(_ accessor: Accessor, readMode: ReadMode, shared: NamedTypes) -> DeclaredType {
        let named = baseType(accessor)
        let levels = accessor.levels.isEmpty ? [ValueLevel(schemaNullable: true, isOptional: true)] : accessor.levels
        let outerOptional = levels[0].isOptional
        // Asked before any level is boxed: a single level read as it is (most scalar and enum members) takes the type
        // made once, and no `.named` box is made only to be dropped.
        if levels.count == 1, readMode != .deferred, readMode != .catchToResult,
            let types = sharedTypes(named, in: shared)
        {
            return outerOptional ? types.nullable : types.nonNull
        }
        // The items, below the outermost level.
        var inner = DeclaredType.named(named)
        for index in levels.indices.dropFirst().reversed() {
            if index != levels.count - 1 { inner = .list(inner) }
            if levels[index].isOptional { inner = .optional(inner) }
        }
        var value: DeclaredType
        switch readMode {
        case .deferred: value = .deferred(inner)
        case .streamed where levels.count > 1: value = .streamed(inner)
        default: value = levels.count > 1 ? .list(inner) : inner
        }
        if outerOptional { value = .optional(value) }
        return readMode == .catchToResult ? .result(value) : value
    }

    /// The named type at the bottom of `memberType(accessor)` (its `named`), without making the type.
    private static func baseType(_ accessor: Accessor) -> DeclaredNamedType {
        switch accessor.base {
        case .scalar(let scalar): scalar.isBuiltIn ? .builtInScalar(scalar.name) : .customScalar(scalar.name)
        case .enumeration(let name): .enumeration(name)
        case .lens(let lens): .lens(lens.typeName)
        case .fragment(let fragment): .fragment(fragment.name)
        }
    }

    private static func readMode(_ mode: ReadMode) -> MemberReadMode {
        switch mode {
        case .spread: .spread
        case .deferred: .deferred
        case .streamed: .streamed
        case .typename: .typename
        case .catchToResult: .catchToResult
        case .catchToNull: .catchToNull
        case .throwWhenNull: .throwWhenNull
        case .throwOnFieldError: .throwOnFieldError
        case .plain: .plain
        }
    }

    private static func atom(_ atom: PresenceAtom) -> ConditionAtom {
        switch atom {
        case .include(let variable): .include(variable: variable)
        case .skip(let variable): .skip(variable: variable)
        case .deferred(let label, let variable): .deferred(label: label, variable: variable)
        }
    }

    // MARK: - Optimistic builders

    /// The typed optimistic-response builder of `lens` (named `typeName`): `OptimisticShape`'s properties, then the
    /// key fields no property gives.
    package func optimisticBuilder(_ lens: Lens, typeName: String) -> OptimisticBuilderDeclaration {
        let shape = OptimisticShape(lens)
        // Every property's getter, after `typename`'s when the builder takes one (a JVM host declares it first).
        let getters = self.getters(
            shape.properties.count + shape.keyFields.count, fixed: shape.takesTypename ? ["typename"] : []
        ) { shape.properties.map { lens.accessors[$0.accessor].name } + shape.keyFields.map(\.name) }
        var properties: [OptimisticPropertyDeclaration] = shape.properties.enumerated().map { index, property in
            let accessor = lens.accessors[property.accessor]
            let part: OptimisticPropertyDeclaration.Part
            let type: DeclaredType
            switch property.part {
            case .field(let responseKey, let schemaType, let nested):
                part = .field(responseKey: responseKey, nestedBuilder: nested)
                type = declaredType(
                    schemaType, named: nested ? Self.builder(of: accessor) : Self.baseType(accessor))
            case .fragment(let name):
                part = .fragmentSpread(fragment: name)
                type = .named(
                    .optimisticBuilder(lens: nil, fragment: name, builder: fragmentBuilders[name] ?? "Optimistic"))
            case .inlineFragment:
                part = .inlineFragment
                type = .named(Self.builder(of: accessor))
            }
            return OptimisticPropertyDeclaration(
                name: accessor.name, member: property.accessor, part: part, type: type,
                mayBeLeftOut: property.mayBeLeftOut, hasDefault: property.hasDefault, jvmGetter: getters[index])
        }
        for (index, field) in shape.keyFields.enumerated() {
            properties.append(
                OptimisticPropertyDeclaration(
                    name: field.name, member: nil, part: .keyField, type: declaredType(field.schemaType),
                    mayBeLeftOut: false, hasDefault: false, jvmGetter: getters[shape.properties.count + index]))
        }
        return OptimisticBuilderDeclaration(
            typeName: typeName, recordType: shape.recordType, takesTypename: shape.takesTypename,
            properties: properties)
    }

    // MARK: - Test data builders

    /// The test data builder of `lens` (`TestBuilderShape`) and of the lenses nested in it, lowered;
    /// `firstEnumValues` gives an enum's first value by the enum's name.
    package func testBuilder(_ lens: Lens, firstEnumValues: [String: String]) -> TestBuilderDeclaration {
        let shape = TestBuilderShape(lens) { firstEnumValues[$0] }
        func field(
            _ responseKey: String, _ fieldName: String, _ schemaType: TypeRef, _ value: TestBuilderShape.Value,
            _ fill: TestBuilderShape.Fill
        ) -> TestBuilderField {
            return TestBuilderField(
                responseKey: responseKey, fieldName: fieldName, schemaType: declaredType(schemaType), value: value,
                fill: fill)
        }
        // Every property's getter, then the key fields': after `typename`'s when the builder takes one and an
        // operation's builder's `operationName` (a JVM host declares both besides).
        let getters = self.getters(
            shape.properties.count + shape.keyFields.count,
            fixed: (shape.takesTypename ? ["typename"] : []) + ["operationName"]
        ) { shape.properties.map { lens.accessors[$0.accessor].name } + shape.keyFields.map(\.name) }
        let properties = shape.properties.enumerated().map { index, property in
            let accessor = lens.accessors[property.accessor]
            let part: TestBuilderPropertyDeclaration.Part
            switch property.part {
            case .field(let responseKey, let fieldName, let schemaType, let value, let fill):
                let nested =
                    value == .builder ? accessor.lens.map { testBuilder($0, firstEnumValues: firstEnumValues) } : nil
                part = .field(field(responseKey, fieldName, schemaType, value, fill), nested: nested)
            case .fragment(let name): part = .fragmentSpread(fragment: name)
            case .inlineFragment:
                part = .inlineFragment(accessor.lens.map { testBuilder($0, firstEnumValues: firstEnumValues) })
            }
            return TestBuilderPropertyDeclaration(
                name: accessor.name, part: part, appliesTo: property.appliesTo, jvmGetter: getters[index])
        }
        return TestBuilderDeclaration(
            typeName: lens.typeName, recordType: lens.recordType, takesTypename: shape.takesTypename,
            defaultTypename: shape.defaultTypename, properties: properties,
            keyFields: shape.keyFields.map { field($0.name, $0.name, $0.schemaType, $0.value, $0.fill) },
            keyFieldJVMGetters: shape.keyFields.indices.map { getters[shape.properties.count + $0] })
    }

    /// The builder of the nested lens `accessor` reads.
    private static func builder(of accessor: Accessor) -> DeclaredNamedType {
        .optimisticBuilder(
            lens: accessor.lens?.typeName, fragment: nil, builder: accessor.lens?.optimisticTypeName ?? "Optimistic")
    }

    // MARK: - Types and names

    /// A schema type as a declared type: optional where the schema's type is nullable; its name an enum's, an
    /// input object's, a built-in scalar's or else a custom scalar's (or `named` when given).
    ///
    /// `composite`: the type is known to name an object, interface or union type (a field that reads a nested lens),
    /// which is none of the built-in scalars and none of `namedTypes`' kinds, so its name is not looked up there.
    package func declaredType(
        _ type: TypeRef, named: DeclaredNamedType? = nil, composite: Bool = false
    ) -> DeclaredType {
        if named == nil {
            // `namedTypes` holds every enum, input object and custom scalar of the plan: a name it lacks that is not
            // a built-in scalar's is any other type's (an object's), which `namedType` declares as `.customScalar`
            // (asked here without hashing the name against each kind's set again).
            switch type {
            case .named(let name):
                return (composite ? nil : sharedTypes(name))?.nullable ?? .optional(.named(.customScalar(name)))
            case .nonNull(.named(let name)):
                return (composite ? nil : sharedTypes(name))?.nonNull ?? .named(.customScalar(name))
            default: break
            }
        }
        return switch type {
        case .nonNull(let inner): nonNullType(inner, named: named, composite: composite)
        default: .optional(nonNullType(type, named: named, composite: composite))
        }
    }

    /// The declared types of the schema's type named `name`, made once: a built-in scalar's or `namedTypes`'.
    private func sharedTypes(_ name: String) -> (nonNull: DeclaredType, nullable: DeclaredType)? {
        Self.builtInTypes(name) ?? namedTypes[name]
    }

    /// The built-in scalars' declared types (non-null, nullable), in `builtInScalars`' order, made once for all.
    private static let builtInTypeList: [(nonNull: DeclaredType, nullable: DeclaredType)] = builtInScalars.map {
        let type = DeclaredType.named(.builtInScalar($0))
        return (type, .optional(type))
    }

    /// The declared types of the built-in scalar named `name`, compared by name (no hash); nil for any other name.
    private static func builtInTypes(_ name: String) -> (nonNull: DeclaredType, nullable: DeclaredType)? {
        builtInScalars.firstIndex(of: name).map { builtInTypeList[$0] }
    }

    /// `named`'s declared types made once: a built-in scalar's, or `table`'s when it holds them for `named` itself
    /// (not for another kind of type of the same name).
    private static func sharedTypes(
        _ named: DeclaredNamedType, in table: NamedTypes
    ) -> (nonNull: DeclaredType, nullable: DeclaredType)? {
        switch named {
        case .builtInScalar(let name): return builtInTypes(name)
        case .customScalar(let name), .enumeration(let name), .inputObject(let name):
            guard !table.isEmpty, let types = table[name], case .named(let made) = types.nonNull, made == named
            else { return nil }
            return types
        case .lens, .fragment, .optimisticBuilder: return nil
        }
    }

    private func nonNullType(_ type: TypeRef, named: DeclaredNamedType?, composite: Bool) -> DeclaredType {
        switch type {
        case .nonNull(let inner): nonNullType(inner, named: named, composite: composite)
        case .list(let item): .list(declaredType(item, named: named, composite: composite))
        case .named(let name): .named(named ?? namedType(name))
        }
    }

    private func namedType(_ name: String) -> DeclaredNamedType {
        Self.namedType(name, enumNames: enumNames, inputObjectNames: inputObjectNames)
    }

    /// The GraphQL built-in scalars' names.
    private static let builtInScalars = ["String", "ID", "Int", "Float", "Boolean"]

    private static func namedType(
        _ name: String, enumNames: Set<String>, inputObjectNames: Set<String>
    ) -> DeclaredNamedType {
        if builtInScalars.contains(name) { return .builtInScalar(name) }
        return enumNames.contains(name)
            ? .enumeration(name) : inputObjectNames.contains(name) ? .inputObject(name) : .customScalar(name)
    }

    /// The getters of one class's `count` properties, named by `properties` (`JVMAccessorNames.resolve`), or an empty
    /// one at every index, the names never listed, when the lowering states no JVM names.
    private func getters(_ count: Int, fixed: [String] = [], _ properties: () -> [String]) -> ByIndex<String> {
        guard jvmNames else { return ByIndex(absent: "") }
        return ByIndex(JVMAccessorNames.resolve(properties(), fixed: fixed))
    }

    /// `Self.caseTwins` of the `count` names `names` lists, or false at every index, the names never listed, when the
    /// lowering states no JVM names.
    private func caseTwins(_ count: Int, _ names: () -> [String]) -> ByIndex<Bool> {
        guard jvmNames else { return ByIndex(absent: false) }
        return ByIndex(Self.caseTwins(names()))
    }

    /// One class's facts by property index: the JVM host's (`values`), or one value for every index when the lowering
    /// states no JVM names (`absent`), so that no array of empty getters or falses is made per lens.
    private struct ByIndex<Value> {
        private let values: [Value]
        private let absent: Value?

        init(_ values: [Value]) {
            self.values = values
            absent = nil
        }

        init(absent: Value) {
            values = []
            self.absent = absent
        }

        subscript(index: Int) -> Value { absent ?? values[index] }
    }

    /// For each name, whether another name of the list equals it ignoring case.
    package static func caseTwins(_ names: [String]) -> [Bool] {
        guard names.count > 1 else { return names.map { _ in false } }
        if names.count <= 16 {
            // A lens's handful of members: each pair compared, no dictionary made, no name hashed and, when both are
            // ASCII (GraphQL names always are), none lowercased into a new string: the bytes are compared in place.
            var nonASCII: UInt32 = 0
            for (index, name) in names.enumerated() where !name.utf8.allSatisfy({ $0 < 0x80 }) {
                nonASCII |= 1 << index
            }
            var twins = [Bool](repeating: false, count: names.count)
            for first in names.indices {
                for second in (first + 1)..<names.count {
                    let same =
                        (nonASCII >> first | nonASCII >> second) & 1 == 0
                        ? equalIgnoringASCIICase(names[first], names[second])
                        : names[first].lowercased() == names[second].lowercased()
                    if same {
                        twins[first] = true
                        twins[second] = true
                    }
                }
            }
            return twins
        }
        let folded = names.map { $0.lowercased() }
        var counts: [String: Int] = [:]
        counts.reserveCapacity(names.count)
        for name in folded { counts[name, default: 0] += 1 }
        return folded.map { counts[$0, default: 0] > 1 }
    }

    /// `one.lowercased() == other.lowercased()` for two ASCII names, byte by byte: `lowercased` maps only `A`–`Z`
    /// of ASCII (to `a`–`z`) and keeps the length, so names of different lengths are never equal.
    private static func equalIgnoringASCIICase(_ one: String, _ other: String) -> Bool {
        guard one.utf8.count == other.utf8.count else { return false }
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        return one.utf8.elementsEqual(other.utf8) { lower($0) == lower($1) }
    }
}

extension DeclaredType {
    /// The schema type a value of this type is (`[String!]`), for printers whose value encodings (inputs,
    /// variables) are written against the schema's notation. What only a read returns stands for its value: a
    /// Result, a phase or streamed items for what they hold, a lens or a builder for its name.
    package var schemaType: TypeRef {
        switch self {
        case .optional(let wrapped):
            let inner = wrapped.schemaType
            if case .nonNull(let nullable) = inner { return nullable }
            return inner
        case .list(let item): return .nonNull(.list(item.schemaType))
        case .result(let value), .deferred(let value), .streamed(let value): return value.schemaType
        case .named(let named):
            switch named {
            case .builtInScalar(let name), .customScalar(let name), .enumeration(let name), .inputObject(let name),
                .lens(let name), .fragment(let name):
                return .nonNull(.named(name))
            case .optimisticBuilder(let lens, let fragment, _): return .nonNull(.named(lens ?? fragment ?? ""))
            }
        }
    }
}

extension WrittenValue {
    /// A document's value (its spans dropped).
    package init(_ value: Value) {
        switch value {
        case .variable(let variable): self = .variable(variable.name.value)
        case .int(let text, _): self = .int(text)
        case .float(let text, _): self = .float(text)
        case .string(let string): self = .string(string.value)
        case .boolean(let flag, _): self = .boolean(flag)
        case .null: self = .null
        case .enumValue(let name): self = .enumValue(name.value)
        case .list(let items, _): self = .list(items.map(WrittenValue.init))
        case .object(let fields, _):
            self = .object(fields.map { WrittenField(name: $0.name.value, value: WrittenValue($0.value)) })
        }
    }
}
