#if canImport(Darwin)
    import Darwin

    /// kqueue (macOS, the BSDs): a vnode event per folder (entries added, removed, renamed) and per
    /// file (written, extended, deleted, renamed, attributes). kqueue says which file or folder
    /// changed but not which entry, so a folder's event is resolved by comparing its snapshot. Every
    /// watched path holds a descriptor: the soft limit on open files is raised to the hard limit, and
    /// a tree larger than that is polled instead.
    final class Kqueue {
        private let queue: Int32
        private var descriptors: [String: Int32] = [:]
        private var paths: [Int32: String] = [:]
        private var snapshot = Snapshot()
        private var ignored: [String]
        private var roots: [String]

        init?(folders roots: [String], ignored: [String]) {
            queue = kqueue()
            self.ignored = ignored
            self.roots = roots
            guard queue >= 0 else { return nil }
            var limit = rlimit()
            if getrlimit(RLIMIT_NOFILE, &limit) == 0, limit.rlim_cur < limit.rlim_max {
                limit.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
                _ = setrlimit(RLIMIT_NOFILE, &limit)
            }
            snapshot = Snapshot(folders: roots, ignored: ignored)
            // A failed initializer of a class runs `deinit` once every property is set: it closes the
            // descriptors opened so far and the queue, so they are not closed here as well.
            for path in snapshot.entries.keys.sorted() where !watch(path) { return nil }
        }

        deinit {
            for descriptor in descriptors.values { close(descriptor) }
            if queue >= 0 { close(queue) }
        }

        func update(folders roots: [String], ignored: [String]) {
            self.roots = roots
            self.ignored = ignored
            _ = rescan()
        }

        private func watch(_ path: String) -> Bool {
            if descriptors[path] != nil { return true }
            let descriptor = open(path, O_EVTONLY)
            guard descriptor >= 0 else { return false }
            let flags =
                UInt32(NOTE_WRITE) | UInt32(NOTE_EXTEND) | UInt32(NOTE_DELETE) | UInt32(NOTE_RENAME)
                | UInt32(NOTE_ATTRIB)
            var change = kevent(
                ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                fflags: flags, data: 0, udata: nil)
            guard kevent(queue, &change, 1, nil, 0, nil) == 0 else {
                close(descriptor)
                return false
            }
            descriptors[path] = descriptor
            paths[descriptor] = path
            return true
        }

        private func unwatch(_ path: String) {
            guard let descriptor = descriptors[path] else { return }
            close(descriptor)
            descriptors[path] = nil
            paths[descriptor] = nil
        }

        /// A new snapshot: what changed since the last, with watches for what appeared.
        private func rescan() -> Set<String> {
            let next = Snapshot(folders: roots, ignored: ignored)
            let changed = snapshot.changes(to: next)
            for path in snapshot.entries.keys where next.entries[path] == nil { unwatch(path) }
            for path in next.entries.keys where snapshot.entries[path]?.inode != next.entries[path]?.inode {
                unwatch(path)
                _ = watch(path)
            }
            snapshot = next
            return changed
        }

        func wait(_ timeout: Int32) -> Set<String> {
            var events = [kevent](repeating: kevent(), count: 64)
            var time = timespec(tv_sec: Int(timeout / 1000), tv_nsec: Int(timeout % 1000) * 1_000_000)
            let count =
                timeout < 0
                ? kevent(queue, nil, 0, &events, Int32(events.count), nil)
                : kevent(queue, nil, 0, &events, Int32(events.count), &time)
            guard count > 0 else { return [] }
            // Which entry of a folder changed, and whether a file was replaced, the snapshot tells.
            return rescan()
        }
    }
#endif
