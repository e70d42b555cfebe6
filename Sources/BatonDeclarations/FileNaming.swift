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

    /// The names handed out, and Windows' device names, lower-cased.
    private var taken = Set(FileNaming.windowsReservedNames.map { $0.lowercased() })

    package init() {}

    /// A base name for `base` (usually a type name), unique in this namer regardless of case: `base` shortened
    /// (`shortened`) to `maximumBaseBytes`, then `_` appended while it is taken. Call in a deterministic order:
    /// where two bases differ only in case, the second gets the `_`.
    package mutating func claim(_ base: String) -> String {
        var name = FileNaming.shortened(base, maximumBytes: FileNaming.maximumBaseBytes)
        // Folded once: `_` is its own lower case, so the folded name grows with the name.
        var folded = name.lowercased()
        while !taken.insert(folded).inserted {
            name += "_"
            folded += "_"
        }
        return name
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
