import BatonTestSupport
import Foundation
import XCTest

/// The test GraphQL server (`Tests/Server/server.py`): started once per test suite, stopped after it.
///
/// Without Python or the server's packages the suite skips with the reason printed, unless `CI` is set:
/// there a missing server fails the test. The server exits by itself when our end of its stdin closes, so a
/// test process that dies never leaves it running.
final class TestServer: @unchecked Sendable {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("Tests/Server/server.py")

    private let running: PythonScript
    var port: Int { running.port }
    var url: URL { URL(string: "http://127.0.0.1:\(port)/graphql")! }
    var webSocketURL: URL { URL(string: "ws://127.0.0.1:\(port)/graphql")! }

    /// Starts the server (`arguments` after the script, e.g. `--manifest PATH`) and waits until it answers;
    /// `script` run by `python` (the PATH's `python3` unless given).
    init(arguments: [String] = [], script: URL = TestServer.script, python: URL? = nil) throws {
        running = try PythonScript(
            script: script, arguments: arguments, portLine: "BATON_SERVER_PORT=", health: "/_baton/health",
            python: python, install: "is `bash .ci/install.d/python-server.sh` done?")
    }

    /// Stops the server and waits for it.
    func stop() { running.stop() }

    /// A skip locally, a failure in CI (`Unavailable`): CI installs the server, so its absence there is a bug.
    static func unavailable(_ reason: String) -> any Error { Unavailable.error(reason) }

    /// A suite's server that was never started (a bug in the suite, not a missing peer).
    struct ServerUnavailable: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    // MARK: The server's log

    /// One request the server saw (`GET /_baton/log?key=`).
    struct LoggedRequest: Decodable, Equatable {
        var key: String?
        var method: String
        var operationName: String?
        var hasQuery: Bool
        var persistedId: String?
        var authorization: String?
        var onError: String?
    }

    /// The requests that carried `X-Baton-Test-Key: key`.
    func log(key: String) throws -> [LoggedRequest] {
        var components = URLComponents(string: "http://127.0.0.1:\(port)/_baton/log")!
        components.queryItems = [URLQueryItem(name: "key", value: key)]
        let data = try Data(contentsOf: components.url!)
        return try JSONDecoder().decode([LoggedRequest].self, from: data)
    }
}

/// A test case with the server: started once for the suite (the class), stopped after its last test.
///
/// `class setUp` cannot throw, so a failure to start is kept and thrown from each test's `setUpWithError`: a
/// skip locally, a failure in CI.
class ServerTestCase: XCTestCase {
    nonisolated(unsafe) private static var servers: [ObjectIdentifier: Result<TestServer, any Error>] = [:]

    /// Arguments after `server.py` (a subclass may serve a manifest).
    class var serverArguments: [String] { [] }

    /// The server a suite runs (a subclass may run another, as the incremental-delivery server).
    class func startServer() throws -> TestServer { try TestServer(arguments: serverArguments) }

    override class func setUp() {
        super.setUp()
        servers[ObjectIdentifier(self)] = Result { try startServer() }
    }

    override class func tearDown() {
        if case .success(let server)? = servers.removeValue(forKey: ObjectIdentifier(self)) { server.stop() }
        super.tearDown()
    }

    /// This suite's server.
    var server: TestServer {
        get throws {
            guard let result = Self.servers[ObjectIdentifier(type(of: self))] else {
                throw TestServer.ServerUnavailable(reason: "the suite's server was not started")
            }
            return try result.get()
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        _ = try server
    }
}
