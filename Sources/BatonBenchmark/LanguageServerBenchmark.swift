import BatonDiagnostics
import BatonSyntax
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `BatonBenchmark lsp [--corpus github|saleor|anilist] [--operations N] [--edits N] [--requests N] [--directory DIR]
/// [--baton PATH]`: `baton lsp` on the 10,000-operation project of `BatonBenchmark scale` built from that corpus
/// domain's real documents (GitHub's by default; written, or kept, under `.build/scale/project`), driven over its
/// stdin and stdout as an editor drives it:
///
/// - first diagnostics: from sending `initialize` (with `initialized` and the `didOpen` of one document holding an
///   unknown field right behind it) to the `publishDiagnostics` of that document: the server's start, the whole
///   project read and validated, and the first report;
/// - edit → diagnostics: `didChange` of that document, alternately fixing and breaking one field, to its next
///   `publishDiagnostics` (p50, p95);
/// - hover and completion on a field of the document (p50, p95);
/// - the server's resident memory at the end (`VmRSS`) and its peak (`VmHWM`), from `/proc`.
///
/// `baton` is the release build beside this benchmark unless `--baton` names one.
func runLanguageServerBenchmark(_ arguments: [String]) {
    var operations = 10_000
    var edits = 40
    var requests = 200
    var directory: String?
    var domain = ScaleProject.Domain.all[0]
    var baton =
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("baton").path
    var index = 0
    while index < arguments.count {
        let value = index + 1 < arguments.count ? arguments[index + 1] : nil
        switch arguments[index] {
        case "--operations": operations = value.flatMap(Int.init) ?? operations
        case "--edits": edits = value.flatMap(Int.init) ?? edits
        case "--requests": requests = value.flatMap(Int.init) ?? requests
        case "--directory": directory = value
        case "--baton": baton = value ?? baton
        case "--corpus" where value.flatMap(ScaleProject.Domain.named) != nil:
            domain = value.flatMap(ScaleProject.Domain.named) ?? domain
        default:
            print(
                "usage: BatonBenchmark lsp [--corpus github|saleor|anilist] [--operations N] [--edits N] [--requests N] [--directory DIR] [--baton PATH]"
            )
            return
        }
        index += 2
    }
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL.path
    let shared = ProcessInfo.processInfo.environment["BATON_SHARED"] ?? ScaleBenchmark.sharedFolder(above: package)
    guard let corpus = ScaleProject.load(shared: shared, domain: domain) else {
        return print("lsp: \(domain.schema) not found under \(shared)/corpus/schemas (set BATON_SHARED)")
    }
    let project: ScaleProject.Written
    do {
        project = try corpus.write(operations: operations, to: (directory ?? "\(package)/.build/scale") + "/project")
    } catch {
        return print("lsp: cannot write the project: \(error)")
    }
    guard let path = project.files.first, let data = FileManager.default.contents(atPath: path),
        let target = LanguageServerBenchmarkDocument(bytes: Array(data))
    else { return print("lsp: no document with a field to edit") }
    print(
        "## Language server: \(project.files.count) documents from the \(domain.name) corpus (\(project.directory)); \(ScaleBenchmark.uptime())"
    )
    print("  baton: \(baton); edited and hovered: \(path)")

    guard let server = LanguageServerProcess(baton, directory: project.directory) else {
        return print("lsp: cannot start \(baton) lsp")
    }
    let uri = "file://" + path
    let clock = ContinuousClock()
    let start = clock.now
    server.send(
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file://\#(project.directory)","capabilities":{}}}"#
    )
    server.send(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
    server.send(
        #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"graphql","version":1,"text":\#(JSONText.quote(target.broken))}}}"#
    )
    guard server.waitForDiagnostics(of: uri, broken: true) else { return print("lsp: no first diagnostics") }
    let first = ScaleBenchmark.seconds(clock.now - start)
    print(String(format: "  first diagnostics after initialize: %.2f s", first))

    var editTimes: [Double] = []
    for edit in 0..<edits {
        let text = edit % 2 == 0 ? target.text : target.broken
        let began = clock.now
        server.send(
            #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(edit + 2)},"contentChanges":[{"text":\#(JSONText.quote(text))}]}}"#
        )
        guard server.waitForDiagnostics(of: uri, broken: edit % 2 == 1) else { return print("lsp: edit \(edit) lost") }
        editTimes.append(ScaleBenchmark.seconds(clock.now - began) * 1000)
    }
    print(LanguageServerBenchmarkDocument.summary("edit → diagnostics", editTimes))
    if edits % 2 == 0 {
        // Hover and completion on the valid text (a misspelt field has no type to show).
        server.send(
            #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(edits + 2)},"contentChanges":[{"text":\#(JSONText.quote(target.text))}]}}"#
        )
        guard server.waitForDiagnostics(of: uri, broken: false) else { return print("lsp: the last edit lost") }
    }

    for (method, character) in [
        ("textDocument/hover", target.fieldCharacter), ("textDocument/completion", target.fieldCharacter),
    ] {
        var times: [Double] = []
        for request in 0..<requests {
            let id = 1000 + request
            let began = clock.now
            server.send(
                #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{"textDocument":{"uri":"\#(uri)"},"position":{"line":\#(target.fieldLine),"character":\#(character)}}}"#
            )
            guard let answer = server.waitForResponse(id) else { return print("lsp: \(method) unanswered") }
            if request == 0 { print("  \(method) answers \(answer.utf8.count) bytes: \(answer.prefix(160))…") }
            times.append(ScaleBenchmark.seconds(clock.now - began) * 1000)
        }
        print(LanguageServerBenchmarkDocument.summary(method == "textDocument/hover" ? "hover" : "completion", times))
    }
    let status =
        (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)) ?? ""
    let memory = status.split(separator: "\n").filter { $0.hasPrefix("VmRSS") || $0.hasPrefix("VmHWM") }
        .map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().joined(separator: " ") }
    print("  memory: resident \(memory.last ?? "?"), peak \(memory.first ?? "?")")
    server.send(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)
    _ = server.waitForResponse(2)
    server.send(#"{"jsonrpc":"2.0","method":"exit"}"#)
    server.process.waitUntilExit()
}

