import BatonDiagnostics
import BatonSyntax

/// Unique input field names: an input object literal (in a directive argument or a default
/// value) gives each field once. Spec: "Input Object Field Uniqueness".
/// graphql-js: `UniqueInputFieldNamesRule`.
struct UniqueInputFieldNamesRule: SDLRule {
    static let id = "unique-input-field-names"

    static func check(_ context: SDLValidationContext) {
        context.forEachValue { value, file in
            // Iterative walk: literal nesting depth is bounded only by the parser.
            var pending: [Value] = [value]
            while let next = pending.popLast() {
                switch next {
                case .list(let items, _):
                    pending.append(contentsOf: items)
                case .object(let fields, _):
                    var seen: [String: Name] = [:]
                    for field in fields {
                        if let first = seen[field.name.value] {
                            context.report(
                                onlyOne(field.name.value), rule: id, file: file, span: first.span,
                                notes: [("Also given here.", file, field.name.span)])
                        } else {
                            seen[field.name.value] = field.name
                        }
                        pending.append(field.value)
                    }
                default:
                    break
                }
            }
        }
    }

    static func onlyOne(_ name: String) -> String { "There can be only one input field named \"\(name)\"." }
}
