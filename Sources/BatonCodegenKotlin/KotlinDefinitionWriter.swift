import BatonCodegen
import BatonIR
import BatonSchema
import BatonSyntax

/// Writes one operation or fragment: its lens classes (nested, one per lens of the model), and a private
/// `Plan` object describing its selections to the runtime (what to normalize, what each read checks).
///
/// Names inside the file are chosen so nothing shadows anything else: nested classes never take a
/// top-level name or each other's (ignoring case, for class files), `Plan` takes no accessor's name, and
/// plan members take no name an expression in the plan starts with. Getters only mention the lens's reader
/// and `Plan`, so an accessor named like a type cannot break them.
final class KotlinDefinitionWriter {
    /// What an operation's variables must not shadow but its plan's and data's names (which vary):
    /// the class's own members, the names its code calls, the runtime's types. Made once.
    private static let variableBase = KotlinScope(
        [
            "operationName", "operationType", "document", "operationId", "onError", "rootTypename", "selections",
            "throwOnFieldError", "variables", "variablesWithDefaults", "clientVariables", "resolvedVariables",
            "data", "mapOf", "to", "OPERATION_NAME", "OPERATION_ID", "DOCUMENT", "emptyMap", "Companion",
        ] + IdentifierRules.kotlinRuntimeTypeNames.sorted()
    ).flattened()

    private let context: KotlinContext
    /// Nested class names in this file (ignoring case), seeded with every top-level name.
    private var nestedTypes: KotlinScope
    /// Plan member names (ignoring case: their getters are `getName`).
    private var planMembers: KotlinScope
    /// Plan members in declaration order: children before the selections that list them.
    private var planDeclarations: [Template] = []
    private var planName = "Plan"
    /// The last operation's variables as its constructor declares them (a mutation's call takes the same).
    private(set) var mutationSignature: [(name: String, type: String)] = []
    /// Plan member names by accessor path from the root lens (a `@refetchable` fragment's connection path).
    private var planMemberByPath: [[String]: String] = [:]
    private var accessorPath: [String] = []

    init(_ context: KotlinContext) {
        self.context = context
        nestedTypes = KotlinScope(base: context.nestedTypeBase)
        planMembers = KotlinScope(base: context.planMemberBase)
    }

    // MARK: Definitions

