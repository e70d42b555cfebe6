import Foundation

/// A `@connection` page or a declarative update a response made at one field, noted by the normalizer and applied
/// after the response's records, inside the same batch.
struct ConnectionWrite {
    let field: FieldStorage
    /// The record the field was written to, and the slot (the server's storage key, paging arguments included).
    let parent: RecordKey
    let storageKey: String
}

/// How connection records are kept, and how pages and declarative updates change them.
///
/// A `@connection` field's page is stored as any field is (under its storage key, paging arguments included), and
/// then merged into the connection record `parent.__connection:KEY(filters)`, which the parent's slot of that name
/// links to and every read of the field reads (`Field.readKey`):
///
/// - the connection record holds the page's other fields (`totalCount`: the latest page's), `edges` (the merged
///   list, linking the pages' own edge records) and `pageInfo` (a record of its own, `ID.pageInfo`);
/// - a page without `after` and `before` replaces the edges and the page info (a refetch from the start or the end);
/// - a page `after` the connection's `endCursor` appends its edges and takes the page's `hasNextPage` and
///   `endCursor`; a page `before` its `startCursor` prepends them and takes `hasPreviousPage` and `startCursor`; a
///   page after or before any other cursor is not merged (it would leave a hole), as Relay's connection handler;
/// - an edge whose node (record key) or cursor is already in the list is not added again;
/// - a page that is null (a field error) while paging leaves the loaded pages as they were.
///
/// A page after or before the loaded ones is added in place, so its cost follows the page, not the connection:
/// the edge list is taken out of the connection record (no copy) and the page's edges join it, and whether an
/// edge is already shown is asked of the connection's `EdgeIndex` (its nodes and cursors, kept between batches in
/// the store and grown with each page). The first page merged after the edges were set another way (a page from
/// the start, a declarative update, an image, a collection) builds the index once from the list, dropping what
/// the merge has always dropped (items that are not edges, repeated edges); a prepended page whose edges the
/// loaded ones repeat is merged the old way (the loaded duplicate goes), and the index is built again later.
///
/// Declarative updates (`RecordUpdate`) then change the connections their `connections:` name (an unknown or
/// absent connection is skipped): `appendEdge`/`prependEdge` copy the returned edge into the connection
/// (`ID.edges.N`, so a later response to the same mutation path cannot retarget it) unless its node is there
/// already; `appendNode`/`prependNode` make an edge of `edgeTypename` around the node with a null cursor;
/// `deleteEdge` removes the edges whose node has the returned ID; `deleteRecord` deletes the records of the ID
/// (of `typename`, or of any type) — they become empty `isDeleted` records — and removes their edges from every
/// connection in the store.
enum ConnectionWrites {
    static let edges = "edges"
    static let node = "node"
    static let cursor = "cursor"
    static let pageInfo = "pageInfo"
    /// The connection record's counter for the edge records it makes.
    static let nextEdge = "__nextEdge"

    /// Applies a write's pages and updates, in the order the response reached them, to `records`, noting every
    /// slot whose content changed and every connection record made.
    static func apply(
        _ writes: [ConnectionWrite], variables: [String: JSONValue], to records: inout [RecordKey: Record],
        connections: inout Set<RecordKey>, edgeIndexes: inout [RecordKey: EdgeIndex], now: Double,
        changed: inout Set<SlotID>
    ) {
        var table = Table(records: records, now: now)
        records = [:]  // one owner of the storage while it changes, so it is not copied
        table.indexes = edgeIndexes
        edgeIndexes = [:]
        for write in writes {
            if write.field.connection != nil {
                table.mergePage(write, variables: variables, connections: &connections)
            }
            if let update = write.field.update {
                table.apply(update, at: write, variables: variables, connections: connections)
            }
        }
        records = table.records
        edgeIndexes = table.indexes
        changed.formUnion(table.changed)
    }

    /// What a connection's edge list shows, so a page asks it in time proportional to the page: the nodes and
    /// cursors the merge has seen (as `Table.merged` collects them), for a list of `count` items. An index whose
    /// count is not the list's is stale and built again.
    struct EdgeIndex: Sendable {
        var count: Int
        var nodes: Set<RecordKey>
        var cursors: Set<String>
    }

