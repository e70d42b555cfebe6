import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Argument names.
///
/// Every argument given to a field or directive must be defined by that field or directive.
/// Spec: 5.4.1 Argument Names.
package final class KnownArgumentNamesRule: ValidationRuleBase, ValidationRule {
    package static let id = "known-argument-names"
    package static let hooks: ValidationHooks = [.directive, .argument]
    package let context: ValidationContext
    private var documentDirectiveArguments: [String: [String]] = [:]
    /// Inside a directive, field-argument checks are off (graphql-js skips the directive's
    /// subtree after checking its arguments).
    private var directiveDepth = 0

    package init(context: ValidationContext) {
        self.context = context
        for entry in context.definitions {
            if case .directive(let node) = entry.definition {
                documentDirectiveArguments[node.name.value] = node.arguments.map(\.name.value)
            }
        }
    }

    override package func enterDirective(_ node: Directive, location: DirectiveLocation) {
        directiveDepth += 1
        let name = node.name.value
        let known: [String]
        if let fromDocument = documentDirectiveArguments[name] {
            known = fromDocument
        } else if let definition = context.schema.directive(named: name) {
            known = definition.arguments.map(\.name)
        } else {
            return
        }
        for argument in node.arguments where !known.contains(argument.name.value) {
            let suggestions = Suggestions.list(argument.name.value, known)
            report(
                Self.directiveMessage(argument.name.value, name) + Suggestions.didYouMean(suggestions),
                at: argument.span)
        }
    }

    override package func leaveDirective(_ node: Directive, location: DirectiveLocation) { directiveDepth -= 1 }

    override package func enterArgument(_ node: Argument) {
        guard directiveDepth == 0, context.argument == nil, let fieldDef = context.fieldDef,
            let parentType = context.parentType
        else { return }
        let suggestions = Suggestions.list(node.name.value, fieldDef.arguments.map(\.name))
        report(
            Self.fieldMessage(node.name.value, parentType.name, fieldDef.name) + Suggestions.didYouMean(suggestions),
            at: node.span)
    }
}

extension KnownArgumentNamesRule {
    static func fieldMessage(_ argument: String, _ type: String, _ field: String) -> String {
        "Unknown argument \"\(argument)\" on field \"\(type).\(field)\"."
    }
    static func directiveMessage(_ argument: String, _ directive: String) -> String {
        "Unknown argument \"\(argument)\" on directive \"@\(directive)\"."
    }
}
