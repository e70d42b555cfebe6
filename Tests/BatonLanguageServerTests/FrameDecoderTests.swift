import XCTest

@testable import BatonLanguageServer

/// The base protocol's framing: whole frames, frames split or joined across reads, and bad headers skipped.
final class FrameDecoderTests: XCTestCase {
    func frames(_ chunks: [String]) -> [FrameDecoder.Frame] {
        var decoder = FrameDecoder()
        var found: [FrameDecoder.Frame] = []
        for chunk in chunks {
            decoder.append(Array(chunk.utf8))
            while let frame = decoder.next() { found.append(frame) }
        }
        return found
    }

    func message(_ text: String) -> FrameDecoder.Frame { .message(Array(text.utf8)) }

    func testWholeSplitAndJoinedFrames() {
        let one = "Content-Length: 2\r\n\r\n{}"
        XCTAssertEqual(frames([one]), [message("{}")])
        XCTAssertEqual(frames(["Content-Len", "gth: 2\r\n", "\r\n{", "}"]), [message("{}")])
        XCTAssertEqual(frames([one + one + "Content-Length: 1"]), [message("{}"), message("{}")])
        XCTAssertEqual(
            frames(["content-length: 3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1]"]),
            [message("[1]")])
        XCTAssertEqual(
            String(decoding: FrameDecoder.encode("{\"é\":1}"), as: UTF8.self), "Content-Length: 8\r\n\r\n{\"é\":1}")
    }

    func testBadHeadersAreSkippedAndTheNextFrameIsRead() {
        let good = "Content-Length: 2\r\n\r\n{}"
        for bad in [
            "Content-Type: x\r\n\r\n", "Content-Length: -1\r\n\r\n", "Content-Length: 1e3\r\n\r\n",
            "Content-Length:\r\n\r\n", "Content-Length: 99999999999999999999\r\n\r\n", "garbage\r\n\r\n",
            "Content-Length: \(FrameDecoder.maximumBodyLength + 1)\r\n\r\n",
        ] {
            let found = frames([bad + good])
            XCTAssertEqual(found.count, 2, bad)
            guard case .malformed = found.first else { return XCTFail("not malformed: \(bad)") }
            XCTAssertEqual(found.last, message("{}"), bad)
        }
    }

    func testAHeaderThatNeverEndsIsDropped() {
        let found = frames([String(repeating: "x", count: FrameDecoder.maximumHeaderLength + 10)])
        XCTAssertEqual(found.count, 1)
        guard case .malformed = found.first else { return XCTFail("not malformed") }
    }

    func testAnIncompleteBodyWaits() {
        var decoder = FrameDecoder()
        decoder.append(Array("Content-Length: 10\r\n\r\n{}".utf8))
        XCTAssertNil(decoder.next())
        decoder.append(Array("12345678".utf8))
        XCTAssertEqual(decoder.next(), message("{}12345678"))
    }
}