    /// An operation: a class holding its variables, document, id and policy, with its data lens `Data`.
    func operation(_ operation: OperationModel) -> Template {
        let typeName = context.names.operations[operation.name] ?? operation.name
        let type = KotlinNames.quoted(typeName)
        choosePlanName(operation.lens)
        let dataName = nestedTypes.claim("Data", ignoringCase: true)
        let data = lensClass(
            operation.lens, className: dataName, qualified: type + "." + KotlinNames.quoted(dataName), path: "",
            doc: "The data of `\(operation.name)`: a lens of the root record `\(operation.rootType)`.")

        // Variables are constructor properties: none may shadow what the class's own members mention.
        var variableScope = KotlinScope(base: Self.variableBase, [planName, dataName])
        var getters = JVMGetterNames()
        for name in [
            "operationName", "operationType", "document", "operationId", "onError", "rootTypename", "selections",
            "throwOnFieldError",
        ] {
            _ = getters.annotation(for: name)
        }
        var parameters: [Template] = []
        var puts: [Template] = []
        var clientPuts: [Template] = []
        var signature: [(name: String, type: String)] = []
        for variable in operation.variables {
            let name = KotlinNames.quoted(
                variableScope.claim(KotlinNames.declared(variable.name, .member), ignoringCase: false))
            let annotation = getters.annotation(for: name.replacingAll("`", with: ""))
            // `connections:` of a declarative update holds ConnectionIds (the guide's `listOf(connectionID)`).
            let valueType =
                variable.holdsConnectionIDs
                ? (variable.type.isNonNull ? "List<ConnectionId>" : "List<ConnectionId>?")
                : context.inputType(variable.type)
            let declaration = variable.isOptional ? "Optional<\(valueType)> = Optional.Absent" : valueType
            parameters.append("\(annotation.map { $0 + " " } ?? "")val \(name): \(declaration)")
            signature.append((name, declaration))
            let encoded: String
            if variable.holdsConnectionIDs {
                let list = variable.type.isNonNull ? "v.map { it.recordKey }" : "v?.map { it.recordKey }"
                encoded = variable.isOptional ? "\(name).map { v -> \(list) }" : "\(name).let { v -> \(list) }"
            } else if variable.isOptional {
                encoded = context.encoding("v", variable.type, depth: 1).map { "\(name).map { v -> \($0) }" } ?? name
            } else {
                encoded = context.encoding(name, variable.type) ?? name
            }
            let put: Template = ".put(\(KotlinLiteral.string(variable.name)), \(encoded))"
            if variable.isClientOnly { clientPuts.append(put) } else { puts.append(put) }
        }
        mutationSignature = signature
        let isRefetchQuery = operation.refetchableFragment != nil
        if isRefetchQuery {
            // A `@refetchable` fragment's query: `Pagination` makes it from the variables it sets.
            parameters = ["variables: Map<String, Any?>"]
            puts = []
            clientPuts = []
        }
        let header: Template =
            parameters.isEmpty
            ? "class \(type) : Operation<\(type).\(KotlinNames.quoted(dataName))> {"
            : """
            class \(type)(
                \(lines: parameters, separator: ",\n")
            ) : Operation<\(type).\(KotlinNames.quoted(dataName))> {
            """
        let variableNames = operation.variables.map { KotlinLiteral.string($0.name) }.joined(separator: ", ")
        let variablesBody: Template =
            isRefetchQuery
            ? """
            /** The variables the query declares, of those it was made with. */
            private val values: Map<String, Any?> = variables.filterKeys { it in VARIABLE_NAMES }

            override fun variables(): Map<String, Any?> = values
            """
            : puts.isEmpty
                ? "override fun variables(): Map<String, Any?> = emptyMap()"
                : """
                override fun variables(): Map<String, Any?> = JsonObjectBuilder()
                    \(lines: puts)
                    .build()
                """
        let clientBody: Template =
            clientPuts.isEmpty
            ? .empty
            : """

            override fun clientVariables(): Map<String, Any?> = JsonObjectBuilder()
                \(lines: clientPuts)
                .build()
            """
        let defaults = operation.variables.compactMap { variable in
            variable.defaultValue.map { KotlinLiteral.string(variable.name) + " to " + KotlinLiteral.value($0) }
        }
        let defaultsBody: Template =
            defaults.isEmpty
            ? .empty
            : """

            override fun variablesWithDefaults(): Map<String, Any?> = mapOf(\(joined: defaults, separator: ", ")) + variables()
            """
        let onError = operation.onError.map { KotlinLiteral.string($0) } ?? "null"
        let doc =
            isRefetchQuery
            ? "The query `\(operation.name)`, generated for the `@refetchable` fragment `\(operation.refetchableFragment ?? "")`: `Pagination` sends it with the fragment's variables and the page it asks for."
            : "The \(operation.kind.rawValue) `\(operation.name)`.\n\nConstruct it with its variables; `RecordStore.read` reads its [\(dataName)] lens."
        return """
            \(DocComment.block(doc))
            \(header)
                override val operationName: String get() = OPERATION_NAME
                override val operationType: String get() = \(KotlinLiteral.string(operation.kind.rawValue))
                override val document: String get() = DOCUMENT
                override val operationId: String get() = OPERATION_ID
                override val onError: String? get() = \(onError)
                override val rootTypename: String get() = \(KotlinLiteral.string(operation.rootType))
                override val selections: List<Selection> get() = \(KotlinNames.quoted(planName)).SELECTIONS
                override val throwOnFieldError: Boolean get() = \(operation.throwOnFieldError ? "true" : "false")

                \(variablesBody)
                \(defaultsBody)
                \(clientBody)

                override fun data(reader: RecordReader): \(KotlinNames.quoted(dataName)) = \(KotlinNames.quoted(dataName))(reader)

                \(data)

                \(plan(rootSelections: rootSelectionNames))

                companion object {
                    const val OPERATION_NAME: String = \(KotlinLiteral.string(operation.name))
                    const val OPERATION_ID: String = \(KotlinLiteral.string(operation.operationID))
                    \(documentConstant(operation.documentText))
                    \(operation.kind == .mutation ? Self.mutationFactory(type: type, data: dataName) : .empty)
                    \(isRefetchQuery ? Template("val VARIABLE_NAMES: Set<String> = setOf(\(variableNames))") : .empty)
                }
            }
            \(operation.kind == .mutation ? mutationCall(operation, type: type, data: dataName) : .empty)
            """
    }

