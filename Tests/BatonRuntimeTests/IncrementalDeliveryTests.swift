import Baton
import Foundation
import XCTest

/// The multipart reader and the merger of incremental delivery over byte fixtures (Fixtures/incremental): both
/// formats, every bad input the issue lists, and every fixture read in reads of every size from 1 byte up, so a
/// boundary split across reads is read as the whole body is.
final class IncrementalDeliveryTests: XCTestCase {
    /// The log lines of reading `name` in reads of `chunk` bytes: each payload's summary, then `end` or the error.
    static func lines(_ name: String, boundary: String = "-", chunk: Int = .max, partLimit: Int = 1 << 20) throws
        -> [String]
    {
        let bytes = Array(try Fixtures.data("incremental/" + name))
        var reader = MultipartReader(boundary: boundary, partLimit: partLimit)
        var merger = IncrementalMerger()
        var lines: [String] = []
        do {
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                for part in try reader.feed(bytes[offset..<end]) {
                    let payload = try JSONParser.parse(Data(part))
                    lines.append(try merger.apply(payload).summary)
                }
                offset = end
            }
            try reader.finish()
            try merger.finish()
            lines.append("end")
        } catch {
            lines.append("error: \(error)")
        }
        return lines
    }

    /// Every fixture reads the same in reads of every size.
    func testEveryReadSizeGivesTheSameLines() throws {
        for (name, boundary) in [
            ("current-defer.multipart", "-"), ("current-stream.multipart", "-"), ("apollo-2022.multipart", "graphql"),
            ("truncated.multipart", "-"), ("unknown-id.multipart", "-"),
        ] {
            let whole = try Self.lines(name, boundary: boundary)
            for chunk in 1...40 {
                XCTAssertEqual(try Self.lines(name, boundary: boundary, chunk: chunk), whole, "\(name) in reads of \(chunk)")
            }
        }
    }

    /// The guide's repository screen with `issues` deferred: the repository first, then the issues.
    func testTheRepositoryFirstThenItsIssues() throws {
        XCTAssertEqual(
            try Self.lines("current-defer.multipart"),
            [
                "payload 1: filled data; pending 1; more coming",
                "payload 2: filled repository (issues); completed repository (issues); pending 0; complete",
                "end",
            ])
        var merger = IncrementalMerger()
        let parts = try Self.parts("current-defer.multipart")
        let first = try merger.apply(parts[0])
        XCTAssertNil(first.response["data"]?["repository"]?["issues"])
        XCTAssertEqual(first.response["data"]?["repository"]?["name"], "baton")
        let second = try merger.apply(parts[1])
        guard case .array(let issues)? = second.response["data"]?["repository"]?["issues"] else {
            return XCTFail("no issues after the second payload")
        }
        XCTAssertEqual(issues.map { $0["title"] }, ["Defer it", "Stream it"])
        XCTAssertEqual(second.response["data"]?["repository"]?["name"], "baton")
    }

    /// A deferred fragment completed with errors is a failure at its path and label; the rest stays.
    func testAFailedFragmentIsReportedWhereItIs() throws {
        var merger = IncrementalMerger()
        let parts = try Self.parts("current-failed.multipart")
        _ = try merger.apply(parts[0])
        let step = try merger.apply(parts[1])
        XCTAssertEqual(step.summary, "payload 2: completed repository (issues); failed repository (issues); pending 0; complete")
        XCTAssertEqual(step.failures.map(\.label), ["issues"])
        XCTAssertEqual(step.failures.first?.path, [.key("repository")])
        XCTAssertEqual(step.failures.first?.errors.map(\.message), ["issues are unavailable"])
        XCTAssertEqual(step.response["data"]?["repository"]?["name"], "baton")
        XCTAssertEqual(step.response["errors"]?.arrayCount, 1)
    }

    /// A streamed list grows payload by payload and is streaming until its completion; a subPath increment lands
    /// inside its fragment; a heartbeat part (`{}`) changes nothing.
    func testAStreamedListGrows() throws {
        XCTAssertEqual(
            try Self.lines("current-stream.multipart"),
            [
                "payload 1: filled data; pending 2; more coming",
                "payload 2: pending 2; more coming",
                "payload 3: filled repository.stargazers +1; pending 2; more coming",
                "payload 4: filled repository.stargazers.0, repository.stargazers +1; completed repository, repository.stargazers (more); pending 0; complete",
                "end",
            ])
        var merger = IncrementalMerger()
        let parts = try Self.parts("current-stream.multipart")
        let first = try merger.apply(parts[0])
        XCTAssertEqual(first.streaming, [[.key("repository"), .key("stargazers")]])
        _ = try merger.apply(parts[1])
        let third = try merger.apply(parts[2])
        XCTAssertEqual(third.response["data"]?["repository"]?["stargazers"]?.arrayCount, 2)
        let last = try merger.apply(parts[3])
        XCTAssertEqual(last.streaming, [])
        XCTAssertEqual(last.response["data"]?["repository"]?["stargazers"]?.arrayCount, 3)
        XCTAssertEqual(last.response["data"]?["repository"]?["stargazers"]?[index: 0]?["name"], "Ada Lovelace")
    }

    /// Apollo Router's 2022 format: data at its path with its label, a failed fragment as `data: null` and errors.
    func testApolloRouters2022Format() throws {
        XCTAssertEqual(
            try Self.lines("apollo-2022.multipart", boundary: "graphql"),
            [
                "payload 1: filled data; pending 0; more coming",
                "payload 2: filled repository (issues); pending 0; more coming",
                "payload 3: failed repository (late); pending 0; complete",
                "end",
            ])
    }

    /// Each bad input is a typed error, and a refused payload changes nothing of what was merged.
    func testBadInputIsRefusedWholly() throws {
        XCTAssertEqual(try Self.lines("unknown-id.multipart").last, "error: \(IncrementalError.unknownID("7"))")
        XCTAssertEqual(
            try Self.lines("subpath-outside.multipart").last,
            "error: \(IncrementalError.pathOutsideFragment("repository.owner.avatar"))")
        XCTAssertEqual(try Self.lines("truncated.multipart"), ["payload 1: filled data; pending 1; more coming", "error: \(MultipartError.truncated)"])
        XCTAssertEqual(try Self.lines("never-ends.multipart").last, "error: \(IncrementalError.endedWithMoreToCome)")
        XCTAssertEqual(
            try Self.lines("current-defer.multipart", partLimit: 100).last,
            "error: \(MultipartError.partTooLarge(limit: 100))")

        var merger = IncrementalMerger()
        let parts = try Self.parts("subpath-outside.multipart")
        let first = try merger.apply(parts[0])
        XCTAssertThrowsError(try merger.apply(parts[1]))
        // The refused payload left the merger as it was: the same payload again is refused the same way, and the
        // data is the first payload's.
        XCTAssertThrowsError(try merger.apply(parts[1])) { error in
            XCTAssertEqual(error as? IncrementalError, .pathOutsideFragment("repository.owner.avatar"))
        }
        XCTAssertTrue(merger.hasNext)
        XCTAssertEqual(first.response["data"]?["repository"]?["owner"], "octocat")
    }

    /// A server that ignores `Accept` and answers plain JSON: one payload, the whole response, nothing to wait for.
    func testAPlainJSONAnswerIsOneWholeResponse() throws {
        var merger = IncrementalMerger()
        let step = try merger.apply(try JSONParser.parse(#"{"data":{"repository":{"name":"baton"}}}"#))
        XCTAssertEqual(step.summary, "payload 1: filled data; pending 0; complete")
        XCTAssertFalse(step.hasNext)
        XCTAssertNoThrow(try merger.finish())
        XCTAssertThrowsError(try merger.apply(.object(JSONObject()))) { error in
            XCTAssertEqual(error as? IncrementalError, .payloadAfterEnd)
        }
    }

    /// The boundary of a Content-Type, quoted or not; none for another type.
    func testTheBoundaryOfAContentType() {
        XCTAssertEqual(MultipartReader.boundary(ofContentType: #"multipart/mixed; boundary="-"; deferSpec=20220824"#), "-")
        XCTAssertEqual(MultipartReader.boundary(ofContentType: "multipart/mixed;boundary=graphql"), "graphql")
        XCTAssertNil(MultipartReader.boundary(ofContentType: "application/json"))
        XCTAssertNil(MultipartReader.boundary(ofContentType: "multipart/mixed"))
    }

    /// The payloads of a fixture, parsed.
    static func parts(_ name: String, boundary: String = "-") throws -> [JSONValue] {
        var reader = MultipartReader(boundary: boundary)
        return try reader.feed(Array(try Fixtures.data("incremental/" + name))).map { try JSONParser.parse(Data($0)) }
    }
}

extension JSONValue {
    fileprivate var arrayCount: Int? {
        if case .array(let list) = self { return list.count }
        return nil
    }

    fileprivate subscript(index index: Int) -> JSONValue? {
        if case .array(let list) = self, list.indices.contains(index) { return list[index] }
        return nil
    }
}
