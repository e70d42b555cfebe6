import BatonConfig
import BatonFiles

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
///   path and file stamp (size, modification time, inode, status-change time) are what the manifest recorded is kept
///   as it is on disk: not rendered, not read, not written.
/// - **Files not read** (`documentStamps`, `projectFileStamps`): beside each document's hash, and
///   each hash of baton.json and a schema file (`projectFiles`), the stamp the file had
///   before it was hashed, when it was settled then (last changed over 2 s before: an edit within the
///   clock's resolution of the stamp would not move it). A file whose stamp is still the
///   recorded one is not read or hashed again. Trusted: that a file's size, modification time,
///   inode and status-change time do not all stay the same across a change of its bytes (the
///   status-change time cannot be set back by a program, so tools that restore modification times
///   are seen). Not done for outputs' folders: a folder's stamp does not move when a file in it is
///   edited in place, so every kept output is still `lstat`ed.
/// - **The folder's files**: a run that keeps files takes the `files` entries no kept file is for
///   the rest of the folder (`Compilation.recordedUnkept`): the writer looks for stale files among
///   them, without listing the folder (a file put there by hand is not seen, as by a run with
///   nothing changed; a full run lists the folder).
/// - **The plan's summary** (`plan`, a `PlanSummary`): each document's links and the definitions
///   written in it, so that a run after an edit reads, validates and plans only the documents the
///   edit reaches (`GenerationRun.incremental`). Its own section at the end, its length given
///   first, so a run that needs no plan skips it unread. Format 5 writes its `def` lines after every
///   `links` line, in the plan's order (format 4's, after each document's `links` line, is refused: a full run).
/// - **Text**: line-oriented and versioned (`firstLine`), read by `ManifestReader` in one pass
///   over its bytes; another version is no manifest (a full run writes the current one).
/// - **Never wrong output**: a missing, truncated, foreign or unreadable manifest is no manifest
///   (a full run); a file edited or removed by hand has another stamp (rendered again); the
///   manifest is removed before a run writes anything and written after its last file, so a run
///   that stops half way leaves none.
package struct GenerationManifest: Sendable, Equatable {
    /// The file name in each output folder.
    package static let fileName = ".baton-manifest"
    static let firstLine = "baton-gen-manifest 5"

    /// One generated file.
    package struct Entry: Sendable, Equatable {
        /// Relative to the output folder.
        package var path: String
        package var stamp: FileStamp
        /// `GeneratedFile.definition`, or `-` for schema types and the runtime.
        package var definition: String
        /// The definition's digest (hashes of the documents it is built from), or `-`.
        package var digest: String

        package init(path: String, stamp: FileStamp, definition: String, digest: String) {
            self.path = path
            self.stamp = stamp
            self.definition = definition
            self.digest = digest
        }
    }

    /// The digest of everything that invalidates the whole folder.
    package var inputs: String
    /// The digest of every top-level name in the plan.
    package var names: String
    /// Each document's SHA-256, by the path the plan's locations use (its display path).
    package var documents: [String: String] {
        // The lines read and the inputs' list say what the documents were: not what they are after a change.
        didSet { forgetDocumentLists() }
    }
    /// The stamps of the documents whose hash the next run may take without reading them
    /// (`GenerationInputs`), by display path.
    package var documentStamps: [String: FileStamp] = [:] {
        didSet { forgetDocumentLists() }
    }
    /// The SHA-256 of each project-wide file hashed whole into `inputs` (baton.json, the schema
    /// files), by absolute path, and (`projectFileStamps`) the stamps of those settled when hashed:
    /// the next run takes such a file's hash unread while its stamp stays the recorded one.
    package var projectFiles: [String: String] = [:]
    package var projectFileStamps: [String: FileStamp] = [:]
    /// Those read from bytes are kept as where their lines are in them (`ManifestFiles`).
    package var files: ManifestFiles
    /// Files outside the folder the run wrote for this project (the persisted-query manifest): absolute path and stamp.
    package var extras: [(path: String, stamp: FileStamp)] = []
    /// The plan's summary section (`PlanSummary.bytes`) as written, read only when asked
    /// (`planSummary`); nil when the run recorded none. A manifest read holds it as a slice of `source`
    /// (megabytes in a large project, not copied out).
    package var plan: ArraySlice<UInt8>?
    /// The bytes this manifest was read from (`ManifestReader`); empty for a manifest made in memory.
    /// Not part of its value (`==`): a manifest written after an edit copies the lines of its documents from
    /// the last one's (`bytes(reusing:)`), as it copies its kept files' (`ManifestFiles`).
    var source: [UInt8] = []
    /// Each `documents` line as read, in order: its path, hash, stamp and place in `source`. Both lists describe
    /// `documents` and `documentStamps` as they are: a change of either empties them (`forgetDocumentLists`).
    var documentLines: [(path: String, hash: String, stamp: FileStamp?, line: Range<Int>)] = []
    /// For a manifest made from a run's inputs (`recordManifests`): their `listed` documents, what `documents` and
    /// `documentStamps` hold, in order; empty otherwise. `bytes(reusing:)` walks it beside the last manifest's lines.
    var listed: [GenerationInputs.ListedDocument] = []

    private mutating func forgetDocumentLists() {
        if !documentLines.isEmpty { documentLines = [] }
        if !listed.isEmpty { listed = [] }
    }

    package init(
        inputs: String, names: String, documents: [String: String], documentStamps: [String: FileStamp] = [:],
        files: ManifestFiles, extras: [(path: String, stamp: FileStamp)] = [],
        projectFiles: [String: String] = [:], projectFileStamps: [String: FileStamp] = [:]
    ) {
        self.projectFiles = projectFiles
        self.projectFileStamps = projectFileStamps
        self.inputs = inputs
        self.names = names
        self.documents = documents
        self.documentStamps = documentStamps
        self.files = files
        self.extras = extras
    }

    package static func == (lhs: GenerationManifest, rhs: GenerationManifest) -> Bool {
        lhs.inputs == rhs.inputs && lhs.names == rhs.names && lhs.documents == rhs.documents
            && lhs.documentStamps == rhs.documentStamps && lhs.files == rhs.files
            && lhs.projectFiles == rhs.projectFiles && lhs.projectFileStamps == rhs.projectFileStamps
            && lhs.extras.map(\.path) == rhs.extras.map(\.path) && lhs.extras.map(\.stamp) == rhs.extras.map(\.stamp)
            && lhs.plan == rhs.plan
    }

    /// The hash and stamp recorded for the document at `path` (a display path): the `index`th document line's when
    /// it is that document's (a run lists its documents in the order they were recorded, unless some were added
    /// or removed), else looked up by path.
    func recordedDocument(_ path: String, at index: Int) -> (hash: String?, stamp: FileStamp?) {
        if index < documentLines.count, documentLines[index].path == path {
            return (documentLines[index].hash, documentLines[index].stamp)
        }
        return (documents[path], documentStamps[path])
    }

    /// The documents of `inputs` whose hash is not the recorded one (new ones included), and the recorded
    /// documents `inputs` lacks. Walked line beside line when both list the same paths in the same order (a run
    /// after an edit: no lookup by path), else looked up.
    func documentChanges(_ inputs: GenerationInputs) -> (changed: Set<String>, removed: Set<String>) {
        var changed: Set<String> = []
        if !inputs.listed.isEmpty, inputs.listed.count == documentLines.count, documentLines.count == documents.count {
            var aligned = true
            for index in documentLines.indices {
                guard inputs.listed[index].path == documentLines[index].path else {
                    aligned = false
                    break
                }
                if inputs.listed[index].hash != documentLines[index].hash { changed.insert(documentLines[index].path) }
            }
            if aligned { return (changed, []) }
            changed = []
        }
        for (path, hash) in inputs.documents where documents[path] != hash { changed.insert(path) }
        var removed: Set<String> = []
        for path in documents.keys where inputs.documents[path] == nil { removed.insert(path) }
        return (changed, removed)
    }

    /// The plan's summary, read from its section; nil when there is none or it is malformed.
    package var planSummary: PlanSummary? { plan.flatMap { PlanSummary(bytes: $0[...]) } }

    /// True when every file (and extra) is on disk as recorded; the files looked up on up to `workers` threads.
    package func filesAreIntact(root: String, workers: Int = 1) -> Bool {
        guard !files.areOnDisk(Array(files.indices), root: root, workers: workers).contains(false) else {
            return false
        }
        return extras.allSatisfy { FileStamp(of: $0.path) == $0.stamp }
    }

    // MARK: Text

    /// The manifest as written; nil when a path cannot be written on one line (such a project
    /// simply gets no manifest: every run is a full one).
    package var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    /// The manifest's bytes, written into one buffer (a large project's has tens of thousands of
    /// lines, and a run after one edit writes it again); nil as for `text`.
    package var bytes: [UInt8]? { bytes(reusing: nil) }

    /// The same, with each `files` entry that is a line read (`ManifestFiles.line(at:)`: this manifest's own,
    /// or `last`'s taken by `recordManifests`) copied: the line `bytes` would write, as it wrote it then.
    /// The documents' lines are taken in `previous`'s order when it lists the same documents (its
    /// order is the sorted one `bytes` writes: checked as they are taken), each copied when its
    /// hash and stamp are the same.
    func bytes(reusing last: GenerationManifest?) -> [UInt8]? {
        var out: [UInt8] = []
        var capacity = 160 * (files.count + documents.count) + (plan?.count ?? 0) + 256
        if let last, !last.source.isEmpty {
            // The last manifest's size with this plan's (a run after an edit changes a few lines), and a
            // margin: the buffer is not outgrown near its end, a second buffer of twice the size then
            // filled with a copy of the first (a large project's manifest is megabytes).
            capacity = max(
                capacity, last.source.count - (last.plan?.count ?? 0) + (plan?.count ?? 0) + last.source.count / 64)
        }
        out.reserveCapacity(capacity)
        func fits(_ text: String) -> Bool {
            !text.isEmpty && !text.utf8.contains(where: { $0 == UInt8(ascii: "\t") || $0 == 0x0A || $0 == 0x0D })
        }
        func put(_ text: String) { out.append(contentsOf: text.utf8) }
        func put(_ stamp: FileStamp?) {
            guard let stamp else { return out.append(UInt8(ascii: "-")) }
            stamp.write(to: &out)
        }
        func end(_ path: String) {
            out.append(UInt8(ascii: "\t"))
            put(path)
            out.append(0x0A)
        }
        put(Self.firstLine + "\ninputs " + inputs + "\nnames " + names + "\n")
        for (path, hash) in projectFiles.sorted(by: { $0.key < $1.key }) {
            guard fits(path) else { return nil }
            put("input " + hash + " ")
            put(projectFileStamps[path])
            end(path)
        }
        func putDocument(_ path: String, _ hash: String) {
            put("doc ")
            put(hash)
            out.append(UInt8(ascii: " "))
            put(documentStamps[path])
            end(path)
        }
        let documentsStart = out.count
        var documentsWritten = false
        if let last, !last.documentLines.isEmpty, last.documentLines.count == documents.count {
            documentsWritten = true
            var before: String?
            // This manifest's documents in the lines' order, when `listed` is: taken by place, not looked up.
            let aligned = listed.count == documents.count
            for (index, line) in last.documentLines.enumerated() {
                // The same paths (as many, each present, strictly in order) in the order `bytes` sorts them.
                let document: (hash: String?, stamp: FileStamp?) =
                    aligned && listed[index].path == line.path
                    ? (listed[index].hash, listed[index].stamp) : (documents[line.path], documentStamps[line.path])
                guard let hash = document.hash, before.map({ $0 < line.path }) ?? true else {
                    documentsWritten = false
                    break
                }
                before = line.path
                if hash == line.hash, document.stamp == line.stamp {
                    out.append(contentsOf: last.source[line.line])
                } else {
                    putDocument(line.path, hash)
                }
            }
            if !documentsWritten { out.removeSubrange(documentsStart...) }
        }
        if !documentsWritten {
            for path in documents.keys.sorted() {
                guard let hash = documents[path], fits(path) else { return nil }
                putDocument(path, hash)
            }
        }
        // Lines read are copied, a run of them (kept files in the order they were read) at once.
        var run: Range<Int>?
        func flush() {
            guard let copied = run else { return }
            out.append(contentsOf: files.source[copied])
            run = nil
        }
        for index in files.indices {
            if let line = files.lineRange(at: index) {
                if let pending = run, pending.upperBound == line.lowerBound {
                    run = pending.lowerBound..<line.upperBound
                } else {
                    flush()
                    run = line
                }
                continue
            }
            flush()
            let entry = files[index]
            guard fits(entry.path), fits(entry.definition), !entry.definition.utf8.contains(UInt8(ascii: " ")) else {
                return nil
            }
            put("file ")
            put(entry.stamp)
            out.append(UInt8(ascii: " "))
            put(entry.definition)
            out.append(UInt8(ascii: " "))
            put(entry.digest)
            end(entry.path)
        }
        flush()
        for extra in extras {
            guard fits(extra.path) else { return nil }
            put("extra ")
            put(extra.stamp)
            end(extra.path)
        }
        if let plan {
            put("plan \(plan.count)\n")
            out.append(contentsOf: plan)
        }
        put("end\n")
        return out
    }

    /// Parses a manifest's text; nil for anything that is not one, whole.
    package init?(text: String) { self.init(bytes: Array(text.utf8)) }

    /// Parses a manifest's bytes in one pass over them (`ManifestReader`: no line split, no
    /// `String` but for hashes and paths, numbers read from their digits; a run with nothing
    /// changed reads it first, and a large project's has tens of thousands of lines); nil for
    /// anything that is not one, whole: another version, a truncated or edited line.
    package init?(bytes: [UInt8]) {
        let read = bytes.withUnsafeBufferPointer { buffer in
            var reader = ManifestReader(bytes: buffer)
            return reader.manifest().map { ($0, reader.lines, reader.plan) }
        }
        guard let read else { return nil }
        var manifest = read.0
        manifest.source = bytes
        manifest.plan = read.2.map { bytes[$0] }
        manifest.files = ManifestFiles(source: bytes, lines: read.1)
        self = manifest
    }
    /// The manifest in `root`, or nil when there is none or it is not a whole one.
    package static func load(root: String) -> GenerationManifest? {
        guard case .success(let bytes) = FileSystem.readFile(root + "/" + fileName) else { return nil }
        return GenerationManifest(bytes: bytes)
    }

    /// Writes `bytes` over the manifest already in `root`, in place: no file is created or renamed,
    /// so the folder's modification time stays (a run with nothing changed that only records
    /// settled stamps must not look like a change to a build system watching the folder). A write
    /// cut short leaves a manifest that does not end in `end`, which reads as none (a full run).
    /// False when there is no manifest there or it cannot be written whole.
    @discardableResult
    static func rewriteInPlace(root: String, bytes: [UInt8]) -> Bool {
        FileSystem.overwriteInPlace(root + "/" + fileName, with: bytes)
    }

    /// Removes the manifest in `root` (before a run writes anything there). True when there is none afterwards.
    @discardableResult
    package static func remove(root: String) -> Bool {
        switch FileSystem.removeFile(root + "/" + fileName) {
        case .success: true
        case .failure(let error): error.isMissing
        }
    }
}

