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
}
