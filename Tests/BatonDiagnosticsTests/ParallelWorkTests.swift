import Foundation
import BatonDiagnostics
import XCTest

/// `ParallelWork.map` answers exactly what `map` answers, in order, however many workers run
/// and however uneven the items are.
final class ParallelWorkTests: XCTestCase {
    func testResultsAreInInputOrderForAnyNumberOfWorkers() {
        let items = Array(0..<1_003)
        let expected = items.map { $0 * $0 }
        for workers in [1, 2, 3, 8, 64] {
            XCTAssertEqual(ParallelWork.map(items, workers: workers) { $0 * $0 }, expected, "\(workers) workers")
        }
    }

    func testUnevenItemsAndReferenceResults() {
        // Items whose cost varies a hundredfold, returning objects (each result is retained once).
        final class Box: Sendable {
            let value: String
            init(_ value: String) { self.value = value }
        }
        let items = (0..<200).map { $0 % 7 == 0 ? 20_000 : 200 }
        let results = ParallelWork.map(items, workers: 4) { count -> Box in
            var total = 0
            for step in 0..<count { total &+= step }
            return Box("\(count):\(total)")
        }
        XCTAssertEqual(results.map(\.value), items.map { count in "\(count):\((0..<count).reduce(0, &+))" })
    }

    func testEmptyAndSingleItems() {
        XCTAssertEqual(ParallelWork.map([Int](), workers: 4) { $0 + 1 }, [])
        XCTAssertEqual(ParallelWork.map([41], workers: 4) { $0 + 1 }, [42])
        XCTAssertEqual(ParallelWork.map([1, 2], workers: 2, minimumItems: 10) { $0 * 10 }, [10, 20])
        XCTAssertGreaterThanOrEqual(ParallelWork.processorCount, 1)
    }

    func testBothGivesEachResultInItsPlace() {
        for workers in [1, 2] {
            let (text, number) = ParallelWork.both(
                workers: workers, { (0..<1000).map(String.init).joined().count }, { (0..<1000).reduce(0, +) })
            XCTAssertEqual(text, (0..<1000).map(String.init).joined().count, "workers \(workers)")
            XCTAssertEqual(number, 499_500, "workers \(workers)")
        }
        // Both run even when the first must wait for the second (they are not run one after the other).
        if ParallelWork.processorCount > 1 {
            let flag = Flag()
            let (waited, _) = ParallelWork.both(
                workers: 2,
                {
                    for _ in 0..<2_000 where !flag.isSet { usleep(1_000) }
                    return flag.isSet
                }, { flag.set() })
            XCTAssertTrue(waited)
        }
    }
}

/// A flag one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
