import BatonDiagnostics

/// The descriptors of the spec's document rules (graphql-js's `specifiedRules`), by id: the title
/// and the sentence under it in each rule's file. A test checks every registered rule has one.
package enum SpecifiedRuleDescriptors {
    package static let all: [String: RuleDescriptor] = Dictionary(
        uniqueKeysWithValues: [
            spec(
                "defer-stream-directive-label", "Defer and stream labels are static and unique.",
                "The `label` of `@defer` and `@stream` must be a string literal, different from every other label in the document."
            ),
            spec(
                "defer-stream-directive-on-root-field",
                "Defer and stream not on root fields of mutations and subscriptions.",
                "`@defer` and `@stream` must not be used directly in the root selection of a mutation or a subscription."
            ),
            spec(
                "defer-stream-directive-on-valid-operations", "Defer and stream only on valid operations.",
                "`@defer` and `@stream` must not be used in subscriptions (or fragments they use) unless their `if` argument can be false."
            ),
            spec(
                "executable-definitions", "Executable definitions.",
                "A document submitted for execution may contain only operations and fragments."),
            spec(
                "fields-on-correct-type", "Fields on correct type.",
                "Every selected field must be defined on the type it is selected on (or be `__typename`)."),
            spec(
                "fragments-on-composite-types", "Fragments on composite types.",
                "A fragment's type condition must name an object, interface or union type."),
            spec(
                "known-argument-names", "Argument names.",
                "Every argument given to a field or directive must be defined by that field or directive."),
            spec(
                "known-directives", "Directives are defined and in valid locations.",
                "Every directive used must be defined by the schema, and used only where its definition allows."),
            spec(
                "known-fragment-names", "Fragment spread target defined.",
                "Every fragment spread must name a fragment defined in the document (or, when validating a project, in any of its files)."
            ),
            spec(
                "known-type-names", "Known type names.",
                "Every type named in a variable definition or a type condition must be defined by the schema."),
            spec(
                "lone-anonymous-operation", "Lone anonymous operation.",
                "An operation without a name is allowed only when it is the document's only operation."),
            spec(
                "no-fragment-cycles", "No fragment cycles.",
                "A fragment must not spread itself, directly or through other fragments."),
            spec(
                "no-undefined-variables", "All variable uses defined.",
                "Every variable used in an operation, or in a fragment it spreads, must be defined by that operation."),
            spec(
                "no-unused-fragments", "Fragments must be used.",
                "Every fragment must be spread, directly or through other fragments, by some operation."),
            spec(
                "no-unused-variables", "All variables used.",
                "Every variable an operation defines must be used by it or by a fragment it spreads."),
            spec(
                "overlapping-fields-can-be-merged", "Field selection merging.",
                "Two fields selected under the same response key must be mergeable: the same field with the same arguments (unless their parents are different object types), compatible return types, and mergeable sub-selections."
            ),
            spec(
                "possible-fragment-spreads", "Fragment spread is possible.",
                "A fragment may be spread only where its type condition can apply to the parent type: the two types must share at least one possible object type."
            ),
            spec(
                "provided-required-arguments", "Required arguments.",
                "Every argument of non-null type without a default must be given."),
            spec(
                "scalar-leafs", "Leaf field selections.",
                "Fields of scalar or enum type must not have a selection set; fields of object, interface or union type must have one."
            ),
            spec(
                "single-field-subscriptions", "Single root field.",
                "A subscription must select exactly one root field, and it must not be an introspection field."),
            spec(
                "stream-directive-on-list-field", "Stream only on list fields.",
                "`@stream` may be used only on a field whose type is a list."),
            spec(
                "unique-argument-names", "Argument uniqueness.",
                "A field or directive must not be given the same argument twice."),
            spec(
                "unique-directives-per-location", "Directives are unique per location.",
                "A directive that is not `repeatable` may appear at most once on a node."),
            spec(
                "unique-fragment-names", "Fragment name uniqueness.",
                "Each fragment must have a name no other fragment in the document has."),
            spec(
                "unique-input-field-names", "Input object field uniqueness.",
                "An input object literal must not give the same field twice."),
            spec(
                "unique-operation-names", "Operation name uniqueness.",
                "Each named operation must have a name no other operation in the document has."),
            spec(
                "unique-variable-names", "Variable uniqueness.",
                "An operation must not define two variables with the same name."),
            spec(
                "values-of-correct-type", "Values of correct type.",
                "Every literal value must be valid for the input type expected where it is written: scalars parse, enum values exist, input objects give only defined fields and every required one, and a `@oneOf` input object gives exactly one non-null field."
            ),
            spec(
                "variables-are-input-types", "Variables are input types.",
                "A variable's type must be a scalar, enum or input object type (possibly wrapped in lists and non-null)."
            ),
            spec(
                "variables-in-allowed-position", "All variable usages are allowed.",
                "A variable may be used only where its type fits the expected type; a nullable variable may be used in a non-null position only when the variable or the position has a default."
            ),
        ].map { ($0.id, $0) })

    private static func spec(_ id: String, _ title: String, _ summary: String) -> RuleDescriptor {
        RuleDescriptor(id: id, title: title, summary: summary, origin: .specification)
    }
}
