import BatonDiagnostics
import BatonSchema

// Names the walk looks up once per definition or per spread, hashed as the schema hashes names
// (`NameSet`: eight bytes at a time) rather than with `Hasher`'s SipHash. Equality is `String.==`,
// so every answer is the one a `[String: …]` gave.

/// Fragment names to definition indices, the last definition of a name winning. Looked up at every
/// spread by several rules: hashed as the schema hashes names (`NameSet`), not with `Hasher`.
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
