import BatonConfig
import BatonFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a `LanguageServer` over two file descriptors (stdin and stdout for `baton lsp`).
///
/// Each read takes what has arrived; every whole frame in it is handled, in order, after the `$/cancelRequest`s
/// among them are noted (a request cancelled before it was handled gets `RequestCancelled`). When no byte is
/// waiting, the server applies its pending edits (`idle()`: validation first, then the plan), so a burst of changes
/// is validated once and a keystroke never waits for the last one's plan. The loop
/// ends at `exit` or when the input closes (status 1 without `shutdown`, as LSP says).
package enum StandardStreams {
    /// Serves until `exit` or the end of input; returns the process's exit status.
    package static func serve(
        input: Int32 = 0, output: Int32 = 1, workingDirectory: String
    ) -> Int32 {
        let planDelay = Self.planDelay
        let server = LanguageServer(workingDirectory: workingDirectory) { body in
            _ = FileSystem.write(FrameDecoder.encode(body), to: output)
        }
        var decoder = FrameDecoder()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // Pending work while nothing is waiting: the edits (validated, reported), then, after a quiet
            // `planDelay`, the plans; a message arriving first is read first (it may change the work again).
            if !waiting(input), server.idle(), !waiting(input, milliseconds: planDelay) {
                while !waiting(input), server.idle() {}
            }
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return server.state == .shuttingDown ? 0 : 1 }
            decoder.append(chunk[0..<count])
            var frames: [FrameDecoder.Frame] = []
            while let frame = decoder.next() { frames.append(frame) }
            let cancelled = Set(
                frames.compactMap { frame -> String? in
                    guard case .message(let body) = frame else { return nil }
                    return LanguageServer.cancelledID(in: body)
                })
            for frame in frames {
                switch frame {
                case .message(let body): server.handle(body, cancelled: cancelled)
                case .malformed(let reason): server.handleMalformedFrame(reason)
                }
                if let status = server.exitStatus { return status }
            }
        }
    }

    /// How long the editor must be quiet after an edit before the plans run (milliseconds): a keystroke's report
    /// comes from validation alone, and typing never waits for a plan.
    package static let planDelay: Int32 = 200

    /// Whether a byte can be read from `descriptor`, waiting up to `milliseconds` for one.
    private static func waiting(_ descriptor: Int32, milliseconds: Int32 = 0) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }
}