/// What identifies a file's content without reading it: its size, modification time, inode and
/// status-change time. (A writer replacing a file by renaming gives it a new inode; any write,
/// rename or `touch` sets the status-change time to the clock's, which no program can set back,
/// so a tool restoring modification times, an archive or a reproducible build's fixed epoch, is
/// still seen. What is left is an edit within the clock's resolution of the stamp being taken:
/// `GenerationInputs` trusts a document's stamp only when it was older than that.)
package struct FileStamp: Sendable, Equatable {
    package var size: Int64
    package var seconds: Int64
    package var nanoseconds: Int64
    package var inode: UInt64
    /// The status-change time (`st_ctim`).
    package var changeSeconds: Int64
    package var changeNanoseconds: Int64

    /// The stamp of the regular file at `path` (not following a final symbolic link), or nil.
    package init?(of path: String) {
        guard let stamp = path.withCString({ FileStamp(cPath: $0) }) else { return nil }
        self = stamp
    }

    /// The same, of a path already spelt as a C string.
    package init?(cPath path: UnsafePointer<CChar>) {
        self.init(status: FileSystem.status(ofCPath: path, followingLinks: false))
    }

    /// The stamp of what `status` (not following a final symbolic link) found, when it is a regular file.
    init?(status: FileSystem.Status?) {
        guard let status, status.kind == .file else { return nil }
        self.init(
            size: status.size, seconds: status.modifiedSeconds, nanoseconds: status.modifiedNanoseconds,
            inode: status.inode, changeSeconds: status.changedSeconds, changeNanoseconds: status.changedNanoseconds)
    }

    /// The same, of the path spelt by `path`'s UTF-8 bytes, looked up by `reader` (relative to its folder's
    /// open descriptor: many files of a few folders, one after another).
    init?(ofBytes path: UnsafeBufferPointer<UInt8>, reader: FileSystem.StatusReader) {
        self.init(status: reader.status(ofBytes: path, followingLinks: false))
    }

    /// The same, of `path`.
    init?(of path: String, reader: FileSystem.StatusReader) {
        var path = path
        guard let stamp = path.withUTF8({ FileStamp(ofBytes: $0, reader: reader) }) else { return nil }
        self = stamp
    }

    /// The stamps of files in one folder, asked one after another: one buffer holds `root/` and each
    /// relative path in turn, looked up relative to its folder's descriptor (`FileSystem.StatusReader`: a
    /// large project's output folder has tens of thousands of files, and a run checks each kept one).
    /// One per thread.
    package struct Folder {
        private var path: [UInt8]
        private let prefix: Int
        private let reader = FileSystem.StatusReader()

        package init(_ root: String) {
            path = Array((root + "/").utf8)
            prefix = path.count
        }

        /// The stamp of the regular file at `relative` (in the folder), as `FileStamp(of:)` gives it.
        package mutating func stamp(of relative: String) -> FileStamp? {
            var relative = relative
            return relative.withUTF8 { stamp(ofBytes: $0) }
        }

        /// The same, of a relative path given as its UTF-8 bytes (a manifest's line, in place).
        mutating func stamp(ofBytes relative: UnsafeBufferPointer<UInt8>) -> FileStamp? {
            path.removeLast(path.count - prefix)
            path.append(contentsOf: relative)
            return path.withUnsafeBufferPointer { FileStamp(ofBytes: $0, reader: reader) }
        }
    }

    /// A stamp from its fields (as `ManifestReader` reads them).
    package init(
        size: Int64, seconds: Int64, nanoseconds: Int64, inode: UInt64, changeSeconds: Int64, changeNanoseconds: Int64
    ) {
        self.size = size
        self.seconds = seconds
        self.nanoseconds = nanoseconds
        self.inode = inode
        self.changeSeconds = changeSeconds
        self.changeNanoseconds = changeNanoseconds
    }

    var text: String { "\(size) \(seconds) \(nanoseconds) \(inode) \(changeSeconds) \(changeNanoseconds)" }

    /// Appends `text`'s bytes to `out` (digits written directly: a manifest holds tens of thousands of stamps).
    func write(to out: inout [UInt8]) {
        Self.append(size, to: &out)
        out.append(UInt8(ascii: " "))
        Self.append(seconds, to: &out)
        out.append(UInt8(ascii: " "))
        Self.append(nanoseconds, to: &out)
        out.append(UInt8(ascii: " "))
        Self.append(inode, to: &out)
        out.append(UInt8(ascii: " "))
        Self.append(changeSeconds, to: &out)
        out.append(UInt8(ascii: " "))
        Self.append(changeNanoseconds, to: &out)
    }

    private static func append(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        append(value.magnitude, to: &out)
    }

    /// The decimal digits of `value`: least significant first, then turned around in place.
    private static func append(_ value: UInt64, to out: inout [UInt8]) {
        let start = out.count
        var rest = value
        repeat {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        var (low, high) = (start, out.count - 1)
        while low < high {
            out.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// True when the file's last change is at least `margin` seconds before `time` (seconds since
    /// 1970): an edit after the stamp was taken then changes the stamp.
    func isSettled(before time: Int64, margin: Int64 = 2) -> Bool {
        changeSeconds < time - margin && seconds < time - margin
    }
}
