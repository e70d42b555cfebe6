import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// The validation step of `check`: every rule over all documents of a project as one unit.
enum DocumentValidation {
    static func validate(schema: GraphQLSchema, documents: [Document]) -> [Diagnostic] {
        // The validator (issue 3) is not on main yet: until it lands, `check` reports syntax
        // and schema errors only.
        []
    }
}