    /// A mutation's `call(environment)`: the mutation as a call bound to an environment.
    private static func mutationFactory(type: String, data: String) -> Template {
        """

        /** The mutation as a call bound to [environment]: `AddComment.call(environment)(input = …)`. */
        fun call(environment: BatonEnvironment): MutationCall<\(type).\(KotlinNames.quoted(data)), \(type)> = MutationCall(environment)
        """
    }

    /// A mutation's call: `MutationCall` invoked like a function with the mutation's variables, typed, and an
    /// optional typed optimistic response (Swift's `callAsFunction`), blocking, and with a callback.
    private func mutationCall(_ operation: OperationModel, type: String, data: String) -> Template {
        let dataType = type + "." + KotlinNames.quoted(data)
        let names = mutationSignature.map(\.name)
        let label = names.contains("optimisticResponse") ? "optimisticResponse_" : "optimisticResponse"
        let callback = names.contains("callback") ? "callback_" : "callback"
        var parameters = mutationSignature.map { "\($0.name): \($0.type)" }
        if let builder = operation.lens.optimisticTypeName {
            parameters.append("\(label): \(dataType).\(KotlinNames.quoted(builder))? = null")
        }
        let passed = type + "(" + names.map { "\($0) = \($0)" }.joined(separator: ", ") + ")"
        let optimistic = operation.lens.optimisticTypeName == nil ? "null" : label
        let receiver = "MutationCall<\(dataType), \(type)>"
        let withCallback = parameters + ["\(callback): (MutationResult<\(dataType)>) -> Unit"]
        return """

            /**
             * Sends `mutation \(operation.name)` through the call's environment (never sent again, never answered from the
             * store), with [\(label)] shown at once until the server answers; blocks until it does (call it off the
             * main thread) and returns its data, or throws [baton.runtime.FetchException].
             */
            operator fun \(receiver).invoke(\(joined: parameters, separator: ", ")): \(dataType) =
                perform(\(passed), \(optimistic))

            /** [invoke] on the environment's executor, calling [\(callback)] with the data or the failure. */
            operator fun \(receiver).invoke(\(joined: withCallback, separator: ", ")) =
                perform(\(passed), \(optimistic), \(callback))
            """
    }

