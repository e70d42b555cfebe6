import BatonDiagnostics
import BatonSchema
import BatonSyntax

// Names the walk looks up once per definition or per spread, hashed as the schema hashes names
// (`NameSet`: eight bytes at a time) rather than with `Hasher`'s SipHash. Equality is `String.==`,
// so every answer is the one a `[String: …]` gave.

/// Fragment names to definition indices, the last definition of a name winning. Looked up at every
/// spread by several rules: hashed as the schema hashes names (`NameSet`), not with `Hasher`. (Also
/// an operation's many variable names to their positions: `VariableNames`.)
package struct FragmentIndex {
    private var names = NameSet()
    private var indices: [Int] = []

    mutating func set(_ name: String, _ index: Int) {
        let (inserted, position) = names.insert(name)
        if inserted { indices.append(index) } else { indices[position] = index }
    }

    /// The definition index of the last fragment named `name`.
    package subscript(name: String) -> Int? { names.position(of: name).map { indices[$0] } }
}

/// The first place each name was seen: the state of the rules that report a name given twice
/// (`unique-operation-names`, `unique-fragment-names`).
struct FirstPlaces {
    private var names = NameSet()
    private var places: [SourceRange] = []

    /// Where `name` was first seen, or nil when this is the first time (then `range` is kept).
    mutating func first(_ name: String, at range: SourceRange) -> SourceRange? {
        let (inserted, position) = names.insert(name)
        if inserted {
            places.append(range)
            return nil
        }
        return places[position]
    }
}

/// An operation's variables by name, looked up at every usage by the variables rules: a few are
/// scanned (`String.==`, no hashing and nothing allocated), more than eight are hashed (`NameSet`).
struct VariableNames {
    private let definitions: [VariableDefinition]
    private let table: FragmentIndex?

    init(_ definitions: [VariableDefinition]) {
        self.definitions = definitions
        if definitions.count > 8 {
            var table = FragmentIndex()
            for (position, definition) in definitions.enumerated() {
                table.set(definition.variable.name.value, position)
            }
            self.table = table
        } else {
            table = nil
        }
    }

    /// The position of the last definition of `name` (the one graphql-js keeps).
    func last(_ name: String) -> Int? {
        if let table { return table[name] }
        var position = definitions.count
        while position > 0 {
            position -= 1
            if definitions[position].variable.name.value == name { return position }
        }
        return nil
    }
}
