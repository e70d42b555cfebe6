import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Variable uniqueness.
///
/// An operation must not define two variables with the same name.
/// Spec: 5.8.1 Variable Uniqueness.
package final class UniqueVariableNamesRule: ValidationRuleBase, ValidationRule {
    package static let id = "unique-variable-names"
    package static let hooks: ValidationHooks = [.operation]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterOperation(_ node: OperationDefinition) {
        guard node.variableDefinitions.count > 1 else { return }
        for (name, nodes) in groupedByName(node.variableDefinitions.map(\.variable.name)) where nodes.count > 1 {
            report(Self.message(name), nodes.map { context.range($0.span) })
        }
    }
}

/// graphql-js's `groupBy` on names: groups in order of first appearance. Lists of names are
/// short and almost always distinct, so that is checked first without hashing.
func groupedByName(_ names: [Name]) -> [(String, [Name])] {
    if names.count <= 16 {
        var distinct = true
        search: for i in names.indices {
            for j in names.indices where j > i && names[i].value == names[j].value {
                distinct = false
                break search
            }
        }
        if distinct { return names.map { ($0.value, [$0]) } }
    }
    var order: [String] = []
    var groups: [String: [Name]] = [:]
    for name in names {
        if groups[name.value] == nil { order.append(name.value) }
        groups[name.value, default: []].append(name)
    }
    return order.map { ($0, groups[$0] ?? []) }
}

extension UniqueVariableNamesRule {
    static func message(_ name: String) -> String { "There can be only one variable named \"$\(name)\"." }
}
