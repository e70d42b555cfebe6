#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calls a writer makes (the generated files' `FileWriter`, `baton init`'s `createNew`, the Kotlin runtime's
/// reader): one place for the C library's file calls, each answering with the system's reason on failure.
extension FileSystem {
    /// What a path names, not following a symbolic link at its end (`lstat`).
    package enum EntryKind: Sendable, Equatable {
        case file
        case directory
        case symbolicLink
        case other
    }

    /// One entry of a directory listing, with the kind the listing reports (nil where it does not say).
    package struct ListedEntry: Sendable, Equatable {
        package var name: String
        package var kind: EntryKind?
        package init(name: String, kind: EntryKind?) {
            self.name = name
            self.kind = kind
        }
    }

    /// A failed call's `errno` and the system's text for it ("Permission denied").
    package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
        package var code: Int32
        package var description: String

        package init(code: Int32, description: String) {
            self.code = code
            self.description = description
        }

        /// The error `code` stands for, with the system's text.
        package init(code: Int32) {
            self.code = code
            self.description = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        }

        /// The error of the call that just failed.
        package static var last: SystemError { SystemError(code: errno) }

        /// "File exists" (`EEXIST`).
        package static var existing: SystemError { SystemError(code: EEXIST) }

        /// A write that returned without writing anything (no `errno` to report).
        package static let noProgress = SystemError(code: 0, description: "the write made no progress")

        /// Nothing at the path, or a folder on the way missing (`ENOENT`).
        package var isMissing: Bool { code == ENOENT }
        /// Something is at the path already (`EEXIST`).
        package var isExisting: Bool { code == EEXIST }
        /// A rename across file systems (`EXDEV`).
        package var crossesDevices: Bool { code == EXDEV }
    }

    /// This process's id, for names of temporary files no other process picks.
    package static var processIdentifier: Int32 { getpid() }

    /// The kind of what `path` names, a symbolic link at its end not followed; nil when nothing is there.
    package static func entryKind(of path: String) -> EntryKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The size in bytes of what `path` names, a symbolic link at its end not followed.
    package static func size(of path: String) -> Result<Int, SystemError> {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .failure(.last) }
        return .success(Int(info.st_size))
    }

    /// `path` with every symbolic link resolved (`realpath`): it must exist.
    package static func resolvingLinks(_ path: String) -> Result<String, SystemError> {
        guard let resolved = realpath(path, nil) else { return .failure(.last) }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// Creates one folder (its parent must exist).
    package static func makeDirectory(_ path: String, permissions: UInt16 = 0o755) -> Result<Void, SystemError> {
        mkdir(path, mode_t(permissions)) == 0 ? .success(()) : .failure(.last)
    }

    /// Removes a file (or a symbolic link).
    @discardableResult
    package static func removeFile(_ path: String) -> Result<Void, SystemError> {
        unlink(path) == 0 ? .success(()) : .failure(.last)
    }

    /// Removes a folder when it is empty; false otherwise.
    @discardableResult
    package static func removeEmptyDirectory(_ path: String) -> Bool { rmdir(path) == 0 }

    /// Renames `source` over `destination` (atomic within one file system; `crossesDevices` otherwise).
    package static func rename(_ source: String, to destination: String) -> Result<Void, SystemError> {
        systemRename(source, destination) == 0 ? .success(()) : .failure(.last)
    }

    /// Whether the regular file at `path` (not through a symbolic link) begins with `prefix`.
    package static func begins(_ path: String, with prefix: [UInt8]) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: prefix.count)
        var filled = 0
        while filled < prefix.count {
            let count = head.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, prefix.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            filled += count
        }
        return head == prefix
    }

    /// A file's text when it is UTF-8 (a byte order mark at its start left out, as Foundation's
    /// `String(data:encoding:)` leaves it); nil when it cannot be read or is not UTF-8.
    package static func utf8Text(of path: String) -> String? {
        guard case .success(let bytes) = readFile(path) else { return nil }
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        // Decoding repairs what is not UTF-8 (macOS 13 has no `String(validating:)`): a repaired text differs.
        let text = String(decoding: content, as: UTF8.self)
        // Compared as memory, not byte by byte through `String.UTF8View` (about 40 instructions a byte: the
        // Kotlin runtime's 368 KB, read by every `check` of a project that generates Kotlin, took 15 M).
        let same = content.withUnsafeBytes { original in
            text.utf8.withContiguousStorageIfAvailable { decoded in
                guard decoded.count == original.count else { return false }
                guard let first = decoded.baseAddress, let second = original.baseAddress else { return true }  // both empty
                return memcmp(first, second, decoded.count) == 0
            }
        }
        return (same ?? text.utf8.elementsEqual(content)) ? text : nil
    }

    /// Writes `bytes` to a new file at `path`, never through a symbolic link (one left at `path` by an interrupted
    /// run is replaced); on failure nothing is left there. With `synchronized`, the bytes reach the disk before
    /// it returns (`fsync`).
    package static func writeNew(_ bytes: [UInt8], to path: String, synchronized: Bool = false) -> Result<
        Void, SystemError
    > {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        var descriptor = open(path, flags, 0o644)
        if descriptor < 0, errno == EEXIST {
            unlink(path)
            descriptor = open(path, flags, 0o644)
        }
        guard descriptor >= 0 else { return .failure(.last) }
        var failure = writeAll(bytes, to: descriptor)
        if failure == nil, synchronized, fsync(descriptor) != 0 { failure = .last }
        if close(descriptor) != 0, failure == nil { failure = .last }
        if let failure {
            unlink(path)
            return .failure(failure)
        }
        return .success(())
    }

    /// Replaces (or creates) the file at `path` with `bytes` atomically: they go to a temporary file beside it,
    /// which is renamed over it, so the file is never seen half-written; on failure nothing is left behind.
    package static func replace(_ path: String, with bytes: [UInt8]) -> Result<Void, SystemError> {
        let temporary = Path.directory(of: path) + "/." + Path.lastComponent(path) + ".baton-tmp-\(getpid())"
        if case .failure(let error) = writeNew(bytes, to: temporary) { return .failure(error) }
        if systemRename(temporary, path) != 0 {
            let error = SystemError.last
            unlink(temporary)
            return .failure(error)
        }
        return .success(())
    }
}

/// `rename(2)`, named so it does not collide with `FileSystem.rename`.
private func systemRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
