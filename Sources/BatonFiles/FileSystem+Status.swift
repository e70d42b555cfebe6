#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// What `stat` says of a path that identifies its content without reading it: what it is, its size, inode,
    /// and its modification and status-change times (the manifest's stamps, the polling watcher's snapshots).
    package struct Status: Sendable, Equatable {
        package var kind: EntryKind
        package var size: Int64
        package var inode: UInt64
        package var modifiedSeconds: Int64
        package var modifiedNanoseconds: Int64
        /// The status-change time (`st_ctim`): any write, rename or `touch` sets it to the clock's.
        package var changedSeconds: Int64
        package var changedNanoseconds: Int64
    }

    /// The status of `path`, a symbolic link at its end followed or not; nil when nothing is there.
    package static func status(of path: String, followingLinks: Bool) -> Status? {
        try? path.withCString { statusOrError(ofCPath: $0, followingLinks: followingLinks) }.get()
    }

    /// The same, of a path already spelt as a C string (a manifest's tens of thousands of paths).
    package static func status(ofCPath path: UnsafePointer<CChar>, followingLinks: Bool) -> Status? {
        try? statusOrError(ofCPath: path, followingLinks: followingLinks).get()
    }

    /// The status of `path`, or the system's reason it has none ("No such file or directory").
    package static func statusOrError(of path: String, followingLinks: Bool) -> Result<Status, SystemError> {
        path.withCString { statusOrError(ofCPath: $0, followingLinks: followingLinks) }
    }

    private static func statusOrError(ofCPath path: UnsafePointer<CChar>, followingLinks: Bool) -> Result<
        Status, SystemError
    > {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return .failure(.last) }
        return .success(status(info))
    }

    /// What `stat` filled in, as a `Status`.
    private static func status(_ info: stat) -> Status {
        let kind: EntryKind =
            switch info.st_mode & S_IFMT {
            case S_IFREG: .file
            case S_IFDIR: .directory
            case S_IFLNK: .symbolicLink
            default: .other
            }
        #if canImport(Darwin)
            let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        return Status(
            kind: kind, size: Int64(info.st_size), inode: UInt64(info.st_ino),
            modifiedSeconds: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec),
            changedSeconds: Int64(changed.tv_sec), changedNanoseconds: Int64(changed.tv_nsec))
    }

    /// Takes the status of many paths one after another, each relative to its folder's open descriptor
    /// (`fstatat` of the last component): the kernel looks a path up component by component, and a large
    /// project's tens of thousands of documents and generated files share a few folders, so each `stat` walks
    /// one component instead of the whole path. The last folder asked stays open until another is asked or
    /// the reader is released; a folder that cannot be opened (no read permission) is looked up by whole
    /// paths, as `status(of:)` does. The answer is always `status(of:followingLinks:)`'s. One reader per thread.
    package final class StatusReader {
        /// The folder part (the bytes before the last `/`) of the last path asked, and its descriptor (-1 when
        /// it could not be opened).
        private var folder: [UInt8] = []
        private var descriptor: Int32 = -1
        private var hasFolder = false
        /// The path asked, spelt as a C string (the folder, a NUL in place of its last `/`, the name, a NUL).
        private var buffer: [UInt8] = []

        package init() {}

        deinit { if descriptor >= 0 { close(descriptor) } }

        /// The status of the path spelt by `path`'s UTF-8 bytes (absolute, or relative to the working
        /// directory), as `FileSystem.status(of:followingLinks:)` gives it.
        package func status(ofBytes path: UnsafeBufferPointer<UInt8>, followingLinks: Bool) -> Status? {
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: path)
            buffer.append(0)
            // A path in the root folder, or with no folder, is looked up whole.
            guard let slash = path.lastIndex(of: UInt8(ascii: "/")), slash > 0, slash + 1 < path.count else {
                return whole(followingLinks: followingLinks)
            }
            let sameFolder =
                hasFolder && folder.count == slash
                && folder.withUnsafeBufferPointer { known in
                    guard let a = known.baseAddress, let b = path.baseAddress else { return true }
                    return memcmp(a, b, slash) == 0
                }
            if !sameFolder { open(folderOf: path, slash: slash) }
            guard descriptor >= 0 else { return whole(followingLinks: followingLinks) }
            var info = stat()
            let found = buffer.withUnsafeBufferPointer { bytes -> Bool in
                guard let base = bytes.baseAddress else { return false }
                return (base + slash + 1).withMemoryRebound(to: CChar.self, capacity: bytes.count - slash - 1) {
                    fstatat(descriptor, $0, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0
                }
            }
            return found ? FileSystem.status(info) : nil
        }

        /// Opens the folder of `path` (its bytes before `slash`) in place of the last one.
        private func open(folderOf path: UnsafeBufferPointer<UInt8>, slash: Int) {
            if descriptor >= 0 { close(descriptor) }
            folder.removeAll(keepingCapacity: true)
            folder.append(contentsOf: UnsafeBufferPointer(rebasing: path[..<slash]))
            hasFolder = true
            buffer[slash] = 0
            descriptor = buffer.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return -1 }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { openFolder($0) }
            }
            buffer[slash] = UInt8(ascii: "/")
        }

        /// The status of the path in `buffer`, looked up whole.
        private func whole(followingLinks: Bool) -> Status? {
            buffer.withUnsafeBufferPointer { bytes in
                bytes.baseAddress.flatMap { base in
                    base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        FileSystem.status(ofCPath: $0, followingLinks: followingLinks)
                    }
                }
            }
        }
    }

    /// Writes `bytes` over the regular file at `path` in place (truncated first; no file created or renamed, so
    /// its folder's modification time stays). False when there is no regular file there or it cannot be written
    /// whole.
    package static func overwriteInPlace(_ path: String, with bytes: [UInt8]) -> Bool {
        guard entryKind(of: path) == .file else { return false }
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(bytes, to: descriptor)
    }
}

/// Opens a folder to look names up in (`StatusReader`), named so it does not collide with the reader's `open`.
private func openFolder(_ path: UnsafePointer<CChar>) -> Int32 {
    open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
}
