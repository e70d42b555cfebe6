import BatonDiagnostics
import BatonFiles
import BatonIR

/// One file a generator produces: a path relative to the output folder and its full text.
///
/// The text is either held (`init(path:contents:)`) or rendered when it is asked for
/// (`init(path:origin:definition:render:)`): the writer renders each deferred file once, as it
/// writes it, so a run never holds every file's text at once.
package struct GeneratedFile: Sendable, Hashable {
    /// Relative to the output folder, `/`-separated, without `.` or `..` components.
    package var path: String
    /// The document the file's definition comes from (its display path), for a layout that groups
    /// definitions by document (a build plugin's one file per source); nil for schema types.
    package var origin: String?
    /// The definition the file spells, `o:` or `f:` and the definition's name in the documents
    /// (`o:Feed`, `f:Avatar`); nil for schema types and the runtime. An incremental run
    /// (`GenerationManifest`) keys what it may keep by it.
    package var definition: String?
    /// True for a file an incremental run keeps as it is on disk, not rendered again: `contents`
    /// is empty, the writer neither reads nor writes it and counts it unchanged (and never stale).
    package var kept = false
    private var source: Source

    /// Where the text comes from.
    private enum Source: Sendable {
        case bytes([UInt8])
        case deferred(@Sendable () -> [UInt8])
    }

    package init(path: String, contents: String, origin: String? = nil, definition: String? = nil) {
        self.path = path
        self.source = .bytes(Array(contents.utf8))
        self.origin = origin
        self.definition = definition
    }

    /// A file whose text is `bytes` (UTF-8).
    package init(path: String, bytes: [UInt8], origin: String? = nil, definition: String? = nil) {
        self.path = path
        self.source = .bytes(bytes)
        self.origin = origin
        self.definition = definition
    }

    /// A file whose UTF-8 text `render` makes each time it is asked for (`bytes`, `contents`).
    package init(
        path: String, origin: String? = nil, definition: String? = nil, render: @escaping @Sendable () -> [UInt8]
    ) {
        self.path = path
        self.source = .deferred(render)
        self.origin = origin
        self.definition = definition
    }

    /// The file at `path` for `definition`, kept as it is on disk.
    package static func kept(path: String, origin: String?, definition: String) -> GeneratedFile {
        var file = GeneratedFile(path: path, contents: "", origin: origin, definition: definition)
        file.kept = true
        return file
    }

    /// The whole text, beginning with a header that contains `FileWriter.headerMarker` (rendered
    /// on each call for a deferred file).
    package var contents: String {
        get { String(decoding: bytes, as: UTF8.self) }
        set { source = .bytes(Array(newValue.utf8)) }
    }

    /// The text's UTF-8 bytes (rendered on each call for a deferred file).
    package var bytes: [UInt8] {
        switch source {
        case .bytes(let bytes): bytes
        case .deferred(let render): render()
        }
    }

    /// True when the text is rendered on demand rather than held.
    package var isDeferred: Bool {
        if case .deferred = source { return true }
        return false
    }

    /// The same file with its text rendered and held.
    package var rendered: GeneratedFile {
        var file = self
        if isDeferred { file.source = .bytes(bytes) }
        return file
    }

    package static func == (lhs: GeneratedFile, rhs: GeneratedFile) -> Bool {
        lhs.path == rhs.path && lhs.origin == rhs.origin && lhs.definition == rhs.definition && lhs.kept == rhs.kept
            && lhs.bytes == rhs.bytes
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(definition)
        hasher.combine(bytes)
    }
}

/// What writing generated files did, or (in check mode) would do.
package struct FileWriteReport: Sendable, Equatable {
    /// What happens to one file.
    package enum Change: String, Sendable, Equatable {
        case create, update, remove
    }

    /// Changed files, sorted by path, relative to the output folder.
    package var changes: [(path: String, change: Change)]
    /// How many files already had the right content.
    package var unchanged: Int

    package init(changes: [(path: String, change: Change)], unchanged: Int) {
        self.changes = changes
        self.unchanged = unchanged
    }

    /// Whether anything was (or would be) written or removed.
    package var hasChanges: Bool { !changes.isEmpty }

    package static func == (lhs: FileWriteReport, rhs: FileWriteReport) -> Bool {
        lhs.unchanged == rhs.unchanged && lhs.changes.map(\.path) == rhs.changes.map(\.path)
            && lhs.changes.map(\.change) == rhs.changes.map(\.change)
    }
}