/// The benchmark's document: its text, the text with its first field misspelt, and where that field is.
struct LanguageServerBenchmarkDocument {
    var text: String
    var broken: String
    var fieldLine: Int
    var fieldCharacter: Int
    /// What the broken text adds to the field's name.
    static let misspelling = "Zz"

    init?(bytes: [UInt8]) {
        let source = SourceFile(path: "benchmark.graphql", bytes: bytes)
        guard let document = Parser.parse(source).document else { return nil }
        var field: Field?
        for definition in document.definitions {
            guard case .operation(let operation) = definition else { continue }
            for case .field(let root) in operation.selectionSet.selections {
                for case .field(let inner) in root.selectionSet?.selections ?? [] {
                    field = inner
                    break
                }
                if field != nil { break }
            }
            if field != nil { break }
        }
        guard let field else { return nil }
        let location = source.localLocation(of: field.name.span.start)
        text = source.text
        let end = field.name.span.end
        broken = String(decoding: bytes[..<end] + Array(Self.misspelling.utf8) + bytes[end...], as: UTF8.self)
        fieldLine = location.line - 1
        fieldCharacter = location.column - 1 + 1
    }

    static func summary(_ name: String, _ milliseconds: [Double]) -> String {
        let sorted = milliseconds.sorted()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
        }
        return String(
            format: "  %@: p50 %.1f ms, p95 %.1f ms, max %.1f ms (%d runs)", name, percentile(0.5), percentile(0.95),
            sorted.last ?? 0, sorted.count)
    }
}

/// `baton lsp` as a child process with framed messages both ways.
final class LanguageServerProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    init?(_ baton: String, directory: String) {
        process.executableURL = URL(fileURLWithPath: baton)
        process.arguments = ["lsp"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        do { try process.run() } catch { return nil }
    }

    func send(_ body: String) {
        let bytes = Array(body.utf8)
        input.fileHandleForWriting.write(Data("Content-Length: \(bytes.count)\r\n\r\n".utf8) + Data(bytes))
    }

    /// The next message's JSON text, or nil at the end of output.
    func receive() -> String? {
        while true {
            if let end = findHeaderEnd() {
                let header = String(decoding: buffer[..<end], as: UTF8.self)
                let length =
                    header.split(separator: "\r\n").compactMap { line -> Int? in
                        let parts = line.split(separator: ":", maxSplits: 1)
                        return parts.count == 2 && parts[0].lowercased() == "content-length"
                            ? Int(parts[1].trimmingCharacters(in: .whitespaces)) : nil
                    }.first ?? 0
                if buffer.count >= end + 4 + length {
                    let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                    buffer.removeFirst(end + 4 + length)
                    return body
                }
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return nil }
            buffer += data
        }
    }

    private func findHeaderEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Reads until the diagnostics of `uri` are published, with the misspelt field's error (`broken`) or without.
    /// (The document's own warnings, `deprecated-usage`, stay either way.)
    func waitForDiagnostics(of uri: String, broken: Bool) -> Bool {
        while let message = receive() {
            guard message.contains("\"textDocument/publishDiagnostics\""), message.contains("\"uri\":\"\(uri)\"") else {
                continue
            }
            if message.contains(LanguageServerBenchmarkDocument.misspelling + "\\\"") == broken { return true }
        }
        return false
    }

    /// Reads until the response to request `id`, and returns it.
    @discardableResult
    func waitForResponse(_ id: Int) -> String? {
        while let message = receive() {
            if message.hasPrefix("{\"jsonrpc\":\"2.0\",\"id\":\(id),") { return message }
        }
        return nil
    }
}
