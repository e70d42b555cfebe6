import XCTest

@testable import Baton

/// The one observer bookkeeping `Handle`, `Pagination` and `SubscriptionHandle` share.
final class ObserversTests: XCTestCase {
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        func append(_ name: String) { lock.withLock { names.append(name) } }
        var all: [String] { lock.withLock { names } }
    }

    func testCallbacksRunInTheOrderTheyWereAdded() {
        let observers = Observers()
        let calls = Calls()
        for name in ["a", "b", "c", "d", "e", "f", "g", "h"] { _ = observers.add { calls.append(name) } }
        observers.notify()
        XCTAssertEqual(calls.all, ["a", "b", "c", "d", "e", "f", "g", "h"])
    }

    func testARemovedCallbackIsNotCalledAndTokensAreNotReused() {
        let observers = Observers()
        let calls = Calls()
        let first = observers.add { calls.append("first") }
        let second = observers.add { calls.append("second") }
        observers.remove(first)
        observers.remove(first)  // twice: ignored
        observers.remove(99)  // unknown: ignored
        let third = observers.add { calls.append("third") }
        XCTAssertEqual(Set([first, second, third]).count, 3)
        observers.notify()
        XCTAssertEqual(calls.all, ["second", "third"])
        XCTAssertEqual(observers.count, 2)
    }

    func testACallbackMayRemoveItselfWhileBeingCalled() {
        let observers = Observers()
        let calls = Calls()
        let box = Locked<Int?>(nil)
        let token = observers.add {
            calls.append("once")
            if let id = box.withLock({ $0 }) { observers.remove(id) }
        }
        box.withLock { $0 = token }
        observers.notify()
        observers.notify()
        XCTAssertEqual(calls.all, ["once"])
    }

}
