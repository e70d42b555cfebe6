import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Single root field.
///
/// A subscription must select exactly one root field, and it must not be an introspection field.
/// Spec: 5.2.3.1 Single root field.
package final class SingleFieldSubscriptionsRule: ValidationRuleBase, ValidationRule {
    package static let id = "single-field-subscriptions"
    package static let hooks: ValidationHooks = [.operation]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterOperation(_ node: OperationDefinition) {
        guard node.operation == .subscription, let subscriptionType = context.schema.rootType(for: .subscription) else {
            return
        }
        var collector = FieldCollector(context: context, runtimeType: subscriptionType)
        collector.collect(node.selectionSet, file: context.currentFile)
        let operationName = node.name?.value
        if collector.order.count > 1 {
            let extra = collector.order.dropFirst().flatMap { collector.fields[$0] ?? [] }
            report(Self.multipleFieldsMessage(operationName), extra.map(\.range))
        }
        for key in collector.order {
            guard let fieldNodes = collector.fields[key], let first = fieldNodes.first,
                first.field.name.value.hasPrefix("__")
            else { continue }
            report(Self.introspectionMessage(operationName), fieldNodes.map(\.range))
        }
    }
}

/// graphql-js's execution `collectFields` with no variable values: the root fields an
/// operation would execute, grouped by response key.
private struct FieldCollector {
    struct Collected {
        let field: Field
        let range: SourceRange
    }
    let context: ValidationContext
    let runtimeType: NamedTypeDef
    var fields: [String: [Collected]] = [:]
    var order: [String] = []
    var visitedFragments: Set<String> = []

    init(context: ValidationContext, runtimeType: NamedTypeDef) {
        self.context = context
        self.runtimeType = runtimeType
    }

    mutating func collect(_ selectionSet: SelectionSet, file: SourceFile) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                guard shouldInclude(field.directives) else { continue }
                let key = field.responseKey
                if fields[key] == nil { order.append(key) }
                fields[key, default: []].append(
                    Collected(
                        field: field,
                        range: SourceRange(file: file, span: Span(start: field.span.start, end: field.name.span.end))))
            case .inlineFragment(let inline):
                guard shouldInclude(inline.directives), conditionMatches(inline.typeCondition) else { continue }
                collect(inline.selectionSet, file: file)
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visitedFragments.contains(name), shouldInclude(spread.directives) else { continue }
                visitedFragments.insert(name)
                guard let fragment = context.fragment(named: name), conditionMatches(fragment.node.typeCondition) else {
                    continue
                }
                collect(fragment.node.selectionSet, file: context.definitions[fragment.index].file)
            }
        }
    }

    /// `@skip(if: true)` and `@include(if: false)` exclude a selection.
    private func shouldInclude(_ directives: [Directive]) -> Bool {
        for directive in directives {
            let name = directive.name.value
            guard name == "skip" || name == "include" else { continue }
            guard let argument = directive.arguments.first(where: { $0.name.value == "if" }),
                case .boolean(let flag, _) = argument.value
            else { continue }
            if name == "skip" && flag { return false }
            if name == "include" && !flag { return false }
        }
        return true
    }

    private func conditionMatches(_ condition: NamedType?) -> Bool {
        guard let condition else { return true }
        guard let type = context.schema.types[condition.name.value] else { return false }
        if type === runtimeType { return true }
        if type.isAbstract { return context.schema.isSubType(type, runtimeType) }
        return false
    }
}

extension SingleFieldSubscriptionsRule {
    static func multipleFieldsMessage(_ operation: String?) -> String {
        if let operation { return "Subscription \"\(operation)\" must select only one top level field." }
        return "Anonymous Subscription must select only one top level field."
    }
    static func introspectionMessage(_ operation: String?) -> String {
        if let operation { return "Subscription \"\(operation)\" must not select an introspection top level field." }
        return "Anonymous Subscription must not select an introspection top level field."
    }
}
