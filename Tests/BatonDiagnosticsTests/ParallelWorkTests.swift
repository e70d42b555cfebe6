import BatonDiagnostics
import Dispatch
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

    /// `ranges` answers `body(0..<count)`: every index once, in order, one state per range.
    func testRangesAnswerTheWholeRangeInOrder() {
        for count in [0, 1, 2, 7, 64, 1_003] {
            let expected = (0..<count).map { $0 * 3 }
            for workers in [1, 2, 3, 8] {
                let answered = ParallelWork.ranges(count: count, workers: workers) { range in
                    range.map { $0 * 3 }
                }
                XCTAssertEqual(answered, expected, "\(count) items, \(workers) workers")
            }
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

    /// The workers' chunks: every index once and in order, each chunk no larger than the one before, the
    /// first an eighth of the items for two workers (as the four chunks per worker before it), the last ones
    /// single items (no worker is left with a long last chunk while the others wait), and few in all.
    func testChunksShrinkToSingleItemsAndCoverEveryIndexOnce() {
        for (count, workers, most) in [(1, 2, 1), (7, 2, 7), (300, 2, 40), (10_000, 2, 70), (10_000, 8, 240)] {
            let dispenser = ChunkDispenser(count: count, workers: workers)
            var chunks: [Range<Int>] = []
            while let chunk = dispenser.take() { chunks.append(chunk) }
            let name = "\(count) items, \(workers) workers"
            XCTAssertEqual(chunks.flatMap { Array($0) }, Array(0..<count), name)
            XCTAssertTrue(zip(chunks, chunks.dropFirst()).allSatisfy { $0.count >= $1.count }, name)
            XCTAssertEqual(chunks.first?.count, max(1, count / (4 * workers)), name)
            XCTAssertEqual(chunks.suffix(2).map(\.count), count > 1 ? [1, 1] : [1], name)
            XCTAssertLessThanOrEqual(chunks.count, most, name)
        }
    }

    func testEmptyAndSingleItems() {
        XCTAssertEqual(ParallelWork.map([Int](), workers: 4) { $0 + 1 }, [])
        XCTAssertEqual(ParallelWork.map([41], workers: 4) { $0 + 1 }, [42])
        XCTAssertEqual(ParallelWork.map([1, 2], workers: 2, minimumItems: 10) { $0 * 10 }, [10, 20])
        XCTAssertGreaterThanOrEqual(ParallelWork.processorCount, 1)
    }

    /// `together` runs its two parts at the same time with two workers or more (the background part here
    /// waits for the foreground's signal, which would time out if they ran one after the other), and one
    /// after the other, the background first, with one; the foreground may use `map` meanwhile.
    func testTogetherRunsBothPartsAtOnceAndAnswersBoth() {
        for workers in [2, 4] {
            let signal = DispatchSemaphore(value: 0)
            let (waited, mapped) = ParallelWork.together(workers: workers) {
                signal.wait(timeout: .now() + 30) == .success
            } foreground: {
                defer { signal.signal() }
                return ParallelWork.map(Array(0..<100), workers: workers) { $0 * 2 }
            }
            XCTAssertTrue(waited, "\(workers) workers: the background part saw the foreground's signal")
            XCTAssertEqual(mapped, (0..<100).map { $0 * 2 })
        }
        final class Order: @unchecked Sendable {
            var steps: [String] = []
        }
        let order = Order()
        let (first, second) = ParallelWork.together(workers: 1) {
            order.steps.append("background")
            return 1
        } foreground: {
            order.steps.append("foreground")
            return "two"
        }
        XCTAssertEqual(first, 1)
        XCTAssertEqual(second, "two")
        XCTAssertEqual(order.steps, ["background", "foreground"])
    }
}
