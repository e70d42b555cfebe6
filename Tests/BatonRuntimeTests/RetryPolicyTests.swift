import Foundation
import XCTest

@testable import Baton

/// Which failures are retried, how long the waits are, and the request forms the HTTP transport builds.
final class RetryPolicyTests: XCTestCase {
    func testOnlyTransientFailuresAreRetriedWithinTheLimit() {
        let policy = RetryPolicy(maxRetries: 2, initialDelay: 0.1, maxDelay: 0.3, maxRetryAfter: 10)
        for transient in [
            TransportError.network("reset"), .timedOut(1), .httpStatus(429), .httpStatus(502), .httpStatus(503),
            .httpStatus(504),
        ] {
            XCTAssertNotNil(policy.delay(beforeRetry: 1, after: transient), "\(transient)")
            XCTAssertNil(policy.delay(beforeRetry: 3, after: transient), "only two retries: \(transient)")
        }
        for final in [
            TransportError.httpStatus(500), .httpStatus(401), .httpStatus(404), .responseTooLarge(limit: 1), .cancelled,
            .persistedQueryNotFound("x"), .failed("x"),
        ] {
            XCTAssertNil(policy.delay(beforeRetry: 1, after: final), "\(final)")
        }
    }

    func testWaitsDoubleWithJitterAndHonourRetryAfter() throws {
        let policy = RetryPolicy(maxRetries: 5, initialDelay: 0.1, maxDelay: 0.3, maxRetryAfter: 10)
        for _ in 0..<100 {
            let first = try XCTUnwrap(policy.delay(beforeRetry: 1, after: .network("x")))
            XCTAssertTrue((0.05...0.1).contains(first), "\(first)")
            let second = try XCTUnwrap(policy.delay(beforeRetry: 2, after: .network("x")))
            XCTAssertTrue((0.1...0.2).contains(second), "\(second)")
            let capped = try XCTUnwrap(policy.delay(beforeRetry: 5, after: .network("x")))
            XCTAssertTrue((0.15...0.3).contains(capped), "\(capped)")
        }
        XCTAssertEqual(policy.delay(beforeRetry: 1, after: .httpStatus(429, retryAfter: 4)), 4)
        XCTAssertNil(policy.delay(beforeRetry: 1, after: .httpStatus(429, retryAfter: 11)), "too long to wait")
        XCTAssertNil(RetryPolicy.never.delay(beforeRetry: 1, after: .network("x")))
    }

    func testRetryAfterInSecondsOrAsADate() throws {
        XCTAssertEqual(HTTPTransport.retryAfter("3"), 3)
        XCTAssertEqual(HTTPTransport.retryAfter(" 0 "), 0)
        XCTAssertEqual(HTTPTransport.retryAfter("007"), 7)
        XCTAssertNil(HTTPTransport.retryAfter("soon"))
        XCTAssertNil(HTTPTransport.retryAfter("-1"))
        XCTAssertNil(HTTPTransport.retryAfter(nil))
        XCTAssertEqual(HTTPTransport.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT"), 0, "a date in the past: now")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let later = try XCTUnwrap(HTTPTransport.retryAfter(formatter.string(from: Date().addingTimeInterval(120))))
        XCTAssertTrue((100...121).contains(later), "\(later)")
    }

    /// RFC 9110 allows whole seconds or an HTTP-date only: `1e800` (the `http` fuzz target's finding, once read as
    /// an infinite delay), a sign, a fraction or `inf` are ignored; a long number is capped at a day.
    func testRetryAfterIsDigitsOrADateAndBounded() {
        for text in ["1e800", "1e3", "+5", "1.5", "inf", "Infinity", "nan", "0x10", "5 s", "1,2", "\u{0663}"] {
            XCTAssertNil(RetryAfter.seconds(text), text)
        }
        XCTAssertEqual(RetryAfter.seconds("86401"), RetryAfter.limit)
        XCTAssertEqual(RetryAfter.seconds(String(repeating: "9", count: 800)), RetryAfter.limit)
        XCTAssertEqual(RetryAfter.seconds("0000000000000000000000012"), 12)
        XCTAssertEqual(RetryAfter.limit, 86_400)
        // The three forms of an HTTP-date, all 1994-11-06 08:49:37 UTC (784111777).
        let now = Date(timeIntervalSince1970: 784_111_777 - 90)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now), 90)
        XCTAssertEqual(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: now), 90)
        XCTAssertEqual(RetryAfter.seconds("Sun Nov  6 08:49:37 1994", now: now), 90)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 9999 08:49:37 GMT", now: now), RetryAfter.limit)
        for text in [
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1e94 08:49:37 GMT", "Sun,  06 Nov 1994 08:49:37 GMT",
        ] {
            XCTAssertNil(RetryAfter.seconds(text, now: now), text)
        }
        XCTAssertEqual(
            RetryAfter.seconds("Thu, 29 Feb 2024 00:00:00 GMT", now: Date(timeIntervalSince1970: 0)), RetryAfter.limit)
        XCTAssertEqual(RetryAfter.httpDate("Thu, 29 Feb 2024 00:00:00 GMT"), 1_709_164_800)
        XCTAssertNil(RetryAfter.httpDate("Thu, 29 Feb 2023 00:00:00 GMT"))
    }

    func testPersistedQueryNotFoundByMessageOrCode() {
        XCTAssertTrue(
            HTTPTransport.isPersistedQueryNotFound(Data(#"{"errors":[{"message":"PersistedQueryNotFound"}]}"#.utf8)))
        XCTAssertTrue(
            HTTPTransport.isPersistedQueryNotFound(
                Data(#"{"errors":[{"message":"not found","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#.utf8)))
        XCTAssertFalse(HTTPTransport.isPersistedQueryNotFound(Data(#"{"errors":[{"message":"other"}]}"#.utf8)))
        XCTAssertFalse(
            HTTPTransport.isPersistedQueryNotFound(
                Data(#"{"data":{},"errors":[{"message":"PersistedQueryNotFound"}]}"#.utf8)), "with data it is an answer"
        )
    }

    func testThePersistedBodyCarriesTheIDAndNoDocument() {
        let request = GraphQLRequest(
            operationName: "Hero", query: "query Hero { hero { id } }", variables: ["id": .string("1")],
            operationID: "abc")
        let body = String(decoding: request.body(sendingDocument: false, persistedID: "abc"), as: UTF8.self)
        XCTAssertEqual(
            body,
            #"{"operationName":"Hero","variables":{"id":"1"},"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}"#
        )
        let transport = HTTPTransport(
            url: URL(string: "https://example.com/graphql")!, method: .getForQueries, persistedQueries: .persistedOnly)
        let url = transport.urlRequest(for: request, sendingDocument: false).url?.absoluteString ?? ""
        XCTAssertFalse(url.contains("query="), url)
        XCTAssertTrue(url.contains("extensions="), url)
    }
}
