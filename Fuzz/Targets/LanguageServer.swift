// `baton lsp`'s message handler: the input is a byte stream an editor could send (framed by `FrameDecoder`), fed
// to a server initialized on a small scratch project, applied as each stream would be (`idle()` after it). Every
// message the server sends must be a JSON-RPC object, every request answered once, every position non-negative;
// nothing may crash or hang.
import BatonDiagnostics
import BatonLanguageServer
import Foundation

let scratch: String = {
    // A fixed folder, so the seeds (Fuzz/make-lsp-seeds.py) can name its files.
    let path = "/tmp/baton-fuzz-lsp"
    let files = [
        "baton.json": #"{"schema": "schema.graphql", "documents": ["*.graphql", "*.swift"]}"#,
        "schema.graphql": "type Query { user(id: ID!): User }\ntype User { id: ID! name: String }\n",
        "a.graphql": "query A { user(id: 1) { ...F } }\n",
        "f.graphql": "fragment F on User { id name }\n",
        "s.swift": "let x = \"👋\"; @Query(\"query S { user(id: 2) { id } }\") var s: S\n",
    ]
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, text) in files { try? Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name)) }
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var sent: [String] = []
    let server = LanguageServer(workingDirectory: scratch) { sent.append($0) }
    let initialize =
        #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"rootUri":"file://\#(scratch)","capabilities":{}}}"#
    server.handle(Array(initialize.utf8))
    server.handle(Array(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#.utf8))
    var decoder = FrameDecoder()
    decoder.append(UnsafeBufferPointer(start: data, count: size))
    var requests = 1
    while let frame = decoder.next() {
        switch frame {
        case .message(let body):
            if case .success(let value) = JSONParser.parse(body), value["id"] != nil, value["method"] != nil {
                requests += 1
            }
            server.handle(body)
        case .malformed(let reason): server.handleMalformedFrame(reason)
        }
        if server.exitStatus != nil { break }
    }
    while server.idle() {}
    var responses = 0
    for text in sent {
        guard case .success(let value) = JSONParser.parse(Array(text.utf8)), case .object = value,
            value["jsonrpc"]?.stringValue == "2.0"
        else { violated("not a JSON-RPC message: \(text.prefix(200))") }
        if value["method"] == nil { responses += 1 }
        if text.contains("\"line\":-") || text.contains("\"character\":-") {
            violated("a negative position: \(text.prefix(200))")
        }
    }
    // Each request is answered once; error responses to unreadable messages may come on top.
    if responses < requests && server.exitStatus == nil { violated("\(requests) requests, \(responses) answers") }
    return 0
}
