import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bound loopback socket, for a port that nothing listens on.
struct Socket {
    let descriptor: Int32
    let port: Int

    /// Binds 127.0.0.1 on a free port (without listening).
    static func bindLoopback() -> Socket? {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else {
            closeDescriptor(descriptor)
            return nil
        }
        return Socket(descriptor: descriptor, port: Int(UInt16(bigEndian: address.sin_port)))
    }

    func close() { closeDescriptor(descriptor) }
}

/// Closes a file descriptor (the C library's `close`, which `Socket.close` and the test servers' own `close` hide).
func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(descriptor)
    #else
        _ = Darwin.close(descriptor)
    #endif
}
