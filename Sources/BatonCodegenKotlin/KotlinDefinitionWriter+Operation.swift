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
        var puts: [String] = []
        var clientPuts: [String] = []
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
            let put = KotlinLiteral.string(variable.name) + ", " + encoded
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
        // What every operation carries, as the runtime base's constructor arguments (`onError` and
        // `throwOnFieldError` only where they are not the base's defaults).
        var baseArguments = [
            "OPERATION_NAME", KotlinLiteral.string(operation.kind.rawValue), "DOCUMENT", "OPERATION_ID",
            KotlinLiteral.string(operation.rootType), KotlinNames.quoted(planName),
        ]
        if operation.onError != nil || operation.throwOnFieldError {
            baseArguments.append(operation.onError.map { KotlinLiteral.string($0) } ?? "null")
        }
        if operation.throwOnFieldError { baseArguments.append("true") }
        let supertype =
            "PlanTable.Operation<\(type).\(KotlinNames.quoted(dataName))>("
            + baseArguments.joined(separator: ", ") + ")"
        let header: Template =
            parameters.isEmpty
            ? "class \(type) : \(supertype) {"
            : """
            class \(type)(
                \(lines: parameters, separator: ",\n")
            ) : \(supertype) {
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
                : Self.jsonObject("override fun variables(): Map<String, Any?> = ", puts)
        let clientBody: Template =
            clientPuts.isEmpty
            ? .empty
            : """

            \(Self.jsonObject("override fun clientVariables(): Map<String, Any?> = ", clientPuts))
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
        // The one member the base does not take (most operations deliver at once), a blank line after it.
        let incremental: Template =
            operation.deliversIncrementally
            ? """
            override val incrementalDelivery: Boolean get() = true

            """
            : .empty
        let doc =
            isRefetchQuery
            ? "The query `\(operation.name)`, generated for the `@refetchable` fragment `\(refetchedFragment ?? "")`: `Pagination` sends it with the fragment's variables and the page it asks for."
            : "The \(operation.kind.rawValue) `\(operation.name)`.\n\nConstruct it with its variables; `RecordStore.read` reads its [\(dataName)] lens."
        return """
            \(DocComment.block(doc))
            \(header)
                \(incremental)
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

    /// A variables object: one call of the runtime's `JsonObjectBuilder.of` with each variable's name and value
    /// (`"input", input`), a line each when there is more than one.
    static func jsonObject(_ head: String, _ members: [String]) -> Template {
        let call = head + "JsonObjectBuilder.of("
        guard members.count > 1 else { return Template(call + members.joined(separator: ", ") + ")") }
        return """
            \(call)
                \(lines: members.map { Template($0) }, separator: ",\n")
            )
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
            operator fun \(receiver).invoke(\(joined: withCallback, separator: ", ")): Unit =
                perform(\(passed), \(optimistic), \(callback))
            """
    }
}
