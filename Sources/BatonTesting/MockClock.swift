import Foundation

/// A clock a test moves by hand: what the environment and its store measure staleness and expiration with.
public final class MockClock: Sendable {
    private let current: Mutex<Date>

    /// A clock standing at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { current = Mutex(start) }

    /// The time the clock shows.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative number) by `seconds`.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }

    /// The clock as `BatonEnvironment(clock:)` takes it.
    public var function: @Sendable () -> Date { { self.now } }
}