    /// A `@refetchable` fragment's `REFETCHABLE`: its query and, with a `@connection`, the plan members down to it
    /// and the variables that page it (Swift's `RefetchableFragment` conformance); and `pagination(environment,
    /// fragment)`, app code's way to its `Pagination` (Swift's `environment.pagination(of: fragment)`), which
    /// reads the fragment's private `reader`. Written after the lens, so the plan members are known.
    private func refetchable(_ fragment: FragmentModel, type: String, reader: String) -> Template {
        guard let refetch = fragment.refetchable,
            let query = context.model.operations.first(where: { $0.name == refetch.queryName })
        else { return .empty }
        let queryType = KotlinNames.quoted(context.names.operations[query.name] ?? query.name)
        let plan = KotlinNames.quoted(planName)
        let path = refetch.connectionPath.indices.compactMap { index in
            planMemberByPath[Array(refetch.connectionPath[...index])].map { plan + "." + KotlinNames.quoted($0) }
        }
        var arguments = ["{ \(queryType)(it) }", "listOf(" + path.joined(separator: ", ") + ")"]
        for (label, value) in [
            ("forwardCount", refetch.forwardCount), ("forwardCursor", refetch.forwardCursor),
            ("backwardCount", refetch.backwardCount), ("backwardCursor", refetch.backwardCursor),
        ] {
            if let value { arguments.append("\(label) = " + KotlinLiteral.string(value)) }
        }
        arguments.append("throughNode = " + (refetch.throughNode ? "true" : "false"))
        return """

            /** The query that fetches this fragment's record again (`@refetchable`), and how it pages. */
            val REFETCHABLE: Refetchable = Refetchable(\(joined: arguments, separator: ", "))

            /**
             * The pages of [fragment]'s connection in [environment] (`loadNext`, `loadPrevious`, `hasNext`, `hasPrevious`,
             * `isLoadingNext`, `refetch`), shared by every caller for its record and variables.
             */
            fun pagination(environment: BatonEnvironment, fragment: \(type)): Pagination<\(type)> =
                Pagination.of(environment, fragment.\(reader), REFETCHABLE, FRAGMENT_NAME) { \(type)(it) }
            """
    }

    /// A fragment: its lens class, with the selections every spread of it hands the runtime.
    func fragment(_ fragment: FragmentModel) -> Template {
        let typeName = context.names.fragments[fragment.name] ?? fragment.name
        let type = KotlinNames.quoted(typeName)
        choosePlanName(fragment.lens)
        // After the lens is written (the refetchable path names its plan members).
        let companion = { (reader: String) -> Template in
            """
            companion object {
                const val FRAGMENT_NAME: String = \(KotlinLiteral.string(fragment.name))
                const val TYPE_CONDITION: String = \(KotlinLiteral.string(fragment.typeCondition))
                const val THROW_ON_FIELD_ERROR: Boolean = \(fragment.throwOnFieldError ? "true" : "false")

                /** The fragment's selections, which every spread of it hands the runtime. */
                val SELECTIONS: List<Selection> get() = \(KotlinNames.quoted(self.planName)).SELECTIONS
                \(self.refetchable(fragment, type: type, reader: reader))
            }
            """
        }
        let doc =
            "The fragment `\(fragment.name)` on `\(fragment.typeCondition)`: a lens read through the `\(fragment.spreadAccessorName)` accessor of every lens that spreads it."
        return lensClass(
            fragment.lens, className: typeName, qualified: type, path: "", doc: doc,
            extra: { [self.plan(rootSelections: self.rootSelectionNames), companion($0)] })
    }

    // MARK: Lenses

    /// The names of the root lens's plan members, in accessor order.
    private var rootSelectionNames: [String] = []

    /// Picks the plan object's name: free among nested classes and unequal to every member name in the file.
    private func choosePlanName(_ root: Lens) {
        // Only a member named `Plan` followed by underscores can be in the way, and declaring a name
        // keeps its beginning (`declared` appends), so only names beginning with `Plan` are taken.
        var members = KotlinScope()
        func collect(_ lens: Lens, depth: Int) {
            guard depth < LensModelBuilder.maximumDepth else { return }
            for accessor in lens.accessors {
                if accessor.name.hasPrefix("Plan") { members.reserve(KotlinNames.declared(accessor.name, .member)) }
                if let nested = accessor.lens { collect(nested, depth: depth + 1) }
            }
        }
        collect(root, depth: 0)
        planName = nestedTypes.claim("Plan", ignoringCase: true, avoiding: [members])
    }