/// Why the writer refused or failed.
package enum FileWriterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A path that is absolute, contains `..`, `.` or empty components, a backslash or NUL, or lacks a managed extension.
    case invalidPath(String, reason: String)
    /// A path that would resolve outside the output folder (through a symbolic link).
    case pathEscapesOutput(String)
    /// Two files with the same path (or paths differing only in case).
    case duplicatePath(String)
    /// A generated file whose text does not start with the generated-file header.
    case missingHeader(String)
    /// Something in the way: a directory or symbolic link where a generated file goes.
    case notARegularFile(String)
    /// A file-system call failed.
    case io(path: String, message: String)

    package var description: String {
        switch self {
        case .invalidPath(let path, let reason): "refusing to write '\(path)': \(reason)"
        case .pathEscapesOutput(let path): "refusing to write '\(path)': it resolves outside the output folder"
        case .duplicatePath(let path): "two generated files have the path '\(path)' (or paths differing only in case)"
        case .missingHeader(let path): "internal error: generated file '\(path)' lacks the generated-file header"
        case .notARegularFile(let path): "'\(path)' exists and is not a regular file; not replacing it"
        case .io(let path, let message): "\(path): \(message)"
        }
    }
}

/// Writes generated files under one output folder, safely.
///
/// - Only under the folder: a relative path with `..`, `.`, empty components, a backslash or NUL, or an absolute
///   path is refused, and so is a path whose folder resolves (through symbolic links) outside the output folder.
/// - Atomically, all or none: each changed file is written into a hidden staging folder in the root as soon as
///   it is rendered; only when every file is staged are they renamed over the old ones. A folder that does not
///   exist yet is written whole beside it and renamed into place once (`writeNewFolder`).
/// - Only when changed: a file whose bytes are already right is not touched (its modification date stays,
///   so build systems do not recompile).
/// - Stale files removed, only ours: a file under the folder with a managed extension that was not generated
///   this time is removed only if it begins with the generated-file header. Hidden folders are not entered,
///   symbolic links never followed or removed.
/// - Check mode: nothing is written; the report lists what would change.
package struct FileWriter: Sendable {
    /// The text every generated file's first line begins with, and by which stale files are recognized.
    package static let headerMarker = "// @generated by Baton"

    /// The header line for generated files (no timestamp or version, so regeneration is byte-identical).
    package static let header = headerMarker + " from GraphQL documents. Do not edit; run `baton gen`."

    /// The output folder as given (absolute, or relative to the working directory).
    package let root: String
    /// File extensions (without the dot) this writer manages; stale-file removal considers only these.
    package let managedExtensions: Set<String>

    package init(root: String, managedExtensions: Set<String>) {
        var root = root.isEmpty ? "." : root
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        self.root = root
        self.managedExtensions = managedExtensions
    }

    /// Checks everything that could refuse `files` without rendering or reading any file's text:
    /// the paths, duplicates, the root, each file's place (a folder or link in the way, a folder
    /// resolving outside the root) and the stale files. `gen` runs it on every folder before it
    /// writes the first file; it creates nothing. Returns the stale files it found (sorted), which
    /// `write` takes as `stale` rather than list the folder a second time.
    ///
    /// `recorded`: the files the folder holds besides the kept ones, as the manifest of the run that
    /// wrote them lists them (`Compilation.recordedUnkept`). The stale files are then looked for among
    /// those only, and the folder is not listed: a run after one edit keeps tens of thousands of files
    /// and writes a few. A file put in the folder by hand since is not seen, as a run with nothing
    /// changed does not see it; a run without a manifest (a full one) and `gen --check` list the folder.
    @discardableResult
    package func preflight(_ files: [GeneratedFile], recorded: [String]? = nil) throws(FileWriterError) -> [String] {
        try validate(files)
        let rootType = fileType(root)
        if rootType != .missing, rootType != .directory, rootType != .symbolicLink { throw .notARegularFile(root) }
        guard rootType != .missing else { return [] }
        let realRoot = try realPath(root)
        var listing: FolderListing?
        // Listing a folder of tens of thousands of files costs more than a few `lstat`s: an
        // incremental run writing a handful of files asks about each.
        let listsRoot = Self.listsRoot(files)
        // Only the files to write are sorted: an incremental run keeps tens of thousands.
        let written = files.filter { !$0.kept }.sorted(by: { $0.path < $1.path })
        for file in written {
            guard let folder = try folder(for: file.path, realRoot: realRoot, create: false) else { continue }
            switch type(of: file.path, in: folder, realRoot: realRoot, listing: &listing, listsRoot: listsRoot) {
            case .missing, .regular: continue
            case .directory, .symbolicLink, .other: throw .notARegularFile(file.path)
            }
        }
        var stale: [String] = []
        if let recorded, let found = recordedStale(recorded, written: written, files: files) {
            stale = found
        } else {
            try collectStale(folder: "", generated: Set(files.map(\.path)), into: &stale, depth: 0)
        }
        return stale.sorted()
    }

    /// The stale files among `recorded` (relative paths): those no file of `files` has (`written`, the
    /// files not kept) that the walk (`collectStale`) would take for stale, reached through folders
    /// (not links) none of them hidden, with a managed extension and the header. Nil when a kept file
    /// has one of their paths (a manifest that does not describe the folder: the folder is listed).
    private func recordedStale(
        _ recorded: [String], written: [GeneratedFile], files: [GeneratedFile]
    ) -> [String]? {
        let writtenPaths = Set(written.map(\.path))
        var stale: [String] = []
        for path in recorded where !writtenPaths.contains(path) {
            guard let ext = fileExtension(of: path), managedExtensions.contains(ext) else { continue }
            let components = path.split(separator: "/", omittingEmptySubsequences: false)
            var full = root
            var reached = true
            for (index, component) in components.enumerated() {
                full += "/" + component
                let expected: FileType = index == components.count - 1 ? .regular : .directory
                guard !component.isEmpty, component.first != ".", fileType(full) == expected else {
                    reached = false
                    break
                }
            }
            if reached, hasHeader(full) { stale.append(path) }
        }
        guard !stale.isEmpty else { return stale }
        // Kept files are compared by length first: tens of thousands, and the stale ones are few.
        let lengths = Set(stale.map(\.utf8.count))
        let found = Set(stale)
        for file in files where file.kept && lengths.contains(file.path.utf8.count) && found.contains(file.path) {
            return nil
        }
        return stale
    }

    /// Writes `files` (or, with `check`, only reports) and removes stale generated files.
    ///
    /// Each file's text is rendered once (a deferred file's, on up to `workers` threads), compared
    /// with the file on disk and, when it differs, written into a staging folder in the root (made
    /// by the first such file, so a run that changes nothing creates nothing in the root) and let
    /// go; only when every file is staged are they renamed into place, so a failed write leaves
    /// the folder as it was and a run holds a few files' text at a time, not all of them. The
    /// staging folder is removed in every case, a rename that fails included.
    ///
    /// `preflighted`: `preflight` checked these files a moment ago (the paths are not validated again);
    /// `stale`: the stale files it found then, removed without listing the folder again (a folder of
    /// tens of thousands of files costs a run after one edit more to list than to write).
    package func write(
        _ files: [GeneratedFile], check: Bool = false, workers: Int = ParallelWork.processorCount,
        preflighted: Bool = false, stale known: [String]? = nil
    ) throws(FileWriterError) -> FileWriteReport {
        // Validate everything before touching the disk.
        if !preflighted { try validate(files) }

        let rootType = fileType(root)
        if rootType != .missing, rootType != .directory, rootType != .symbolicLink { throw .notARegularFile(root) }
        // A folder made by this run is written whole, beside where it goes, and renamed into place once.
        if !check, rootType == .missing, !files.contains(where: \.kept) {
            return try writeNewFolder(files, workers: workers)
        }
        if !check, rootType == .missing { try makeRoot() }
        let rootExists = fileType(root) != .missing
        let realRoot = rootExists ? try realPath(root) : nil

        var changes: [(path: String, change: FileWriteReport.Change)] = []
        var unchanged = 0
        var pending: [Pending] = []
        var listing: FolderListing?
        let listsRoot = Self.listsRoot(files)
        // Only the files to write are sorted (and looked at): an incremental run keeps tens of thousands.
        var toWrite: [GeneratedFile] = []
        for file in files {
            if file.kept { unchanged += 1 } else { toWrite.append(file) }
        }
        for file in toWrite.sorted(by: { $0.path < $1.path }) {
            guard let realRoot, let folder = try folder(for: file.path, realRoot: realRoot, create: !check) else {
                changes.append((file.path, .create))  // check mode, folder missing
                continue
            }
            let full = folder + "/" + lastComponent(of: file.path)
            switch type(of: file.path, in: folder, realRoot: realRoot, listing: &listing, listsRoot: listsRoot) {
            case .missing: pending.append(Pending(file: file, full: full, exists: false))
            case .regular: pending.append(Pending(file: file, full: full, exists: true))
            case .directory, .symbolicLink, .other: throw .notARegularFile(file.path)
            }
        }

        if let realRoot {
            // The staging folder is made by the first file that needs it: a run that changes
            // nothing creates nothing in the root (its modification time stays).
            let staging = check ? nil : try stagingFolder(in: realRoot)
            let items = pending
            let outcomes = ParallelWork.map(Array(items.indices), workers: workers, minimumItems: 16) { index in
                stage(items[index], as: staging.map { $0 + "/\(index)" }, in: staging, check: check)
            }
            if let failure = outcomes.lazy.compactMap(\.failure).first {
                if let staging { removeStaging(staging) }
                throw failure
            }
            var moveFailure: FileWriterError?
            for (item, outcome) in zip(pending, outcomes) {
                guard let change = outcome.change else {
                    unchanged += 1
                    continue
                }
                changes.append((item.file.path, change))
                guard let staged = outcome.staged else { continue }
                do {
                    try moveIntoPlace(staged, to: item.full, displayPath: item.file.path)
                } catch {
                    moveFailure = error
                    break
                }
            }
            // Whatever happened to the moves, nothing staged is left behind.
            if let staging, outcomes.contains(where: { $0.staged != nil }) { removeStaging(staging) }
            if let moveFailure { throw moveFailure }
        }

        if rootExists {
            var stale: [String] = []
            if let known {
                stale = known
            } else {
                try collectStale(folder: "", generated: Set(files.map(\.path)), into: &stale, depth: 0)
                stale.sort()
            }
            for path in stale {
                changes.append((path, .remove))
                guard !check else { continue }
                if case .failure(let error) = FileSystem.removeFile(root + "/" + path) {
                    throw .io(path: path, message: error.description)
                }
                removeEmptyFolders(from: parentFolder(of: path))
            }
        }
        changes.sort { $0.path < $1.path }
        return FileWriteReport(changes: changes, unchanged: unchanged)
    }

    /// Writes `files` into an output folder that does not exist yet: into a hidden folder beside it
    /// (`.<name>.baton-staging-<pid>`), each file at its own path there, then renames that folder into
    /// place, once. A file-system rename per file (and a look at what is in each file's way) is what
    /// made a cold run's kernel time; a new folder holds nothing in the way. All or nothing still: a
    /// failure (a file's header, a write, the rename: another process made the folder meanwhile)
    /// removes the hidden folder and leaves no output folder.
    private func writeNewFolder(_ files: [GeneratedFile], workers: Int) throws(FileWriterError) -> FileWriteReport {
        let parent = Path.directory(of: root)
        let name = Path.lastComponent(root)
        guard name != "..", name != "." else { throw .io(path: root, message: "not a folder name") }
        let sorted = files.sorted { $0.path < $1.path }
        // Every folder the files need, parents first; a file's path that is also a folder is refused.
        var folders: [String] = []
        var known: Set<String> = []
        for file in sorted {
            var folder = parentFolder(of: file.path)
            var missing: [String] = []
            while !folder.isEmpty, known.insert(folder).inserted {
                missing.append(folder)
                folder = parentFolder(of: folder)
            }
            folders += missing.reversed()
        }
        if let clash = sorted.first(where: { known.contains($0.path) }) { throw .notARegularFile(clash.path) }

        if fileType(parent) == .missing { try FileWriter(root: parent, managedExtensions: []).makeRoot() }
        let staging = parent + "/." + name + ".baton-staging-\(FileSystem.processIdentifier)"
        switch fileType(staging) {
        case .missing: break
        case .directory: removeTree(staging)  // left by an interrupted run with this process id
        case .regular, .symbolicLink, .other:
            throw .io(path: staging, message: FileSystem.SystemError.existing.description)
        }
        if case .failure(let error) = FileSystem.makeDirectory(staging) {
            // Named by the output folder the user configured, not the hidden folder beside it.
            throw .io(path: root, message: error.description)
        }
        for folder in folders {
            if case .failure(let error) = FileSystem.makeDirectory(staging + "/" + folder) {
                removeTree(staging)
                throw .io(path: folder, message: error.description)
            }
        }
        let failures = ParallelWork.map(Array(sorted.indices), workers: workers, minimumItems: 16) {
            index -> FileWriterError? in
            let file = sorted[index]
            let bytes = file.bytes
            guard bytes.starts(with: Self.headerMarker.utf8) else { return .missingHeader(file.path) }
            if case .failure(let error) = FileSystem.writeNew(bytes, to: staging + "/" + file.path) {
                return .io(path: file.path, message: error.description)
            }
            return nil
        }
        if let failure = failures.lazy.compactMap({ $0 }).first {
            removeTree(staging)
            throw failure
        }
        if case .failure(let error) = FileSystem.rename(staging, to: root) {
            removeTree(staging)
            throw .io(path: root, message: error.description)
        }
        return FileWriteReport(changes: sorted.map { ($0.path, .create) }, unchanged: 0)
    }

    /// Removes the folder `path` and everything in it, never following a symbolic link (it is one this
    /// writer made and filled).
    private func removeTree(_ path: String) {
        if case .success(let entries) = FileSystem.listing(of: path) {
            for entry in entries {
                let full = path + "/" + entry.name
                if (entry.kind ?? FileSystem.entryKind(of: full)) == .directory {
                    removeTree(full)
                } else {
                    FileSystem.removeFile(full)
                }
            }
        }
        FileSystem.removeEmptyDirectory(path)
    }

    /// A file the writer renders and compares: where it goes and whether something is there.
    private struct Pending: Sendable {
        var file: GeneratedFile
        /// The resolved path it goes to.
        var full: String
        var exists: Bool
    }

    /// What rendering and comparing one file found.
    private struct Outcome: Sendable {
        /// nil when the file on disk already has the text.
        var change: FileWriteReport.Change?
        /// Where the new text waits to be moved into place (nil in check mode).
        var staged: String?
        var failure: FileWriterError?
    }

    /// Renders `item`'s text, compares it with the file on disk and (unless `check`) writes it to `staged`,
    /// creating the staging folder `folder` when it is not there yet.
    private func stage(_ item: Pending, as staged: String?, in folder: String?, check: Bool) -> Outcome {
        let bytes = item.file.bytes
        guard bytes.starts(with: Self.headerMarker.utf8) else {
            return Outcome(failure: .missingHeader(item.file.path))
        }
        do {
            if item.exists, try sameBytes(item.full, bytes) { return Outcome() }
            let change: FileWriteReport.Change = item.exists ? .update : .create
            guard let staged else { return Outcome(change: change) }
            try writeNew(bytes, to: staged, displayPath: item.file.path, creating: folder)
            return Outcome(change: change, staged: staged)
        } catch {
            return Outcome(failure: error)
        }
    }

    /// Where this process stages files in the root, not created yet (one left by an interrupted run with the
    /// same process id is removed; anything else of that name is refused). Hidden, so it is never taken for
    /// stale or generated.
    private func stagingFolder(in realRoot: String) throws(FileWriterError) -> String {
        let staging = realRoot + "/.baton-staging-\(FileSystem.processIdentifier)"
        switch fileType(staging) {
        case .missing: break
        case .directory: removeStaging(staging)
        case .regular, .symbolicLink, .other:
            throw .io(path: staging, message: FileSystem.SystemError.existing.description)
        }
        return staging
    }

    /// Creates the staging folder (another thread may just have made it).
    private func makeStaging(_ staging: String) throws(FileWriterError) {
        guard case .failure(let error) = FileSystem.makeDirectory(staging, permissions: 0o700) else { return }
        if error.isExisting, fileType(staging) == .directory { return }
        throw .io(path: staging, message: error.description)
    }

    /// Removes the staging folder and whatever is left in it (it holds only files this writer staged).
    private func removeStaging(_ staging: String) {
        if case .success(let entries) = FileSystem.listing(of: staging) {
            for entry in entries { FileSystem.removeFile(staging + "/" + entry.name) }
        }
        FileSystem.removeEmptyDirectory(staging)
    }

    /// Renames a staged file over its destination; across file systems (a folder linked elsewhere in the
    /// root), writes its bytes there atomically instead.
    private func moveIntoPlace(_ staged: String, to full: String, displayPath: String) throws(FileWriterError) {
        guard case .failure(let error) = FileSystem.rename(staged, to: full) else { return }
        guard error.crossesDevices else { throw .io(path: displayPath, message: error.description) }
        try writeAtomically(try readFile(staged), to: full, displayPath: displayPath)
        FileSystem.removeFile(staged)
    }

    /// Every path valid, eager files with the header, no two paths alike (ignoring case).
    ///
    /// Kept files (`GeneratedFile.kept`) are where an earlier run wrote them together, their paths
    /// checked then, against each other too: each is compared only with the files written now (an
    /// incremental run keeps tens of thousands and writes a few).
    private func validate(_ files: [GeneratedFile]) throws(FileWriterError) {
        // Paths alike ignoring case: ASCII paths (nearly all) are compared by a hash of their
        // case-folded bytes, and only paths of one hash are compared whole; others as lowercased strings.
        var byHash: [Int: [Int]] = [:]
        var others: [String: Int] = [:]  // lowercased non-ASCII paths written now, and their files
        var keptOthers: Set<String> = []
        var keptCount = 0
        for (index, file) in files.enumerated() {
            if file.kept {
                keptCount += 1
                continue
            }
            try validate(file.path)
            // A deferred file's header is checked when it is rendered.
            guard file.isDeferred || file.bytes.starts(with: Self.headerMarker.utf8) else {
                throw .missingHeader(file.path)
            }
            guard let hash = Self.foldedHash(file.path) else {
                guard others.updateValue(index, forKey: file.path.lowercased()) == nil else {
                    throw .duplicatePath(file.path)
                }
                continue
            }
            if let earlier = byHash[hash], earlier.contains(where: { ByteHash.equalFolded(files[$0].path, file.path) })
            {
                throw .duplicatePath(file.path)
            }
            byHash[hash, default: []].append(index)
        }
        if keptCount > 0, !byHash.isEmpty || !others.isEmpty {
            let screen = KeptScreen(written: byHash.values.joined().map { files[$0].path })
            for index in files.indices where files[index].kept {
                let path = files[index].path
                guard screen.mayBeWritten(path) else { continue }
                guard let hash = Self.foldedHash(path) else {
                    let folded = path.lowercased()
                    if let written = others[folded] { throw .duplicatePath(files[max(written, index)].path) }
                    keptOthers.insert(folded)
                    continue
                }
                if let written = byHash[hash]?.first(where: { ByteHash.equalFolded(files[$0].path, path) }) {
                    throw .duplicatePath(files[max(written, index)].path)
                }
            }
        }
        // A non-ASCII path can still equal an ASCII one ignoring case (two kept files excepted).
        if !others.isEmpty || !keptOthers.isEmpty {
            for file in files where Self.foldedHash(file.path) != nil {
                let folded = file.path.lowercased()
                if others[folded] != nil || (!file.kept && keptOthers.contains(folded)) {
                    throw .duplicatePath(file.path)
                }
            }
        }
    }

    /// Which kept paths `validate` must look at: those with a byte above ASCII (compared as lowercased strings), and
    /// the ASCII ones that can equal a written ASCII path ignoring case, which then has their length and, each byte
    /// with 0x20 set (`A`–`Z` and `a`–`z` alike then), their first and last eight bytes. A run after one edit keeps
    /// tens of thousands of files and writes a few: most kept paths are screened out by these, not hashed.
    struct KeptScreen {
        /// By length, the written paths' first and last eight bytes, each with 0x20 set.
        private var ends: [[(head: UInt64, tail: UInt64)]] = []

        init(written: [String]) {
            for path in written {
                guard let key = FileWriter.withBytes(path, Self.key) else { continue }
                if ends.count <= key.count { ends += Array(repeating: [], count: key.count + 1 - ends.count) }
                ends[key.count].append((key.head, key.tail))
            }
        }

        func mayBeWritten(_ path: String) -> Bool {
            FileWriter.withBytes(path) { bytes in
                guard let key = Self.key(bytes) else { return true }
                guard key.count < ends.count else { return false }
                return ends[key.count].contains { $0.head == key.head && $0.tail == key.tail }
            }
        }

        /// An ASCII path's length and its first and last eight bytes with 0x20 set (fewer when it is shorter); nil
        /// for a path with another byte.
        private static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> (count: Int, head: UInt64, tail: UInt64)? {
            var any: UInt8 = 0
            for byte in bytes { any |= byte }
            guard any < 0x80 else { return nil }
            var head: UInt64 = 0
            var tail: UInt64 = 0
            let count = bytes.count
            for index in 0..<min(count, 8) {
                head = head << 8 | UInt64(bytes[index] | 0x20)
                tail = tail << 8 | UInt64(bytes[count - 1 - index] | 0x20)
            }
            return (count, head, tail)
        }
    }

    /// A hash of an ASCII path's bytes with `A`–`Z` folded to lower case (`ByteHash.folded`, then
    /// `Hasher` once: a path is only sorted into a bucket by it, and compared whole within one); nil for
    /// a path with other bytes. (Over the bytes in place: a run after one edit hashes every kept path, tens of
    /// thousands.)
    private static func foldedHash(_ path: String) -> Int? {
        guard let value = withBytes(path, { ByteHash.folded($0) }) else { return nil }
        var hasher = Hasher()
        hasher.combine(value)
        return hasher.finalize()
    }

    /// Writes one file named `name` directly in the root (or, with `check`, only reports), atomically and only
    /// when its content changed. For a generated file that cannot carry the header (a JSON manifest): it is
    /// never removed as stale, and only this one file is touched.
    package func writeFile(_ name: String, _ contents: String, check: Bool = false) throws(FileWriterError)
        -> FileWriteReport
    {
        try writeFile(name, bytes: Array(contents.utf8), check: check)
    }

    /// The same with the file's bytes (a large manifest is made as bytes: no text to convert).
    package func writeFile(_ name: String, bytes: [UInt8], check: Bool = false) throws(FileWriterError)
        -> FileWriteReport
    {
        if name.isEmpty || name.contains("/") || name == "." || name == ".." {
            throw .invalidPath(name, reason: "the name is not one file name")
        }
        let full = root + "/" + name
        let change: FileWriteReport.Change
        switch fileType(full) {
        case .missing: change = .create
        case .regular:
            if try readFile(full) == bytes { return FileWriteReport(changes: [], unchanged: 1) }
            change = .update
        case .directory, .symbolicLink, .other: throw .notARegularFile(name)
        }
        if !check {
            if fileType(root) == .missing { try makeRoot() }
            try writeAtomically(bytes, to: full, displayPath: name)
        }
        return FileWriteReport(changes: [(name, change)], unchanged: 0)
    }

    // MARK: Paths

    /// Checks one relative path, byte by byte (paths are compared as the file system sees them).
    private func validate(_ path: String) throws(FileWriterError) {
        if path.isEmpty { throw .invalidPath(path, reason: "the path is empty") }
        if path.utf8.first == Self.slash { throw .invalidPath(path, reason: "the path is absolute") }
        let problem: String? = Self.withBytes(path) { bytes in
            if bytes.contains(UInt8(ascii: "\\")) { return "the path contains a backslash" }
            if bytes.contains(0) { return "the path contains a NUL character" }
            var start = 0
            while true {
                var end = start
                while end < bytes.count, bytes[end] != Self.slash { end += 1 }
                let count = end - start
                let dots = count <= 2 && (start..<end).allSatisfy { bytes[$0] == Self.dot }
                if count == 2, dots { return "the path leaves the output folder ('..')" }
                if count == 0 || (count == 1 && dots) { return "the path has an empty or '.' component" }
                if count > 255 { return "a component is longer than 255 bytes" }
                guard end < bytes.count else { return nil }
                start = end + 1
            }
        }
        if let problem { throw .invalidPath(path, reason: problem) }
        guard let ext = fileExtension(of: path), managedExtensions.contains(ext) else {
            throw .invalidPath(path, reason: "the file does not end in a managed extension")
        }
    }

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")

    /// `body` over `text`'s UTF-8 bytes, without copying a native string.
    private static func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// The byte offset just after the last `/` of `path` (0 when there is none).
    private static func lastComponentStart(_ path: String) -> Int {
        withBytes(path) { bytes in
            var index = bytes.count
            while index > 0, bytes[index - 1] != slash { index -= 1 }
            return index
        }
    }

    /// What follows the last `.` of the last component, when that `.` does not begin it.
    private func fileExtension(of path: String) -> String? {
        let start = Self.lastComponentStart(path)
        let dot: Int? = Self.withBytes(path) { bytes in
            var index = bytes.count
            while index > start + 1 {
                index -= 1
                if bytes[index] == Self.dot { return index }
            }
            return nil
        }
        guard let dot else { return nil }
        return String(decoding: path.utf8.dropFirst(dot + 1), as: UTF8.self)
    }

    /// The path's last component (the whole path when it has no `/`, or ends in one).
    private func lastComponent(of path: String) -> String {
        let start = Self.lastComponentStart(path)
        if start == 0 { return path }
        if start == path.utf8.count { return String(path.split(separator: "/").last ?? Substring(path)) }
        return String(decoding: path.utf8.dropFirst(start), as: UTF8.self)
    }

    private func parentFolder(of path: String) -> String {
        let start = Self.lastComponentStart(path)
        guard start > 0 else { return "" }
        return String(decoding: path.utf8.prefix(start - 1), as: UTF8.self)
    }

    // MARK: File system

    enum FileType {
        case missing, regular, directory, symbolicLink, other

        init(_ kind: FileSystem.EntryKind) {
            switch kind {
            case .file: self = .regular
            case .directory: self = .directory
            case .symbolicLink: self = .symbolicLink
            case .other: self = .other
            }
        }
    }

    /// Whether to list the root once rather than ask about each file to write there: when more than a
    /// few files are written (a listing costs what some hundred `lstat`s cost in a large folder).
    private static func listsRoot(_ files: [GeneratedFile]) -> Bool {
        var written = 0
        for file in files where !file.kept {
            written += 1
            if written > 64 { return true }
        }
        return false
    }

    /// The type of the entry a file at `relativePath` goes to in `folder` (resolved): for a file
    /// directly in the root, from one listing of the root (made on first use; with `listsRoot` only,
    /// which a run writing a few files of a large folder leaves false) where it can say,
    /// else from `lstat`.
    private func type(
        of relativePath: String, in folder: String, realRoot: String, listing: inout FolderListing?,
        listsRoot: Bool = true
    ) -> FileType {
        let name = lastComponent(of: relativePath)
        guard listsRoot, folder == realRoot else { return fileType(folder + "/" + name) }
        if listing == nil { listing = FolderListing(realRoot) }
        return listing?.type(of: name) ?? fileType(folder + "/" + name)
    }

    private func fileType(_ path: String) -> FileType { FileSystem.entryKind(of: path).map(FileType.init) ?? .missing }

    private func realPath(_ path: String) throws(FileWriterError) -> String {
        switch FileSystem.resolvingLinks(path) {
        case .success(let resolved): return resolved
        case .failure(let error): throw .io(path: path, message: error.description)
        }
    }

    /// Creates the output folder and its missing parents.
    private func makeRoot() throws(FileWriterError) {
        var current = root.hasPrefix("/") ? "/" : ""
        for component in root.split(separator: "/") {
            current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
            if fileType(current) == .missing, case .failure(let error) = FileSystem.makeDirectory(current),
                !error.isExisting
            {
                throw .io(path: current, message: error.description)
            }
        }
    }

    /// The resolved folder that `relativePath`'s file goes in, created when `create` (one level at a time, each
    /// existing level resolved and checked to be inside the root before anything is created in it); nil when
    /// it does not exist and `create` is false.
    private func folder(for relativePath: String, realRoot: String, create: Bool) throws(FileWriterError) -> String? {
        if Self.lastComponentStart(relativePath) == 0 { return realRoot }  // directly in the root
        var current = realRoot
        for component in relativePath.split(separator: "/").dropLast() {
            let next = current + "/" + component
            switch fileType(next) {
            case .missing:
                guard create else { return nil }
                if case .failure(let error) = FileSystem.makeDirectory(next), !error.isExisting {
                    throw .io(path: relativePath, message: error.description)
                }
                current = next
            case .directory:
                current = next
            case .symbolicLink:
                let resolved = try realPath(next)
                guard resolved == realRoot || resolved.hasPrefix(realRoot + "/") else {
                    throw .pathEscapesOutput(relativePath)
                }
                guard fileType(resolved) == .directory else { throw .notARegularFile(relativePath) }
                current = resolved
            case .regular, .other:
                throw .notARegularFile(relativePath)
            }
        }
        return current
    }

    private func readFile(_ path: String) throws(FileWriterError) -> [UInt8] {
        switch FileSystem.readFile(path, followingLinks: false) {
        case .success(let bytes): return bytes
        case .failure(let failure): throw .io(path: path, message: failure.reason)
        }
    }

    /// Whether the file at `path` holds exactly `bytes` (its size is compared first, without reading).
    private func sameBytes(_ path: String, _ bytes: [UInt8]) throws(FileWriterError) -> Bool {
        switch FileSystem.size(of: path) {
        case .failure(let error): throw .io(path: path, message: error.description)
        case .success(let size): guard size == bytes.count else { return false }
        }
        return try readFile(path) == bytes
    }

    /// Whether the file begins with the generated-file header.
    private func hasHeader(_ path: String) -> Bool { FileSystem.begins(path, with: Self.headerMarkerBytes) }

    private static let headerMarkerBytes = Array(headerMarker.utf8)

    private func writeAtomically(_ bytes: [UInt8], to path: String, displayPath: String) throws(FileWriterError) {
        if case .failure(let error) = FileSystem.replace(path, with: bytes) {
            throw .io(path: displayPath, message: error.description)
        }
    }

    /// Writes `bytes` to a new file at `path` (one left over from an interrupted run with the same
    /// process id is replaced); on failure nothing is left there. With `folder` (the staging folder
    /// `path` is in), the folder is created when it is missing.
    private func writeNew(
        _ bytes: [UInt8], to path: String, displayPath: String, creating folder: String? = nil
    ) throws(FileWriterError) {
        var outcome = FileSystem.writeNew(bytes, to: path)
        if case .failure(let error) = outcome, error.isMissing, let folder {
            try makeStaging(folder)
            outcome = FileSystem.writeNew(bytes, to: path)
        }
        if case .failure(let error) = outcome { throw .io(path: displayPath, message: error.description) }
    }

    /// Collects, relative to the root, regular files with a managed extension that were not generated and bear
    /// the header, in no particular order (the callers sort them: sorting every entry of a folder of tens of
    /// thousands of files cost more than listing it). Does not enter hidden folders or follow symbolic links.
    private func collectStale(
        folder: String, generated: Set<String>, into stale: inout [String], depth: Int
    ) throws(FileWriterError) {
        guard depth < 64 else { return }
        let full = folder.isEmpty ? root : root + "/" + folder
        let entries: [(name: String, type: FileWriter.FileType?)]
        switch FolderListing.entries(of: full) {
        case .success(let listed): entries = listed
        case .failure(let error): throw .io(path: full, message: error.description)
        }
        for (name, type) in entries where !name.hasPrefix(".") {
            let relative = folder.isEmpty ? name : folder + "/" + name
            // A generated file is never stale: known without a look at the disk.
            if type == .regular, generated.contains(relative) { continue }
            let path = root + "/" + relative
            // The entry's own type, as `lstat` gives it; asked of `lstat` when the folder does not say.
            switch type ?? fileType(path) {
            case .directory:
                try collectStale(folder: relative, generated: generated, into: &stale, depth: depth + 1)
            case .regular:
                guard !generated.contains(relative), let ext = fileExtension(of: relative),
                    managedExtensions.contains(ext), hasHeader(path)
                else { continue }
                stale.append(relative)
            default:
                continue
            }
        }
    }

    /// Removes `folder` (relative) and its parents while they are empty, never the root.
    private func removeEmptyFolders(from folder: String) {
        var current = folder
        while !current.isEmpty {
            if !FileSystem.removeEmptyDirectory(root + "/" + current) { return }
            current = parentFolder(of: current)
        }
    }
}

