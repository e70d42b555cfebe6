import Foundation

/// What a collection keeps: a root record read through selections with variables (an operation's root, or a
/// fragment's record), and everything it reaches.
public struct RetainedRoot: Sendable {
    public var key: RecordKey
    public var selections: [Selection]
    public var variables: [String: JSONValue]

    public init(key: RecordKey, selections: [Selection], variables: [String: JSONValue]) {
        self.key = key
        self.selections = selections
        self.variables = variables
    }

    /// An operation's root, read through its selections with its resolved variables.
    public init<Operation: GraphQLOperation>(_ operation: Operation) {
        self.init(
            key: Operation.rootTypename, selections: Operation.Data.selections, variables: operation.resolvedVariables)
    }
}

extension Store {
    /// Removes every record the roots do not reach and returns how many went (Relay's mark and sweep). Reaching
    /// follows what reads follow: links and lists of links of the fields selected, a `@connection` field's
    /// connection record (with its edges and page info), fragments and inline fragments whose type matches. A
    /// record a live handle reads is reached from its operation's root, so a collection never removes it. Nothing
    /// is collected while optimistic updates are in flight (their layers may link to anything). Subscribers are
    /// not notified: nothing reachable changed. A persistence layer (`StoreBatch`) hears the keys removed, so it
    /// deletes what the collection removed and rewrites nothing else.
    @discardableResult
    public func collectGarbage(keeping roots: [RetainedRoot]) -> Int {
        // Under the lock: a commit between marking and sweeping could link a record the marking did not reach.
        state.withLock { state in
            guard state.optimistic.layers.isEmpty else { return 0 }
            let reachable = Store.reachable(from: roots, in: state.records)
            var removed: [RecordKey] = []
            state.records = state.records.filter { entry in
                if reachable.contains(entry.key) { return true }
                removed.append(entry.key)
                return false
            }
            if !removed.isEmpty {
                state.connections = state.connections.filter { state.records[$0] != nil }
                state.edgeIndexes = state.edgeIndexes.filter { state.records[$0.key] != nil }
                // A persistence layer deletes what went.
                state.batchObserver?(.removed(removed))
            }
            return removed.count
        }
    }

    /// The keys of the records `roots` reach in the store now (what an image keeps).
    public func reachableRecords(from roots: [RetainedRoot]) -> Set<RecordKey> {
        Store.reachable(from: roots, in: serverRecords())
    }

    /// The marking: each record reached through each field at most once, so the work grows with the links the roots
    /// reach, not with the paths to them.
    static func reachable(from roots: [RetainedRoot], in records: [RecordKey: Record]) -> Set<RecordKey> {
        struct Visit: Hashable {
            let key: RecordKey
            /// The field whose selections the record is read through (nil for a root).
            let field: ObjectIdentifier?
        }
        var marked = Set<RecordKey>()
        var visited = Set<Visit>()
        var pending: [(key: RecordKey, selections: [Selection], variables: [String: JSONValue])] = []
        for root in roots { pending.append((root.key, root.selections, root.variables)) }
        while let (key, selections, variables) = pending.popLast() {
            marked.insert(key)
            guard let record = records[key], !record.isDeleted else { continue }
            var stack: [[Selection]] = [selections]
            while let set = stack.popLast() {
                for selection in set {
                    switch selection {
                    case .field(let field):
                        guard !field.selections.isEmpty else { continue }
                        if !field.conditions.isEmpty, !field.conditions.allSatisfy({ $0.passes(variables) }) {
                            continue
                        }
                        guard let slot = record.slots[field.readKey(variables: variables)] else { continue }
                        let identity = ObjectIdentifier(field.storage)
                        var values = [slot.value]
                        while let value = values.popLast() {
                            switch value {
                            case .link(let target):
                                if visited.insert(Visit(key: target, field: identity)).inserted {
                                    pending.append((target, field.selections, variables))
                                }
                            case .list(let items): values.append(contentsOf: items)
                            default: continue
                            }
                        }
                    case .inlineFragment(let condition, let conditions, let inner):
                        if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                        if let condition, !condition.matches(record.typename) { continue }
                        stack.append(inner)
                    case .fragment(_, let condition, let conditions, let inner):
                        if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                        if !condition.matches(record.typename) { continue }
                        stack.append(inner)
                    }
                }
            }
        }
        return marked
    }
}