    /// The records being changed, with the slots that changed.
    struct Table {
        var records: [RecordKey: Record]
        let now: Double
        var changed = Set<SlotID>()
        /// The connections' edge indexes (see `EdgeIndex`); a connection's goes whenever its edges are set.
        var indexes: [RecordKey: EdgeIndex] = [:]

        init(records: [RecordKey: Record], now: Double) {
            self.records = records
            self.now = now
        }

        // MARK: Writing

        /// Sets one slot, making the record when it is new; a change is noted.
        mutating func set(_ slot: Slot, _ storageKey: String, of key: RecordKey, typename: String?) {
            let old = records[key]?.slots[storageKey]
            if records[key] == nil { records[key] = Record(typename: typename) }
            records[key]?.slots[storageKey] = slot
            records[key]?.updatedAt = now
            if old != slot { changed.insert(SlotID(key, storageKey)) }
            if storageKey == ConnectionWrites.edges { indexes[key] = nil }
        }

        func slot(_ key: RecordKey, _ storageKey: String) -> Slot? { records[key]?.slots[storageKey] }

        func link(_ key: RecordKey, _ storageKey: String) -> RecordKey? {
            if case .link(let target)? = slot(key, storageKey)?.value { return target }
            return nil
        }

        func string(_ key: RecordKey, _ storageKey: String) -> String? {
            if case .string(let text)? = slot(key, storageKey)?.value { return text }
            return nil
        }

        func edgeList(_ key: RecordKey) -> [StoredValue]? {
            if case .list(let items)? = slot(key, ConnectionWrites.edges)?.value { return items }
            return nil
        }

        /// The node an edge item links to, and its cursor.
        func nodeAndCursor(_ edge: StoredValue) -> (node: RecordKey?, cursor: String?) {
            guard case .link(let edgeKey) = edge else { return (nil, nil) }
            return (link(edgeKey, ConnectionWrites.node), string(edgeKey, ConnectionWrites.cursor))
        }

        // MARK: Pages

