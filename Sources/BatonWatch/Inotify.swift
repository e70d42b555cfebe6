import BatonFiles

#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// inotify (Linux): one watch per folder, since inotify does not recurse. A folder created (or
    /// moved in) is watched when its event arrives, and everything already in it is reported, so files
    /// written into a new folder before its watch existed are not lost. An overflowing queue reports
    /// every folder, which makes the session resolve its projects again.
    final class Inotify {
        private let descriptor: Int32
        private var folders: [Int32: String] = [:]
        private var watches: [String: Int32] = [:]
        private var ignored: [String]

        /// What a folder's watch listens for: contents written, files created, deleted, moved in or out,
        /// and the folder itself deleted or moved.
        private static let mask =
            UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
            | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
            | UInt32(IN_ATTRIB)

        /// nil when inotify is unavailable or refuses a watch (the system's limit on watches): the
        /// caller polls instead.
        init?(folders roots: [String], ignored: [String]) {
            descriptor = inotify_init1(Int32(IN_CLOEXEC))
            self.ignored = ignored
            guard descriptor >= 0 else { return nil }
            for root in roots {
                for folder in Watching.folders(under: root, ignored: ignored) where !watch(folder) {
                    close(descriptor)
                    return nil
                }
            }
        }

        deinit { close(descriptor) }

        func update(folders roots: [String], ignored: [String]) {
            self.ignored = ignored
            let wanted = Set(roots.flatMap { Watching.folders(under: $0, ignored: ignored) })
            for (folder, watch) in watches where !wanted.contains(folder) {
                inotify_rm_watch(descriptor, watch)
                watches[folder] = nil
                folders[watch] = nil
            }
            for folder in wanted where watches[folder] == nil { _ = watch(folder) }
        }

        @discardableResult
        private func watch(_ folder: String) -> Bool {
            let watch = inotify_add_watch(descriptor, folder, Self.mask)
            guard watch >= 0 else { return false }
            // The same folder under a new name (moved) keeps its watch.
            if let previous = folders[watch] { watches[previous] = nil }
            folders[watch] = folder
            watches[folder] = watch
            return true
        }

        /// Stops watching a folder that went away, and every folder under it.
        private func unwatch(_ folder: String) {
            for (path, watch) in watches where Path.isInside(path, directory: folder) {
                inotify_rm_watch(descriptor, watch)
                watches[path] = nil
                folders[watch] = nil
            }
        }

        /// Reads the events that arrive within `timeout` milliseconds (-1: waits for the first).
        func wait(_ timeout: Int32) -> Set<String> {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, timeout)
            guard ready > 0 else { return [] }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return [] }
            var changed = Set<String>()
            var offset = 0
            let header = 16  // int wd; uint32_t mask, cookie, len;
            while offset + header <= count {
                let (watchID, mask, length) = buffer.withUnsafeBytes { raw in
                    (
                        raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                        raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                        Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    )
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed.formUnion(watches.keys)
                    continue
                }
                guard let folder = folders[watchID] else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    // The folder is gone (deleted or moved away): its watch with it.
                    folders[watchID] = nil
                    watches[folder] = nil
                    changed.insert(folder)
                    continue
                }
                let name = String(decoding: nameBytes, as: UTF8.self)
                let path = name.isEmpty ? folder : folder + "/" + name
                changed.insert(path)
                let isFolder = mask & UInt32(IN_ISDIR) != 0
                if isFolder, mask & (UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)) != 0 { unwatch(path) }
                if isFolder, mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0,
                    !Watching.skips(path, name: name, ignored: ignored)
                {
                    // A new folder: watch it and everything in it, and report what is there already.
                    for inner in Watching.folders(under: path, ignored: ignored) where watches[inner] == nil {
                        self.watch(inner)
                    }
                    changed.formUnion(Snapshot(folders: [path], ignored: ignored).entries.keys)
                }
            }
            return changed
        }
    }
#endif
