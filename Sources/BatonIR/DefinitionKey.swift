/// How a definition is named where files are keyed by what they spell (`GeneratedFile.definition`,
/// the manifest's entries, plan digests): `o:` and an operation's name, `f:` and a fragment's. One
/// spelling for every generator and the driver, so a key one writes is the key another looks up.
package enum DefinitionKey {
    package static func operation(_ name: String) -> String { "o:" + name }
    package static func fragment(_ name: String) -> String { "f:" + name }
    /// True for an operation's or a fragment's key.
    package static func isDefinition(_ key: String) -> Bool { key.hasPrefix("o:") || key.hasPrefix("f:") }
}

extension OperationModel {
    /// `DefinitionKey.operation(name)`.
    package var definitionKey: String { DefinitionKey.operation(name) }
}

extension FragmentModel {
    /// `DefinitionKey.fragment(name)`.
    package var definitionKey: String { DefinitionKey.fragment(name) }
}