/// The entries of one folder, read once (`readdir`, with the type each entry reports), so that a
/// writer asks the file system once per folder instead of once per file whether a file is there.
struct FolderListing {
    /// Each entry's type by exact name; nil where the folder does not report it.
    private var types: [String: FileWriter.FileType?] = [:]
    /// Every entry's name lower-cased, for file systems that match names ignoring case.
    private var folded: Set<String> = []

    /// False when the folder could not be read: every answer is then `lstat`'s.
    private var complete = true

    /// The listing of `path`.
    init(_ path: String) {
        let entries = try? Self.entries(of: path).get()
        self.init(entries: entries ?? [])
        complete = entries != nil
    }

    init(entries: [(name: String, type: FileWriter.FileType?)]) {
        types.reserveCapacity(entries.count)
        for (name, type) in entries {
            types[name] = type
            folded.insert(name.lowercased())
        }
    }

    /// The type of the entry `name`: `.missing` when no entry has the name, even ignoring case
    /// (ASCII names only: a file system may match others by a folding or normalization of its
    /// own); nil when only `lstat` can say (the folder could not be read or did not report the
    /// type, a name differs only in case, or `name` is not ASCII and not listed as it is).
    func type(of name: String) -> FileWriter.FileType? {
        guard complete else { return nil }
        if let found = types[name] { return found }
        guard name.utf8.allSatisfy({ $0 < 0x80 }), !folded.contains(name.lowercased()) else { return nil }
        return .missing
    }

    /// The entries of the folder at `path` but `.` and `..`, each with the type `readdir` reports
    /// (nil for an unknown one).
    static func entries(of path: String) -> Result<[(name: String, type: FileWriter.FileType?)], FileSystem.SystemError>
    {
        FileSystem.listing(of: path).map { listed in listed.map { ($0.name, $0.kind.map(FileWriter.FileType.init)) } }
    }
}