        mutating func mergePage(
            _ write: ConnectionWrite, variables: [String: JSONValue], connections: inout Set<RecordKey>
        ) {
            guard let pageSlot = slot(write.parent, write.storageKey) else { return }
            let field = write.field
            let connectionSlot = field.constantReadKey ?? field.variableReadKey(variables)
            let id = write.parent + "." + connectionSlot
            let paging = PagingArguments(field.arguments, variables: variables)
            let isPaging = paging.after != nil || paging.before != nil
            guard case .link(let pageKey) = pageSlot.value, let page = records[pageKey] else {
                // A null connection (or one with a field error): from the start it is the connection's value; while
                // paging, a failed page leaves the loaded pages as they were.
                if !isPaging {
                    set(pageSlot, connectionSlot, of: write.parent, typename: records[write.parent]?.typename)
                }
                return
            }
            if records[id]?.isDeleted == true { records[id] = nil }
            let existing = records[id]
            if existing == nil { connections.insert(id) }
            for (storageKey, value) in page.slots
            where storageKey != ConnectionWrites.edges && storageKey != ConnectionWrites.pageInfo {
                set(value, storageKey, of: id, typename: page.typename)
            }
            let serverEdges = page.slots[ConnectionWrites.edges]
            let serverPageInfo = page.slots[ConnectionWrites.pageInfo]
            let pageInfoKey = id + "." + ConnectionWrites.pageInfo
            var pageInfoFields: [String]?  // nil: every field of the server's page info
            var edges: Slot?
            let previous = existing.flatMap { _ in slot(id, ConnectionWrites.edges) }
            if existing == nil || previous == nil || !isPaging {
                edges = serverEdges ?? previous
                pageInfoFields = nil
            } else if let after = paging.after {
                guard after == string(pageInfoKey, "endCursor") else { return }
                addInPlace(serverEdges, to: id, atEnd: true)
                pageInfoFields = ["hasNextPage", "endCursor"]
            } else if let before = paging.before {
                guard before == string(pageInfoKey, "startCursor") else { return }
                if !addInPlace(serverEdges, to: id, atEnd: false) {
                    edges = merged(slot(id, ConnectionWrites.edges), serverEdges, serverFirst: true)
                }
                pageInfoFields = ["hasPreviousPage", "startCursor"]
            }
            if let edges {
                set(edges, ConnectionWrites.edges, of: id, typename: page.typename)
                // The list a page from the start set, indexed now (its cost is the page's) when the merge would
                // keep all of it; else the first page merged after it builds the index.
                if let items = edgeList(id) {
                    let (index, shown) = scan(items)
                    if shown.count == items.count { indexes[id] = index }
                }
            }
            if case .link(let serverKey)? = serverPageInfo?.value, let server = records[serverKey] {
                if records[pageInfoKey] == nil || existing == nil {
                    for name in ["hasNextPage", "hasPreviousPage"] {
                        set(Slot(value: .boolean(false)), name, of: pageInfoKey, typename: server.typename)
                    }
                    for name in ["startCursor", "endCursor"] {
                        set(Slot(value: .null), name, of: pageInfoKey, typename: server.typename)
                    }
                }
                for (name, value) in server.slots where pageInfoFields?.contains(name) ?? true {
                    // A page's missing cursor (the end of the list) keeps the one the connection has.
                    if pageInfoFields != nil, name.hasSuffix("Cursor"), value.value == .null { continue }
                    set(value, name, of: pageInfoKey, typename: server.typename)
                }
                set(
                    Slot(value: .link(pageInfoKey), errors: serverPageInfo?.errors ?? []), ConnectionWrites.pageInfo,
                    of: id, typename: page.typename)
            } else if let serverPageInfo, existing == nil || !isPaging {
                set(serverPageInfo, ConnectionWrites.pageInfo, of: id, typename: page.typename)
            }
            set(
                Slot(value: .link(id), errors: pageSlot.errors), connectionSlot, of: write.parent,
                typename: records[write.parent]?.typename)
        }

        /// Adds a page's edges to the connection's list in place: at the end, without an edge whose node or
        /// cursor is shown (what `merged` keeps, the loaded edges first); at the start, when no loaded edge
        /// repeats one of the page's (else false, nothing done: `merged` drops the loaded duplicate). The page's
        /// list errors join the list's; the record's age is the batch's.
        @discardableResult
        mutating func addInPlace(_ page: Slot?, to id: RecordKey, atEnd: Bool) -> Bool {
            guard let page else { return true }
            var index = edgeIndex(id)
            let new: [StoredValue] = if case .list(let items) = page.value { items } else { [] }
            let kept: [StoredValue]
            if atEnd {
                kept = shown(new, nodes: &index.nodes, cursors: &index.cursors)
            } else {
                var nodes = Set<RecordKey>()
                var cursors = Set<String>()
                kept = shown(new, nodes: &nodes, cursors: &cursors)
                if !nodes.isDisjoint(with: index.nodes) || !cursors.isDisjoint(with: index.cursors) { return false }
                index.nodes.formUnion(nodes)
                index.cursors.formUnion(cursors)
            }
            // The list taken out of the record, so it has one owner and grows without a copy.
            var slot = records[id]?.slots.removeValue(forKey: ConnectionWrites.edges) ?? Slot(value: .list([]))
            var items: [StoredValue] = []
            if case .list(let loaded) = slot.value { items = loaded }
            slot.value = .null
            if atEnd { items.append(contentsOf: kept) } else { items.insert(contentsOf: kept, at: 0) }
            index.count = items.count
            slot.value = .list(items)
            slot.errors += page.errors
            records[id]?.slots[ConnectionWrites.edges] = slot
            records[id]?.updatedAt = now
            if !kept.isEmpty || !page.errors.isEmpty { changed.insert(SlotID(id, ConnectionWrites.edges)) }
            indexes[id] = index
            return true
        }

