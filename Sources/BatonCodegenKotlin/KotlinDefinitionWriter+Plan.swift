import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema
import BatonSyntax

/// The private `Plan` object: a member per selection (what the runtime normalizes and each read checks).
extension KotlinDefinitionWriter {
    /// Declares the plan member for `declaration` (after its children's) and returns its name.
    func planMember(
        _ declaration: MemberDeclaration, path: String, nestedQualified: String?, childSelections: [String]
    ) -> String {
        let base = path.isEmpty ? declaration.name : path + "_" + declaration.name
        let name = planMembers.claim(KotlinNames.declared(base, .member), ignoringCase: true)
        let planDeclaration: String
        let conditions = conditionsExpression(declaration.runtimeCondition)
        let selections = "listOf(" + childSelections.map { KotlinNames.quoted($0) }.joined(separator: ", ") + ")"
        switch declaration.source {
        case .parentRecord(let fragment, let typeCondition, let matchingTypes):
            let possibleTypes =
                matchingTypes.map { "setOf(" + $0.map { KotlinLiteral.string($0) }.joined(separator: ", ") + ")" }
                ?? "null"
            if let fragment {
                let fragmentType = KotlinNames.quoted(context.names.fragments[fragment.name] ?? fragment.name)
                var arguments = [
                    KotlinLiteral.string(fragment.name), KotlinLiteral.string(fragment.typeCondition), possibleTypes,
                    "\(fragmentType).SELECTIONS", "{ \(fragmentType)(it) }",
                ]
                if fragment.throwOnFieldError { arguments.append("throwOnFieldError = true") }
                if let conditions { arguments.append("conditions = \(conditions)") }
                planDeclaration = "FragmentSpread(" + arguments.joined(separator: ", ") + ")"
            } else {
                var arguments = [
                    typeCondition.map { KotlinLiteral.string($0) } ?? "null", possibleTypes, selections,
                    "{ \(nestedQualified ?? "Any")(it) }",
                ]
                if let conditions { arguments.append("conditions = \(conditions)") }
                planDeclaration = "InlineFragment(" + arguments.joined(separator: ", ") + ")"
            }
        case .field(_, let fieldName, let fieldArguments):
            let selection = declaration.selection
            let nonNullLevels = selection?.nonNullLevels ?? []
            let value = declaration.type.value.nonOptional
            var arguments = [
                KotlinLiteral.string(declaration.name), KotlinLiteral.string(fieldName),
                KotlinLiteral.string(selection?.schemaType.schemaType.namedType ?? ""),
                decoder(
                    value, named: declaration.type.named, level: 0, nonNull: nonNullLevels,
                    nestedQualified: nestedQualified),
                "nonNull = " + (nonNullLevels.first ?? false ? "true" : "false"),
            ]
            if !fieldArguments.isEmpty {
                arguments.append(
                    "arguments = mapOf("
                        + fieldArguments.map { KotlinLiteral.string($0.name) + " to " + KotlinLiteral.value($0.value) }
                        .joined(separator: ", ") + ")")
            }
            if !childSelections.isEmpty { arguments.append("selections = " + selections) }
            if let conditions { arguments.append("conditions = \(conditions)") }
            if let required = selection?.required {
                let action =
                    switch required {
                    case .none: "NONE"
                    case .log: "LOG"
                    case .throwError: "THROW"
                    }
                arguments.append("required = RequiredAction.\(action)")
            }
            if selection?.catches != nil { arguments.append("catches = true") }
            if let connection = selection?.connection {
                let filters = connection.filters.map { KotlinLiteral.string($0) }.joined(separator: ", ")
                arguments.append(
                    "connection = ConnectionSpec(\(KotlinLiteral.string(connection.key))"
                        + (filters.isEmpty ? "" : ", listOf(\(filters))") + ")")
            }
            if let update = selection?.recordUpdate { arguments.append("update = " + Self.recordUpdate(update)) }
            if let keys = selection?.recordKeys, !keys.isEmpty {
                let entries = keys.map { key in
                    KotlinLiteral.string(key.typeName) + " to listOf("
                        + key.fields.map { KotlinLiteral.string($0) }.joined(separator: ", ") + ")"
                }
                arguments.append("keyFields = mapOf(" + entries.joined(separator: ", ") + ")")
            }
            planDeclaration = "Field(" + arguments.joined(separator: ", ") + ")"
        }
        planDeclarations.append("val \(KotlinNames.quoted(name)) = \(planDeclaration)")
        return name
    }