    /// A lens class: a property per accessor, reading through the private reader, and a nested class per
    /// nested lens. Records the lens's plan members; the root's go to `rootSelectionNames`.
    private func lensClass(
        _ lens: Lens, className: String, qualified: String, path: String, doc: String,
        extra: (_ reader: String) -> [Template] = { _ in [] }, depth: Int = 0
    ) -> Template {
        // `Companion`: a lens class with a companion object (an operation's or a fragment's) cannot also have a
        // member of that name; every lens avoids it, so a field's name never depends on where its lens is.
        var members = KotlinScope(["Companion"])
        var getters = JVMGetterNames()
        let names = lens.accessors.map { accessor in
            members.claim(KotlinNames.declared(accessor.name, .member), ignoringCase: false)
        }
        let connectionID = lens.connectionIDName.map { members.claim($0, ignoringCase: false) }
        let reader = members.claim("reader", ignoringCase: false)
        var properties: [Template] = []
        var nested: [Template] = []
        var selectionNames: [String] = []
        var builderMembers: [KotlinOptimisticTemplate.Member] = []
        for (accessor, name) in zip(lens.accessors, names) {
            var nestedClass: String?
            var childSelections: [String] = []
            accessorPath.append(accessor.name)
            defer { accessorPath.removeLast() }
            if let child = accessor.lens, depth < LensModelBuilder.maximumDepth {
                let childName = nestedTypes.claim(KotlinNames.declared(child.typeName, .type), ignoringCase: true)
                nestedClass = KotlinNames.quoted(childName)
                let childQualified = qualified + "." + KotlinNames.quoted(childName)
                nested.append(
                    lensClass(
                        child, className: childName, qualified: childQualified,
                        path: path.isEmpty ? accessor.name : path + "_" + accessor.name,
                        doc: "A lens of `\(child.recordType)`.", depth: depth + 1))
                childSelections = lastSelectionNames
            }
            let member = planMember(
                accessor, path: path, nestedQualified: nestedClass.map { qualified + "." + $0 },
                childSelections: childSelections)
            selectionNames.append(member)
            planMemberByPath[accessorPath] = member
            builderMembers.append(.init(accessor: accessor, name: name, nestedClass: nestedClass))
            properties.append(
                property(
                    accessor, name: name, reader: reader, member: member, nestedClass: nestedClass, getters: &getters))
        }
        if let connectionID {
            properties.append(
                """
                /** The connection record this lens reads: what a mutation's `connections` names. */
                val \(KotlinNames.quoted(connectionID)): ConnectionId get() = ConnectionId(\(KotlinNames.quoted(reader)).key.orEmpty())
                """)
        }
        if let builder = lens.optimisticTypeName {
            nested.append(
                KotlinOptimisticTemplate(context: context, lens: lens, members: builderMembers, typeName: builder)
                    .render())
        }
        lastSelectionNames = selectionNames
        if depth == 0 { rootSelectionNames = selectionNames }
        let body = Template.joined(
            properties + nested + extra(KotlinNames.quoted(reader)) + [
                Self.identity(qualified: qualified, reader: KotlinNames.quoted(reader))
            ],
            separator: "\n\n")
        return """
            \(DocComment.block(doc))
            class \(KotlinNames.quoted(className)) internal constructor(private val \(KotlinNames.quoted(reader)): RecordReader) {
                \(body)
            }
            """
    }

    /// A lens's `equals` and `hashCode`: by record and snapshot (its reader's), so lenses work as Compose state
    /// and in a `StateFlow`. `qualified` names the class from the file's top level, so no nested class shadows it.
    private static func identity(qualified: String, reader: String) -> Template {
        """
        /** Equal to a lens of this class reading the same record of the same store snapshot. */
        override fun equals(other: Any?): Boolean = other is \(qualified) && other.\(reader) == \(reader)

        override fun hashCode(): Int = \(reader).hashCode()
        """
    }

    /// The plan members of the lens written last (handed from a nested lens to its parent's plan member).
    private var lastSelectionNames: [String] = []