        /// The connection's index, kept or built from its list (which then loses what `merged` drops: items that
        /// are not edges, repeated edges).
        mutating func edgeIndex(_ id: RecordKey) -> EdgeIndex {
            let items = edgeList(id) ?? []
            if let index = indexes[id], index.count == items.count { return index }
            let (index, shown) = scan(items)
            if shown.count != items.count, let old = slot(id, ConnectionWrites.edges) {
                set(Slot(value: .list(shown), errors: old.errors), ConnectionWrites.edges, of: id, typename: nil)
            }
            return index
        }

        /// The index of a list and what of it `merged` keeps.
        func scan(_ items: [StoredValue]) -> (EdgeIndex, [StoredValue]) {
            var index = EdgeIndex(count: 0, nodes: [], cursors: [])
            let kept = shown(items, nodes: &index.nodes, cursors: &index.cursors)
            index.count = kept.count
            return (index, kept)
        }

        /// The items the merge shows, in order: the edges whose node and cursor are not in `nodes` and `cursors`
        /// yet (both grow with what each edge brings, as the merge has always collected them); items that are
        /// not edges are left out.
        func shown(
            _ items: some Sequence<StoredValue>, nodes: inout Set<RecordKey>, cursors: inout Set<String>
        ) -> [StoredValue] {
            var result: [StoredValue] = []
            result.reserveCapacity(items.underestimatedCount)
            for edge in items {
                guard case .link = edge else { continue }
                let (node, cursor) = nodeAndCursor(edge)
                if let node, !nodes.insert(node).inserted { continue }
                if let cursor, !cursors.insert(cursor).inserted { continue }
                result.append(edge)
            }
            return result
        }

        /// The loaded edges and a page's, in order, without an edge whose node or cursor is already shown; the
        /// errors of both lists.
        func merged(_ previous: Slot?, _ page: Slot?, serverFirst: Bool) -> Slot? {
            guard let page else { return previous }
            let old: [StoredValue] = if case .list(let items)? = previous?.value { items } else { [] }
            let new: [StoredValue] = if case .list(let items) = page.value { items } else { [] }
            var nodes = Set<RecordKey>()
            var cursors = Set<String>()
            let result = shown(serverFirst ? new + old : old + new, nodes: &nodes, cursors: &cursors)
            return Slot(value: .list(result), errors: (previous?.errors ?? []) + page.errors)
        }

        // MARK: Declarative updates

        mutating func apply(
            _ update: RecordUpdate, at write: ConnectionWrite, variables: [String: JSONValue],
            connections: Set<RecordKey>
        ) {
            guard let value = slot(write.parent, write.storageKey)?.value else { return }
            let targets: [RecordKey] =
                switch update.connections?.resolved(variables) {
                case .array(let items)?: items.compactMap(\.stringValue)
                case .string(let one)?: [one]
                default: []
                }
            switch update.kind {
            case .appendEdge, .prependEdge:
                for edge in Self.links(in: value) {
                    for target in targets { insert(copying: edge, into: target, atEnd: update.kind == .appendEdge) }
                }
            case .appendNode, .prependNode:
                for node in Self.links(in: value) {
                    for target in targets {
                        insert(
                            node: node, typename: update.edgeTypename, into: target, atEnd: update.kind == .appendNode)
                    }
                }
            case .deleteEdge:
                let ids = Set(Self.strings(in: value))
                for target in targets {
                    let nodes = Set(
                        (edgeList(target) ?? []).compactMap { nodeAndCursor($0).node }.filter {
                            ids.contains(identifier(of: $0) ?? "")
                        })
                    removeEdges(from: target) { nodes.contains($0) }
                }
            case .deleteRecord:
                let ids = Set(Self.strings(in: value))
                guard !ids.isEmpty else { return }
                let keys = recordKeys(with: ids, typename: update.typename)
                for key in keys { delete(key) }
                for target in connections { removeEdges(from: target) { keys.contains($0) } }
            }
        }

        static func links(in value: StoredValue) -> [RecordKey] {
            switch value {
            case .link(let key): [key]
            case .list(let items): items.flatMap(links)
            default: []
            }
        }

        static func strings(in value: StoredValue) -> [String] {
            switch value {
            case .string(let text): [text]
            case .number(let text): [text]
            case .list(let items): items.flatMap(strings)
            default: []
            }
        }

