import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema
import BatonSyntax

/// A fragment's class (its lens, the selections every spread hands the runtime) and a `@refetchable`
/// fragment's paging entry points.
extension KotlinDefinitionWriter {
    /// A `@refetchable` fragment's `REFETCHABLE`: its query and, with a `@connection`, the plan members down to it
    /// and the variables that page it (Swift's `RefetchableFragment` conformance); and `pagination(environment,
    /// fragment)`, app code's way to its `Pagination` (Swift's `environment.pagination(of: fragment)`), which
    /// reads the fragment's private `reader`. Written after the lens, so the plan members are known.
    func refetchable(_ fragment: FragmentDeclaration, type: String, reader: String) -> Template {
        guard let refetch = fragment.entryPoints.refetch,
            let query = context.model.operations.first(where: { $0.name == refetch.query })
        else { return .empty }
        let queryType = KotlinNames.quoted(context.names.operations[query.name] ?? query.name)
        let plan = KotlinNames.quoted(planName)
        let path = refetch.connectionPath.indices.compactMap { index in
            planMemberByPath[Array(refetch.connectionPath[...index])].map { plan + ".field<Any>(\($0))" }
        }
        var arguments = ["{ \(queryType)(it) }", "listOf(" + path.joined(separator: ", ") + ")"]
        for (label, value) in [
            ("forwardCount", refetch.forward?.count), ("forwardCursor", refetch.forward?.cursor),
            ("backwardCount", refetch.backward?.count), ("backwardCursor", refetch.backward?.cursor),
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
    func fragment(_ model: FragmentModel) -> Template {
        // The fragment lowered here, in the file's job (its lens, entry points, policy), and printed.
        let fragment = context.declarations.fragment(model)
        let typeName = context.names.fragments[fragment.name] ?? fragment.name
        let type = KotlinNames.quoted(typeName)
        let lens = fragment.lens
        choosePlanName(lens)
        // After the lens is written (the refetchable path names its plan members).
        let companion = { (reader: String) -> Template in
            """
            companion object {
                const val FRAGMENT_NAME: String = \(KotlinLiteral.string(fragment.name))
                const val TYPE_CONDITION: String = \(KotlinLiteral.string(fragment.typeCondition.name))
                const val THROW_ON_FIELD_ERROR: Boolean = \(fragment.throwOnFieldError ? "true" : "false")
                \(ifLet: Self.fragmentDocument(fragment), { Template($0) })

                /** The fragment's selections, which every spread of it hands the runtime. */
                val SELECTIONS: List<Selection> get() = \(KotlinNames.quoted(self.planName)).roots()
                \(self.refetchable(fragment, type: type, reader: reader))
            }
            """
        }
        let doc =
            "The fragment `\(fragment.name)` on `\(fragment.typeCondition.name)`: a lens read through the `\(fragment.spreadMemberName)` accessor of every lens that spreads it."
        return lensClass(
            lens, className: typeName, qualified: type, doc: doc,
            extra: { [self.plan(rootSelections: self.rootSelectionNames), companion($0)] })
    }
}
