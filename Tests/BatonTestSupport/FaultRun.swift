import Foundation

/// Issue 33's seeded fault run, shared by its Swift half (`SeededFaultRunTests`) and its Kotlin half
/// (`KotlinFaultRunTests`): the notes server and the fault proxy of Tests/Server/faults, the faults the proxy logged,
/// and the rules every outcome is held to. Tests/Server/faults/README.md has the faults.
package final class FaultRun: @unchecked Sendable {
    package static let folder = TestPaths.repository.appendingPathComponent("Tests/Server/faults")
    /// Requests per run: queries (even labels `q0`, `q2`, …) and mutations (`m1`, `m3`, …) alternating.
    package static let requests = 120
    /// The retries both languages' runs allow a query (10–50 ms apart, a `Retry-After` of at most 0.1 s).
    package static let maxRetries = 2
    /// The transport's deadline in both runs: what a stalled answer costs.
    package static let deadline: TimeInterval = 1.5
    /// The faults after which a query is sent again (the network, a timeout, 429, 503).
    package static let transient: Set<String> = [
        "reset-before", "reset-after", "close-reused", "truncate", "status-503", "status-429", "stall",
    ]

    package let seed: String
    package let server: PythonScript
    package let proxy: PythonScript
    private let log: URL

    /// The proxy's URL for clients.
    package var url: URL { URL(string: "http://127.0.0.1:\(proxy.port)/graphql")! }

    /// Starts the server and the proxy with `BATON_FAULT_SEED`, or the default seed.
    package init() throws {
        seed = ProcessInfo.processInfo.environment["BATON_FAULT_SEED"] ?? "20261206"
        log = FileManager.default.temporaryDirectory.appendingPathComponent("baton-faults-\(UUID()).jsonl")
        let install = "python3 with graphql-core: bash .ci/install.d/python-server.sh"
        server = try PythonScript(
            script: Self.folder.appendingPathComponent("notes_server.py"), portLine: "NOTES_SERVER_PORT=",
            health: "/health", install: install)
        proxy = try PythonScript(
            script: Self.folder.appendingPathComponent("fault_proxy.py"),
            arguments: ["--upstream", "\(server.port)", "--seed", seed, "--log", log.path],
            portLine: "FAULT_PROXY_PORT=", install: install)
    }

    deinit {
        proxy.stop()
        server.stop()
        try? FileManager.default.removeItem(at: log)
    }

    /// The label of request `index`, and whether it is a mutation.
    package static func label(_ index: Int) -> (label: String, isMutation: Bool) {
        index % 2 == 1 ? ("m\(index)", true) : ("q\(index)", false)
    }

    /// What a client saw of one request.
    package struct Outcome {
        package var label: String
        package var isMutation: Bool
        package var seconds: TimeInterval
        /// `data`, `offline`, `timedOut`, `http 503`, `malformed`, or another failure's description.
        package var kind: String
        /// The request ids of the events the request logged.
        package var requestIDs: Set<UInt64>
        /// Events the request logged without a trace, or under another operation's.
        package var strayEvents: Int

        package init(
            label: String, isMutation: Bool, seconds: TimeInterval, kind: String, requestIDs: Set<UInt64>,
            strayEvents: Int
        ) {
            (self.label, self.isMutation, self.seconds, self.kind) = (label, isMutation, seconds, kind)
            (self.requestIDs, self.strayEvents) = (requestIDs, strayEvents)
        }
    }

    private struct Attempt: Decodable {
        var label: String
        var attempt: Int
        var fault: String
        var reused: Bool
    }

    /// What the last attempt's fault makes of a request.
    package static func expectedKind(after fault: String) -> String {
        switch fault {
        case "pass": "data"
        case "reset-before", "reset-after", "close-reused", "truncate": "offline"
        case "garbage": "malformed"
        case "status-503": "http 503"
        case "status-429": "http 429"
        case "stall": "timedOut"
        default: "unknown fault \(fault)"
        }
    }

    /// Every way `outcomes` break the rules, one line each (none when the run held), after printing a summary:
    /// - each outcome is the typed case of its last attempt's fault;
    /// - a mutation is sent once; a query again only after a transient fault, and ends with one only without
    ///   retries left;
    /// - nothing but a stalled answer takes a second;
    /// - every event carries its own fetch's trace, one request id per fetch, none shared;
    /// - the server executed no mutation twice (per `Idempotency-Key`);
    /// - with the default seed, every kind of fault was met.
    package func problems(_ outcomes: [Outcome], language: String) throws -> [String] {
        var problems: [String] = []
        if outcomes.count != Self.requests { problems.append("\(outcomes.count) outcomes of \(Self.requests)") }
        let attempts = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(Attempt.self, from: Data($0.utf8))
        }
        let byLabel = Dictionary(grouping: attempts, by: \.label)
        var faults: [String: Int] = [:]
        for attempt in attempts { faults[attempt.fault, default: 0] += 1 }
        let kinds = Dictionary(grouping: outcomes, by: \.kind).mapValues(\.count)
        print(
            "seeded fault run (\(language)): seed \(seed), \(outcomes.count) requests, \(attempts.count) attempts; "
                + "faults " + faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "; outcomes "
                + kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for outcome in outcomes {
            let tried = (byLabel[outcome.label] ?? []).sorted { $0.attempt < $1.attempt }
            let faultsMet = tried.map { $0.fault + ($0.reused ? " (reused)" : "") }
            guard let last = tried.last else {
                problems.append("\(outcome.label): the proxy saw no attempt (\(outcome.kind))")
                continue
            }
            let expected = Self.expectedKind(after: last.fault)
            if outcome.kind != expected {
                problems.append("\(outcome.label): \(outcome.kind) after \(faultsMet), expected \(expected)")
            }
            if outcome.requestIDs.count != 1 {
                problems.append("\(outcome.label): request ids \(outcome.requestIDs.sorted()) for one fetch")
            }
            if outcome.strayEvents > 0 {
                problems.append("\(outcome.label): \(outcome.strayEvents) events without its trace")
            }
            if outcome.isMutation {
                if tried.count != 1 { problems.append("\(outcome.label): a mutation sent \(tried.count) times") }
            } else {
                if !tried.dropLast().allSatisfy({ Self.transient.contains($0.fault) }) {
                    problems.append("\(outcome.label): sent again after \(faultsMet)")
                }
                if Self.transient.contains(last.fault), tried.count != Self.maxRetries + 1 {
                    problems.append("\(outcome.label): \(outcome.kind) after \(faultsMet) with retries left")
                }
            }
            if !tried.contains(where: { $0.fault == "stall" }), outcome.seconds >= 1 {
                problems.append("\(outcome.label): \(faultsMet) took \(outcome.seconds) s")
            }
        }
        let ids = outcomes.flatMap(\.requestIDs)
        if Set(ids).count != ids.count { problems.append("two fetches share a request id") }
        let executions = try JSONDecoder().decode(
            [String: Int].self, from: Data(contentsOf: URL(string: "http://127.0.0.1:\(server.port)/executions")!))
        for (key, count) in executions.sorted(by: { $0.key < $1.key }) where count > 1 {
            problems.append("mutation \(key) executed \(count) times")
        }
        if ProcessInfo.processInfo.environment["BATON_FAULT_SEED"] == nil {
            for fault in ["pass", "reset-before", "reset-after", "truncate", "garbage", "status-503", "stall"]
            where faults[fault] == nil {
                problems.append("the default seed met no \(fault)")
            }
        }
        return problems
    }
}
