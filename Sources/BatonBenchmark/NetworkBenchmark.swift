import Baton
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The network benchmark against the test server (`Tests/Server/server.py`, started here): small queries per
/// second and the latency Baton adds over a raw keep-alive socket sending the same bytes, one request at a time
/// and from 8 concurrent clients; then a 10 MB response (the server replays it from memory, `X-Baton-Fault:
/// cache`) read through a raw socket, through `HTTPTransport`, and fetched and committed by an environment.
/// Figures go in Docs/Performance.md under "## Network".
func runNetworkBenchmark() {
    print("## Network")
    #if canImport(Glibc)
        guard let server = BenchmarkServer.start() else { return }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/graphql")!
        let small = GraphQLRequest(SmallCharacterQuery(id: "7"))
        let smallBody = small.body
        let count = 2000

        // One client, one request at a time.
        let raw = RawHTTPClient(port: server.port)
        for _ in 0..<100 { _ = raw?.post(smallBody) }
        let rawTime = time { for _ in 0..<count { _ = raw?.post(smallBody) } }
        let transport = HTTPTransport(url: url)
        let environment = BatonEnvironment(transport: transport, retryPolicy: .never)
        blocking { for _ in 0..<100 { _ = try? await transport.send(small) } }
        let transportTime = time { blocking { for _ in 0..<count { _ = try? await transport.send(small) } } }
        let fetchTime = time {
            blocking { for _ in 0..<count { _ = try? await environment.fetch(SmallCharacterQuery(id: "7")) } }
        }
        print(
            String(
                format:
                    "small query, sequential, %d requests: raw socket %.0f/s (%.0f µs each), HTTPTransport %.0f/s (%.0f µs, +%.0f µs), fetch+commit+read %.0f/s (%.0f µs, +%.0f µs)",
                count, Double(count) / rawTime, rawTime / Double(count) * 1e6, Double(count) / transportTime,
                transportTime / Double(count) * 1e6, (transportTime - rawTime) / Double(count) * 1e6,
                Double(count) / fetchTime, fetchTime / Double(count) * 1e6, (fetchTime - rawTime) / Double(count) * 1e6)
        )

        // Eight clients at once.
        let clients = (0..<8).compactMap { _ in RawHTTPClient(port: server.port) }
        let rawConcurrent = time {
            DispatchQueue.concurrentPerform(iterations: clients.count) { index in
                for _ in 0..<(count / 8) { _ = clients[index].post(smallBody) }
            }
        }
        let transportConcurrent = time {
            blocking {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<8 {
                        group.addTask { for _ in 0..<(count / 8) { _ = try? await transport.send(small) } }
                    }
                }
            }
        }
        print(
            String(
                format:
                    "small query, 8 concurrent clients, %d requests: raw socket %.0f/s, HTTPTransport %.0f/s (%.2fx the raw rate)",
                count, Double(count) / rawConcurrent, Double(count) / transportConcurrent,
                rawConcurrent / transportConcurrent))

        // The same shape at a tenth of the size: commit time should grow linearly.
        let tenth = LargePageQuery(first: 4_500)
        let tenthTransport = HTTPTransport(url: url, headers: ["X-Baton-Fault": "cache"], timeout: 120)
        let tenthBytes = blockingValue { (try? await tenthTransport.send(GraphQLRequest(tenth))) ?? Data() } ?? Data()
        var tenthCommit = Double.infinity
        for _ in 0..<5 {
            let store = Store()
            tenthCommit = min(tenthCommit, time { _ = try? store.commit(bytes: tenthBytes, for: tenth) })
        }
        print(
            String(
                format: "%.2f MB response (%d characters): commit alone %.0f ms (%.0f MB/s)",
                Double(tenthBytes.count) / 1_048_576, tenth.first, tenthCommit * 1e3,
                Double(tenthBytes.count) / 1_048_576 / tenthCommit))

        // URLSession's own async `data(for:)`, beside HTTPTransport's delegate-based exchange.
        let plain = time {
            blocking {
                for _ in 0..<count { _ = try? await URLSession.shared.data(for: transport.urlRequest(for: small)) }
            }
        }
        print(
            String(
                format: "small query, sequential: URLSession.shared.data(for:) alone %.0f/s (%.0f µs each)",
                Double(count) / plain, plain / Double(count) * 1e6))

        // A 10 MB response.
        let page = LargePageQuery(first: 45_000)
        let large = GraphQLRequest(page)
        let cachedTransport = HTTPTransport(url: url, headers: ["X-Baton-Fault": "cache"], timeout: 120)
        let largeEnvironment = BatonEnvironment(transport: cachedTransport, retryPolicy: .never)
        let bytes = blockingValue { (try? await cachedTransport.send(large)) ?? Data() } ?? Data()  // rendered once, kept
        guard bytes.count > 1_000_000 else {
            print("large response: the server did not answer (\(bytes.count) bytes)")
            return
        }
        let megabytes = Double(bytes.count) / 1_048_576
        var best = (raw: Double.infinity, transport: Double.infinity, fetch: Double.infinity, commit: Double.infinity)
        let largeBody = large.body
        for _ in 0..<5 {
            best.raw = min(best.raw, time { _ = raw?.post(largeBody, headers: "X-Baton-Fault: cache\r\n") })
            best.transport = min(best.transport, time { blocking { _ = try? await cachedTransport.send(large) } })
            best.fetch = min(
                best.fetch,
                time {
                    blocking {
                        largeEnvironment.store.clear()
                        _ = try? await largeEnvironment.fetch(page)
                    }
                })
            let store = Store()
            best.commit = min(best.commit, time { _ = try? store.commit(bytes: bytes, for: page) })
        }
        print(
            String(
                format:
                    "%.1f MB response (%d characters), best of 5: raw socket %.0f ms (%.0f MB/s), HTTPTransport %.0f ms (%.0f MB/s), commit alone %.0f ms (%.0f MB/s), fetch (read + commit + read) %.0f ms (%.0f MB/s)",
                megabytes, page.first, best.raw * 1e3, megabytes / best.raw, best.transport * 1e3,
                megabytes / best.transport, best.commit * 1e3, megabytes / best.commit, best.fetch * 1e3,
                megabytes / best.fetch))
    #else
        print("network: the benchmark runs on Linux (its raw-socket baseline uses Glibc)")
    #endif
}