    /// One accessor as a Kotlin property.
    private func property(
        _ accessor: Accessor, name: String, reader: String, member: String, nestedClass: String?,
        getters: inout JVMGetterNames
    ) -> Template {
        let plan = KotlinNames.quoted(planName) + "." + KotlinNames.quoted(member)
        let reader = KotlinNames.quoted(reader)
        let value0 = valueType(accessor, nestedClass: nestedClass)
        let optional0 = accessor.levels.first?.isOptional ?? true
        let type: String
        let body: String
        let inner = optional0 ? "read(\(plan))" : "readNonNull(\(plan))"
        switch accessor.readMode {
        case .spread:
            let isFragment: Bool = if case .fragment = accessor.base { true } else { false }
            let call = isFragment ? "fragment" : "inlineFragment"
            type = value0 + (accessor.isOptional ? "?" : "")
            body = accessor.isOptional ? "\(reader).\(call)(\(plan))" : "\(reader).\(call)NonNull(\(plan))"
        case .catchToResult:
            type = "FieldResult<\(value0 + (optional0 ? "?" : ""))>"
            body = "\(reader).catching(\(plan)) { it.\(inner) }"
        case .catchToNull:
            type = value0 + "?"
            body = "\(reader).catchingToNull(\(plan)) { it.\(inner) }"
        case .throwWhenNull:
            type = value0
            body = "\(reader).readOrThrow(\(plan))"
        case .typename, .plain, .throwOnFieldError:
            // `__typename` is a selection of the plan like any other; under `@throwOnFieldError` the reader the
            // operation or fragment makes is strict (`RecordReader.strict`), so the same call throws.
            type = value0 + (optional0 ? "?" : "")
            body = "\(reader).\(inner)"
        }
        let annotation = getters.annotation(for: name)
        let throwsDoc: Template =
            accessor.isThrowing
            ? "/** Throws [baton.runtime.RequiredFieldException] when the field is null. */" : .empty
        return """
            \(throwsDoc)
            \(annotation.map { Template($0) } ?? .empty)
            val \(KotlinNames.quoted(name)): \(type) get() = \(body)
            """
    }

    /// The Kotlin type of the accessor's value without its outermost optionality: the base wrapped in a
    /// `List` per list level, with `?` on each level the model makes optional.
    private func valueType(_ accessor: Accessor, nestedClass: String?) -> String {
        let base: String
        switch accessor.base {
        case .scalar(let scalar):
            base =
                scalar.isBuiltIn
                ? (KotlinContext.builtInScalar(scalar.name) ?? "String") : context.namedType(scalar.name)
        case .enumeration(let name): base = context.namedType(name)
        case .lens: base = nestedClass ?? "Any"
        case .fragment(let fragment): base = KotlinNames.quoted(context.names.fragments[fragment.name] ?? fragment.name)
        }
        let levels = accessor.levels
        func type(at level: Int) -> String {
            if level >= levels.count - 1 { return base }
            return "List<" + type(at: level + 1) + (levels[level + 1].isOptional ? "?" : "") + ">"
        }
        return type(at: 0)
    }

    // MARK: Plan

