import Baton
import BatonTesting
import Foundation
import XCTest

/// Re-reads caused by commits on several threads can finish in any order; a handle publishes only a read of a
/// snapshot newer than the one it published, so an older snapshot never overwrites a newer phase.
final class HandleOrderingTests: XCTestCase {
    /// A log that holds the first `requiredFieldNull` report until released: a re-read that reports it is paused
    /// between taking its snapshot and publishing its phase, and the test decides what happens meanwhile.
    final class GateLog: EventLog, @unchecked Sendable {
        let reached = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var held = false
        private var kept: [LogEvent] = []

        func record(_ event: LogEvent) {
            lock.lock()
            kept.append(event)
            let hold = event.name == "requiredFieldNull" && !held
            if hold { held = true }
            lock.unlock()
            if hold {
                reached.signal()
                release.wait()
            }
        }

        var names: [String] {
            lock.lock()
            defer { lock.unlock() }
            return kept.map(\.name)
        }
    }

    static let titled = #"{"data":{"item":{"title":"one","owner":{"login":"x"}}}}"#
    static let untitled = #"{"data":{"item":{"title":null,"owner":{"login":"x"}}}}"#
    static let retitled = #"{"data":{"item":{"title":"two","owner":{"login":"x"}}}}"#

    /// Commit 1 (a null title: its re-read fails the phase) pauses in its read; commit 2 (a title) re-reads and
    /// publishes meanwhile; then commit 1's read finishes. The phase must stay commit 2's, which is what the store
    /// holds: before the fix the older read overwrote it (`failed: required field item.title is null`).
    func testAnOlderReReadNeverOverwritesANewerPhase() throws {
        let log = GateLog()
        let environment = BatonEnvironment(transport: FixtureTransport(), log: log)
        try environment.store.commit(bytes: Data(Self.titled.utf8), for: RootRequired())
        let handle = environment.attach(RootRequired(), policy: .storeOnly)
        XCTAssertEqual(Self.title(handle.phase), "one")

        let first = DispatchSemaphore(value: 0)
        let store = environment.store
        DispatchQueue.global().async {
            _ = try? store.commit(bytes: Data(Self.untitled.utf8), for: RootRequired())
            first.signal()
        }
        XCTAssertEqual(log.reached.wait(timeout: .now() + 10), .success, "commit 1's re-read never reported")
        // Commit 1's re-read holds its snapshot (title null) and has not published yet.
        try store.commit(bytes: Data(Self.retitled.utf8), for: RootRequired())
        XCTAssertEqual(Self.title(handle.phase), "two", "commit 2's re-read published")
        log.release.signal()
        XCTAssertEqual(first.wait(timeout: .now() + 10), .success)

        XCTAssertEqual(
            try store.snapshot().read(RootRequired()).item.title, "two", "the store holds commit 2's answer")
        XCTAssertEqual(Self.title(handle.phase), "two", "the older snapshot must not overwrite the newer phase")
        XCTAssertEqual(log.names, ["requiredFieldNull"])
    }

    /// A commit after the race still publishes: the guard drops only older reads.
    func testALaterCommitStillPublishes() throws {
        let environment = BatonEnvironment(transport: FixtureTransport(), log: MemoryLog())
        try environment.store.commit(bytes: Data(Self.titled.utf8), for: RootRequired())
        let handle = environment.attach(RootRequired(), policy: .storeOnly)
        try environment.store.commit(bytes: Data(Self.untitled.utf8), for: RootRequired())
        XCTAssertEqual(Self.title(handle.phase), "failed: required field item.title is null")
        try environment.store.commit(bytes: Data(Self.retitled.utf8), for: RootRequired())
        XCTAssertEqual(Self.title(handle.phase), "two")
    }

    static func title(_ phase: Phase<RootRequired.Data>) -> String {
        switch phase {
        case .loading: "loading"
        case .ready(let data): data.item.title
        case .failed(let error): "failed: \(error)"
        }
    }
}
