import BatonConfig

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one output folder's last `gen` was made from and what it wrote: the cache that lets a run
/// with nothing changed stop after hashing its inputs, and a run after an edit render only the
/// definitions the edit can reach. Decisions, made here once:
///
/// - **Where**: `.baton-manifest` in the output folder. Hidden, so the writer's stale-file walk
///   never sees it and it is never taken for generated code; it is a cache, not an output:
///   `gen --check` neither reads nor compares it, and deleting it only costs one full run.
/// - **What invalidates everything** (`inputs`): Baton's build (the executable's size and
///   modification time, beside the version; the text of the Kotlin runtime's files it writes, which
///   it reads at run time), the working directory, baton.json's path and
///   bytes, every schema file's path and bytes, the language, the output folder, the options of
///   the run (`--warnings-as-errors`, the Kotlin runtime's folder); and (`names`) every top-level
///   name of the plan, because a name one definition takes can rename another's types.
/// - **Per definition** (`digest`): the hashes of the documents it is built from, its own and
///   those of every fragment it spreads (transitively) or refetches. A definition whose digest,
///   path and file stamp (size, modification time, inode) are what the manifest recorded is kept
///   as it is on disk: not rendered, not read, not written.
/// - **Never wrong output**: a missing, truncated, foreign or unreadable manifest is no manifest
///   (a full run); a file edited or removed by hand has another stamp (rendered again); the
///   manifest is removed before a run writes anything and written after its last file, so a run
///   that stops half way leaves none.
package struct GenerationManifest: Sendable, Equatable {
    /// The file name in each output folder.
    package static let fileName = ".baton-manifest"
    static let firstLine = "baton-gen-manifest 1"

    /// One generated file.
    package struct Entry: Sendable, Equatable {
        /// Relative to the output folder.
        package var path: String
        package var stamp: FileStamp
        /// `GeneratedFile.definition`, or `-` for schema types and the runtime.
        package var definition: String
        /// The definition's digest (hashes of the documents it is built from), or `-`.
        package var digest: String
    }

    /// The digest of everything that invalidates the whole folder.
    package var inputs: String
    /// The digest of every top-level name in the plan.
    package var names: String
    /// Each document's SHA-256, by the path the plan's locations use (its display path).
    package var documents: [String: String]
    package var files: [Entry]
    /// Files outside the folder the run wrote for this project (the persisted-query manifest): absolute path and stamp.
    package var extras: [(path: String, stamp: FileStamp)] = []

    package init(
        inputs: String, names: String, documents: [String: String], files: [Entry],
        extras: [(path: String, stamp: FileStamp)] = []
    ) {
        self.inputs = inputs
        self.names = names
        self.documents = documents
        self.files = files
        self.extras = extras
    }

    package static func == (lhs: GenerationManifest, rhs: GenerationManifest) -> Bool {
        lhs.inputs == rhs.inputs && lhs.names == rhs.names && lhs.documents == rhs.documents && lhs.files == rhs.files
            && lhs.extras.map(\.path) == rhs.extras.map(\.path) && lhs.extras.map(\.stamp) == rhs.extras.map(\.stamp)
    }

    /// True when every file (and extra) is on disk as recorded.
    package func filesAreIntact(root: String) -> Bool {
        files.allSatisfy { FileStamp(of: root + "/" + $0.path) == $0.stamp }
            && extras.allSatisfy { FileStamp(of: $0.path) == $0.stamp }
    }

    // MARK: Text

    /// The manifest as written; nil when a path cannot be written on one line (such a project
    /// simply gets no manifest: every run is a full one).
    package var text: String? {
        var lines = [Self.firstLine, "inputs " + inputs, "names " + names]
        func fits(_ text: String) -> Bool {
            !text.isEmpty && !text.contains("\t") && !text.contains("\n") && !text.contains("\r")
        }
        for (path, hash) in documents.sorted(by: { $0.key < $1.key }) {
            guard fits(path) else { return nil }
            lines.append("doc \(hash)\t\(path)")
        }
        for entry in files {
            guard fits(entry.path), fits(entry.definition), !entry.definition.contains(" ") else { return nil }
            lines.append("file \(entry.stamp.text) \(entry.definition) \(entry.digest)\t\(entry.path)")
        }
        for extra in extras {
            guard fits(extra.path) else { return nil }
            lines.append("extra \(extra.stamp.text)\t\(extra.path)")
        }
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses a manifest's text; nil for anything that is not one, whole.
    package init?(text: String) { self.init(bytes: Array(text.utf8)) }

    /// Parses a manifest's bytes (split as bytes: a manifest of a large project has tens of
    /// thousands of lines, and the run with nothing changed reads it first); nil for anything
    /// that is not one, whole.
    package init?(bytes: [UInt8]) {
        let tab = UInt8(ascii: "\t")
        let space = UInt8(ascii: " ")
        func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count >= 5, string(lines.removeFirst()) == Self.firstLine, lines.removeLast().isEmpty,
            string(lines.removeLast()) == "end"
        else { return nil }
        guard let inputs = Self.value(string(lines.removeFirst()), "inputs "),
            let names = Self.value(string(lines.removeFirst()), "names ")
        else { return nil }
        self.init(inputs: String(inputs), names: String(names), documents: [:], files: [])
        files.reserveCapacity(lines.count)
        for line in lines {
            guard let split = line.firstIndex(of: tab) else { return nil }
            let head = line[..<split].split(separator: space, omittingEmptySubsequences: false)
            let path = string(line[(split + 1)...])
            guard !path.isEmpty, let kind = head.first.map(string) else { return nil }
            switch kind {
            case "doc" where head.count == 2:
                documents[path] = string(head[1])
            case "file" where head.count == 7:
                guard let stamp = FileStamp(text: head[1...4].map { Substring(string($0)) }[...]) else { return nil }
                files.append(Entry(path: path, stamp: stamp, definition: string(head[5]), digest: string(head[6])))
            case "extra" where head.count == 5:
                guard let stamp = FileStamp(text: head[1...4].map { Substring(string($0)) }[...]) else { return nil }
                extras.append((path, stamp))
            default:
                return nil
            }
        }
    }

    private static func value(_ line: String, _ prefix: String) -> Substring? {
        guard line.hasPrefix(prefix) else { return nil }
        let value = line.dropFirst(prefix.count)
        return value.isEmpty || value.contains(" ") ? nil : value
    }

    /// The manifest in `root`, or nil when there is none or it is not a whole one.
    package static func load(root: String) -> GenerationManifest? {
        guard case .success(let bytes) = FileSystem.readFile(root + "/" + fileName) else { return nil }
        return GenerationManifest(bytes: bytes)
    }

    /// Removes the manifest in `root` (before a run writes anything there). True when there is none afterwards.
    @discardableResult
    package static func remove(root: String) -> Bool {
        let path = root + "/" + fileName
        return unlink(path) == 0 || errno == ENOENT
    }
}

/// What identifies a file's content without reading it: its size, modification time and inode.
/// (A writer replacing a file by renaming gives it a new inode, so even an edit within the clock's
/// resolution and of the same size is seen.)
package struct FileStamp: Sendable, Equatable {
    package var size: Int64
    package var seconds: Int64
    package var nanoseconds: Int64
    package var inode: UInt64

    /// The stamp of the regular file at `path` (not following a final symbolic link), or nil.
    package init?(of path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        size = Int64(info.st_size)
        #if canImport(Darwin)
            seconds = Int64(info.st_mtimespec.tv_sec)
            nanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
            seconds = Int64(info.st_mtim.tv_sec)
            nanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        inode = UInt64(info.st_ino)
    }

    init?(text: ArraySlice<Substring>) {
        let parts = Array(text)
        guard parts.count == 4, let size = Int64(parts[0]), let seconds = Int64(parts[1]),
            let nanoseconds = Int64(parts[2]), let inode = UInt64(parts[3])
        else { return nil }
        self.size = size
        self.seconds = seconds
        self.nanoseconds = nanoseconds
        self.inode = inode
    }

    var text: String { "\(size) \(seconds) \(nanoseconds) \(inode)" }
}