    /// Declares the plan member for `accessor` (after its children's) and returns its name.
    private func planMember(_ accessor: Accessor, path: String, nestedQualified: String?, childSelections: [String])
        -> String
    {
        let base = path.isEmpty ? accessor.name : path + "_" + accessor.name
        let name = planMembers.claim(KotlinNames.declared(base, .member), ignoringCase: true)
        let declaration: String
        let conditions = conditionsExpression(accessor.presence)
        let selections = "listOf(" + childSelections.map { KotlinNames.quoted($0) }.joined(separator: ", ") + ")"
        switch accessor.reads {
        case .parentRecord(let read):
            let typeCondition = read.typeCondition.map { KotlinLiteral.string($0) } ?? "null"
            let possibleTypes =
                read.matchingTypes.map { "setOf(" + $0.map { KotlinLiteral.string($0) }.joined(separator: ", ") + ")" }
                ?? "null"
            if case .fragment(let fragment) = accessor.base {
                let fragmentType = KotlinNames.quoted(context.names.fragments[fragment.name] ?? fragment.name)
                let policy = context.fragment(named: fragment.name)?.throwOnFieldError ?? false
                var arguments = [
                    KotlinLiteral.string(fragment.name), KotlinLiteral.string(fragment.typeCondition), possibleTypes,
                    "\(fragmentType).SELECTIONS", "{ \(fragmentType)(it) }",
                ]
                if policy { arguments.append("throwOnFieldError = true") }
                if let conditions { arguments.append("conditions = \(conditions)") }
                declaration = "FragmentSpread(" + arguments.joined(separator: ", ") + ")"
            } else {
                var arguments = [typeCondition, possibleTypes, selections, "{ \(nestedQualified ?? "Any")(it) }"]
                if let conditions { arguments.append("conditions = \(conditions)") }
                declaration = "InlineFragment(" + arguments.joined(separator: ", ") + ")"
            }
        case .field(let read):
            var arguments = [
                KotlinLiteral.string(accessor.name), KotlinLiteral.string(read.fieldName),
                KotlinLiteral.string(read.schemaType.namedType),
                decoder(accessor, level: 0, nestedQualified: nestedQualified),
                "nonNull = " + (nonNull(accessor, level: 0) ? "true" : "false"),
            ]
            if !read.arguments.isEmpty {
                arguments.append(
                    "arguments = mapOf("
                        + read.arguments.map { KotlinLiteral.string($0.name) + " to " + KotlinLiteral.value($0.value) }
                        .joined(separator: ", ") + ")")
            }
            if !childSelections.isEmpty { arguments.append("selections = " + selections) }
            if let conditions { arguments.append("conditions = \(conditions)") }
            if let required = accessor.required {
                let action =
                    switch required.action {
                    case .silent: "NONE"
                    case .log: "LOG"
                    case .throwError: "THROW"
                    }
                arguments.append("required = RequiredAction.\(action)")
            }
            if accessor.catchMode != nil { arguments.append("catches = true") }
            if let connection = accessor.connection {
                let filters = connection.filters.map { KotlinLiteral.string($0) }.joined(separator: ", ")
                arguments.append(
                    "connection = ConnectionSpec(\(KotlinLiteral.string(connection.key))"
                        + (filters.isEmpty ? "" : ", listOf(\(filters))") + ")")
            }
            if let update = accessor.recordUpdate { arguments.append("update = " + Self.recordUpdate(update)) }
            declaration = "Field(" + arguments.joined(separator: ", ") + ")"
        }
        planDeclarations.append("val \(KotlinNames.quoted(name)) = \(declaration)")
        return name
    }

    /// A declarative update as the runtime's `RecordUpdate`: its kind, `connections:` as written, the types.
    private static func recordUpdate(_ update: RecordUpdateModel) -> String {
        let kind = update.kind.rawValue.reduce(into: "") { text, character in
            if character.isUppercase { text += "_" }
            text += character.uppercased()
        }
        var arguments = ["RecordUpdate.Kind.\(kind)"]
        if let connections = update.connections {
            arguments.append("connections = " + KotlinLiteral.value(connections))
        }
        if let edge = update.edgeTypeName { arguments.append("edgeTypename = " + KotlinLiteral.string(edge)) }
        if let type = update.typeName { arguments.append("typename = " + KotlinLiteral.string(type)) }
        return "RecordUpdate(" + arguments.joined(separator: ", ") + ")"
    }

    /// Whether a null stored at `level` is unexpected: the plan's `ValueLevel.nonNull`.
    private func nonNull(_ accessor: Accessor, level: Int) -> Bool {
        level < accessor.levels.count && accessor.levels[level].nonNull
    }

