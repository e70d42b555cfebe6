import BatonIR

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

    package func lookup(_ name: String) -> Lookup {
        if let operation = model.operation(named: name) { return .plates([Plate(subject: .operation(operation))]) }
        if let fragment = model.fragment(named: name) { return .plates([Plate(subject: .fragment(fragment))]) }
        if schemaTypeNames.contains(name) {
            let plates = platesReading(type: name)
            return plates.isEmpty ? .typeWithoutLenses(name) : .plates(plates)
        }
        let candidates = model.operations.map(\.name) + model.fragments.map(\.name) + schemaTypeNames
        return .unknown(suggestions: Suggestions.closest(to: name, in: candidates))
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

/// "Did you mean" suggestions, as graphql-js's `suggestionList`: candidates within an edit
/// distance of 40% of the input's length (at least 1), case differences counting as one edit,
/// closest first, then alphabetically; at most five.
package enum Suggestions {
    package static func closest(to input: String, in candidates: [String], limit: Int = 5) -> [String] {
        let threshold = max(input.count * 2 / 5, 1)
        var scored: [(String, Int)] = []
        var seen: Set<String> = []
        for candidate in candidates where seen.insert(candidate).inserted {
            let distance =
                input.lowercased() == candidate.lowercased() && input != candidate
                ? 1 : editDistance(input.lowercased(), candidate.lowercased(), limit: threshold)
            if distance <= threshold { scored.append((candidate, distance)) }
        }
        scored.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        return Array(scored.prefix(limit).map(\.0))
    }

    /// Optimal-string-alignment distance (adjacent transpositions count one), stopping early when
    /// every path exceeds `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let left = Array(a.unicodeScalars)
        let right = Array(b.unicodeScalars)
        if abs(left.count - right.count) > limit { return limit + 1 }
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        var previousPrevious = [Int](repeating: 0, count: right.count + 1)
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[right.count]
    }
}