/// Wall-clock seconds of `body`.
private func time(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The value of async work, from synchronous benchmark code.
private func blockingValue<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value? {
    let box = BlockingBox<Value>()
    blocking { box.value = await work() }
    return box.value
}

/// The result slot of `blockingValue` (written by the task before the semaphore, read after it).
private final class BlockingBox<Value>: @unchecked Sendable {
    var value: Value?
}

/// Runs async work to the end from synchronous benchmark code.
private func blocking(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await work()
        done.signal()
    }
    done.wait()
}

#if canImport(Glibc)
    /// The test server as a child process.
    private struct BenchmarkServer {
        let process: Process
        let stdin: Pipe
        let port: Int

        static func start() -> BenchmarkServer? {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Tests/Server/server.py")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-u", script.path]
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch {
                print("network: skipped: cannot run python3 \(script.path): \(error)")
                return nil
            }
            var text = ""
            while !text.contains("\n") {
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("BATON_SERVER_PORT=") }),
                let port = Int(line.dropFirst("BATON_SERVER_PORT=".count))
            else {
                print("network: skipped: the test server did not start (bash .ci/install.d/python-server.sh)")
                process.terminate()
                return nil
            }
            return BenchmarkServer(process: process, stdin: stdin, port: port)
        }

        func stop() {
            try? stdin.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    /// The baseline: HTTP/1.1 POSTs on one keep-alive socket, read to `Content-Length`, nothing else.
    private final class RawHTTPClient: @unchecked Sendable {
        let descriptor: Int32
        let port: Int
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)

        init?(port: Int) {
            self.port = port
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var one: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected != 0 { return nil }
        }

        deinit { close(descriptor) }

        /// Sends one POST and reads the whole answer; returns the body's length.
        func post(_ body: Data, headers: String = "") -> Int {
            let head =
                "POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n\(headers)Content-Length: \(body.count)\r\n\r\n"
            let request = Array(head.utf8) + Array(body)
            var sent = 0
            while sent < request.count {
                let written = request.withUnsafeBytes {
                    send(descriptor, $0.baseAddress! + sent, request.count - sent, 0)
                }
                if written <= 0 { return -1 }
                sent += written
            }
            var received: [UInt8] = []
            var expected: Int?
            var headLength = 0
            while expected == nil || received.count < headLength + (expected ?? 0) {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return -1 }
                received += buffer[0..<count]
                if expected == nil, let end = Self.headEnd(received) {
                    headLength = end + 4
                    let text = String(decoding: received[0..<end], as: UTF8.self).lowercased()
                    let line = text.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    expected =
                        line.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                        ?? 0
                }
            }
            return expected ?? 0
        }

        private static func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(bytes.count - 4)
            where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            return nil
        }
    }
#endif

/// `query SmallCharacterQuery($id: ID!) { character(id: $id) { id name status __typename } }`, written by hand in
/// the shape `baton gen` writes (the benchmark target compiles no generated code).
private struct SmallCharacterQuery: GraphQLOperation {
    static let operationName = "SmallCharacterQuery"
    static let document = "query SmallCharacterQuery($id: ID!) { character(id: $id) { id name status __typename } }"
    var id: String
    var variables: [String: JSONValue] { ["id": .string(id)] }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let selections: [Selection] = [
            .field(
                Field(
                    "character", arguments: [("id", .variable("id"))], type: .named("Character"),
                    selections: [
                        .field("id", type: .nonNull(.named("ID"))), .field("name", type: .nonNull(.named("String"))),
                        .field("status", type: .nonNull(.named("Status"))),
                        .field("__typename", type: .nonNull(.named("String"))),
                    ]))
        ]
    }
}

/// A page of `first` characters with their locations: about 230 bytes a character.
private struct LargePageQuery: GraphQLOperation {
    static let operationName = "LargePageQuery"
    static let document =
        "query LargePageQuery($first: Int!) { characters(first: $first) { totalCount edges { cursor node { id name species status location { id name dimension __typename } __typename } __typename } __typename } }"
    var first: Int
    var variables: [String: JSONValue] { ["first": .number(String(first))] }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let selections = connectionBenchmarkSelections(first: .variable("first"))
    }
}
