import BatonCodegen
import BatonDeclarations
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax

/// The private `Plan` object: the file's selections as one text the runtime's `PlanTable` parses (one line per
/// selection, children first; `PlanTable`'s documentation describes the format), with what a text cannot hold —
/// lens constructors and decoders, other files' selections — given by index (issue 34: a declaration per selection
/// was most of what kotlinc analysed).
extension KotlinDefinitionWriter {
    /// Writes the plan line for `declaration` (after its children's) and returns its line number.
    func planMember(
        _ declaration: MemberDeclaration, nestedQualified: String?, childSelections: [Int]
    ) -> Int {
        var parts: [String]
        let conditions = Self.conditionsText(declaration.runtimeCondition)
        let children = childSelections.map(String.init).joined(separator: ",")
        switch declaration.source {
        case .parentRecord(let fragment, let typeCondition, let matchingTypes):
            let possibleTypes = matchingTypes.map { $0.map(PlanText.item).joined(separator: ",") } ?? "*"
            if let fragment {
                let fragmentType = KotlinNames.quoted(context.names.fragments[fragment.name] ?? fragment.name)
                parts = [
                    "S", PlanText.part(fragment.name), PlanText.part(fragment.typeCondition), possibleTypes,
                    String(planExternal("\(fragmentType).SELECTIONS")), String(planLens(fragmentType)),
                ]
                if fragment.throwOnFieldError { parts.append("t") }
            } else {
                parts = [
                    "I", typeCondition.map(PlanText.part) ?? "", possibleTypes, children,
                    String(planLens(nestedQualified ?? "Any")),
                ]
            }
            if let conditions { parts.append("c=" + conditions) }
        case .field(_, let fieldName, let fieldArguments):
            let selection = declaration.selection
            let nonNullLevels = selection?.nonNullLevels ?? []
            let value = declaration.type.value.nonOptional
            parts = [
                "F", PlanText.part(declaration.name), PlanText.part(fieldName),
                PlanText.part(selection?.schemaType.schemaType.namedType ?? ""),
                decoder(
                    value, named: declaration.type.named, level: 0, nonNull: nonNullLevels,
                    nestedQualified: nestedQualified),
                nonNullLevels.first ?? false ? "1" : "0", children,
            ]
            if let conditions { parts.append("c=" + conditions) }
            if !fieldArguments.isEmpty {
                let object = fieldArguments.map { JSONText.quote($0.name) + ":" + PlanText.value($0.value) }
                parts.append("a=" + PlanText.part("{" + object.joined(separator: ",") + "}"))
            }
            if let required = selection?.required {
                switch required {
                case .none: parts.append("r=N")
                case .log: parts.append("r=L")
                case .throwError: parts.append("r=T")
                }
            }
            if selection?.catches != nil { parts.append("x") }
            if let connection = selection?.connection {
                parts.append("k=" + ([connection.key] + connection.filters).map(PlanText.item).joined(separator: ","))
            }
            if let update = selection?.recordUpdate { parts += Self.recordUpdate(update) }
            if let keys = selection?.recordKeys, !keys.isEmpty {
                let entries = keys.map { key in
                    PlanText.item(key.typeName) + ":" + key.fields.map(PlanText.item).joined(separator: ",")
                }
                parts.append("K=" + entries.joined(separator: ";"))
            }
        }
        planLines.append(parts.joined(separator: "|"))
        return planLines.count - 1
    }

    /// The index `lens(index, reader)` makes `qualified`'s lens for, one per class in the file.
    func planLens(_ qualified: String) -> Int {
        if let index = planLensIndex[qualified] { return index }
        planLenses.append(qualified)
        planLensIndex[qualified] = planLenses.count - 1
        return planLenses.count - 1
    }

    /// The index `external(index)` gives `expression` for, one per distinct expression in the file.
    func planExternal(_ expression: String) -> Int {
        if let index = planExternalIndex[expression] { return index }
        planExternals.append(expression)
        planExternalIndex[expression] = planExternals.count - 1
        return planExternals.count - 1
    }

    /// A declarative update as the plan's parts: its kind (the runtime's `RecordUpdate.Kind`), `connections:` as
    /// written, the types.
    static func recordUpdate(_ update: RecordUpdateDeclaration) -> [String] {
        let kind = update.kind.reduce(into: "") { text, character in
            if character.isUppercase { text += "_" }
            text += character.uppercased()
        }
        var parts = ["u=" + kind]
        if let connections = update.connections { parts.append("uc=" + PlanText.part(PlanText.value(connections))) }
        if let edge = update.edgeTypeName { parts.append("ue=" + PlanText.part(edge)) }
        if let type = update.typeName { parts.append("ut=" + PlanText.part(type)) }
        return parts
    }

