import BatonDiagnostics
import BatonTestSupport
import Foundation
import XCTest

@testable import BatonLanguageServer

/// The built `baton lsp` over real pipes: bad frames, invalid UTF-8 and JSON, a cancelled request and an input
/// that ends without `shutdown` are answered or skipped, and the process exits (1) instead of hanging or crashing.
final class StandardStreamsTests: XCTestCase {
    func frame(_ body: String) -> Data { frame(Data(body.utf8)) }
    func frame(_ body: Data) -> Data { Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body }

    func testHostileStreamIsAnsweredAndTheServerExits() throws {
        let baton = try EndToEndTests.baton()
        let project = try ScratchProject()
        defer { project.remove() }
        var input = Data()
        input += Data("Content-Length: nope\r\n\r\n".utf8)
        input += frame(Data([0x7B, 0xFF, 0x7D]))
        input += frame(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"rootUri\":\"\(DocumentURI.uri(of: project.root))\",\"capabilities\":{}}}"
        )
        input += frame("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}")
        input += frame("{\"jsonrpc\":")
        input += frame("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"baton/nothing\"}")
        let hover =
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"textDocument/hover\",\"params\":{\"textDocument\":{\"uri\":\"\(project.uri("Queries/Profile.graphql"))\"},\"position\":{\"line\":1,\"character\":3}}}"
        input += frame(hover)
        input += frame("{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":3}}")
        input += frame(
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"textDocument/hover\",\"params\":{\"textDocument\":{\"uri\":\"file:///nowhere.graphql\"},\"position\":{\"line\":-5,\"character\":99999}}}"
        )
        input += Data("Content-Length: 100\r\n\r\n{\"truncated".utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: baton)
        process.arguments = ["lsp"]
        process.currentDirectoryURL = URL(fileURLWithPath: project.root)
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: timer)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 1, "the input ended without shutdown and exit")

        var decoder = FrameDecoder()
        decoder.append(Array(output))
        var answers: [String: Int] = [:]
        var parseErrors = 0
        while let next = decoder.next() {
            guard case .message(let body) = next, case .success(let message) = JSONParser.parse(body) else {
                return XCTFail("not a JSON frame: \(next)")
            }
            let code = message[path: "error", "code"]?.intValue
            if let id = message["id"]?.intValue { answers["\(id)"] = code ?? 0 }
            if message["id"]?.isNull == true, code == -32700 { parseErrors += 1 }
        }
        XCTAssertEqual(parseErrors, 3, "the bad header, the invalid UTF-8 and the cut JSON")
        XCTAssertEqual(answers["1"], 0)
        XCTAssertEqual(answers["2"], -32601)
        XCTAssertEqual(answers["3"], -32800, "cancelled before it was handled")
        XCTAssertEqual(answers["4"], 0, "a position outside any document answers null")
    }
}
