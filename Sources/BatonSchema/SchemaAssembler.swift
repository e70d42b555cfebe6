/// Completes a schema built from SDL or introspection: adds the built-in scalars the schema
/// references, the introspection types, the spec's directives and Baton's own (each only when
/// the schema does not declare one of that name), and makes the `GraphQLSchema`.
///
/// Like graphql-js, a built-in scalar is part of the schema only when something references it
/// (`String` and `Boolean` always are, through the introspection types; `Int` through
/// `@semanticNonNull`), so a document naming an unused `Float` gets graphql-js's "Unknown type".
enum SchemaAssembler {
    struct Input {
        var description: String?
        /// The schema's own types, in definition order, unique by name, none of them standard.
        var types: [NamedTypeDef]
        /// The schema's own directives, in definition order, unique by name.
        var directives: [DirectiveDef]
        var queryTypeName: String?
        var mutationTypeName: String?
        var subscriptionTypeName: String?
        var schemaDirectives: [AppliedDirective] = []
        /// Built-in scalars to include even when unreferenced (those an introspection result lists).
        var listedStandardTypes: Set<String> = []
    }

    static func assemble(_ input: Input) -> GraphQLSchema {
        let builtIns = BuiltIns.definitions
        // The types in order, and their names (`typeNames.contains` stands for "declared").
        var types: [NamedTypeDef] = []
        types.reserveCapacity(input.types.count + 16)
        var typeNames = NameSet(minimumCapacity: input.types.count + 16)
        for type in input.types where typeNames.insert(type.name).inserted {
            types.append(type)
        }

        var directives: [String: DirectiveDef] = [:]
        var directiveNames: [String] = []
        for directive in input.directives where directives[directive.name] == nil {
            directives[directive.name] = directive
            directiveNames.append(directive.name)
        }
        for name in BuiltIns.knownDirectiveNames where directives[name] == nil {
            guard let directive = builtIns.directives[name] else { continue }
            directives[name] = directive
            directiveNames.append(name)
        }

        // Which of the built-in scalars and Baton's types (not declared by the schema) the
        // schema's types and directives reference; the walk stops once all are found.
        var referenced = Set<String>(["String", "Boolean"]).union(input.listedStandardTypes)
        var wanted = NameSet(
            (BuiltIns.scalarNames + BuiltIns.batonTypeNames).filter {
                !typeNames.contains($0) && !referenced.contains($0)
            })
        var missing = wanted.count
        func note(_ type: TypeRef) {
            let name = type.namedType
            if wanted.contains(name) && referenced.insert(name).inserted { missing -= 1 }
        }
        if missing > 0 {
            // Element by element through the arrays: a `for field in …` loop would copy (retain
            // and release) every field.
            search: for type in input.types {
                let fields = type.fields
                for i in fields.indices {
                    note(fields[i].type)
                    let arguments = fields[i].arguments
                    for j in arguments.indices { note(arguments[j].type) }
                }
                let inputFields = type.inputFields
                for i in inputFields.indices { note(inputFields[i].type) }
                if missing == 0 { break search }
            }
            for name in directiveNames where missing > 0 {
                for argument in directives[name]?.arguments ?? [] { note(argument.type) }
            }
        }
        wanted = NameSet()

        for name in BuiltIns.scalarNames where !typeNames.contains(name) && referenced.contains(name) {
            guard let scalar = builtIns.types[name] else { continue }
            typeNames.insert(name)
            types.append(scalar)
        }
        for name in BuiltIns.batonTypeNames where !typeNames.contains(name) && referenced.contains(name) {
            guard let type = builtIns.types[name] else { continue }
            typeNames.insert(name)
            types.append(type)
        }
        for name in BuiltIns.introspectionTypeNames where !typeNames.contains(name) {
            guard let type = builtIns.types[name] else { continue }
            typeNames.insert(name)
            types.append(type)
        }

        return GraphQLSchema(
            description: input.description, types: types, directives: directives, directiveNames: directiveNames,
            queryTypeName: input.queryTypeName.flatMap { typeNames.contains($0) ? $0 : nil },
            mutationTypeName: input.mutationTypeName.flatMap { typeNames.contains($0) ? $0 : nil },
            subscriptionTypeName: input.subscriptionTypeName.flatMap { typeNames.contains($0) ? $0 : nil },
            schemaDirectives: input.schemaDirectives)
    }
}
