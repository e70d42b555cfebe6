import BatonIR

/// File names for generated files, without their extension: stable, short enough for every file system,
/// distinct where file systems ignore case, never a Windows device name. One namer per output folder, called in
/// the claim order (`TopLevelLayout`): the same base names for every printer, which appends its extension.
package struct FileNaming: Sendable {
    /// The longest file name (in UTF-8 bytes, extension included) a printer writes. File systems allow 255; the
    /// margin leaves room for the writer's temporary-file prefix and suffix.
    package static let maximumNameBytes = 200
    /// The longest extension a printer appends, its dot included (`.graphql.swift`).
    package static let maximumExtensionBytes = 14
    /// The longest base name handed out: room for the longest extension and a few `_` suffixes.
    package static let maximumBaseBytes = maximumNameBytes - maximumExtensionBytes - 4

    /// Names Windows reserves for devices, in any case and with any extension.
    package static let windowsReservedNames: [String] =
        ["CON", "PRN", "AUX", "NUL"] + (1...9).map { "COM\($0)" } + (1...9).map { "LPT\($0)" }

    /// The names handed out, and Windows' device names. While every one is ASCII (GraphQL names are), by a hash
    /// of its bytes with ASCII's case folded (`ByteHash.folded`), with no lower-cased copy made and no second
    /// hash: `asciiTaken` holds each hash's first name as claimed, `asciiCollided` any other lower-cased (a large
    /// project's layout claims tens of thousands of names, and lower-casing and hashing each as a `String` was
    /// most of its cost). From the first name that is not ASCII on, every name is held lower-cased in `taken`
    /// (`String` equality, as `lowercased()` folds).
    private var asciiTaken = FoldedHashTable()
    private var asciiCollided: Set<String> = []
    private var taken: Set<String>?

    package init() {
        for name in FileNaming.windowsReservedNames { _ = insertASCII(name) }
    }

    /// A base name for `base` (usually a type name), unique in this namer regardless of case: `base` shortened
    /// (`shortened`) to `maximumBaseBytes`, then `_` appended while it is taken. Call in a deterministic order:
    /// where two bases differ only in case, the second gets the `_`.
    package mutating func claim(_ base: String) -> String {
        var name = FileNaming.shortened(base, maximumBytes: FileNaming.maximumBaseBytes)
        if taken == nil, var taking = insertASCII(name) {
            while !taking {
                name += "_"
                taking = insertASCII(name) ?? false
            }
            return name
        }
        var lowered = taken ?? Set(asciiTaken.names.map { $0.lowercased() }).union(asciiCollided)
        taken = nil  // held here alone while it changes
        // Folded once: `_` is its own lower case, so the folded name grows with the name.
        var folded = name.lowercased()
        while !lowered.insert(folded).inserted {
            name += "_"
            folded += "_"
        }
        taken = lowered
        return name
    }

    /// Takes the ASCII `name` unless a name equal to it ignoring case is taken: true when it took it, false when
    /// such a name is taken, nil (nothing taken) when `name` is not ASCII.
    private mutating func insertASCII(_ name: String) -> Bool? {
        guard let key = ByteHash.folded(name) else { return nil }
        guard let first = asciiTaken.insert(name, hashed: key) else { return true }
        if ByteHash.equalFolded(first, name) { return false }
        return asciiCollided.insert(name.lowercased()).inserted
    }

    /// `base` unchanged when it fits in `maximumBytes` UTF-8 bytes; otherwise cut at a character boundary and
    /// followed by `_` and the first 16 hexadecimal digits of the SHA-256 of the whole `base`, so the same long
    /// name always shortens the same way and two long names with a common prefix stay apart.
    package static func shortened(_ base: String, maximumBytes: Int) -> String {
        guard base.utf8.count > maximumBytes else { return base }
        let suffix = "_" + String(SHA256.hexDigest(base).prefix(16))
        let keep = max(maximumBytes - suffix.utf8.count, 1)
        var prefix = ""
        var used = 0
        for character in base {
            let size = character.utf8.count
            if used + size > keep { break }
            prefix.append(character)
            used += size
        }
        return prefix + suffix
    }
}

/// Names by a 64-bit hash of theirs (`ByteHash`), the first of each hash: an open-addressed table probed from the
/// hash's top bits after a multiplication (Fibonacci hashing), so a name is hashed once, by its bytes, and never
/// again by `Hasher`.
private struct FoldedHashTable: Sendable {
    /// Each slot's hash (0: empty; a hash of 0 is kept as 1) and its name's place in `names`.
    private var hashes = [UInt64](repeating: 0, count: 64)
    private var places = [Int](repeating: 0, count: 64)
    /// 64 less the number of bits of a slot's position.
    private var shift: UInt64 = 58
    /// The names, in the order they were inserted.
    private(set) var names: [String] = []

    /// Inserts `name` under `hash` unless a name is held under it: nil when inserted, else the name held.
    mutating func insert(_ name: String, hashed hash: UInt64) -> String? {
        let hash = hash == 0 ? 1 : hash
        var slot = firstSlot(hash)
        while hashes[slot] != 0 {
            if hashes[slot] == hash { return names[places[slot]] }
            slot = (slot + 1) & (hashes.count - 1)
        }
        hashes[slot] = hash
        places[slot] = names.count
        names.append(name)
        if names.count * 2 > hashes.count { grow() }
        return nil
    }

    private func firstSlot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    /// Twice the slots, every hash placed again.
    private mutating func grow() {
        let (oldHashes, oldPlaces) = (hashes, places)
        hashes = [UInt64](repeating: 0, count: oldHashes.count * 2)
        places = [Int](repeating: 0, count: oldHashes.count * 2)
        shift -= 1
        for (hash, place) in zip(oldHashes, oldPlaces) where hash != 0 {
            var slot = firstSlot(hash)
            while hashes[slot] != 0 { slot = (slot + 1) & (hashes.count - 1) }
            hashes[slot] = hash
            places[slot] = place
        }
    }
}