        /// A record's ID: its `id` slot, or the ID in its key (`Type:ID`).
        func identifier(of key: RecordKey) -> String? {
            if let id = string(key, "id") { return id }
            return Self.keyIdentifier(key)
        }

        /// The ID of a key of the form `Type:ID` (the type a GraphQL name, so without `.` or `:`).
        static func keyIdentifier(_ key: RecordKey) -> String? {
            guard let colon = key.firstIndex(of: ":"), !key[..<colon].contains(".") else { return nil }
            return String(key[key.index(after: colon)...])
        }

        /// The records of these IDs: `typename:ID`, or of any type.
        func recordKeys(with ids: Set<String>, typename: String?) -> Set<RecordKey> {
            if let typename {
                return Set(ids.map { typename + ":" + $0 }.filter { records[$0] != nil })
            }
            return Set(records.keys.filter { key in Self.keyIdentifier(key).map(ids.contains) ?? false })
        }

        /// The connection record, when it exists and is not deleted.
        func connection(_ id: RecordKey) -> Record? {
            guard let record = records[id], !record.isDeleted, record.slots[ConnectionWrites.edges] != nil else {
                return nil
            }
            return record
        }

        /// The key of a new edge record of connection `id`.
        mutating func newEdgeKey(in id: RecordKey) -> RecordKey {
            var index = 0
            if case .number(let text)? = slot(id, ConnectionWrites.nextEdge)?.value { index = Int(text) ?? 0 }
            while records[id + ".edges." + String(index)] != nil { index += 1 }
            set(Slot(value: .number(String(index + 1))), ConnectionWrites.nextEdge, of: id, typename: nil)
            return id + ".edges." + String(index)
        }

        mutating func insert(copying edge: RecordKey, into id: RecordKey, atEnd: Bool) {
            guard connection(id) != nil, let source = records[edge] else { return }
            let node = link(edge, ConnectionWrites.node)
            if let node, (edgeList(id) ?? []).contains(where: { nodeAndCursor($0).node == node }) { return }
            let key = newEdgeKey(in: id)
            for (name, value) in source.slots { set(value, name, of: key, typename: source.typename) }
            insert(.link(key), into: id, atEnd: atEnd)
        }

        mutating func insert(node: RecordKey, typename: String?, into id: RecordKey, atEnd: Bool) {
            guard connection(id) != nil else { return }
            if (edgeList(id) ?? []).contains(where: { nodeAndCursor($0).node == node }) { return }
            let key = newEdgeKey(in: id)
            set(Slot(value: .link(node)), ConnectionWrites.node, of: key, typename: typename)
            set(Slot(value: .null), ConnectionWrites.cursor, of: key, typename: typename)
            insert(.link(key), into: id, atEnd: atEnd)
        }

        mutating func insert(_ edge: StoredValue, into id: RecordKey, atEnd: Bool) {
            let old = slot(id, ConnectionWrites.edges)
            var items = edgeList(id) ?? []
            if atEnd { items.append(edge) } else { items.insert(edge, at: 0) }
            set(Slot(value: .list(items), errors: old?.errors ?? []), ConnectionWrites.edges, of: id, typename: nil)
        }

        mutating func removeEdges(from id: RecordKey, where matches: (RecordKey) -> Bool) {
            guard connection(id) != nil, let items = edgeList(id) else { return }
            let kept = items.filter { edge in
                guard let node = nodeAndCursor(edge).node else { return true }
                return !matches(node)
            }
            if kept.count == items.count { return }
            let old = slot(id, ConnectionWrites.edges)
            set(Slot(value: .list(kept), errors: old?.errors ?? []), ConnectionWrites.edges, of: id, typename: nil)
        }

        /// Empties a record and marks it deleted; every slot it had changed.
        mutating func delete(_ key: RecordKey) {
            guard var record = records[key], !record.isDeleted else { return }
            for storageKey in record.slots.keys { changed.insert(SlotID(key, storageKey)) }
            record.slots = [:]
            record.isDeleted = true
            record.updatedAt = now
            records[key] = record
        }
    }
}
