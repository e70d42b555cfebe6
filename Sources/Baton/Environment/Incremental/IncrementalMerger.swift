/// Why an incremental response cannot be merged: each refuses the whole request (nothing of the payload is committed).
public enum IncrementalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A payload that is not a JSON object.
    case notAnObject
    /// An increment or a completion for an id no `pending` entry announced (or one already completed).
    case unknownID(String)
    /// An increment whose path (a pending entry's path and its `subPath`) leads to no object or list in the data so
    /// far: it would write outside its fragment.
    case pathOutsideFragment(String)
    /// The body ended while the last payload said more were coming (`hasNext: true`).
    case endedWithMoreToCome
    /// A payload after one that said none would follow.
    case payloadAfterEnd

    public var description: String {
        switch self {
        case .notAnObject: "a payload of the incremental response is not a JSON object"
        case .unknownID(let id): "an incremental payload names the id \"\(id)\", which no pending entry announced"
        case .pathOutsideFragment(let path): "an incremental payload writes at \(path), outside the data it extends"
        case .endedWithMoreToCome: "the incremental response ended while it said more payloads were coming"
        case .payloadAfterEnd: "the incremental response sent a payload after saying it was complete"
        }
    }
}

/// The response an incremental delivery has built so far, after one more payload: what the store commits as that
/// payload's own batch (a commit notifies only the slots whose value changed, so only those the payload filled),
/// with the deferred fragments that failed and the streams still open.
public struct IncrementalStep: Sendable, Hashable {
    /// A deferred fragment or a stream the server completed with errors.
    public struct Failure: Sendable, Hashable {
        /// Where the fragment (or the streamed list) is in the response.
        public var path: [PathComponent]
        public var label: String?
        public var errors: [GraphQLError]
    }

    /// `{"data": …, "errors": [...]}`: the data merged so far and every error so far, each at its own path.
    public var response: JSONValue
    /// More payloads are coming.
    public var hasNext: Bool
    /// The fragments and streams this payload completed with errors.
    public var failures: [Failure]
    /// The lists still being streamed (a pending entry whose path holds a list), in the order announced.
    public var streaming: [[PathComponent]]
    /// One line for the log: the payload's number, what it filled, what completed, and whether more are coming.
    public var summary: String
}

/// Merges the payloads of an incremental delivery (`@defer`, `@stream`) into one response, one payload at a time. Pure
/// (no I/O, no store): the HTTP and WebSocket transports feed it the payloads they read, and the tests byte fixtures.
///
/// It reads both formats:
/// - the current draft (graphql-spec #1110; graphql-js 17, graphql-core 3.3, strawberry): the first payload's
///   `pending: [{id, path, label}]`, then `incremental: [{id, subPath?, data | items, errors?}]` and
///   `completed: [{id, errors?}]`, each payload with `hasNext`;
/// - Apollo Router's 2022 format (`deferSpec=20220824`): `incremental: [{data | items, path, label?, errors?}]`, a
///   deferred fragment that failed sent as `data: null` with its `errors`.
///
/// A first payload with neither `pending` nor `hasNext` is a whole response (a server that answered plain JSON).
public struct IncrementalMerger: Sendable {
    private struct Pending: Sendable {
        var path: [PathComponent]
        var label: String?
    }

    private var data: JSONValue = .null
    private var errors: [JSONValue] = []
    private var pending: [(id: String, entry: Pending)] = []
    private var payloads = 0
    /// More payloads are coming, as the last one said.
    public private(set) var hasNext = false

    public init() {}

    /// Merges the next payload.
    public mutating func apply(_ payload: JSONValue) throws(IncrementalError) -> IncrementalStep {
        guard case .object(let object) = payload else { throw .notAnObject }
        if payloads > 0, !hasNext { throw .payloadAfterEnd }
        // Work on a copy: a payload refused half-way changes nothing.
        var next = self
        let step = try next.merge(object)
        self = next
        return step
    }

    /// The body has ended: an error when the last payload said more were coming.
    public func finish() throws(IncrementalError) {
        if payloads == 0 || hasNext { throw .endedWithMoreToCome }
    }

    private mutating func merge(_ object: JSONObject) throws(IncrementalError) -> IncrementalStep {
        payloads += 1
        var filled: [String] = []
        var failures: [IncrementalStep.Failure] = []
        var completed: [String] = []
        if payloads == 1 {
            data = object["data"] ?? .null
            if case .array(let list)? = object["errors"] { errors += list }
            filled.append("data")
        }
        if case .array(let entries)? = object["pending"] {
            for entry in entries {
                guard case .string(let id)? = entry["id"], let path = Self.path(entry["path"]) else { continue }
                pending.append((id, Pending(path: path, label: entry["label"]?.stringValue)))
            }
        }
        if case .array(let increments)? = object["incremental"] {
            for increment in increments {
                try apply(increment: increment, filled: &filled, failures: &failures)
            }
        }
        if case .array(let entries)? = object["completed"] {
            for entry in entries {
                guard case .string(let id)? = entry["id"] else { continue }
                guard let index = pending.firstIndex(where: { $0.id == id }) else { throw .unknownID(id) }
                let done = pending.remove(at: index).entry
                completed.append(Self.name(done))
                if case .array(let list)? = entry["errors"], !list.isEmpty {
                    errors += list
                    failures.append(
                        IncrementalStep.Failure(
                            path: done.path, label: done.label, errors: list.map(GraphQLError.init(json:))))
                }
            }
        }
        if case .bool(let more)? = object["hasNext"] {
            hasNext = more
        } else if payloads == 1 {
            hasNext = !pending.isEmpty
        }
        let streaming = pending.compactMap { item -> [PathComponent]? in
            if case .array? = Self.value(in: data, at: item.entry.path[...]) { return item.entry.path }
            return nil
        }
        var summary = "payload \(payloads):"
        if !filled.isEmpty { summary += " filled " + filled.joined(separator: ", ") + ";" }
        if !completed.isEmpty { summary += " completed " + completed.joined(separator: ", ") + ";" }
        if !failures.isEmpty {
            summary +=
                " failed " + failures.map { Self.name(Pending(path: $0.path, label: $0.label)) }.joined(separator: ", ")
                + ";"
        }
        summary += " pending \(pending.count); " + (hasNext ? "more coming" : "complete")
        var response = JSONObject([("data", data)])
        if !errors.isEmpty { response["errors"] = .array(errors) }
        return IncrementalStep(
            response: .object(response), hasNext: hasNext, failures: failures, streaming: streaming, summary: summary)
    }

