import BatonConfig
import BatonFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An executable installed beside `baton` that does one command's work in a process of its own:
/// `baton-fetch-schema` keeps the HTTP stack (FoundationNetworking, libcurl and their dozens of
/// libraries) out of every other command's process (Docs/Performance.md, "check, fifth round").
///
/// Its output is copied into the command's streams, so a caller sees it as if the command had
/// written it; its exit status is the command's.
enum HelperProcess {
    /// The path of `name` in the folder of the running executable (symbolic links resolved), or nil
    /// when it is not there.
    static func locate(_ name: String) -> String? {
        guard let executable = FileSystem.executablePath, let slash = executable.lastIndex(of: "/") else { return nil }
        let path = String(executable[..<slash]) + "/" + name
        return access(path, X_OK) == 0 ? path : nil
    }

    /// Runs `path` with `arguments`, its standard output and error copied into `context`'s when it
    /// ends (whole, so no character is cut); the reason when it could not be started.
    static func run(_ path: String, _ arguments: [String], context: CommandContext) -> Result<Int32, SpawnError> {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { return .failure(SpawnError(errno)) }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0])
            close(outPipe[1])
            return .failure(SpawnError(errno))
        }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for descriptor in [outPipe[0], outPipe[1], errPipe[0], errPipe[1]] {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, nil, argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        defer {
            close(outPipe[0])
            close(errPipe[0])
        }
        guard spawned == 0 else { return .failure(SpawnError(spawned)) }
        copy(from: [(outPipe[0], context.standardOutput), (errPipe[0], context.standardError)])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return .failure(SpawnError(errno)) }
        }
        // Exited: its status; killed by a signal: 128 + the signal, as a shell says.
        let signal = status & 0x7f
        return .success(signal == 0 ? (status >> 8) & 0xff : 128 + signal)
    }

    /// Both pipes read until they close, whichever has something first, then written out.
    private static func copy(from sources: [(Int32, OutputStream)]) {
        var open = sources
        var received: [Int32: [UInt8]] = [:]
        defer {
            for (descriptor, stream) in sources {
                if let bytes = received[descriptor] { stream.write(String(decoding: bytes, as: UTF8.self)) }
            }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !open.isEmpty {
            var polled = open.map { pollfd(fd: $0.0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 else {
                if errno == EINTR { continue }
                return
            }
            var closed: Set<Int32> = []
            for entry in polled where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    received[entry.fd, default: []].append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    closed.insert(entry.fd)
                }
            }
            open.removeAll { closed.contains($0.0) }
        }
    }

    /// Why the helper did not start: the operating system's reason.
    struct SpawnError: Error, CustomStringConvertible {
        var code: Int32
        init(_ code: Int32) { self.code = code }
        var description: String { String(cString: strerror(code)) }
    }
}
