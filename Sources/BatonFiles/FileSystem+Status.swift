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
        return .success(
            Status(
                kind: kind, size: Int64(info.st_size), inode: UInt64(info.st_ino),
                modifiedSeconds: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec),
                changedSeconds: Int64(changed.tv_sec), changedNanoseconds: Int64(changed.tv_nsec)))
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
