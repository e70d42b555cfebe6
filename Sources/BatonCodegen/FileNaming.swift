import BatonIR

/// File names for generated files: stable, short enough for every file system, and distinct where file
/// systems ignore case.
package struct FileNaming: Sendable {
    /// The longest file name (in UTF-8 bytes, extension included) handed out. File systems allow 255; the
    /// margin leaves room for the writer's temporary-file prefix and suffix.
    package static let maximumNameBytes = 200

    /// Names Windows reserves for devices, in any case and with any extension.
    package static let windowsReservedNames: [String] =
        ["CON", "PRN", "AUX", "NUL"] + (1...9).map { "COM\($0)" } + (1...9).map { "LPT\($0)" }

    private var scope = NameScope(reserved: FileNaming.windowsReservedNames, caseInsensitive: true)
    private let fileExtension: String
    private let maximumBytes: Int

    /// A namer for files ending in `.fileExtension` (without the dot).
    package init(fileExtension: String, maximumBytes: Int = FileNaming.maximumNameBytes) {
        self.fileExtension = fileExtension
        self.maximumBytes = max(maximumBytes, 32)
    }

    /// A file name for `base` (usually a type name), unique in this namer regardless of case.
    ///
    /// Call in a deterministic order (the model's sorted order): where two bases differ only in case, the
    /// second gets a `_` suffix.
    package mutating func name(for base: String) -> String {
        let budget = maximumBytes - fileExtension.utf8.count - 1 - 4  // room for a few `_` suffixes
        let unique = scope.claim(FileNaming.shortened(base, maximumBytes: budget))
        return unique + "." + fileExtension
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