    /// The decoder of the accessor's value at `level`: list decoders down to the base's.
    private func decoder(_ accessor: Accessor, level: Int, nestedQualified: String?) -> String {
        let levels = accessor.levels
        if level >= levels.count - 1 {
            switch accessor.base {
            case .scalar(let scalar):
                switch scalar.name {
                case "String" where scalar.isBuiltIn: return "Scalars.STRING"
                case "ID" where scalar.isBuiltIn: return "Scalars.ID"
                case "Int" where scalar.isBuiltIn: return "Scalars.INT"
                case "Float" where scalar.isBuiltIn: return "Scalars.FLOAT"
                case "Boolean" where scalar.isBuiltIn: return "Scalars.BOOLEAN"
                default:
                    if let mapping = context.kotlinMapping(scalar.name) {
                        return "Scalars.custom(\(mapping.converter))"
                    }
                    return "Scalars.CUSTOM"
                }
            case .enumeration(let name):
                return "Scalars.enumeration { \(context.namedType(name)).fromRawValue(it) }"
            case .lens:
                return "LensDecoder { \(nestedQualified ?? "Any")(it) }"
            case .fragment:
                return "Scalars.CUSTOM"
            }
        }
        let item = decoder(accessor, level: level + 1, nestedQualified: nestedQualified)
        let itemNonNull = nonNull(accessor, level: level + 1) ? "true" : "false"
        return levels[level + 1].isOptional
            ? "OptionalItemsDecoder(\(item), itemNonNull = \(itemNonNull))"
            : "ListDecoder(\(item), itemNonNull = \(itemNonNull))"
    }

    /// `listOf(…)` spelling the plan's `presence.atRuntime`: one alternative as its conditions, several as one
    /// `Condition.anyOf`, never present as `Condition.literal(false)`; nil when it is always present.
    private func conditionsExpression(_ presence: Presence) -> String? {
        let runtime = presence.atRuntime
        if runtime.isAlways { return nil }
        if runtime.isNever { return "listOf(Condition.literal(false))" }
        func condition(_ atom: PresenceAtom) -> String? {
            switch atom {
            case .include(let variable): "Condition.include(\(KotlinLiteral.string(variable)))"
            case .skip(let variable): "Condition.skip(\(KotlinLiteral.string(variable)))"
            case .deferred: nil  // not in `atRuntime`
            }
        }
        func list(_ atoms: [PresenceAtom]) -> String {
            "listOf(" + atoms.compactMap(condition).joined(separator: ", ") + ")"
        }
        if runtime.alternatives.count == 1, let only = runtime.alternatives.first { return list(only) }
        let alternatives = runtime.alternatives.map { "Condition.allOf(" + list($0) + ")" }
        return "listOf(Condition.anyOf(listOf(" + alternatives.joined(separator: ", ") + ")))"
    }

    /// The private plan object: every member, then the root's selections.
    private func plan(rootSelections: [String]) -> Template {
        let selections =
            "val SELECTIONS: List<Selection> = listOf("
            + rootSelections.map { KotlinNames.quoted($0) }.joined(separator: ", ") + ")"
        return """
            /** The selections, as the runtime normalizes responses and checks reads by them. */
            private object \(KotlinNames.quoted(planName)) {
                \(lines: planDeclarations)
                \(selections)
            }
            """
    }

    /// The document text as a constant; a text too long for one JVM string constant (65,535 bytes of
    /// modified UTF-8) is joined at run time from pieces that fit.
    private func documentConstant(_ text: String) -> Template {
        let literal = KotlinLiteral.string(text)
        if literal.utf8.count < 20_000 { return "const val DOCUMENT: String = \(literal)" }
        var pieces: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if current.utf8.count >= 8_000 {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return """
            val DOCUMENT: String = StringBuilder()
                \(lines: pieces.map { Template(".append(\(KotlinLiteral.string($0)))") })
                .toString()
            """
    }
}
