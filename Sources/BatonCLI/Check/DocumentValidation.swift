import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonValidation

/// The validation step of `check`: every rule over all documents of a project as one unit,
/// so fragments resolve across files.
package enum DocumentValidation {
    /// The rules `check` runs, in order.
    package static var rules: [any ValidationRule.Type] { specifiedRules }

    package static func validate(schema: GraphQLSchema, documents: [Document]) -> [Diagnostic] {
        Validator.validate(schema: schema, documents: documents, rules: rules, mode: .merged)
    }
}
