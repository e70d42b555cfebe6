import BatonSemantics
import BatonSyntax

/// How an accessor's data arrives, decided once from `@defer` and `@stream` for every language: the Swift and
/// Kotlin templates print it (Swift's `Baton.DeferredPhase` enum and `Baton.Streamed`, Kotlin's `DeferredPhase`
/// sealed class and `Streamed`), and plates name it.
///
/// A deferred fragment (a spread or an inline fragment under `@defer`) reads as a phase: pending until its payload
/// has filled every slot it reads, ready with its lens then, or failed with the errors the server completed it with.
/// A streamed list (`@stream`) reads the items so far, with whether more are coming and the initial count asked for.
/// Only where every occurrence of a selection is deferred (or streamed) is the accessor: one occurrence delivered at
/// once delivers the data at once, as the spec merges them.
package enum Delivery: Sendable, Hashable {
    /// With the rest of its payload.
    case immediate
    /// `@defer(label:, if:)` on a fragment spread or an inline fragment.
    case deferred(DeferredFragment)
    /// `@stream(label:, initialCount:, if:)` on a list field.
    case streamed(StreamedList)

    /// How a selection written with `directives` is delivered, `if: false` folded away.
    static func of(_ directives: [Directive], isList: Bool) -> Delivery {
        if isList, let stream = BatonDirectives.stream(in: directives) {
            guard case .some(let variable) = Self.condition(stream.condition) else { return .immediate }
            let count: StreamedList.InitialCount
            switch stream.initialCount {
            case .variable(let name)?: count = .variable(name.name.value)
            case .int(let text, _)?: count = .literal(Int(text) ?? 0)
            default: count = .literal(0)
            }
            return .streamed(StreamedList(label: stream.label, variable: variable, initialCount: count))
        }
        for condition in BatonDirectives.presence(directives) {
            guard case .deferred(let label, let value) = condition else { continue }
            guard case .some(let variable) = Self.condition(value) else { return .immediate }
            return .deferred(DeferredFragment(label: label, variable: variable))
        }
        return .immediate
    }

    /// An `if:` argument: `.some(nil)` always, `.some(name)` under a variable, nil never (`if: false`).
    private static func condition(_ value: Value?) -> String?? {
        switch value {
        case nil, .boolean(true, _)?: return .some(nil)
        case .variable(let variable)?: return .some(variable.name.value)
        default: return nil
        }
    }

    /// The delivery of an accessor merged from several selections: deferred (or streamed) only when every one is,
    /// as the first one says.
    /// The deliveries are read as they come (`LensBuildContext.delivery(of:)` hands them over lazily, no array).
    static func merged<Deliveries: Sequence<Delivery>>(_ deliveries: Deliveries) -> Delivery {
        var rest = deliveries.makeIterator()
        guard let first = rest.next() else { return .immediate }
        while let delivery = rest.next() {
            switch (first, delivery) {
            case (.deferred, .deferred), (.streamed, .streamed): continue
            default: return .immediate
            }
        }
        return first
    }

    /// The phrase plates show: `deferred (label "later"): pending, ready or failed`.
    package var text: String? {
        switch self {
        case .immediate: return nil
        case .deferred(let fragment):
            return "read as a phase: pending, ready or failed, " + fragment.directiveText
        case .streamed(let list):
            return "streamed: the items so far and whether more are coming, " + list.directiveText
        }
    }
}

/// `@defer` on a fragment spread or an inline fragment.
package struct DeferredFragment: Sendable, Hashable {
    /// `label:`: what the server's payloads name it by (the label is how the runtimes file a failure).
    package var label: String?
    /// `if: $variable`; nil when always deferred.
    package var variable: String?

    /// `@defer(label: "later")`, as written after folding.
    package var directiveText: String { PresenceAtom.deferred(label: label, variable: variable).text }
}

/// `@stream` on a list field.
package struct StreamedList: Sendable, Hashable {
    /// How many items the first payload holds.
    package enum InitialCount: Sendable, Hashable {
        /// A literal (the directive's default, 0, when left out).
        case literal(Int)
        /// `initialCount: $variable`, read from the request's variables.
        case variable(String)
    }

    package var label: String?
    /// `if: $variable`; nil when always streamed.
    package var variable: String?
    package var initialCount: InitialCount

    /// `@stream(label: "more", initialCount: 2)`, as written after folding.
    package var directiveText: String {
        var arguments: [String] = []
        if let label { arguments.append("label: " + ValueText.quoted(label)) }
        switch initialCount {
        case .literal(let count): arguments.append("initialCount: \(count)")
        case .variable(let name): arguments.append("initialCount: $\(name)")
        }
        if let variable { arguments.append("if: $\(variable)") }
        return "@stream(" + arguments.joined(separator: ", ") + ")"
    }
}

extension LensModel {
    /// Whether `operation` asks for incremental delivery: a selection it sends, its own or in a fragment it uses,
    /// is deferred or streamed. Its requests then accept `multipart/mixed` (both runtimes' HTTP transports), and its
    /// payloads are merged and committed one by one. `fragment` finds a fragment by name (an index: searching
    /// `fragments` for each name an operation uses made a project's lowering quadratic).
    package func deliversIncrementally(
        _ operation: OperationModel, fragment: (String) -> FragmentModel?
    ) -> Bool {
        if operation.lens.asksIncrementalDelivery { return true }
        return operation.fragmentsUsed.contains { fragment($0)?.lens.asksIncrementalDelivery ?? false }
    }
}

extension Lens {
    /// A selection of this lens or a lens inside it is deferred or streamed (also one merged with a selection
    /// delivered at once: its `@defer` is still sent, and the server may still answer incrementally).
    var asksIncrementalDelivery: Bool {
        accessors.contains { accessor in
            if accessor.delivery != .immediate { return true }
            if accessor.presence.alternatives.contains(where: {
                $0.contains { if case .deferred = $0 { true } else { false } }
            }) {
                return true
            }
            return accessor.lens?.asksIncrementalDelivery ?? false
        }
    }
}
