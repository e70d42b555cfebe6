import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema
import BatonSyntax

/// An operation's class (variables, document, id, policy, its `Data` lens) and a mutation's call.
extension KotlinDefinitionWriter {
    /// An operation: a class holding its variables, document, id and policy, with its data lens `Data`.
    func operation(_ model: OperationModel) -> Template {
        // The operation lowered here, in the file's job (its variables, lens, entry points, policies), and printed.
        let operation = context.declarations.operation(model)
        let typeName = context.names.operations[operation.name] ?? operation.name
        let type = KotlinNames.quoted(typeName)
        let lens = operation.lens
        choosePlanName(lens)
        let dataName = nestedTypes.claim("Data", ignoringCase: true)
        let data = lensClass(
            lens, className: dataName, qualified: type + "." + KotlinNames.quoted(dataName),
            doc: "The data of `\(operation.name)`: a lens of the root record `\(operation.rootType)`.")

        // Variables are constructor properties: none may shadow what the class's own members mention.
        var variableScope = KotlinScope(base: Self.variableBase, [planName, dataName])
        var parameters: [Template] = []
        var puts: [Template] = []
        var clientPuts: [Template] = []
        var signature: [(name: String, type: String)] = []
        let variables = operation.variables
        for variable in variables {
            let name = KotlinNames.quoted(
                variableScope.claim(KotlinNames.declared(variable.name, .member), ignoringCase: false))
            let annotation = KotlinNames.jvmName(name.replacingAll("`", with: ""), getter: variable.jvmGetter)
            let schemaType = variable.type.schemaType
            // `connections:` of a declarative update holds ConnectionIds (the guide's `listOf(connectionID)`).
            let valueType =
                variable.holdsConnectionIDs
                ? (variable.type.isOptional ? "List<ConnectionId>?" : "List<ConnectionId>")
                : context.inputType(schemaType)
            let declaration = variable.mayBeLeftOut ? "Optional<\(valueType)> = Optional.Absent" : valueType
            parameters.append("\(annotation.map { $0 + " " } ?? "")val \(name): \(declaration)")
            signature.append((name, declaration))
            let encoded: String
            if variable.holdsConnectionIDs {
                let list = variable.type.isOptional ? "v?.map { it.recordKey }" : "v.map { it.recordKey }"
                encoded = variable.mayBeLeftOut ? "\(name).map { v -> \(list) }" : "\(name).let { v -> \(list) }"
            } else if variable.mayBeLeftOut {
                encoded = context.encoding("v", schemaType, depth: 1).map { "\(name).map { v -> \($0) }" } ?? name
            } else {
                encoded = context.encoding(name, schemaType) ?? name
            }
            let put: Template = ".put(\(KotlinLiteral.string(variable.name)), \(encoded))"
            if variable.isClientOnly { clientPuts.append(put) } else { puts.append(put) }
        }
        mutationSignature = signature
        let entryPoints = operation.entryPoints
        let refetchedFragment = entryPoints.refetchedFragment
        let isRefetchQuery = refetchedFragment != nil
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
        let variableNames = variables.map { KotlinLiteral.string($0.name) }.joined(separator: ", ")
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
        let defaults = variables.compactMap { variable in
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
            ? "The query `\(operation.name)`, generated for the `@refetchable` fragment `\(refetchedFragment ?? "")`: `Pagination` sends it with the fragment's variables and the page it asks for."
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
                override val selections: List<Selection> get() = \(KotlinNames.quoted(planName)).roots()
                override val throwOnFieldError: Boolean get() = \(operation.throwOnFieldError ? "true" : "false")
                \(if: operation.deliversIncrementally, "override val incrementalDelivery: Boolean get() = true")

                \(variablesBody)
                \(defaultsBody)
                \(clientBody)

                override fun data(reader: RecordReader): \(KotlinNames.quoted(dataName)) = \(KotlinNames.quoted(dataName))(reader)

                \(data)

                \(plan(rootSelections: rootSelectionNames))

                companion object {
                    const val OPERATION_NAME: String = \(KotlinLiteral.string(operation.name))
                    const val OPERATION_ID: String = \(KotlinLiteral.string(operation.operationID))
                    \(documentConstant(operation))
                    \(entryPoints.mutationCall != nil ? Self.mutationFactory(type: type, data: dataName) : .empty)
                    \(isRefetchQuery ? Template("val VARIABLE_NAMES: Set<String> = setOf(\(variableNames))") : .empty)
                }
            }
            \(ifLet: entryPoints.mutationCall, { mutationCall($0, type: type, data: dataName) })
            """
    }

    /// A mutation's `call(environment)`: the mutation as a call bound to an environment.
    static func mutationFactory(type: String, data: String) -> Template {
        """

        /** The mutation as a call bound to [environment]: `AddComment.call(environment)(input = …)`. */
        fun call(environment: BatonEnvironment): MutationCall<\(type).\(KotlinNames.quoted(data)), \(type)> = MutationCall(environment)
        """
    }

    /// A mutation's call: `MutationCall` invoked like a function with the mutation's variables, typed, and an
    /// optional typed optimistic response (Swift's `callAsFunction`), blocking, and with a callback.
    func mutationCall(_ call: MutationCallEntryPoint, type: String, data: String) -> Template {
        let dataType = type + "." + KotlinNames.quoted(data)
        let names = mutationSignature.map(\.name)
        let label = names.contains("optimisticResponse") ? "optimisticResponse_" : "optimisticResponse"
        let callback = names.contains("callback") ? "callback_" : "callback"
        var parameters = mutationSignature.map { "\($0.name): \($0.type)" }
        if let builder = call.optimisticBuilder {
            parameters.append("\(label): \(dataType).\(KotlinNames.quoted(builder))? = null")
        }
        let passed = type + "(" + names.map { "\($0) = \($0)" }.joined(separator: ", ") + ")"
        let optimistic = call.optimisticBuilder == nil ? "null" : label
        let receiver = "MutationCall<\(dataType), \(type)>"
        let withCallback = parameters + ["\(callback): (MutationResult<\(dataType)>) -> Unit"]
        return """

            /**
             * Sends `mutation \(call.operationName)` through the call's environment (never sent again, never answered from the
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
}
