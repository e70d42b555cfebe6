import Foundation
import XCTest

@testable import Baton

/// The pieces of Baton's own WebSocket client that need no server.
final class WebSocketHandshakeTests: XCTestCase {
    func testSHA1OfTheKnownVectors() {
        let hex = { (text: String) in SHA1.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        XCTAssertEqual(hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    func testTheAcceptValueOfRFC6455() {
        // RFC 6455 §1.3: the key "dGhlIHNhbXBsZSBub25jZQ==" is accepted as "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
        let accept = Data(SHA1.digest(Array("dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11".utf8)))
        XCTAssertEqual(accept.base64EncodedString(), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func testWSSIsRefusedByTheSocketClient() async {
        do {
            _ = try await SocketWebSocketConnector().connect(
                url: URL(string: "wss://example.com/graphql")!, subprotocol: "graphql-transport-ws", headers: [:])
            XCTFail("wss needs TLS, which the socket client does not have")
        } catch {
            XCTAssertEqual(error as? WebSocketError, .unsupportedURL("wss://example.com/graphql"))
        }
    }
}
