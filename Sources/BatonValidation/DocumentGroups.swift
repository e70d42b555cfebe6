import BatonSchema
import BatonSyntax

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names one document shares with others: all that makes documents validated as one unit
/// depend on each other.
///
/// A project's documents are validated (and planned) as one unit, but only names reach from one
/// document into another: a fragment is found by name wherever it is defined (and must be spread
/// somewhere, defined once, and not spread in a cycle), operation names are unique, `@defer` and
/// `@stream` labels are unique, `@refetchable(queryName:)` names no other definition, and the plan
/// refuses an operation and a fragment of one name. Documents that share no such name therefore
/// validate apart with exactly the diagnostics of the whole unit, and documents that share one must
/// validate together. A few things reach every document at once and join them all: an anonymous
/// operation (it must be the unit's only operation) and any definition that is not an operation
/// or a fragment (type-system definitions in documents are reported, and the rules that know types
/// and directives read them).
package struct DocumentLinks: Sendable, Equatable {
    /// The names the document defines or refers to, sorted, each with its kind's prefix (`name:`
    /// for operations, fragments and refetch queries, which share one space for the plan's sake;
    /// `label:` for labels).
    package var keys: [String]
    /// True when the document depends on every other one (see above).
    package var joinsAll: Bool

    package init(keys: [String] = [], joinsAll: Bool = false) {
        self.keys = keys
        self.joinsAll = joinsAll
    }

    /// Both documents' keys: the links of a document before and after an edit, so that what either
    /// reached is reached (`DocumentGroups.reaching`).
    package func merging(_ other: DocumentLinks) -> DocumentLinks {
        // A file's links are its documents' merged from none: with one side empty and the other's keys
        // already sorted without repeats (as `of` and the scanner make them), they are the answer as they are.
        if keys.isEmpty, Self.isSortedWithoutRepeats(other.keys) {
            return DocumentLinks(keys: other.keys, joinsAll: joinsAll || other.joinsAll)
        }
        if other.keys.isEmpty, Self.isSortedWithoutRepeats(keys) {
            return DocumentLinks(keys: keys, joinsAll: joinsAll || other.joinsAll)
        }
        return DocumentLinks(keys: Array(Set(keys).union(other.keys)).sorted(), joinsAll: joinsAll || other.joinsAll)
    }

    private static func isSortedWithoutRepeats(_ keys: [String]) -> Bool {
        zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }
    }

    /// The links of one document: every operation and fragment name it defines, every fragment it
    /// spreads, every `queryName` of `@refetchable` and every static `label` of `@defer`/`@stream`.
    ///
    /// `check` makes this of every file its first pass parses; its second pass only compares (`isLinks(of:)`).
    /// The keys are gathered in a list, sorted and made unique once (no hashing).
    package static func of(_ document: Document) -> DocumentLinks {
        var keys: [String] = []
        let joinsAll = visitKeys(of: document) { prefix, name in keys.append(prefix.description + name) }
        return DocumentLinks(keys: sortedWithoutRepeats(keys), joinsAll: joinsAll)
    }

    /// True when `documents`' links, merged, are these (`of` of each, merged with `merging`), told without
    /// making a key where it can: each key the documents hold is looked up by its bytes in the sorted `keys`,
    /// and every one of `keys` must be met. That says equal only when both are the same set of byte strings,
    /// which `of` would make equal too; whatever it cannot tell (a key not met, as when the keys are not in
    /// their bytes' order, which only a non-ASCII label can cause) is decided by making the links.
    package func isLinks(of documents: [Document]) -> Bool {
        // The marks on the stack (a file's few keys): an array made here is allocated through the standard
        // library's unspecialized entry, which costs more than the search for a file of one operation.
        let told = withUnsafeTemporaryAllocation(of: Bool.self, capacity: keys.count) { met -> Bool in
            met.initialize(repeating: false)
            var allFound = true
            var joins = false
            for document in documents {
                joins =
                    Self.visitKeys(of: document) { prefix, name in
                        guard allFound else { return }
                        if let index = Self.index(of: prefix, name, in: keys) {
                            met[index] = true
                        } else {
                            allFound = false
                        }
                    } || joins
            }
            return allFound && joins == joinsAll && !met.contains(false)
        }
        if told { return true }
        return documents.map(Self.of).reduce(DocumentLinks()) { $0.merging($1) } == self
    }

    /// Where `prefix` + `name` is in `keys`, compared as bytes (a binary search: `keys` sorted in their bytes'
    /// order, as ASCII keys are); nil if it is not found.
    static func index(of prefix: StaticString, _ name: String, in keys: [String]) -> Int? {
        var name = name
        return name.withUTF8 { nameBytes -> Int? in
            let prefixBytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                var key = keys[middle]
                let order = key.withUTF8 { keyBytes in compare(keyBytes, prefixBytes, nameBytes) }
                if order == 0 { return middle }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    /// The order of `key` against `prefix` followed by `name`, byte by byte: negative, zero or positive.
    private static func compare(
        _ key: UnsafeBufferPointer<UInt8>, _ prefix: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>
    ) -> Int {
        // Each part with `memcmp` (which orders bytes as unsigned, as this order does): keys share long
        // beginnings (`name:` and then a name), which a loop would compare a byte at a time.
        let inPrefix = min(key.count, prefix.count)
        if inPrefix > 0, let order = ordered(key.baseAddress, prefix.baseAddress, inPrefix) { return order }
        guard key.count > prefix.count else { return key.count - (prefix.count + name.count) }
        let inName = min(key.count - prefix.count, name.count)
        if inName > 0, let order = ordered(key.baseAddress.map { $0 + prefix.count }, name.baseAddress, inName) {
            return order
        }
        return key.count - (prefix.count + name.count)
    }

    /// The order of `count` bytes at `a` against those at `b` (`memcmp`'s sign), nil when they are equal.
    private static func ordered(_ a: UnsafePointer<UInt8>?, _ b: UnsafePointer<UInt8>?, _ count: Int) -> Int? {
        guard let a, let b else { return nil }
        let order = Int(memcmp(a, b, count))
        return order == 0 ? nil : order
    }

    /// Calls `body` with each key of `document` as its prefix (`name:` or `label:`) and its text, in the order
    /// met (repeats included); returns whether the document joins every other one.
    private static func visitKeys(of document: Document, _ body: (StaticString, String) -> Void) -> Bool {
        var joinsAll = false
        var pending: [SelectionSet] = []
        // A key is a spread's name or a directive's argument: a set with neither a spread nor a selection with
        // directives at any depth holds none, and is not visited.
        func mayHoldKeys(_ set: SelectionSet) -> Bool { set.containsSpreads || set.containsDirectives }
        func note(_ list: [Directive]) {
            for directive in list {
                let key: String
                switch directive.name.value {
                case "defer", "stream": key = "label"
                case "refetchable": key = "queryName"
                default: continue
                }
                for argument in directive.arguments where argument.name.value == key {
                    if case .string(let text) = argument.value { body(key == "label" ? "label:" : "name:", text.value) }
                }
            }
        }
        for definition in document.definitions {
            switch definition {
            case .operation(let operation):
                if let name = operation.name { body("name:", name.value) } else { joinsAll = true }
                note(operation.directives)
                for variable in operation.variableDefinitions { note(variable.directives) }
                if mayHoldKeys(operation.selectionSet) { pending.append(operation.selectionSet) }
            case .fragment(let fragment):
                body("name:", fragment.name.value)
                note(fragment.directives)
                if mayHoldKeys(fragment.selectionSet) { pending.append(fragment.selectionSet) }
            default:
                joinsAll = true
            }
            // Selections nest as deep as the parser allows: a work list, not recursion.
            while let set = pending.popLast() {
                let selections = set.selections
                for index in selections.indices {
                    switch selections[index] {
                    case .field(let field):
                        if !field.directives.isEmpty { note(field.directives) }
                        if let set = field.selectionSet, mayHoldKeys(set) { pending.append(set) }
                    case .fragmentSpread(let spread):
                        if !spread.directives.isEmpty { note(spread.directives) }
                        body("name:", spread.name.value)
                    case .inlineFragment(let inline):
                        if !inline.directives.isEmpty { note(inline.directives) }
                        if mayHoldKeys(inline.selectionSet) { pending.append(inline.selectionSet) }
                    }
                }
            }
        }
        return joinsAll
    }

    /// `keys` sorted, each once: what a `Set` would give, sorted, without hashing.
    package static func sortedWithoutRepeats(_ keys: [String]) -> [String] {
        var keys = keys
        keys.sort()
        var unique = 0
        for index in keys.indices where unique == 0 || keys[index] != keys[unique - 1] {
            if unique != index { keys.swapAt(unique, index) }
            unique += 1
        }
        keys.removeLast(keys.count - unique)
        return keys
    }
}

/// Documents cut into groups that share no name (`DocumentLinks`), and groups packed into batches:
/// each batch validates (and plans) as a unit of its own, and the batches' diagnostics, put back in
/// document order (`Validator.validate(schema:documents:rules:options:batches:workers:)`), are the
/// whole unit's.
///
/// Batches depend on the input alone (the documents' links and sizes), never on the number of
/// workers, so what is made once per unit (a `validation-depth` error) is made once per batch and
/// then kept once, the same way whatever the machine.
///
/// This is also how a change is validated again without the rest of the project: the documents a
/// change can reach are those of the changed documents' groups (`reaching(_:links:)`); validating
/// them as one unit gives the whole project's diagnostics for them.
package enum DocumentGroups {
    /// How many bytes of GraphQL a batch holds at least (except the last): large enough that a
    /// batch's fixed costs (a validation context, a plan builder) are small beside its work, small
    /// enough that a 10,000-file project makes dozens of batches for the cores to share and that
    /// a batch's ASTs are a small part of memory.
    package static let batchBytes = 128 * 1024

    /// The groups of documents (indices into `links`, ascending), ordered by their first document:
    /// two documents are in one group when a chain of shared keys links them. One group holds every
    /// document when any of them joins all.
    package static func groups(_ links: [DocumentLinks]) -> [[Int]] {
        guard !links.isEmpty else { return [] }
        if links.contains(where: \.joinsAll) { return [Array(links.indices)] }
        var parent = Array(links.indices)
        func root(_ index: Int) -> Int {
            var current = index
            while parent[current] != current {
                parent[current] = parent[parent[current]]
                current = parent[current]
            }
            return current
        }
        // Each key's first document, by the key's place in a `NameSet` (keys hashed a word at a time and
        // compared with `String`'s `==`, as a dictionary compares them; check's serial batching hashed each
        // key twice with SipHash in a `[String: Int]`).
        let keyCount = links.reduce(0) { $0 + $1.keys.count }
        var keys = NameSet(minimumCapacity: keyCount)
        var owner: [Int] = []
        owner.reserveCapacity(keyCount)
        for (index, link) in links.enumerated() {
            for key in link.keys {
                let (inserted, position) = keys.insert(key)
                if inserted {
                    owner.append(index)
                } else {
                    let (a, b) = (root(index), root(owner[position]))
                    // The smaller index roots the group, so a group's root is its first document.
                    if a != b { parent[max(a, b)] = min(a, b) }
                }
            }
        }
        // A group's position by its root (a document index), -1 until its root is met.
        var groupOfRoot = [Int](repeating: -1, count: links.count)
        var groups: [[Int]] = []
        for index in links.indices {
            let top = root(index)
            if groupOfRoot[top] >= 0 {
                groups[groupOfRoot[top]].append(index)
            } else {
                groupOfRoot[top] = groups.count
                groups.append([index])
            }
        }
        return groups
    }

    /// Groups packed, in order, into batches of at least `minimumWeight` (`weights` per document,
    /// such as its size in bytes; the last batch may weigh less), each batch's documents ascending.
    /// A group is never split, so one large group is one batch.
    package static func batches(_ groups: [[Int]], weights: [Int], minimumWeight: Int = batchBytes) -> [[Int]] {
        var batches: [[Int]] = []
        var current: [Int] = []
        var weight = 0
        for group in groups {
            current.append(contentsOf: group)
            weight += group.reduce(0) { $0 + (weights.indices.contains($1) ? weights[$1] : 0) }
            if weight >= minimumWeight {
                batches.append(current.sorted())
                current = []
                weight = 0
            }
        }
        if !current.isEmpty { batches.append(current.sorted()) }
        return batches
    }

    /// The documents a change to `changed` (indices into `links`) can reach: every document of a
    /// group holding a changed one, ascending. Validated as one unit, they get exactly the
    /// diagnostics the whole project's validation gives them.
    ///
    /// The changed documents' groups alone, found outward from them (`groups` of every document would hash every
    /// key of the project once, where a change reaches a few groups): each round looks for the keys the last
    /// round's documents brought in every document not yet reached, until a round brings none. Keys are the same
    /// when `String`'s `==` says so, as in `groups`' dictionary.
    package static func reaching(_ changed: Set<Int>, links: [DocumentLinks]) -> [Int] {
        let starts = changed.filter(links.indices.contains)
        guard !starts.isEmpty else { return [] }
        if links.contains(where: \.joinsAll) { return Array(links.indices) }
        var reached = [Bool](repeating: false, count: links.count)
        var sought: Set<String> = []
        for index in starts {
            reached[index] = true
            sought.formUnion(links[index].keys)
        }
        while !sought.isEmpty {
            var brought: Set<String> = []
            for index in links.indices where !reached[index] {
                let keys = links[index].keys
                guard keys.contains(where: sought.contains) else { continue }
                reached[index] = true
                brought.formUnion(keys)
            }
            // A key brought again was sought already (or is sought now): every document holding it is reached.
            sought = brought
        }
        return links.indices.filter { reached[$0] }
    }
}
