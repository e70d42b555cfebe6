import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Custom scalars mapped for every output language.
///
/// A custom scalar `customScalarTypes` does not map for a language in `output` reads as its
/// text (a string) in that language's generated code; usually a mapping was forgotten. A
/// warning, at the first selection (or variable) of each such scalar in each file, with notes
/// at the others in that file. Reports nothing without `ValidationOptions` (a plain spec
/// validation). Baton.
package final class UnmappedCustomScalarRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "unmapped-custom-scalar", title: "Custom scalars mapped for every output language.",
        summary:
            "A custom scalar a document uses should be mapped by customScalarTypes for every language in output; otherwise it reads as its text.",
        severity: .warning, origin: .baton)
    package static let hooks: ValidationHooks = [.enterField, .variableDefinition, .document]
    /// Notes beyond this many are summed up in one.
    static let maximumNotes = 5
    package let context: ValidationContext
    /// Uses of each unmapped scalar, by file, in the order met.
    private var uses: [(file: SourceFile, scalar: String, ranges: [Span])] = []
    private var useIndex: [FileScalar: Int] = [:]
    /// The languages each scalar lacks a mapping for (empty when mapped for all).
    private var missingByScalar: [String: [CodegenLanguage]] = [:]

    private struct FileScalar: Hashable {
        let file: ObjectIdentifier
        let scalar: String
    }

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        if let type = context.type?.named { record(type, at: node.name.span) }
    }

    override package func enterVariableDefinition(_ node: VariableDefinition) {
        if let type = context.inputType?.named { record(type, at: node.type.namedType.span) }
    }

    private func record(_ type: NamedTypeDef, at span: Span) {
        guard type.kind == .scalar, !type.isBuiltInScalar, let options = context.options,
            !missing(type.name, options).isEmpty
        else { return }
        let key = FileScalar(file: ObjectIdentifier(context.currentFile), scalar: type.name)
        if let index = useIndex[key] {
            uses[index].ranges.append(span)
        } else {
            useIndex[key] = uses.count
            uses.append((context.currentFile, type.name, [span]))
        }
    }

    private func missing(_ scalar: String, _ options: ValidationOptions) -> [CodegenLanguage] {
        if let known = missingByScalar[scalar] { return known }
        let mapped = options.scalarMappings[scalar] ?? []
        let result = options.outputLanguages.subtracting(mapped).sorted()
        missingByScalar[scalar] = result
        return result
    }

    override package func leaveDocument() {
        for use in uses {
            guard let first = use.ranges.first else { continue }
            let languages = missingByScalar[use.scalar] ?? []
            let mappedAtAll = !(context.options?.scalarMappings[use.scalar]?.isEmpty ?? true)
            var notes = use.ranges.dropFirst().prefix(Self.maximumNotes).map {
                DiagnosticNote(message: "also used here", range: SourceRange(file: use.file, span: $0))
            }
            let more = use.ranges.count - 1 - Self.maximumNotes
            if more > 0 { notes.append(DiagnosticNote(message: "and \(more) more uses in this file", range: nil)) }
            diagnose(
                Self.message(use.scalar, languages: languages, mappedAtAll: mappedAtAll),
                range: SourceRange(file: use.file, span: first), notes: notes)
        }
    }
}

extension UnmappedCustomScalarRule {
    static func message(_ scalar: String, languages: [CodegenLanguage], mappedAtAll: Bool) -> String {
        let names = languages.map(\.displayName).joined(separator: " and ")
        if mappedAtAll {
            return
                "The custom scalar \"\(scalar)\" has no \(names) mapping in customScalarTypes, so in \(names) it reads as its text (a string)."
        }
        return
            "The custom scalar \"\(scalar)\" is not mapped in customScalarTypes, so it reads as its text (a string). Map it to a type for \(names)."
    }
}
