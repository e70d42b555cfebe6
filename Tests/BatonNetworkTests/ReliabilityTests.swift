import Foundation
import XCTest

@testable import Baton

/// Seeded random faults into many requests from 8 concurrent handles against the server: no crash, no hang,
/// no half-committed response (the store equals a replay of only the responses that committed), every failure
/// on the handle whose request failed, and nothing left behind after the handles detach. Prints the counts.
///
/// `BATON_RELIABILITY_REQUESTS` sets the number of fetches (default 4000; 10000 is the full run Docs/Reliability.md reports); `BATON_RELIABILITY_SEED` the seed.
final class ReliabilityTests: ServerTestCase {
    /// What a fetch is planned to meet, and what its handle must show after it.
    enum Expectation: Equatable {
        case success
        case fieldError
        case failure(FailureKind)
    }

    enum FailureKind: String, CaseIterable {
        case status500, status502, malformed, tooLarge, requestError, network, timeout
    }

    struct Fault {
        var name: String
        var header: String
        var expectation: Expectation
    }

    /// The fault table: (weight, fault). `once` faults hit the first attempt only, so the retry passes.
    static func faults(_ unique: String) -> [(Int, Fault)] {
        let once = ",times=1,key=\(unique)"
        return [
            (643, Fault(name: "none", header: "", expectation: .success)),
            (50, Fault(name: "delay", header: "delay=15", expectation: .success)),
            (30, Fault(name: "502 once", header: "status=502" + once, expectation: .success)),
            (20, Fault(name: "502", header: "status=502", expectation: .failure(.status502))),
            (30, Fault(name: "429 once", header: "status=429,retry-after=0" + once, expectation: .success)),
            (30, Fault(name: "500", header: "status=500", expectation: .failure(.status500))),
            (30, Fault(name: "truncated once", header: "body=truncate" + once, expectation: .success)),
            (10, Fault(name: "truncated", header: "body=truncate", expectation: .failure(.network))),
            (30, Fault(name: "malformed", header: "body=malformed", expectation: .failure(.malformed))),
            (10, Fault(name: "oversized", header: "size=300000", expectation: .failure(.tooLarge))),
            (30, Fault(name: "errors, no data", header: "body=errors", expectation: .failure(.requestError))),
            (40, Fault(name: "field error", header: "field-error=character.origin", expectation: .fieldError)),
            (20, Fault(name: "closed once", header: "close=before" + once, expectation: .success)),
            (5, Fault(name: "closed", header: "close=before", expectation: .failure(.network))),
            (2, Fault(name: "slow once", header: "delay=1300" + once, expectation: .success)),
            (1, Fault(name: "slow", header: "delay=1300", expectation: .failure(.timeout))),
        ]
    }

    /// Per worker: the fault header its next request carries, and every body its requests received.
    final class Plan: @unchecked Sendable {
        private let lock = NSLock()
        private var headers: [String: String] = [:]
        private(set) var attempts = 0
        func set(_ worker: String, _ header: String) {
            lock.lock()
            headers[worker] = header
            lock.unlock()
        }
        func header(_ worker: String) -> String {
            lock.lock()
            defer { lock.unlock() }
            attempts += 1
            return headers[worker] ?? ""
        }
        var attemptCount: Int {
            lock.lock()
            defer { lock.unlock() }
            return attempts
        }
    }

    /// Adds the planned fault to each request and keeps the body of each answer the transport returned.
    struct FaultingTransport: Transport {
        let base: HTTPTransport
        let plan: Plan
        let bodies: Bodies

        func send(_ request: GraphQLRequest) async throws -> Data {
            var request = request
            let worker = request.variables["id"]?.stringValue ?? ""
            request.headers["X-Baton-Fault"] = plan.header(worker)
            let body = try await base.send(request)
            bodies.append(worker, body)
            return body
        }
    }