    /// A declarative update as the runtime's `RecordUpdate`: its kind, `connections:` as written, the types.
    static func recordUpdate(_ update: RecordUpdateDeclaration) -> String {
        let kind = update.kind.reduce(into: "") { text, character in
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

    /// The decoder of a value (`DeclaredType.value`, its optionality at `level` stripped) at `level`: list decoders
    /// down to the named type's. `nonNull` is the tree's `FieldSelection.nonNullLevels`.
    func decoder(
        _ type: DeclaredType, named: DeclaredNamedType, level: Int, nonNull: [Bool], nestedQualified: String?
    ) -> String {
        guard case .list(let item) = type else {
            switch named {
            case .builtInScalar(let name):
                switch name {
                case "String": return "Scalars.STRING"
                case "ID": return "Scalars.ID"
                case "Int": return "Scalars.INT"
                case "Float": return "Scalars.FLOAT"
                default: return "Scalars.BOOLEAN"
                }
            case .customScalar(let name):
                if let mapping = context.kotlinMapping(name) { return "Scalars.custom(\(mapping.converter))" }
                return "Scalars.CUSTOM"
            case .enumeration(let name):
                return "Scalars.enumeration { \(context.namedType(name)).fromRawValue(it) }"
            case .lens:
                return "LensDecoder { \(nestedQualified ?? "Any")(it) }"
            case .fragment, .inputObject, .optimisticBuilder:
                return "Scalars.CUSTOM"
            }
        }
        let decoded = decoder(
            item.nonOptional, named: named, level: level + 1, nonNull: nonNull, nestedQualified: nestedQualified)
        let itemNonNull = level + 1 < nonNull.count && nonNull[level + 1] ? "true" : "false"
        return item.isOptional
            ? "OptionalItemsDecoder(\(decoded), itemNonNull = \(itemNonNull))"
            : "ListDecoder(\(decoded), itemNonNull = \(itemNonNull))"
    }

    /// `listOf(…)` spelling the tree's `runtimeCondition`: one alternative as its conditions, several as one
    /// `Condition.anyOf`, never present as `Condition.literal(false)`; nil when it is always present.
    func conditionsExpression(_ alternatives: [[ConditionAtom]]) -> String? {
        if alternatives == [[]] { return nil }
        if alternatives.isEmpty { return "listOf(Condition.literal(false))" }
        func condition(_ atom: ConditionAtom) -> String? {
            switch atom {
            case .include(let variable): "Condition.include(\(KotlinLiteral.string(variable)))"
            case .skip(let variable): "Condition.skip(\(KotlinLiteral.string(variable)))"
            case .deferred: nil  // not in `runtimeCondition`
            }
        }
        func list(_ atoms: [ConditionAtom]) -> String {
            "listOf(" + atoms.compactMap(condition).joined(separator: ", ") + ")"
        }
        if alternatives.count == 1, let only = alternatives.first { return list(only) }
        let anyOf = alternatives.map { "Condition.allOf(" + list($0) + ")" }
        return "listOf(Condition.anyOf(listOf(" + anyOf.joined(separator: ", ") + ")))"
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

    /// An operation's document: the tree's parts (`OperationDeclaration.documentParts`) joined at compile time,
    /// its own definition and each fragment's `FRAGMENT_DOCUMENT`, as Swift joins its `fragmentDocument`s. The
    /// companion reads each fragment's class by its top-level name, which the operation's nested classes never take
    /// and its variables cannot shadow there; the whole text where the tree keeps it whole, where it is too long for
    /// one constant, or where a fragment is named like one of the companion's own members.
    func documentConstant(_ operation: OperationDeclaration) -> Template {
        let fragments = operation.documentParts?.fragments.map { context.names.fragments[$0] ?? $0 } ?? []
        guard let parts = operation.documentParts, !fragments.isEmpty,
            KotlinLiteral.string(operation.documentText).utf8.count < Self.constantLimit,
            !fragments.contains(where: Self.companionMembers.contains)
        else { return documentConstant(operation.documentText) }
        let joins = fragments.map { Template(#""\n\n" + "# + KotlinNames.quoted($0) + ".FRAGMENT_DOCUMENT") }
        return """
            const val DOCUMENT: String = \(KotlinLiteral.string(parts.operation)) +
                \(lines: joins, separator: " +\n")
            """
    }

    /// The names an operation's companion object declares.
    static let companionMembers: Set<String> = [
        "Companion", "OPERATION_NAME", "OPERATION_ID", "DOCUMENT", "VARIABLE_NAMES",
    ]

    /// A fragment's `FRAGMENT_DOCUMENT`, the text the operations that use it join (`FragmentDeclaration.documentText`),
    /// when it has one short enough for a constant (an operation that long keeps its whole text).
    static func fragmentDocument(_ fragment: FragmentDeclaration) -> String? {
        guard let text = fragment.documentText else { return nil }
        let literal = KotlinLiteral.string(text)
        return literal.utf8.count < constantLimit ? "const val FRAGMENT_DOCUMENT: String = " + literal : nil
    }

    /// The longest literal written as one constant (a JVM string constant holds 65,535 bytes of modified UTF-8, up
    /// to three per character).
    static let constantLimit = 20_000

    /// The document text as a constant; a text too long for one JVM string constant (65,535 bytes of
    /// modified UTF-8) is joined at run time from pieces that fit.
    func documentConstant(_ text: String) -> Template {
        let literal = KotlinLiteral.string(text)
        if literal.utf8.count < Self.constantLimit { return "const val DOCUMENT: String = \(literal)" }
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
