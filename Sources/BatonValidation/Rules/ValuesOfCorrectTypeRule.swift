import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Values of correct type.
///
/// Every literal value must be valid for the input type expected where it is written: scalars
/// parse, enum values exist, input objects give only defined fields and every required one, and
/// a `@oneOf` input object gives exactly one non-null field.
/// Spec: 5.6.1 Values of Correct Type; 5.6.2 Input Object Field Names; 5.6.4 Input Object
/// Required Fields; OneOf Input Objects (draft).
package final class ValuesOfCorrectTypeRule: ValidationRuleBase, ValidationRule {
    package static let id = "values-of-correct-type"
    package static let hooks: ValidationHooks = [.operation, .variableDefinition, .value, .objectField]
    package let context: ValidationContext
    /// The list or object literal whose contents are not checked (it was reported as a whole),
    /// as graphql-js skips the subtree.
    private var skipping: Span?
    private var variableDefinitions: [String: VariableDefinition] = [:]

    package init(context: ValidationContext) { self.context = context }

    override package func enterOperation(_ node: OperationDefinition) {
        // Emptied, not replaced, and made room for at once: one table serves operation after operation instead
        // of growing a new one insert by insert.
        variableDefinitions.removeAll(keepingCapacity: true)
        variableDefinitions.reserveCapacity(node.variableDefinitions.count)
    }

    override package func enterVariableDefinition(_ node: VariableDefinition) {
        variableDefinitions[node.variable.name.value] = node
    }

    override package func leaveValue(_ node: Value) {
        if let skipping, skipping == node.span {
            switch node {
            case .list, .object: self.skipping = nil
            default: break
            }
        }
    }

    override package func enterObjectField(_ node: ObjectField) {
        guard skipping == nil else { return }
        guard context.inputType == nil, let parentType = context.parentInputType?.named, parentType.kind == .inputObject
        else { return }
        let suggestions = Suggestions.list(node.name.value, parentType.inputFields.map(\.name))
        report(
            Self.unknownFieldMessage(node.name.value, parentType.name) + Suggestions.didYouMean(suggestions),
            at: node.span)
    }

    override package func enterValue(_ node: Value) {
        guard skipping == nil else { return }
        switch node {
        case .list(_, let span):
            let parent = context.parentInputType?.ref.nullable
            var isList = false
            if let parent, case .list = parent { isList = true }
            if !isList {
                checkLeaf(node)
                skipping = span
            }
        case .object(let fields, let span):
            guard let type = context.inputType?.named, type.kind == .inputObject else {
                checkLeaf(node)
                skipping = span
                return
            }
            for field in type.inputFields where field.type.isNonNull && field.defaultValue == nil {
                if !fields.contains(where: { $0.name.value == field.name }) {
                    report(Self.missingFieldMessage(type.name, field.name, field.type.description), at: span)
                }
            }
            if type.isOneOf { checkOneOf(type, fields: fields, span: span) }
        case .null(let span):
            if let type = context.inputType, type.ref.isNonNull {
                report(Self.badValueMessage(type.ref.description, "null"), at: span)
            }
        case .variable:
            break
        default:
            checkLeaf(node)
        }
    }

    /// graphql-js's `isValidValueNode`: the value must parse as the (leaf) location type.
    private func checkLeaf(_ node: Value) {
        guard let locationType = context.inputType else { return }
        let type = locationType.named
        guard type.isLeaf else {
            report(Self.badValueMessage(locationType.ref.description, ValuePrinter.print(node)), at: node.span)
            return
        }
        if let message = Self.parseLiteralError(type, node) {
            report(message, at: node.span)
        }
    }

    /// The error a built-in scalar's or an enum's `parseLiteral` throws for `node`, if any.
    /// Custom scalars accept every literal.
    static func parseLiteralError(_ type: NamedTypeDef, _ node: Value) -> String? {
        if type.kind == .enumType {
            let printed = ValuePrinter.print(node)
            let suggestions = {
                Suggestions.didYouMean(
                    Suggestions.list(printed, type.enumValues.map(\.name)), subMessage: "the enum value")
            }
            guard case .enumValue(let name) = node else {
                return "Enum \"\(type.name)\" cannot represent non-enum value: \(printed)." + suggestions()
            }
            if type.enumValue(named: name.value) == nil {
                return "Value \"\(printed)\" does not exist in \"\(type.name)\" enum." + suggestions()
            }
            return nil
        }
        switch type.name {
        case "Int":
            guard case .int(let text, _) = node else {
                return "Int cannot represent non-integer value: \(ValuePrinter.print(node))"
            }
            if let number = Int(text), number >= -2_147_483_648, number <= 2_147_483_647 { return nil }
            return "Int cannot represent non 32-bit signed integer value: \(text)"
        case "Float":
            switch node {
            case .int, .float: return nil
            default: return "Float cannot represent non numeric value: \(ValuePrinter.print(node))"
            }
        case "String":
            if case .string = node { return nil }
            return "String cannot represent a non string value: \(ValuePrinter.print(node))"
        case "Boolean":
            if case .boolean = node { return nil }
            return "Boolean cannot represent a non boolean value: \(ValuePrinter.print(node))"
        case "ID":
            switch node {
            case .string, .int: return nil
            default: return "ID cannot represent a non-string and non-integer value: \(ValuePrinter.print(node))"
            }
        default:
            return nil
        }
    }

    /// graphql-js's `validateOneOfInputObject`.
    private func checkOneOf(_ type: NamedTypeDef, fields: [ObjectField], span: Span) {
        var last: [String: ObjectField] = [:]
        var keys: [String] = []
        for field in fields {
            if last.updateValue(field, forKey: field.name.value) == nil { keys.append(field.name.value) }
        }
        guard keys.count == 1, let field = last[keys[0]] else {
            report(Self.oneOfKeyCountMessage(type.name), at: span)
            return
        }
        switch field.value {
        case .null:
            report(Self.oneOfNullMessage(type.name, keys[0]), at: span)
        case .variable(let variable):
            if let definition = variableDefinitions[variable.name.value] {
                if case .nonNull = definition.type {
                } else {
                    report(Self.oneOfNullableVariableMessage(variable.name.value, type.name), at: span)
                }
            }
        default:
            break
        }
    }
}

extension ValuesOfCorrectTypeRule {
    static func badValueMessage(_ type: String, _ value: String) -> String {
        "Expected value of type \"\(type)\", found \(value)."
    }
    static func missingFieldMessage(_ type: String, _ field: String, _ fieldType: String) -> String {
        "Field \"\(type).\(field)\" of required type \"\(fieldType)\" was not provided."
    }
    static func unknownFieldMessage(_ field: String, _ type: String) -> String {
        "Field \"\(field)\" is not defined by type \"\(type)\"."
    }
    static func oneOfKeyCountMessage(_ type: String) -> String {
        "OneOf Input Object \"\(type)\" must specify exactly one key."
    }
    static func oneOfNullMessage(_ type: String, _ field: String) -> String {
        "Field \"\(type).\(field)\" must be non-null."
    }
    static func oneOfNullableVariableMessage(_ variable: String, _ type: String) -> String {
        "Variable \"\(variable)\" must be non-nullable to be used for OneOf Input Object \"\(type)\"."
    }
}
