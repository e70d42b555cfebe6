import Foundation

/// An optimistic update in flight: a mutation's optimistic response applied as a layer over the store's records.
public struct OptimisticLayerID: Sendable, Hashable, CustomStringConvertible {
    let value: Int
    public var description: String { "optimistic-\(value)" }
}

/// A store's optimistic layers and the server's records under them.
///
/// While a layer is in flight, reads see `base` (what servers said) with every layer applied over it in the order
/// they were added; every server batch is applied to `base` and the layers are applied again over the result, so a
/// layer never hides later server data it does not itself write. Removing a layer (a failure) or replacing it with
/// the server's answer applies the others again over `base`: each rolls back exactly and independently.
struct OptimisticState {
    /// The server's records while layers are in flight; nil without layers (then the store's records are them).
    var base: [RecordKey: Record]?
    var layers: [(id: Int, write: NormalizedWrite)] = []
    var nextLayer = 0
    /// The slots where what reads see may differ from `base` (every slot a layer changed when last applied).
    var layered = Set<SlotID>()
    /// The records layers wrote, for `Lens.isOptimistic`.
    var records = Set<RecordKey>()
}

extension Store {
    /// Applies an optimistic write as a new layer and hands back the notifications to deliver.
    func addOptimisticLayer(_ write: NormalizedWrite) -> (OptimisticLayerID, CommitResult, () -> Void) {
        let now = clock().timeIntervalSince1970
        let (id, changed, notify) = state.withLock { state in
            let id = state.optimistic.nextLayer
            state.optimistic.nextLayer += 1
            let changed = Store.rebase(&state, server: nil, removing: nil, adding: (id, write), now: now)
            return (id, changed, Store.notifications(state, changed))
        }
        return (
            OptimisticLayerID(value: id), CommitResult(changed: changed, unattachedErrors: []),
            { for (callback, slots) in notify { callback(slots) } }
        )
    }

    /// Removes a layer (rolls it back): reads see again what they saw without it. Hands back the notifications.
    func removeOptimisticLayer(_ layer: OptimisticLayerID) -> (CommitResult, () -> Void) {
        let now = clock().timeIntervalSince1970
        let (changed, notify) = state.withLock { state in
            guard state.optimistic.layers.contains(where: { $0.id == layer.value }) else {
                return (Set<SlotID>(), [(@Sendable (Set<SlotID>) -> Void, Set<SlotID>)]())
            }
            let changed = Store.rebase(&state, server: nil, removing: layer, adding: nil, now: now)
            return (changed, Store.notifications(state, changed))
        }
        return (
            CommitResult(changed: changed, unattachedErrors: []),
            { for (callback, slots) in notify { callback(slots) } }
        )
    }

    /// How many optimistic layers are in flight.
    public var optimisticLayerCount: Int { state.withLock { $0.optimistic.layers.count } }

    /// The server's records, without optimistic layers: what an image saves.
    func serverRecords() -> [RecordKey: Record] {
        state.withLock { $0.optimistic.base ?? $0.records }
    }

    /// Applies a server write (if any) to the server's records, removes and adds layers, and applies the layers
    /// again over the result. Returns the slots whose content, as reads see it, changed.
    static func rebase(
        _ state: inout State, server: NormalizedWrite?, removing: OptimisticLayerID?,
        adding: (id: Int, write: NormalizedWrite)?, now: Double
    ) -> Set<SlotID> {
        var base = state.optimistic.base ?? state.records
        var candidates = state.optimistic.layered
        state.edgeIndexes = [:]  // `records` becomes the layered view: built again from it after the layers go
        if var server {
            var written: [SlotID] = []
            Store.apply(
                &server, to: &base, connections: &state.connections, now: now, changed: &written,
                observer: state.batchObserver)
            candidates.formUnion(written)
        }
        if let removing { state.optimistic.layers.removeAll { $0.id == removing.value } }
        if let adding { state.optimistic.layers.append(adding) }
        var visible = base
        var layered = Set<SlotID>()
        for layer in state.optimistic.layers {
            // A copy: the layer is applied again at every rebase until it goes.
            var write = layer.write
            var written: [SlotID] = []
            Store.apply(&write, to: &visible, connections: &state.connections, now: now, changed: &written)
            layered.formUnion(written)
        }
        candidates.formUnion(layered)
        let old = state.records
        let changed = candidates.filter { slot in
            old[slot.record]?.slots[slot.storageKey] != visible[slot.record]?.slots[slot.storageKey]
        }
        state.records = visible
        state.optimistic.base = state.optimistic.layers.isEmpty ? nil : base
        state.optimistic.layered = layered
        state.optimistic.records = Set(layered.map(\.record))
        return changed
    }
}
