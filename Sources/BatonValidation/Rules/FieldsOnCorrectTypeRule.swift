import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Fields on correct type.
///
/// Every selected field must be defined on the type it is selected on (or be `__typename`).
/// Spec: 5.3.1 Field Selections.
package final class FieldsOnCorrectTypeRule: ValidationRuleBase, ValidationRule {
    package static let id = "fields-on-correct-type"
    package static let hooks: ValidationHooks = [.enterField]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard !context.hasFieldDef, let type = context.parentType else { return }
        let fieldName = node.name.value
        var suggestion = Suggestions.didYouMean(
            suggestedTypeNames(type, fieldName), subMessage: "to use an inline fragment on")
        if suggestion.isEmpty {
            suggestion = Suggestions.didYouMean(suggestedFieldNames(type, fieldName))
        }
        report(
            Self.message(fieldName, type.name) + suggestion,
            at: Span(start: node.span.start, end: node.name.span.end))
    }

    /// Object and interface types among the possible types that do define the field, the most
    /// used first (graphql-js's `getSuggestedTypeNames`).
    private func suggestedTypeNames(_ type: NamedTypeDef, _ fieldName: String) -> [String] {
        guard type.isAbstract else { return [] }
        let schema = context.schema
        var suggested: [NamedTypeDef] = []
        var usageCount: [String: Int] = [:]
        for possibleType in schema.possibleTypes(of: type) {
            guard possibleType.field(named: fieldName) != nil else { continue }
            if usageCount[possibleType.name] == nil { suggested.append(possibleType) }
            usageCount[possibleType.name] = 1
            for interfaceName in possibleType.interfaces {
                guard let interface = schema.types[interfaceName], interface.field(named: fieldName) != nil else {
                    continue
                }
                if usageCount[interface.name] == nil { suggested.append(interface) }
                usageCount[interface.name, default: 0] += 1
            }
        }
        return suggested.sorted { a, b in
            let diff = (usageCount[b.name] ?? 0) - (usageCount[a.name] ?? 0)
            if diff != 0 { return diff < 0 }
            if a.kind == .interface && schema.isSubType(a, b) { return true }
            if b.kind == .interface && schema.isSubType(b, a) { return false }
            return Suggestions.naturalCompare(a.name, b.name) < 0
        }.map(\.name)
    }

    private func suggestedFieldNames(_ type: NamedTypeDef, _ fieldName: String) -> [String] {
        guard type.kind == .object || type.kind == .interface else { return [] }
        return Suggestions.list(fieldName, type.fields.map(\.name))
    }
}

extension FieldsOnCorrectTypeRule {
    static func message(_ field: String, _ type: String) -> String {
        "Cannot query field \"\(field)\" on type \"\(type)\"."
    }
}
