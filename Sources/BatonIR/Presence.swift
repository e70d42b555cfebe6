import BatonSemantics
import BatonSyntax

/// One condition of a selection's presence, with literals already folded away: `@include(if:)` or
/// `@skip(if:)` on a variable, or `@defer`.
package enum PresenceAtom: Hashable, Sendable {
    /// `@include(if: $variable)`.
    case include(variable: String)
    /// `@skip(if: $variable)`.
    case skip(variable: String)
    /// `@defer(label:, if: $variable)`: present once the deferred payload arrives; `variable` nil
    /// when it is always deferred.
    case deferred(label: String?, variable: String?)

    /// The directive as a plate reads it: `@include(if: $withEmail)`, `@defer(label: "later")`.
    package var text: String {
        switch self {
        case .include(let variable): return "@include(if: $\(variable))"
        case .skip(let variable): return "@skip(if: $\(variable))"
        case .deferred(let label, let variable):
            var arguments: [String] = []
            if let label { arguments.append("label: " + ValueText.quoted(label)) }
            if let variable { arguments.append("if: $\(variable)") }
            return arguments.isEmpty ? "@defer" : "@defer(" + arguments.joined(separator: ", ") + ")"
        }
    }

    /// True when `self` and `other` can never both hold (`@include(if: $a)` and `@skip(if: $a)`).
    func contradicts(_ other: PresenceAtom) -> Bool {
        switch (self, other) {
        case (.include(let a), .skip(let b)), (.skip(let a), .include(let b)): a == b
        default: false
        }
    }
}

/// When a selection is in the response: one normalized expression over the operation's
/// variables, decided once for plates and both generators.
///
/// It is a disjunction of `alternatives` (the selection is present when any holds), each a
/// conjunction of atoms (every condition on the path to one place the selection is written).
/// Normalized when built: literal `if:`s folded (`@include(if: true)` is no condition,
/// `@include(if: false)` no alternative), atoms and alternatives each kept once in order of first
/// appearance, contradictory alternatives (`@include(if: $a)` and `@skip(if: $a)`) dropped, and an
/// alternative that another's atoms already imply absorbed. So `[[]]` is always present and `[]`
/// never.
package struct Presence: Hashable, Sendable {
    package private(set) var alternatives: [[PresenceAtom]]

    /// Always present: one alternative with no conditions.
    package static let always = Presence(normalized: [[]])
    /// Never present (`@include(if: false)`).
    package static let never = Presence(normalized: [])

    private init(normalized alternatives: [[PresenceAtom]]) { self.alternatives = alternatives }

    /// The disjunction of `alternatives`, normalized.
    package init(alternatives: [[PresenceAtom]]) {
        var kept: [[PresenceAtom]] = []
        for conjunction in alternatives {
            var atoms: [PresenceAtom] = []
            var contradictory = false
            for atom in conjunction where !atoms.contains(atom) {
                if atoms.contains(where: atom.contradicts) { contradictory = true }
                atoms.append(atom)
            }
            if contradictory { continue }
            if atoms.isEmpty {
                kept = [[]]
                break
            }
            let set = Set(atoms)
            // An alternative implied by a kept one (a superset of its atoms) adds nothing; a kept
            // one implied by this one goes.
            if kept.contains(where: { Set($0).isSubset(of: set) }) { continue }
            kept.removeAll { set.isSubset(of: Set($0)) }
            kept.append(atoms)
        }
        self.alternatives = kept
    }

    /// The conjunction of one selection's own directives, as `BatonSemantics` decodes them.
    package init(conditions: [PresenceCondition]) {
        if conditions.isEmpty {
            self = .always
            return
        }
        var atoms: [PresenceAtom] = []
        for condition in conditions {
            switch condition {
            case .include(let value), .skip(let value):
                let include: Bool = if case .include = condition { true } else { false }
                switch value {
                case .variable(let variable):
                    atoms.append(
                        include ? .include(variable: variable.name.value) : .skip(variable: variable.name.value))
                case .boolean(let flag, _):
                    // `@include(if: true)` and `@skip(if: false)` always hold; the others never do.
                    if flag != include {
                        self = .never
                        return
                    }
                default:
                    continue  // not a Boolean: validation reports it
                }
            case .deferred(let label, let value):
                switch value {
                case nil, .boolean(true, _)?: atoms.append(.deferred(label: label, variable: nil))
                case .variable(let variable)?: atoms.append(.deferred(label: label, variable: variable.name.value))
                default: continue  // `if: false` is not deferred
                }
            }
        }
        self.init(alternatives: [atoms])
    }

    /// Present when both are.
    package func and(_ other: Presence) -> Presence {
        if isAlways { return other }
        if other.isAlways { return self }
        var product: [[PresenceAtom]] = []
        for left in alternatives {
            for right in other.alternatives { product.append(left + right) }
        }
        return Presence(alternatives: product)
    }

    /// Present when any is.
    package static func any(_ presences: [Presence]) -> Presence {
        // Normalized already: one stays as it is, and any that always holds makes the whole.
        if presences.count == 1 { return presences[0] }
        if presences.contains(where: \.isAlways) { return .always }
        return Presence(alternatives: presences.flatMap(\.alternatives))
    }

    package var isAlways: Bool { alternatives.count == 1 && alternatives[0].isEmpty }
    package var isNever: Bool { alternatives.isEmpty }

    /// What the runtimes evaluate: `@defer` holds whenever the data is there (a deferred
    /// selection is read once the payload arrives, and the stores keep no partial state), so
    /// deferred atoms are dropped. Both generators spell exactly this.
    package var atRuntime: Presence {
        // Nothing deferred (almost always): the alternatives are already what the runtimes evaluate.
        let defers = alternatives.contains { $0.contains { if case .deferred = $0 { true } else { false } } }
        if !defers { return self }
        return Presence(
            alternatives: alternatives.map { conjunction in
                conjunction.filter { if case .deferred = $0 { false } else { true } }
            })
    }

    /// Conditions of one alternative joined by ` and `, alternatives by ` or ` (as plates read
    /// them); `never` for a selection never present.
    package var text: String {
        if isNever { return "never" }
        return alternatives.map { $0.map(\.text).joined(separator: " and ") }.joined(separator: " or ")
    }
}

extension Presence {
    /// The same alternatives, in any order.
    package func isEquivalent(to other: Presence) -> Bool {
        if self == other { return true }
        return Set(alternatives.map { Set($0) }) == Set(other.alternatives.map { Set($0) })
    }
}
