import BatonFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches folders (with everything under them) and reports which paths changed, a batch at a time:
/// files created, written, deleted or renamed, and folders that appeared or went (a new folder is
/// watched at once, and its files reported).
///
/// The backend is the system's: inotify on Linux, kqueue on macOS and the BSDs, and polling (a
/// snapshot of every file's size, modification time and inode, compared every `pollInterval`)
/// where neither is available, when the system refuses (too many folders for inotify's limit, too
/// many files for kqueue's descriptors), or when asked (`BATON_WATCH_POLL=1`). No watchman.
///
/// A save is often several writes (an editor writes, renames, sets attributes; a tool appends in
/// pieces), so a batch ends only after `quiet` without further events: a half-written file is seen
/// whole, or seen again when its writer finishes.
package final class FileWatcher {
    package enum Backend: String, Sendable {
        case inotify, kqueue, polling
    }

    /// How this watcher learns of changes.
    package private(set) var backend: Backend
    private var folders: [String]
    private var ignored: [String]
    private let quiet: Int32
    private let pollInterval: Int32
    private var snapshot = Snapshot()
    #if os(Linux)
        private var inotify: Inotify?
    #elseif canImport(Darwin)
        private var kqueue: Kqueue?
    #endif

    /// Watches `folders` (absolute), never entering `ignored` ones (such as output folders) nor build
    /// and VCS folders. `quiet` and `pollInterval` are milliseconds.
    package init(
        folders: [String], ignoring ignored: [String] = [], forcePolling: Bool = false, quiet: Int32 = 40,
        pollInterval: Int32 = 250
    ) {
        self.folders = folders
        self.ignored = ignored
        self.quiet = quiet
        self.pollInterval = pollInterval
        backend = .polling
        if !forcePolling {
            #if os(Linux)
                if let inotify = Inotify(folders: folders, ignored: ignored) {
                    self.inotify = inotify
                    backend = .inotify
                }
            #elseif canImport(Darwin)
                if let kqueue = Kqueue(folders: folders, ignored: ignored) {
                    self.kqueue = kqueue
                    backend = .kqueue
                }
            #endif
        }
        if backend == .polling { snapshot = Snapshot(folders: folders, ignored: ignored) }
    }

    /// Watches other folders from now on (the project's patterns changed).
    package func update(folders: [String], ignoring ignored: [String]) {
        guard folders != self.folders || ignored != self.ignored else { return }
        self.folders = folders
        self.ignored = ignored
        switch backend {
        case .polling:
            snapshot = Snapshot(folders: folders, ignored: ignored)
        case .inotify:
            #if os(Linux)
                inotify?.update(folders: folders, ignored: ignored)
            #endif
        case .kqueue:
            #if canImport(Darwin)
                kqueue?.update(folders: folders, ignored: ignored)
            #endif
        }
    }

    /// Waits for the next batch of changes and returns the changed paths (absolute). Waits at most
    /// `timeout` milliseconds (-1: for ever); an empty set when nothing changed by then.
    package func nextChanges(timeout: Int32 = -1) -> Set<String> {
        var changed = wait(timeout)
        if changed.isEmpty { return [] }
        // The rest of the batch: until `quiet` passes without an event.
        while true {
            let more = wait(quiet)
            if more.isEmpty { return changed }
            changed.formUnion(more)
        }
    }

    /// One wait for events: what changed, or nothing after `timeout` milliseconds.
    private func wait(_ timeout: Int32) -> Set<String> {
        switch backend {
        case .inotify:
            #if os(Linux)
                if let inotify { return inotify.wait(timeout) }
            #endif
            return []
        case .kqueue:
            #if canImport(Darwin)
                if let kqueue { return kqueue.wait(timeout) }
            #endif
            return []
        case .polling:
            var waited: Int32 = 0
            while timeout < 0 || waited < timeout {
                let step = timeout < 0 ? pollInterval : min(pollInterval, timeout - waited)
                usleep(UInt32(step) * 1000)
                waited += step
                let next = Snapshot(folders: folders, ignored: ignored)
                let changed = snapshot.changes(to: next)
                snapshot = next
                if !changed.isEmpty { return changed }
            }
            return []
        }
    }
}

/// Every file and folder under some folders, with what tells a change: size, modification time,
/// inode (a rename over a file changes it).
struct Snapshot {
    struct Stamp: Equatable {
        var size: Int64
        var seconds: Int64
        var nanoseconds: Int64
        var inode: UInt64
        var isDirectory: Bool
    }

    var entries: [String: Stamp] = [:]

    init() {}

    init(folders: [String], ignored: [String]) {
        for folder in folders { scan(folder, ignored: ignored) }
    }

    /// Adds everything under `folder`.
    mutating func scan(_ folder: String, ignored: [String]) {
        var stack = [folder]
        while let directory = stack.popLast() {
            guard let stamp = Self.stamp(directory), stamp.isDirectory, entries[directory] == nil else { continue }
            entries[directory] = stamp
            guard case .success(let names) = FileSystem.contentsOfDirectory(directory) else { continue }
            for name in names {
                let path = directory == "/" ? "/" + name : directory + "/" + name
                guard let child = Self.stamp(path) else { continue }
                if child.isDirectory {
                    if Watching.skips(path, name: name, ignored: ignored) { continue }
                    stack.append(path)
                } else {
                    entries[path] = child
                }
            }
        }
    }

    /// Paths added, removed or changed between this snapshot and `next`.
    func changes(to next: Snapshot) -> Set<String> {
        var changed = Set<String>()
        for (path, stamp) in next.entries where entries[path] != stamp {
            // A folder's own time changes with its entries, which are reported themselves.
            if stamp.isDirectory, entries[path]?.isDirectory == true { continue }
            changed.insert(path)
        }
        for path in entries.keys where next.entries[path] == nil { changed.insert(path) }
        return changed
    }

    static func stamp(_ path: String) -> Stamp? {
        guard let status = FileSystem.status(of: path, followingLinks: true) else { return nil }
        return Stamp(
            size: status.size, seconds: status.modifiedSeconds, nanoseconds: status.modifiedNanoseconds,
            inode: status.inode, isDirectory: status.kind == .directory)
    }
}

/// What every backend skips.
enum Watching {
    /// A folder never entered: build and VCS folders, and the ignored (output) folders.
    static func skips(_ path: String, name: String, ignored: [String]) -> Bool {
        DirectoryWalker.skippedDirectoryNames.contains(name)
            || ignored.contains { Path.isInside(path, directory: $0) }
    }

    /// Every folder under `root` (itself included) that is watched.
    static func folders(under root: String, ignored: [String]) -> [String] {
        var found: [String] = []
        var stack = [root]
        var seen = Set<String>()
        while let folder = stack.popLast() {
            guard seen.insert(folder).inserted, FileSystem.kind(of: folder) == .directory else { continue }
            found.append(folder)
            guard case .success(let names) = FileSystem.contentsOfDirectory(folder) else { continue }
            for name in names {
                let path = folder == "/" ? "/" + name : folder + "/" + name
                if FileSystem.kind(of: path) == .directory, !skips(path, name: name, ignored: ignored) {
                    stack.append(path)
                }
            }
        }
        return found
    }
}
