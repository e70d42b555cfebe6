import BatonDiagnostics
import BatonIR
import BatonSchema

/// Finds the plates a `baton plate NAME` asks for: an operation, a fragment, or a schema type
/// (every lens that reads a record of that type).
package struct PlateCatalog: Sendable {
    /// The outcome of a lookup.
    package enum Lookup: Sendable {
        /// NAME is an operation or fragment (one plate), or a type with lenses reading it.
        case plates([Plate])
        /// NAME is a schema type no lens reads.
        case typeWithoutLenses(String)
        /// NAME is unknown; the closest names, best first (possibly none).
        case unknown(suggestions: [String])
    }

    package let model: LensModel
    /// Names of the schema's types, for type lookups and suggestions.
    package let schemaTypeNames: [String]

    package init(model: LensModel, schemaTypeNames: [String]) {
        self.model = model
        self.schemaTypeNames = schemaTypeNames
    }

    /// Every name `lookup` knows: operations, fragments and schema types.
    package var names: [String] { model.operations.map(\.name) + model.fragments.map(\.name) + schemaTypeNames }

    package func lookup(_ name: String) -> Lookup {
        if let operation = model.operation(named: name) { return .plates([Plate(subject: .operation(operation))]) }
        if let fragment = model.fragment(named: name) { return .plates([Plate(subject: .fragment(fragment))]) }
        if schemaTypeNames.contains(name) {
            let plates = platesReading(type: name)
            return plates.isEmpty ? .typeWithoutLenses(name) : .plates(plates)
        }
        return .unknown(suggestions: Suggestions.list(name, names))
    }

    /// Every lens reading a record of `type`: operations whose root it is, fragments on it, then
    /// nested lenses of it (in definition order, depth first), each group in name order.
    package func platesReading(type: String) -> [Plate] {
        var plates: [Plate] = []
        for operation in model.operations where operation.rootType == type {
            plates.append(Plate(subject: .operation(operation)))
        }
        for fragment in model.fragments where fragment.typeCondition == type {
            plates.append(Plate(subject: .fragment(fragment)))
        }
        let roots = model.operations.map { ($0.name, $0.lens) } + model.fragments.map { ($0.name, $0.lens) }
        for (definition, root) in roots {
            var stack: [([String], Lens)] = [([], root)]
            var found: [Plate] = []
            while let (path, lens) = stack.popLast() {
                for accessor in lens.accessors.reversed() {
                    guard let child = accessor.lens else { continue }
                    stack.append((path + [accessor.name], child))
                }
                if !path.isEmpty && lens.recordType == type {
                    found.append(Plate(subject: .nested(definition: definition, path: path, lens: lens)))
                }
            }
            plates.append(contentsOf: found)
        }
        return plates
    }
}
