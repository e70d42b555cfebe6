import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Per-item work over the machine's cores whose result never depends on scheduling.
///
/// `map` returns exactly what `items.map(transform)` returns, in the same order: each item's
/// result goes to its own slot, whichever thread computed it and whenever. The workers take
/// contiguous chunks of the items one after another as they free up, each chunk a share of what
/// is left (`ChunkDispenser`): large at first, so that handing them out costs nothing measurable,
/// and down to one item at the end, so that no worker is left with a long last chunk while the
/// others wait (nor one slowed by another process holds the others up for long). Stages make their
/// per-file work safe for this by being functions of their inputs: the parser reads one
/// `SourceFile`, the validator reads a shared immutable `GraphQLSchema`, and neither touches
/// global state.
package enum ParallelWork {
    /// The number of processors online (at least 1).
    package static var processorCount: Int {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
            return 1
        #endif
    }

    /// `items.map(transform)`, computed on up to `workers` threads; `workers <= 1`, or fewer
    /// than `minimumItems` items, runs on the calling thread.
    package static func map<Input: Sendable, Output: Sendable>(
        _ items: [Input], workers: Int = processorCount, minimumItems: Int = 2,
        _ transform: @Sendable (Input) -> Output
    ) -> [Output] {
        let count = items.count
        guard workers > 1, count >= max(2, minimumItems) else { return items.map(transform) }
        let output = [Output](unsafeUninitializedCapacity: count) { buffer, initialized in
            // A buffer of two or more elements always has an address; without one nothing is
            // initialized and the sequential map below answers instead.
            guard let address = buffer.baseAddress else { return }
            nonisolated(unsafe) let base = address
            items.withUnsafeBufferPointer { input in
                nonisolated(unsafe) let input = input
                let next = ChunkDispenser(count: count, workers: workers)
                DispatchQueue.concurrentPerform(iterations: min(workers, count)) { _ in
                    while let chunk = next.take() {
                        for index in chunk {
                            // Each slot is written exactly once, by the one chunk that owns it.
                            (base + index).initialize(to: transform(input[index]))
                        }
                    }
                }
            }
            initialized = count
        }
        return output.count == count ? output : items.map(transform)
    }
}

extension ParallelWork {
    /// `(background(), foreground())`, the two computed at the same time: `background` on another thread,
    /// `foreground` on the calling one (which may itself use `map`). With `workers <= 1` they run one after the
    /// other, `background` first.
    package static func together<Background: Sendable, Foreground>(
        workers: Int = processorCount, background: @Sendable () -> Background, foreground: () -> Foreground
    ) -> (Background, Foreground) {
        guard workers > 1 else {
            let first = background()
            return (first, foreground())
        }
        return withoutActuallyEscaping(background) { background in
            let result = BackgroundResult<Background>()
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { result.value = background() }
            let second = foreground()
            group.wait()
            // The group's wait orders the write before this read; the value is always set by then.
            return (result.value ?? background(), second)
        }
    }
}

extension ParallelWork {
    /// `body(0..<count)`, computed as contiguous ranges of `0..<count` on up to `workers` threads, their results
    /// joined in order: for per-item work that keeps something from one item to the next (an open folder), one
    /// per range. `body` answers one result per index of its range. `workers <= 1`, or fewer than
    /// `minimumItems` items, runs `body(0..<count)` on the calling thread.
    package static func ranges<Output: Sendable>(
        count: Int, workers: Int = processorCount, minimumItems: Int = 2,
        _ body: @Sendable (Range<Int>) -> [Output]
    ) -> [Output] {
        guard workers > 1, count >= max(2, minimumItems) else { return body(0..<count) }
        // A few ranges per worker, so that one slowed down leaves the rest to the others.
        let parts = min(count, 8 * workers)
        let bounds = (0..<parts).map { part in count * part / parts..<count * (part + 1) / parts }
        return Array(map(bounds, workers: workers, body).joined())
    }
}

/// Where `together`'s background work leaves its result. (`unchecked`: written once, on the background
/// thread, and read after the group's wait.)
private final class BackgroundResult<Value>: @unchecked Sendable {
    var value: Value?
}

/// Hands out the indices `0..<count` in contiguous chunks, once each, to whichever worker asks
/// first: each chunk a quarter of an even share of what is left (guided self-scheduling), so the
/// first are an eighth of the items for two workers and the last are single items; about
/// `4 × workers × ln(count)` chunks in all.
package final class ChunkDispenser: @unchecked Sendable {
    private let queue = DispatchQueue(label: "baton.parallel-work")
    private var taken = 0
    private let count: Int
    private let parts: Int

    package init(count: Int, workers: Int) {
        self.count = count
        parts = 4 * max(1, workers)
    }

    /// The next chunk, or nil when all are taken. (`unchecked`: `taken` is only touched on `queue`.)
    package func take() -> Range<Int>? {
        queue.sync {
            guard taken < count else { return nil }
            let start = taken
            taken += max(1, (count - taken) / parts)
            return start..<taken
        }
    }
}
