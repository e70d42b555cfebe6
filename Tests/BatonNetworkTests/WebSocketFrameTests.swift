import Foundation
import XCTest

@testable import Baton

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Frames a server sends, read by Baton's own WebSocket client from one end of a socket pair (no server): what
/// RFC 6455 requires a client to refuse breaks the connection, and what it allows arrives whole. The `websocket`
/// fuzz target (Fuzz/Targets/WebSocket.swift) checks the same reading against a plain decoder; these are its
/// findings (Docs/Reliability.md).
final class WebSocketFrameTests: XCTestCase {
    /// One unmasked frame from a server.
    func frame(_ payload: [UInt8], opcode: UInt8 = 0x1, final: Bool = true, head: UInt8 = 0) -> [UInt8] {
        precondition(payload.count < 126)
        return [(final ? 0x80 : 0) | head | opcode, UInt8(payload.count)] + payload
    }

    /// The messages the client yields for `bytes`, and the error that ended them (nil: a normal end).
    func read(_ bytes: [UInt8]) async -> (messages: [String], error: WebSocketError?) {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            XCTFail("no socket pair")
            return ([], nil)
        }
        _ = bytes.withUnsafeBytes { send(pair[1], $0.baseAddress, $0.count, 0) }
        _ = shutdown(pair[1], Int32(SHUT_WR))
        defer { _ = close(pair[1]) }
        let socket = SocketWebSocket(descriptor: pair[0], buffered: [], maxMessageBytes: 1 << 16)
        var messages: [String] = []
        do {
            for try await message in socket.messages { messages.append(message) }
            return (messages, nil)
        } catch {
            return (messages, error as? WebSocketError)
        }
    }

    func violation(_ bytes: [UInt8]) async -> String? {
        let (_, error) = await read(bytes)
        guard case .protocolViolation(let reason)? = error else { return nil }
        return reason
    }

    func testFragmentsWithAPingBetweenThemMakeOneMessage() async {
        let bytes =
            frame(Array("{\"a\":".utf8), final: false) + frame(Array("ping".utf8), opcode: 0x9)
            + frame(Array("1".utf8), opcode: 0x0, final: false) + frame(Array("}".utf8), opcode: 0x0)
            + frame([0x03, 0xE8], opcode: 0x8)
        let (messages, error) = await read(bytes)
        XCTAssertEqual(messages, ["{\"a\":1}"])
        XCTAssertNil(error)
    }

    func testAMaskedFrameFromTheServerBreaksTheConnection() async {
        // RFC 6455 §5.1: a client closes the connection on a masked frame.
        let masked: [UInt8] = [0x81, 0x80 | 2, 1, 2, 3, 4, UInt8(ascii: "{") ^ 1, UInt8(ascii: "}") ^ 2]
        let reason = await violation(masked)
        XCTAssertEqual(reason, "a masked frame or reserved bits from the server")
    }

    func testReservedBitsBreakTheConnection() async {
        let reason = await violation(frame(Array("{}".utf8), head: 0x40))
        XCTAssertEqual(reason, "a masked frame or reserved bits from the server")
    }

    func testAContinuationWithoutAMessageBreaksTheConnection() async {
        let (messages, error) = await read(frame(Array("{}".utf8), opcode: 0x0))
        XCTAssertEqual(messages, [])
        XCTAssertEqual(error, .protocolViolation("a continuation without a message"))
    }

    func testANewMessageInsideAFragmentedOneBreaksTheConnection() async {
        let bytes = frame(Array("{".utf8), final: false) + frame(Array("{}".utf8))
        let reason = await violation(bytes)
        XCTAssertEqual(reason, "a new message inside a fragmented one")
    }

    func testAFragmentedControlFrameBreaksTheConnection() async {
        let reason = await violation(frame(Array("ping".utf8), opcode: 0x9, final: false))
        XCTAssertEqual(reason, "a fragmented or long control frame")
    }

    func testALongControlFrameBreaksTheConnection() async {
        let long: [UInt8] = [0x89, 126, 0, 126] + [UInt8](repeating: 0x61, count: 126)
        let reason = await violation(long)
        XCTAssertEqual(reason, "a fragmented or long control frame")
    }
}
