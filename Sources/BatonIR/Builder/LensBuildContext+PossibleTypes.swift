import BatonSchema

extension LensBuildContext {
    /// A lens from accessor groups (`buildLensOfAccessors`), with the object types its record may be when the
    /// record type is abstract (`Lens.possibleTypes`, what a test builder writes as `__typename` when the test
    /// names none).
    func buildLens(
        _ groups: OrderedGroups, parent: NamedTypeDef, typeName: String, ancestors: inout [String],
        scope: DefinitionScope, depth: Int, enclosing: Presence? = nil
    ) -> Lens {
        var lens = buildLensOfAccessors(
            groups, parent: parent, typeName: typeName, ancestors: &ancestors, scope: scope, depth: depth,
            enclosing: enclosing)
        if lens.recordIsAbstract, !options.checksOnly { lens.possibleTypes = sortedPossibleTypes(of: parent) }
        return lens
    }

    /// The object types of an abstract type, sorted once per type and shared by every lens of it.
    func sortedPossibleTypes(of type: NamedTypeDef) -> [String] {
        if let known = sortedPossibleTypes[type.name] { return known }
        let names = schema.possibleTypes(of: type).map(\.name).sorted()
        sortedPossibleTypes[type.name] = names
        return names
    }
}
