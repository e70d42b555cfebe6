import BatonSyntax

/// The names of every generated definition, decided once for every language.
///
/// Definitions share one namespace in each target (a Swift module, a Kotlin package), so their
/// names are claimed in one scope, in one priority order: the schema namespace (when
/// `output.swift.namespace` asks for one), custom scalars, enums, input objects (schema types
/// first: they keep the schema's names, which every document and view refers to), then
/// fragments, then operations, each kind in name order. A name that is taken (ignoring case, as
/// class files on a case-insensitive file system must) or that some target reserves
/// (`LensModelOptions.reservedTypeNames`) gets `_` appended until it is free; a name made only of
/// underscores gets a `0` first (Kotlin reserves such names even quoted). With
/// `operationSuffix`, an operation's preferred name is its name with its kind appended
/// (`Query`, `Mutation`, `Subscription`) unless it already ends with it. Schema types keep one
/// scope with the rest even inside a Swift namespace, so Kotlin (which has none) names them alike.
/// Generators write these names as they are, quoting keywords where their language needs it.
package enum DefinitionNaming {
    /// The model with every definition's `typeName` (and the schema namespace) decided. With `recorded` (a block
    /// that stands: the model's definitions, with the block's, are the earlier plan's, and so are the schema types
    /// they use, `SummaryBlock`), the claims over definitions are the earlier plan's, so their names are taken as
    /// recorded instead of claimed again; the namespace and the schema types, claimed first, are claimed as always.
    package static func apply(
        to model: LensModel, reserved: Set<String>, options: NamingOptions = NamingOptions(),
        recorded: SummaryBlock? = nil
    ) -> LensModel {
        var taken = Set(reserved.map { $0.lowercased() })
        func claim(_ name: String) -> String {
            var result = name
            if !result.isEmpty, result.utf8.allSatisfy({ $0 == UInt8(ascii: "_") }) { result += "0" }
            // Folded once: `_` is its own lower case, so the folded name grows with the name.
            var folded = result.lowercased()
            while !taken.insert(folded).inserted {
                result += "_"
                folded += "_"
            }
            return result
        }
        var named = model
        named.schemaNamespace = options.schemaNamespace.map(claim)
        for index in named.types.customScalars.indices {
            named.types.customScalars[index].typeName = claim(named.types.customScalars[index].name)
        }
        for index in named.types.enums.indices {
            named.types.enums[index].typeName = claim(named.types.enums[index].name)
        }
        for index in named.types.inputObjects.indices {
            named.types.inputObjects[index].typeName = claim(named.types.inputObjects[index].name)
        }
        if let recorded {
            let (operations, fragments) = recorded.plannedTypeNames
            for index in named.fragments.indices {
                named.fragments[index].typeName = fragments[named.fragments[index].name] ?? named.fragments[index].name
            }
            for index in named.operations.indices {
                named.operations[index].typeName =
                    operations[named.operations[index].name] ?? named.operations[index].name
            }
            return named
        }
        for index in named.fragments.indices { named.fragments[index].typeName = claim(named.fragments[index].name) }
        for index in named.operations.indices {
            let operation = named.operations[index]
            let preferred = options.operationSuffix ? suffixed(operation.name, operation.kind) : operation.name
            named.operations[index].typeName = claim(preferred)
        }
        return named
    }

    /// `name` ending with its kind's suffix: `Feed` → `FeedQuery`; `FeedQuery` stays.
    package static func suffixed(_ name: String, _ kind: OperationType) -> String {
        let suffix = operationSuffix(kind)
        return name.hasSuffix(suffix) ? name : name + suffix
    }

    /// `Query`, `Mutation` or `Subscription`.
    package static func operationSuffix(_ kind: OperationType) -> String {
        switch kind {
        case .query: "Query"
        case .mutation: "Mutation"
        case .subscription: "Subscription"
        }
    }
}