    /// The decoder of a value (`DeclaredType.value`, its optionality at `level` stripped) at `level` in the plan's
    /// spelling: list decoders down to the named type's. `nonNull` is the tree's `FieldSelection.nonNullLevels`.
    func decoder(
        _ type: DeclaredType, named: DeclaredNamedType, level: Int, nonNull: [Bool], nestedQualified: String?
    ) -> String {
        guard case .list(let item) = type else {
            switch named {
            case .builtInScalar(let name):
                switch name {
                case "String": return "S"
                case "ID": return "D"
                case "Int": return "I"
                case "Float": return "F"
                default: return "B"
                }
            case .customScalar(let name):
                if let mapping = context.kotlinMapping(name) {
                    return "#" + String(planExternal("Scalars.custom(\(mapping.converter))"))
                }
                return "C"
            case .enumeration(let name):
                return "#" + String(planExternal("Scalars.enumeration { \(context.namedType(name)).fromRawValue(it) }"))
            case .lens:
                return "@" + String(planLens(nestedQualified ?? "Any"))
            case .fragment, .inputObject, .optimisticBuilder:
                return "C"
            }
        }
        let decoded = decoder(
            item.nonOptional, named: named, level: level + 1, nonNull: nonNull, nestedQualified: nestedQualified)
        let itemNonNull = level + 1 < nonNull.count && nonNull[level + 1] ? "!" : "?"
        return item.isOptional ? "{" + decoded + "}" + itemNonNull : "[" + decoded + "]" + itemNonNull
    }

    /// The plan's spelling of the tree's `runtimeCondition`: one alternative as its atoms (`+a,-b`), several
    /// separated by `;`, never present as `F`; nil when it is always present.
    static func conditionsText(_ alternatives: [[ConditionAtom]]) -> String? {
        if alternatives == [[]] { return nil }
        if alternatives.isEmpty { return "F" }
        func atom(_ atom: ConditionAtom) -> String? {
            switch atom {
            case .include(let variable): "+" + PlanText.item(variable)
            case .skip(let variable): "-" + PlanText.item(variable)
            case .deferred: nil  // not in `runtimeCondition`
            }
        }
        return alternatives.map { $0.compactMap(atom).joined(separator: ",") }.joined(separator: ";")
    }

    /// The private plan object: the text, its roots last, then the lenses and external values it names by index.
    func plan(rootSelections: [Int]) -> Template {
        let text = planLines.map { $0 + "\n" }.joined() + "R|" + rootSelections.map(String.init).joined(separator: ",")
        let pieces = JVMStringConstant.pieces(text).map { Template(KotlinLiteral.string($0)) }
        var overrides: [Template] = []
        if !planLenses.isEmpty {
            let cases = planLenses.enumerated().map { Template("\($0.offset) -> \($0.element)(reader)") }
            overrides.append(
                """
                override fun lens(index: Int, reader: RecordReader): Any = when (index) {
                    \(lines: cases)
                    else -> super.lens(index, reader)
                }
                """)
        }
        if !planExternals.isEmpty {
            let cases = planExternals.enumerated().map { Template("\($0.offset) -> \($0.element)") }
            overrides.append(
                """
                override fun external(index: Int): Any = when (index) {
                    \(lines: cases)
                    else -> super.external(index)
                }
                """)
        }
        let body: Template =
            overrides.isEmpty
            ? .empty
            : """
             {
                \(Template.joined(overrides, separator: "\n\n"))
            }
            """
        return """
            /** The selections, as the runtime normalizes responses and checks reads by them (`PlanTable`'s text). */
            private object \(KotlinNames.quoted(planName)) : PlanTable(
                \(lines: pieces, separator: ",\n")
            )\(body)
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
            JVMStringConstant.fits(operation.documentText),
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
    /// when it has one that fits one constant (`JVMStringConstant`; an operation that long keeps its whole text).
    static func fragmentDocument(_ fragment: FragmentDeclaration) -> String? {
        guard let text = fragment.documentText, JVMStringConstant.fits(text) else { return nil }
        return "const val FRAGMENT_DOCUMENT: String = " + KotlinLiteral.string(text)
    }

    /// The document text as a constant; a text too long for one JVM string constant is joined at run time from the
    /// pieces `JVMStringConstant` cuts.
    func documentConstant(_ text: String) -> Template {
        let pieces = JVMStringConstant.pieces(text)
        guard pieces.count > 1 else { return "const val DOCUMENT: String = \(KotlinLiteral.string(text))" }
        return """
            val DOCUMENT: String = StringBuilder()
                \(lines: pieces.map { Template(".append(\(KotlinLiteral.string($0)))") })
                .toString()
            """
    }
}
