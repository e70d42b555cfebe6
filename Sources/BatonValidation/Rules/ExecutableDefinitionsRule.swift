import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Executable definitions.
///
/// A document submitted for execution may contain only operations and fragments.
/// Spec: 5.1.1 Executable Definitions.
package final class ExecutableDefinitionsRule: ValidationRuleBase, ValidationRule {
    package static let id = "executable-definitions"
    package static let hooks: ValidationHooks = [.document]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterDocument() {
        for entry in context.definitions where !entry.definition.isExecutable {
            let name: String
            let start: Int
            switch entry.definition {
            case .schema(let node): (name, start) = ("schema", node.span.start)
            case .scalar(let node): (name, start) = ("\"\(node.name.value)\"", node.span.start)
            case .object(let node): (name, start) = ("\"\(node.name.value)\"", node.span.start)
            case .interface(let node): (name, start) = ("\"\(node.name.value)\"", node.span.start)
            case .union(let node): (name, start) = ("\"\(node.name.value)\"", node.span.start)
            case .enumType(let node): (name, start) = ("\"\(node.name.value)\"", node.span.start)
            case .inputObject(let node): (name, start) = ("\"\(node.name.value)\"", node.span.start)
            case .directive(let node): (name, start) = ("\"\(node.name.value)\"", node.span.start)
            case .operation, .fragment: continue
            }
            report(
                Self.notExecutableMessage(name),
                [SourceRange(file: entry.file, span: Span(start: start, end: entry.definition.span.end))])
        }
    }
}

extension ExecutableDefinitionsRule {
    /// `name` is `schema` or a quoted definition name.
    static func notExecutableMessage(_ name: String) -> String { "The \(name) definition is not executable." }
}