    final class Bodies: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [String: [Data]] = [:]
        func append(_ worker: String, _ body: Data) {
            lock.lock()
            storage[worker, default: []].append(body)
            lock.unlock()
        }
        func all(_ worker: String) -> [Data] {
            lock.lock()
            defer { lock.unlock() }
            return storage[worker] ?? []
        }
    }

    /// SplitMix64: a small seeded generator, so a run can be repeated.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Counts {
        var fetches = 0
        var byFault: [String: Int] = [:]
        var succeeded = 0
        var fieldErrors = 0
        var failures: [FailureKind: Int] = [:]
        var wrong: [String] = []
    }

    func testSeededFaultsIntoManyRequestsFromEightHandles() async throws {
        let environmentValues = ProcessInfo.processInfo.environment
        let total = environmentValues["BATON_RELIABILITY_REQUESTS"].flatMap(Int.init) ?? 4_000
        let seed = environmentValues["BATON_RELIABILITY_SEED"].flatMap(UInt64.init) ?? 16
        let workers = 8
        let plan = Plan()
        let bodies = Bodies()
        let base = HTTPTransport(url: try server.url, timeout: 1, maxResponseBytes: 200_000)
        let log = MemoryLog()
        let environment = BatonEnvironment(
            transport: FaultingTransport(base: base, plan: plan, bodies: bodies), log: log,
            retryPolicy: RetryPolicy(maxRetries: 2, initialDelay: 0.005, maxDelay: 0.02, maxRetryAfter: 1))
        let residentBefore = Self.residentBytes()
        let start = Date()
        var weakHandles: [WeakBox] = []

        let results = try await withThrowingTaskGroup(of: (Counts, WeakBox).self) { group in
            for worker in 0..<workers {
                let fetches = total / workers + (worker < total % workers ? 1 : 0)
                group.addTask {
                    try await Self.work(
                        worker: worker, fetches: fetches, seed: seed, environment: environment, plan: plan)
                }
            }
            var all: [(Counts, WeakBox)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let elapsed = Date().timeIntervalSince(start)
        var counts = Counts()
        for (part, box) in results {
            weakHandles.append(box)
            counts.fetches += part.fetches
            counts.succeeded += part.succeeded
            counts.fieldErrors += part.fieldErrors
            counts.wrong += part.wrong
            for (kind, value) in part.byFault { counts.byFault[kind, default: 0] += value }
            for (kind, value) in part.failures { counts.failures[kind, default: 0] += value }
        }
        await environment.settle()

        XCTAssertEqual(counts.fetches, total)
        XCTAssertEqual(counts.wrong, [], "failures on the wrong handle or of the wrong kind")

        // No half-committed response: the store is what committing only the answers that committed gives.
        let replay = Store()
        for worker in 0..<workers {
            let operation = CharacterQuery(id: Self.characterID(worker))
            for body in bodies.all(operation.id) { _ = try? replay.commit(bytes: body, for: operation) }
        }
        XCTAssertEqual(Self.contents(environment.store), Self.contents(replay))

        // After detaching: no handle alive, no store subscriber, no task in flight.
        XCTAssertTrue(weakHandles.allSatisfy { $0.object == nil }, "a detached handle is still alive")
        XCTAssertEqual(environment.store.subscriberCount, 0)
        XCTAssertEqual(environment.state.withLock { $0.inFlight.count }, 0)
        let residentAfter = Self.residentBytes()
        let growth = residentAfter - residentBefore

        let retries = log.events.filter { $0.name == "retry" }.count
        let faults = counts.byFault.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let failures = counts.failures.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \($0.value)" }
            .joined(separator: ", ")
        print(
            """
            reliability: seed \(seed), \(counts.fetches) fetches from \(workers) handles, \(plan.attemptCount) requests \
            (\(retries) retries) in \(String(format: "%.1f", elapsed)) s
            reliability: faults: \(faults)
            reliability: \(counts.succeeded) succeeded (\(counts.fieldErrors) with a field error), failures surfaced: \(failures)
            reliability: resident memory \(residentBefore >> 20) MB before, \(residentAfter >> 20) MB after (\(growth >> 10) KB)
            """)
        XCTAssertLessThan(growth, 64 << 20, "memory grew by \(growth >> 20) MB over the run")
    }

    /// Each character's id: one per worker, each with its own records (origins differ too).
    static func characterID(_ worker: Int) -> String { String(101 + worker) }

    /// One worker: one handle, `fetches` fetches one after another, each with a planned fault, each checked.
    static func work(worker: Int, fetches: Int, seed: UInt64, environment: BatonEnvironment, plan: Plan) async throws
        -> (Counts, WeakBox)
    {
        var generator = SeededGenerator(state: seed &+ UInt64(worker) &* 0x1000_0001)
        let id = characterID(worker)
        var counts = Counts()
        let (changes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(8))
        var handle: Handle<CharacterQuery>?
        for sequence in 0..<fetches {
            let table = faults("\(worker)-\(sequence)-\(seed)")
            let totalWeight = table.reduce(0) { $0 + $1.0 }
            var pick = Int.random(in: 0..<totalWeight, using: &generator)
            let fault =
                table.first { entry in
                    defer { pick -= entry.0 }
                    return pick < entry.0
                }?.1 ?? table[0].1
            counts.byFault[fault.name, default: 0] += 1
            plan.set(id, fault.header)
            if let handle {
                handle.retry()
            } else {
                let attached = environment.attach(CharacterQuery(id: id), policy: .networkOnly)
                attached.observe { continuation.yield() }
                handle = attached
            }
            guard let handle else { break }
            try await waitForFetch(handle, changes)
            counts.fetches += 1
            check(handle, fault.expectation, worker: worker, sequence: sequence, fault: fault.name, into: &counts)
        }
        handle?.detach()
        continuation.finish()
        let box = WeakBox(handle)
        return (counts, box)
    }

    /// Waits for the handle's fetch to end (its observer fires with `isFetching` false); 20 s means a hang.
    static func waitForFetch(_ handle: Handle<CharacterQuery>, _ changes: AsyncStream<Void>) async throws {
        let deadline = Date().addingTimeInterval(20)
        var iterator = changes.makeAsyncIterator()
        while handle.isFetching || handle.phase.isLoading {
            if Date() > deadline { throw HangError() }
            _ = await iterator.next()
        }
    }

    struct HangError: Error {}

    static func check(
        _ handle: Handle<CharacterQuery>, _ expectation: Expectation, worker: Int, sequence: Int, fault: String,
        into counts: inout Counts
    ) {
        let error = handle.lastFetchError
        let name = handle.phase.data?.character?.characterSummary.name
        let problem: String?
        switch expectation {
        case .success:
            problem = error == nil && name == "Character \(characterID(worker))" ? nil : "expected success"
            if problem == nil { counts.succeeded += 1 }
        case .fieldError:
            let slot = handle.environment.store.record("Character:\(characterID(worker))")?.slots["origin"]
            problem = error == nil && slot?.errors.isEmpty == false ? nil : "expected a field error on origin"
            if problem == nil {
                counts.succeeded += 1
                counts.fieldErrors += 1
            }
        case .failure(let kind):
            problem = error.map { kindOf($0) == kind } == true ? nil : "expected \(kind)"
            if problem == nil { counts.failures[kind, default: 0] += 1 }
        }
        if let problem {
            counts.wrong.append(
                "handle \(worker) fetch \(sequence) (\(fault)): \(problem), got \(String(describing: error)), name \(String(describing: name))"
            )
        }
    }

    static func kindOf(_ error: FetchError) -> FailureKind? {
        switch error {
        case .httpStatus(500, _, _): .status500
        case .httpStatus(502, _, _): .status502
        case .malformedResponse: .malformed
        case .tooLarge(limit: 200_000): .tooLarge
        case .request: .requestError
        case .offline: .network
        case .timedOut: .timeout
        default: nil
        }
    }

    /// The store's records without their ages (which differ between the run and the replay).
    static func contents(_ store: Store) -> [String: String] {
        store.snapshot().records.mapValues { record in
            "\(record.typename ?? "-") "
                + record.slots.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: ";")
        }
    }

    /// Resident memory of this process (Linux `/proc/self/statm`; 0 elsewhere).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// A weak reference to a handle, to see that it is freed after detaching.
final class WeakBox: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject?) { self.object = object }
}

extension Phase {
    var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }
}
