import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Required arguments.
///
/// Every argument of non-null type without a default must be given.
/// Spec: 5.4.2.1 Required Arguments.
package final class ProvidedRequiredArgumentsRule: ValidationRuleBase, ValidationRule {
    package static let id = "provided-required-arguments"
    package static let hooks: ValidationHooks = [.leaveField, .directive]
    package let context: ValidationContext
    private var documentDirectiveRequired: [String: [(name: String, type: String)]] = [:]

    package init(context: ValidationContext) {
        self.context = context
        for entry in context.definitions {
            if case .directive(let node) = entry.definition {
                documentDirectiveRequired[node.name.value] = node.arguments.compactMap { argument in
                    guard case .nonNull = argument.type, argument.defaultValue == nil else { return nil }
                    return (argument.name.value, ValuePrinter.print(argument.type))
                }
            }
        }
    }

    override package func leaveField(_ node: Field) {
        // Most fields have no required argument: tested without counting a reference to the definition.
        guard context.readFieldDef(Self.hasRequiredArgument) == true, let fieldDef = context.fieldDef else { return }
        for argument in fieldDef.arguments where argument.type.isNonNull && argument.defaultValue == nil {
            guard !node.arguments.contains(where: { $0.name.value == argument.name }) else { continue }
            report(
                Self.fieldMessage(fieldDef.name, argument.name, argument.type.description),
                at: Span(start: node.span.start, end: node.name.span.end))
        }
    }

    private static func hasRequiredArgument(_ fieldDef: FieldDef) -> Bool {
        fieldDef.arguments.contains { $0.type.isNonNull && $0.defaultValue == nil }
    }

    override package func leaveDirective(_ node: Directive, location: DirectiveLocation) {
        let name = node.name.value
        let required: [(name: String, type: String)]
        if let fromDocument = documentDirectiveRequired[name] {
            required = fromDocument
        } else if let definition = context.schema.directive(named: name) {
            required = definition.arguments.filter { $0.type.isNonNull && $0.defaultValue == nil }.map {
                ($0.name, $0.type.description)
            }
        } else {
            return
        }
        for argument in required where !node.arguments.contains(where: { $0.name.value == argument.name }) {
            report(Self.directiveMessage(name, argument.name, argument.type), at: node.span)
        }
    }
}

extension ProvidedRequiredArgumentsRule {
    static func fieldMessage(_ field: String, _ argument: String, _ type: String) -> String {
        "Field \"\(field)\" argument \"\(argument)\" of type \"\(type)\" is required, but it was not provided."
    }
    static func directiveMessage(_ directive: String, _ argument: String, _ type: String) -> String {
        "Directive \"@\(directive)\" argument \"\(argument)\" of type \"\(type)\" is required, but it was not provided."
    }
}
