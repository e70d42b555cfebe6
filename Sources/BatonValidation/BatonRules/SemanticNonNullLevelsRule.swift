import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@semanticNonNull` levels name nullable positions of the field's type.
///
/// Level 0 is the field's value, level 1 the items of its list, and so on. A level must not be
/// negative, must not be deeper than the type's list nesting, and must not name a position the
/// type already makes non-null. A schema check, run once per schema (`BatonSchemaRules.check`),
/// not per document; reported at the level's literal. Baton.
package enum SemanticNonNullLevelsRule: BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "semantic-non-null-levels", title: "@semanticNonNull levels name nullable positions.",
        summary:
            "Each level must be a position of the field's type: not negative, not deeper than its lists, not already non-null.",
        severity: .error, origin: .baton)

    /// Checks every field of every object and interface type of `schema`.
    package static func check(_ schema: GraphQLSchema) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for typeName in schema.typeNames {
            guard let type = schema.types[typeName], type.kind == .object || type.kind == .interface else { continue }
            for field in type.fields {
                guard let applied = field.directives.first(where: { $0.name == BatonDirectives.semanticNonNull }),
                    let levels = BatonDirectives.semanticNonNullLevels(of: field)
                else { continue }
                let coordinate = "\(type.name).\(field.name)"
                for (level, span) in levels {
                    let message: String
                    if level < 0 {
                        message = negativeMessage(level, coordinate)
                    } else if let position = position(in: field.type, level: level) {
                        guard position.isNonNull else { continue }
                        message = nonNullMessage(level, coordinate, field.type)
                    } else {
                        message = tooDeepMessage(level, coordinate, field.type, depth: listDepth(field.type))
                    }
                    let range = applied.location.map { SourceRange(file: $0.file, span: span ?? applied.node.span) }
                    diagnostics.append(
                        Diagnostic(
                            severity, message, rule: id, range: range,
                            path: range == nil ? "<schema>" : nil))
                }
            }
        }
        return diagnostics
    }

    /// The type at `level` (0: the type itself, 1: its list's items, …), nil when deeper than its lists.
    static func position(in type: TypeRef, level: Int) -> TypeRef? {
        var current = type
        var remaining = level
        while remaining > 0 {
            guard case .list(let inner) = current.nullable else { return nil }
            current = inner
            remaining -= 1
        }
        return current
    }

    static func listDepth(_ type: TypeRef) -> Int {
        var depth = 0
        var current = type
        while case .list(let inner) = current.nullable {
            depth += 1
            current = inner
        }
        return depth
    }
}

extension SemanticNonNullLevelsRule {
    static func negativeMessage(_ level: Int, _ coordinate: String) -> String {
        "Level \(level) of @semanticNonNull on field \"\(coordinate)\" is negative: level 0 is the field's value, level 1 its list's items, and so on."
    }
    static func tooDeepMessage(_ level: Int, _ coordinate: String, _ type: TypeRef, depth: Int) -> String {
        let levels = depth == 0 ? "only level 0" : "levels 0 to \(depth)"
        return
            "Level \(level) of @semanticNonNull on field \"\(coordinate)\" is deeper than its type \(type), which has \(levels)."
    }
    static func nonNullMessage(_ level: Int, _ coordinate: String, _ type: TypeRef) -> String {
        "Level \(level) of @semanticNonNull on field \"\(coordinate)\" is already non-null in its type \(type)."
    }
}
