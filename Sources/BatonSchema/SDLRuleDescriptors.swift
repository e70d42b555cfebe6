import BatonDiagnostics

/// The descriptors of the SDL rules that run on schema files only (graphql-js's
/// `specifiedSDLRules`; the others share a document rule's id and descriptor).
package enum SDLRuleDescriptors {
    package static let all: [RuleDescriptor] = [
        RuleDescriptor(
            id: "apollo-client-directives", title: "Apollo client directives.",
            summary:
                "Apollo's client directives (@typePolicy, @fieldPolicy, @nonnull, @link, …) are known so Apollo projects load; a warning at their first use in each file says what Baton does instead.",
            severity: .warning, origin: .baton),
        RuleDescriptor(
            id: "lone-schema-definition", title: "Lone schema definition.",
            summary: "A schema has at most one `schema` definition.", origin: .specification),
        RuleDescriptor(
            id: "unique-operation-types", title: "Unique operation types.",
            summary: "A schema names each root operation type once.", origin: .specification),
        RuleDescriptor(
            id: "unique-type-names", title: "Unique type names.",
            summary: "Every type a schema defines has a name no other type has.", origin: .specification),
        RuleDescriptor(
            id: "unique-enum-value-names", title: "Unique enum value names.",
            summary: "An enum defines each value once (an identical repeat is a warning).", origin: .specification),
        RuleDescriptor(
            id: "unique-field-definition-names", title: "Unique field definition names.",
            summary: "A type or its extensions define each field once (an identical repeat is a warning).",
            origin: .specification),
        RuleDescriptor(
            id: "unique-argument-definition-names", title: "Unique argument definition names.",
            summary: "A field or directive defines each argument once.", origin: .specification),
        RuleDescriptor(
            id: "unique-directive-names", title: "Unique directive names.",
            summary: "A schema defines each directive once.", origin: .specification),
        RuleDescriptor(
            id: "possible-type-extensions", title: "Possible type extensions.",
            summary: "An extension extends a type that exists, with the same kind.", origin: .specification),
        RuleDescriptor(
            id: "known-argument-names-on-directives", title: "Known argument names on directives.",
            summary: "A directive in a schema is given only arguments it defines.", origin: .specification),
        RuleDescriptor(
            id: "provided-required-arguments-on-directives", title: "Provided required arguments on directives.",
            summary: "A directive in a schema is given every required argument.", origin: .specification),
    ]
}
