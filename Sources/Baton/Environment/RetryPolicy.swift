import Foundation

/// When the environment sends a query again after a transport failure.
///
/// Only queries are retried (a mutation may have happened even when its answer was lost), and only after a
/// failure that can pass (`TransportError.isTransient`: a network failure, a timeout, 429, 502, 503, 504). The
/// wait doubles from `initialDelay` up to `maxDelay`, each time a random part of it (between half and all, so
/// clients that failed together do not return together), and is at least the server's `Retry-After`; a
/// `Retry-After` longer than `maxRetryAfter` is not waited for: the failure surfaces at once.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt.
    public var maxRetries: Int
    public var initialDelay: TimeInterval
    public var maxDelay: TimeInterval
    public var maxRetryAfter: TimeInterval

    public init(
        maxRetries: Int, initialDelay: TimeInterval = 0.25, maxDelay: TimeInterval = 8, maxRetryAfter: TimeInterval = 30
    ) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// Two retries, from a quarter of a second.
    public static let standard = RetryPolicy(maxRetries: 2)
    /// No retries.
    public static let never = RetryPolicy(maxRetries: 0)

    /// The wait before retry number `retry` (1-based) after `error`, or nil when it must not be retried.
    public func delay(beforeRetry retry: Int, after error: TransportError) -> TimeInterval? {
        guard retry <= maxRetries, error.isTransient else { return nil }
        if let retryAfter = error.retryAfter, retryAfter > maxRetryAfter { return nil }
        let backoff = min(maxDelay, initialDelay * pow(2, Double(retry - 1)))
        let jittered = backoff * Double.random(in: 0.5...1)
        return max(jittered, error.retryAfter ?? 0)
    }
}
