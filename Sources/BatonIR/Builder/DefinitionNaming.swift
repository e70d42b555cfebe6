/// The names of every generated definition, decided once for every language.
///
/// Definitions share one namespace in each target (a Swift module, a Kotlin package), so their
/// names are claimed in one scope, in one priority order: custom scalars, enums, input objects
/// (schema types first: they keep the schema's names, which every document and view refers to),
/// then fragments, then operations, each kind in name order. A name that is taken (ignoring case,
/// as class files on a case-insensitive file system must) or that some target reserves
/// (`LensModelOptions.reservedTypeNames`) gets `_` appended until it is free; a name made only of
/// underscores gets a `0` first (Kotlin reserves such names even quoted). Generators write these
/// names as they are, quoting keywords where their language needs it.
package enum DefinitionNaming {
    /// The model with every definition's `typeName` decided.
    package static func apply(to model: LensModel, reserved: Set<String>) -> LensModel {
        var taken = Set(reserved.map { $0.lowercased() })
        func claim(_ name: String) -> String {
            var result = name
            if !result.isEmpty, result.allSatisfy({ $0 == "_" }) { result += "0" }
            while taken.contains(result.lowercased()) { result += "_" }
            taken.insert(result.lowercased())
            return result
        }
        var named = model
        for index in named.types.customScalars.indices {
            named.types.customScalars[index].typeName = claim(named.types.customScalars[index].name)
        }
        for index in named.types.enums.indices {
            named.types.enums[index].typeName = claim(named.types.enums[index].name)
        }
        for index in named.types.inputObjects.indices {
            named.types.inputObjects[index].typeName = claim(named.types.inputObjects[index].name)
        }
        for index in named.fragments.indices { named.fragments[index].typeName = claim(named.fragments[index].name) }
        for index in named.operations.indices { named.operations[index].typeName = claim(named.operations[index].name) }
        return named
    }
}
