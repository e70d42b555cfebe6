import BatonIR
import BatonSchema
import BatonValidation

/// Every rule id `baton check` can report, with a one-sentence description (for SARIF's rule
/// metadata), and the ids `baton.json`'s `rules` may name.
package enum RuleCatalog {
    /// Ids that are categories of problems rather than rules; `rules` cannot change them.
    package static let categoryDescriptions: [String: String] = [
        "syntax": "GraphQL syntax error, or a malformed GraphQL literal in a Swift source.",
        "schema": "The schema does not build or is not valid.",
        "config": "baton.json is malformed or names something that does not exist.",
        "io": "A file or folder could not be read.",
    ]

    /// The spec's rules, described by their title and the sentence under it in the rule's
    /// file (a test checks every registered rule has an entry).
    package static let specifiedRuleDescriptions: [String: String] = [
        "defer-stream-directive-label":
            "Defer and stream labels are static and unique. The `label` of `@defer` and `@stream` must be a string literal, different from every other label in the document.",
        "defer-stream-directive-on-root-field":
            "Defer and stream not on root fields of mutations and subscriptions. `@defer` and `@stream` must not be used directly in the root selection of a mutation or a subscription.",
        "defer-stream-directive-on-valid-operations":
            "Defer and stream only on valid operations. `@defer` and `@stream` must not be used in subscriptions (or fragments they use) unless their `if` argument can be false.",
        "executable-definitions":
            "Executable definitions. A document submitted for execution may contain only operations and fragments.",
        "fields-on-correct-type":
            "Fields on correct type. Every selected field must be defined on the type it is selected on (or be `__typename`).",
        "fragments-on-composite-types":
            "Fragments on composite types. A fragment's type condition must name an object, interface or union type.",
        "known-argument-names":
            "Argument names. Every argument given to a field or directive must be defined by that field or directive.",
        "known-directives":
            "Directives are defined and in valid locations. Every directive used must be defined by the schema, and used only where its definition allows.",
        "known-fragment-names":
            "Fragment spread target defined. Every fragment spread must name a fragment defined in the document (or, when validating a project, in any of its files).",
        "known-type-names":
            "Known type names. Every type named in a variable definition or a type condition must be defined by the schema.",
        "lone-anonymous-operation":
            "Lone anonymous operation. An operation without a name is allowed only when it is the document's only operation.",
        "no-fragment-cycles":
            "No fragment cycles. A fragment must not spread itself, directly or through other fragments.",
        "no-undefined-variables":
            "All variable uses defined. Every variable used in an operation, or in a fragment it spreads, must be defined by that operation.",
        "no-unused-fragments":
            "Fragments must be used. Every fragment must be spread, directly or through other fragments, by some operation.",
        "no-unused-variables":
            "All variables used. Every variable an operation defines must be used by it or by a fragment it spreads.",
        "overlapping-fields-can-be-merged":
            "Field selection merging. Two fields selected under the same response key must be mergeable: the same field with the same arguments (unless their parents are different object types), compatible return types, and mergeable sub-selections.",
        "possible-fragment-spreads":
            "Fragment spread is possible. A fragment may be spread only where its type condition can apply to the parent type: the two types must share at least one possible object type.",
        "provided-required-arguments":
            "Required arguments. Every argument of non-null type without a default must be given.",
        "scalar-leafs":
            "Leaf field selections. Fields of scalar or enum type must not have a selection set; fields of object, interface or union type must have one.",
        "single-field-subscriptions":
            "Single root field. A subscription must select exactly one root field, and it must not be an introspection field.",
        "stream-directive-on-list-field":
            "Stream only on list fields. `@stream` may be used only on a field whose type is a list.",
        "unique-argument-names":
            "Argument uniqueness. A field or directive must not be given the same argument twice.",
        "unique-directives-per-location":
            "Directives are unique per location. A directive that is not `repeatable` may appear at most once on a node.",
        "unique-fragment-names":
            "Fragment name uniqueness. Each fragment must have a name no other fragment in the document has.",
        "unique-input-field-names":
            "Input object field uniqueness. An input object literal must not give the same field twice.",
        "unique-operation-names":
            "Operation name uniqueness. Each named operation must have a name no other operation in the document has.",
        "unique-variable-names":
            "Variable uniqueness. An operation must not define two variables with the same name.",
        "values-of-correct-type":
            "Values of correct type. Every literal value must be valid for the input type expected where it is written: scalars parse, enum values exist, input objects give only defined fields and every required one, and a `@oneOf` input object gives exactly one non-null field.",
        "variables-are-input-types":
            "Variables are input types. A variable's type must be a scalar, enum or input object type (possibly wrapped in lists and non-null).",
        "variables-in-allowed-position":
            "All variable usages are allowed. A variable may be used only where its type fits the expected type; a nullable variable may be used in a non-null position only when the variable or the position has a default.",
    ]

    /// The SDL rules that run on schema files only (the others share a document rule's id).
    package static let sdlRuleDescriptions: [String: String] = [
        "lone-schema-definition": "Lone schema definition. A schema has at most one `schema` definition.",
        "unique-operation-types": "Unique operation types. A schema names each root operation type once.",
        "unique-type-names": "Unique type names. Every type a schema defines has a name no other type has.",
        "unique-enum-value-names": "Unique enum value names. An enum defines each value once.",
        "unique-field-definition-names":
            "Unique field definition names. A type or its extensions define each field once.",
        "unique-argument-definition-names":
            "Unique argument definition names. A field or directive defines each argument once.",
        "unique-directive-names": "Unique directive names. A schema defines each directive once.",
        "possible-type-extensions":
            "Possible type extensions. An extension extends a type that exists, with the same kind.",
        "known-argument-names-on-directives":
            "Known argument names on directives. A directive in a schema is given only arguments it defines.",
        "provided-required-arguments-on-directives":
            "Provided required arguments on directives. A directive in a schema is given every required argument.",
    ]

    /// Baton's own rules checked outside the validator.
    package static let batonRuleDescriptions: [String: String] = [
        UnknownScalarMappingRule.id: UnknownScalarMappingRule.summary
    ].merging(BatonRuleCatalog.descriptions) { a, _ in a }

    /// Every description by id.
    package static var descriptions: [String: String] {
        categoryDescriptions.merging(specifiedRuleDescriptions) { a, _ in a }.merging(batonRuleDescriptions) { a, _ in a
        }
        .merging(sdlRuleDescriptions) { a, _ in a }
        .merging(LensDiagnosticRule.descriptions) { a, _ in a }
    }

    /// The ids `rules` in baton.json may name: every rule the validator runs, and Baton's.
    package static var ruleIDs: Set<String> {
        Set(DocumentValidation.rules.map { $0.id }).union(batonRuleDescriptions.keys).union(SchemaRuleIDs.sdlRules)
    }
}
