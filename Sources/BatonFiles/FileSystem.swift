#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file-system calls Baton needs, on POSIX directly.
///
/// Foundation would do, but these calls report the operating system's reason for a failure
/// ("Permission denied", "Is a directory") that a diagnostic should carry, and they keep a
/// `baton check` process start cheap.
package enum FileSystem {
    /// What a path names.
    package enum Kind: Sendable, Equatable {
        case file
        case directory
        case other
    }

    /// A failure to read a path, with the system's reason.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var path: String
        package var reason: String
        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
        package var description: String { "\(path): \(reason)" }
    }

    /// The kind of the file at `path` (following symbolic links), or nil if it does not exist.
    package static func kind(of path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return kind(mode: info.st_mode)
    }

    private static func kind(mode: mode_t) -> Kind {
        switch mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .directory
        default: .other
        }
    }

    /// Device and inode of a directory, so a walk can notice a symbolic-link cycle.
    package static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Whether `path` exists.
    package static func exists(_ path: String) -> Bool { kind(of: path) != nil }

    /// The whole content of a regular file; with `followingLinks` false, a symbolic link at the path's end is
    /// refused (`O_NOFOLLOW`: "Too many levels of symbolic links").
    package static func readFile(_ path: String, followingLinks: Bool = true) -> Result<[UInt8], Failure> {
        // O_NONBLOCK: opening a named pipe must not wait for a writer (it is refused below).
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else { return .failure(Failure(path: path, reason: lastError())) }
        defer { _ = close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            if kind(mode: info.st_mode) == .directory {
                return .failure(Failure(path: path, reason: "Is a directory"))
            }
            // A pipe, socket or device could block forever or never end (/dev/zero).
            if info.st_mode & S_IFMT != S_IFREG {
                return .failure(Failure(path: path, reason: "Not a regular file"))
            }
        }
        // Read straight into the array's storage: one allocation of the file's size (plus one
        // byte, to see the end without a second buffer), no zero-filling, no copy. A file that
        // grows while it is read continues in a larger buffer.
        var capacity = info.st_size > 0 ? Int(info.st_size) + 1 : 4096
        var bytes: [UInt8] = []
        var failure: Failure?
        while failure == nil {
            var filled = 0
            var reachedEnd = false
            let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                while filled < capacity {
                    let count = read(descriptor, base + filled, capacity - filled)
                    if count < 0 {
                        if errno == EINTR { continue }
                        failure = Failure(path: path, reason: lastError())
                        break
                    }
                    if count == 0 {
                        reachedEnd = true
                        break
                    }
                    filled += count
                }
                initialized = filled
            }
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            if reachedEnd { break }
            capacity *= 2
        }
        if let failure { return .failure(failure) }
        return .success(bytes)
    }

    /// The entry names of a directory (without `.` and `..`), sorted by their UTF-8 bytes so
    /// every walk is deterministic.
    package static func contentsOfDirectory(_ path: String) -> Result<[String], Failure> {
        entries(of: path).map { $0.map(\.name) }
    }

    /// One entry of a directory: its name and, when the directory listing says (`d_type`),
    /// what it is; nil for a symbolic link or a file system that does not say, which the caller
    /// resolves with `kind(of:)`.
    package struct Entry: Sendable, Equatable {
        package var name: String
        package var kind: Kind?
    }

    /// The entries of a directory (without `.` and `..`), sorted by their names' UTF-8 bytes.
    /// Kinds come from the listing itself, so a walk needs no `stat` per file.
    package static func entries(of path: String) -> Result<[Entry], Failure> {
        switch listing(of: path) {
        case .failure(let error): return .failure(Failure(path: path, reason: error.description))
        case .success(let listed):
            var entries = listed.map { entry in
                Entry(
                    name: entry.name,
                    kind: entry.kind.flatMap { kind in
                        switch kind {
                        case .file: .file
                        case .directory: .directory
                        case .symbolicLink: nil
                        case .other: .other
                        }
                    })
            }
            Path.sortByBytes(&entries, name: \.name)
            return .success(entries)
        }
    }

    /// The entries of a directory (without `.` and `..`) in the order the system lists them, each with the kind
    /// the listing reports (`d_type`: a symbolic link as one), nil where it does not say (the caller asks
    /// `entryKind(of:)`).
    package static func listing(of path: String) -> Result<[ListedEntry], SystemError> {
        guard let directory = opendir(path) else { return .failure(.last) }
        defer { _ = closedir(directory) }
        var entries: [ListedEntry] = []
        // The name is read where it lies: a `dirent` can be shorter than its declared 256-byte `d_name` (glibc packs
        // entries), so copying `d_name` out would read past the entry (found by Fuzz/ `configuration`). The type
        // byte is read the same way, so the entry is never copied whole.
        guard let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name),
            let typeOffset = MemoryLayout<dirent>.offset(of: \dirent.d_type)
        else { return .success([]) }
        while let entry = readdir(directory) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name == "." || name == ".." { continue }
            let kind: EntryKind?
            switch Int32(UnsafeRawPointer(entry).load(fromByteOffset: typeOffset, as: UInt8.self)) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = nil
            default: kind = .other
            }
            entries.append(ListedEntry(name: name, kind: kind))
        }
        return .success(entries)
    }

    /// The process's working directory, or "/" if it cannot be read.
    package static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The running executable's path, symbolic links resolved (on Linux `/proc/self/exe`; elsewhere
    /// the path it was started by), or nil when it cannot be resolved.
    package static var executablePath: String? {
        #if os(Linux)
            let candidate = "/proc/self/exe"
        #else
            let candidate = CommandLine.arguments.first ?? ""
        #endif
        guard let resolved = realpath(candidate, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// An environment variable.
    package static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Whether a file descriptor is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Writes all of `bytes` to a file descriptor (stdout and stderr, a file); false when a write
    /// fails or makes no progress (`errno` says why).
    @discardableResult
    package static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        writeAll(bytes, to: descriptor) == nil
    }

    /// Writes all of `bytes` to a file descriptor, again after an interruption; the error when a write fails
    /// (`noProgress` when one writes nothing).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> SystemError? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            if written < 0 { return .last }
            if written == 0 { return .noProgress }
            offset += written
        }
        return nil
    }

    /// Creates the file at `path` with `bytes`, failing (with "File exists") when something is there
    /// already, whoever made it in the meantime: the bytes go to a temporary file beside it, which
    /// is then linked into place (`link` never replaces) and removed, so the file is never seen
    /// half-written and never overwritten.
    package static func createNew(_ path: String, _ bytes: [UInt8]) -> Result<Void, Failure> {
        let temporary = Path.directory(of: path) + "/." + Path.lastComponent(path) + ".baton-tmp-\(getpid())"
        var outcome = writeNew(bytes, to: temporary, synchronized: true)
        if case .success = outcome, link(temporary, path) != 0 { outcome = .failure(.last) }
        unlink(temporary)
        return outcome.mapError { Failure(path: path, reason: $0.description) }
    }

    private static func lastError() -> String { SystemError.last.description }
}

/// Device and inode numbers: the identity of a directory during a walk.
package struct FileIdentity: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
}

/// `write(2)`, named so it does not collide with `FileSystem.write`.
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return write(descriptor, buffer, count)
    #else
        return -1
    #endif
}