    /// One entry of `incremental`, in either format.
    private mutating func apply(
        increment: JSONValue, filled: inout [String], failures: inout [IncrementalStep.Failure]
    ) throws(IncrementalError) {
        var path: [PathComponent]
        var label: String?
        if case .string(let id)? = increment["id"] {
            // The current draft: the pending entry's path, then the increment's own subPath.
            guard let entry = pending.first(where: { $0.id == id })?.entry else { throw .unknownID(id) }
            path = entry.path + (Self.path(increment["subPath"]) ?? [])
            label = entry.label
        } else if let written = Self.path(increment["path"]) {
            // Apollo's 2022 format: the path itself, and for items the index the first of them takes.
            path = written
            label = increment["label"]?.stringValue
            if increment["items"] != nil, case .index? = path.last { path.removeLast() }
        } else {
            throw .pathOutsideFragment("an increment without an id or a path")
        }
        let incrementErrors: [JSONValue] = if case .array(let list)? = increment["errors"] { list } else { [] }
        errors += incrementErrors
        if case .array(let items)? = increment["items"] {
            try Self.update(&data, at: path[...], path: path) { target throws(IncrementalError) in
                guard case .array(let list) = target else { throw .pathOutsideFragment(Self.text(path)) }
                target = .array(list + items)
            }
            filled.append(Self.text(path) + " +\(items.count)")
        } else if case .object(let object)? = increment["data"] {
            try Self.update(&data, at: path[...], path: path) { target throws(IncrementalError) in
                guard case .object = target else { throw .pathOutsideFragment(Self.text(path)) }
                target = Self.deepMerge(target, .object(object))
            }
            filled.append(Self.name(Pending(path: path, label: label)))
        } else if !incrementErrors.isEmpty {
            // Apollo's 2022 format sends a deferred fragment that failed as `data: null` with its errors.
            failures.append(
                IncrementalStep.Failure(
                    path: path, label: label, errors: incrementErrors.map(GraphQLError.init(json:))))
        }
    }

    /// Applies `change` to the value at `remaining` inside `value`; `path` (the whole) names it in an error.
    private static func update(
        _ value: inout JSONValue, at remaining: ArraySlice<PathComponent>, path: [PathComponent],
        _ change: (inout JSONValue) throws(IncrementalError) -> Void
    ) throws(IncrementalError) {
        guard let step = remaining.first else { return try change(&value) }
        switch (step, value) {
        case (.key(let key), .object(var object)):
            guard var child = object[key] else { throw .pathOutsideFragment(text(path)) }
            try update(&child, at: remaining.dropFirst(), path: path, change)
            object[key] = child
            value = .object(object)
        case (.index(let index), .array(var list)):
            guard list.indices.contains(index) else { throw .pathOutsideFragment(text(path)) }
            try update(&list[index], at: remaining.dropFirst(), path: path, change)
            value = .array(list)
        default:
            throw .pathOutsideFragment(text(path))
        }
    }

    /// The value at `path` inside `value`, if there is one.
    private static func value(in value: JSONValue, at path: ArraySlice<PathComponent>) -> JSONValue? {
        guard let step = path.first else { return value }
        switch (step, value) {
        case (.key(let key), .object(let object)):
            return object[key].flatMap { Self.value(in: $0, at: path.dropFirst()) }
        case (.index(let index), .array(let list)) where list.indices.contains(index):
            return Self.value(in: list[index], at: path.dropFirst())
        default: return nil
        }
    }

    /// `new`'s members over `old`'s, objects merged member by member (a fragment's fields join those already there).
    private static func deepMerge(_ old: JSONValue, _ new: JSONValue) -> JSONValue {
        guard case .object(var merged) = old, case .object(let incoming) = new else { return new }
        for (key, value) in incoming.members {
            merged[key] = merged[key].map { deepMerge($0, value) } ?? value
        }
        return .object(merged)
    }

    /// A response path as JSON writes it (`["viewer", "friends", 0]`); nil when it is not one.
    private static func path(_ value: JSONValue?) -> [PathComponent]? {
        guard case .array(let steps)? = value else { return nil }
        var path: [PathComponent] = []
        for step in steps {
            switch step {
            case .string(let key): path.append(.key(key))
            case .number(let text):
                guard let index = Int(text), index >= 0 else { return nil }
                path.append(.index(index))
            default: return nil
            }
        }
        return path
    }

    private static func text(_ path: [PathComponent]) -> String {
        path.isEmpty ? "the root" : path.map(\.description).joined(separator: ".")
    }

    /// `viewer (profile)`: a fragment by its path and label, as the log names it.
    private static func name(_ entry: Pending) -> String {
        text(entry.path) + (entry.label.map { " (\($0))" } ?? "")
    }
}
