import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema
import BatonSyntax

/// The private `Plan` object: a member per selection (what the runtime normalizes and each read checks).
extension KotlinDefinitionWriter {
    /// Declares the plan member for `accessor` (after its children's) and returns its name.
    func planMember(_ accessor: Accessor, path: String, nestedQualified: String?, childSelections: [String])
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
                        + read.arguments.map {
                            KotlinLiteral.string($0.name) + " to " + KotlinLiteral.value(WrittenValue($0.value))
                        }
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
            if !accessor.recordKeys.isEmpty {
                let entries = accessor.recordKeys.map { key in
                    KotlinLiteral.string(key.typeName) + " to listOf("
                        + key.fields.map { KotlinLiteral.string($0) }.joined(separator: ", ") + ")"
                }
                arguments.append("keyFields = mapOf(" + entries.joined(separator: ", ") + ")")
            }
            declaration = "Field(" + arguments.joined(separator: ", ") + ")"
        }
        planDeclarations.append("val \(KotlinNames.quoted(name)) = \(declaration)")
        return name
    }

    /// A declarative update as the runtime's `RecordUpdate`: its kind, `connections:` as written, the types.
    static func recordUpdate(_ update: RecordUpdateModel) -> String {
        let kind = update.kind.rawValue.reduce(into: "") { text, character in
            if character.isUppercase { text += "_" }
            text += character.uppercased()
        }
        var arguments = ["RecordUpdate.Kind.\(kind)"]
        if let connections = update.connections {
            arguments.append("connections = " + KotlinLiteral.value(WrittenValue(connections)))
        }
        if let edge = update.edgeTypeName { arguments.append("edgeTypename = " + KotlinLiteral.string(edge)) }
        if let type = update.typeName { arguments.append("typename = " + KotlinLiteral.string(type)) }
        return "RecordUpdate(" + arguments.joined(separator: ", ") + ")"
    }

    /// Whether a null stored at `level` is unexpected: the plan's `ValueLevel.nonNull`.
    func nonNull(_ accessor: Accessor, level: Int) -> Bool {
        level < accessor.levels.count && accessor.levels[level].nonNull
    }

    /// The decoder of the accessor's value at `level`: list decoders down to the base's.
    func decoder(_ accessor: Accessor, level: Int, nestedQualified: String?) -> String {
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
    func conditionsExpression(_ presence: Presence) -> String? {
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
    func plan(rootSelections: [String]) -> Template {
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
    func documentConstant(_ text: String) -> Template {
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
