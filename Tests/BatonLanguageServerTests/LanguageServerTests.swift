import BatonCompiler
import BatonDiagnostics
import Foundation
import XCTest

@testable import BatonLanguageServer

/// What the server sends, parsed.
final class Outbox: @unchecked Sendable {
    var messages: [JSONValue] = []
    var texts: [String] = []
    /// The messages sent since the last call (named so: `Optional.take()` would win on an implicitly unwrapped box).
    func drain() -> [JSONValue] {
        defer { messages = [] }
        return messages
    }
}

/// A small project on disk: a schema, a fragment and an operation in `.graphql` files, and a Swift file with emoji
/// and CJK text before an `@Query` literal on the same line.
struct ScratchProject {
    let root: String

    static let schema = """
        type Query {
          "A user by id."
          user(id: ID!): User
          me: User
          search(filter: Filter): [User!]
        }

        input Filter {
          "Matches the display name."
          name: String
          role: Role
          and: Filter
        }

        enum Role {
          ADMIN
          MEMBER
        }

        "Someone who signed up."
        type User {
          id: ID!
          "The user's display name."
          name: String
          login: String @deprecated(reason: "Use name.")
        }

        """
    static let fragment = "fragment UserParts on User {\n  id\n  name\n}\n"
    static let operation = "query Profile {\n  me {\n    ...UserParts\n  }\n}\n"
    static let swift =
        "struct Screen {\n    let title = \"👋 日本語\"; @Query(\"query Screen { me { nmae } }\") var screen: ScreenQuery\n}\n"

    init() throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath()
        let folder = base.appendingPathComponent("baton-lsp-\(UUID().uuidString)")
        root = folder.path
        try write("baton.json", #"{"schema": "schema.graphql", "documents": ["Queries/*.graphql", "Sources/*.swift"]}"#)
        try write("schema.graphql", Self.schema)
        try write("Queries/UserParts.graphql", Self.fragment)
        try write("Queries/Profile.graphql", Self.operation)
        try write("Sources/Screen.swift", Self.swift)
    }

    func write(_ relative: String, _ text: String) throws {
        let url = URL(fileURLWithPath: root + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func uri(_ relative: String) -> String { DocumentURI.uri(of: root + "/" + relative) }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// The server driven in process: lifecycle, errors, diagnostics as `baton check` reports them, hover, definition,
/// completion and symbols.
final class LanguageServerTests: XCTestCase {
    var project: ScratchProject!
    var outbox: Outbox!
    var server: LanguageServer!

    override func setUpWithError() throws {
        project = try ScratchProject()
        let outbox = Outbox()
        self.outbox = outbox
        server = LanguageServer(workingDirectory: project.root) { text in
            outbox.texts.append(text)
            if case .success(let value) = JSONParser.parse(Array(text.utf8)) { outbox.messages.append(value) }
        }
    }

    override func tearDown() { project.remove() }

    func send(_ text: String) { server.handle(Array(text.utf8)) }

    /// Does all pending work, as the server does while the editor is quiet.
    func settle() { while server.idle() {} }

    func request(_ id: Int, _ method: String, _ params: String) -> JSONValue? {
        send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
        return outbox.drain().first { $0["id"]?.intValue == id }
    }

    func notify(_ method: String, _ params: String) {
        send(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#)
    }

    @discardableResult
    func initialize(encodings: [String] = []) -> JSONValue? {
        let offered = encodings.map { "\"\($0)\"" }.joined(separator: ",")
        let answer = request(
            1, "initialize",
            #"{"processId":null,"rootUri":"\#(DocumentURI.uri(of: project.root))","capabilities":{"general":{"positionEncodings":[\#(offered)]}}}"#
        )
        notify("initialized", "{}")
        return answer
    }

    /// The diagnostics published, by URI (the last notification for each).
    func published() -> [String: [JSONValue]] {
        var found: [String: [JSONValue]] = [:]
        for message in outbox.drain() where message["method"]?.stringValue == "textDocument/publishDiagnostics" {
            if let uri = message[path: "params", "uri"]?.stringValue {
                found[uri] = message[path: "params", "diagnostics"]?.arrayValue ?? []
            }
        }
        return found
    }

    func position(_ value: JSONValue?) -> [Int] {
        [value?["line"]?.intValue ?? -1, value?["character"]?.intValue ?? -1]
    }

    func open(_ relative: String, _ text: String, language: String = "graphql") {
        let uri = project.uri(relative)
        notify(
            "textDocument/didOpen",
            #"{"textDocument":{"uri":"\#(uri)","languageId":"\#(language)","version":1,"text":\#(JSONText.quote(text))}}"#
        )
    }

    func change(_ relative: String, _ text: String, version: Int = 2) {
        notify(
            "textDocument/didChange",
            #"{"textDocument":{"uri":"\#(project.uri(relative))","version":\#(version)},"contentChanges":[{"text":\#(JSONText.quote(text))}]}"#
        )
    }

    // MARK: Lifecycle and errors

    func testInitializeNegotiatesThePositionEncodingAndAnswersWithCapabilities() {
        let answer = initialize(encodings: ["utf-8", "utf-16"])
        XCTAssertEqual(answer?[path: "result", "capabilities", "positionEncoding"]?.stringValue, "utf-8")
        XCTAssertEqual(answer?[path: "result", "capabilities", "hoverProvider"]?.boolValue, true)
        XCTAssertEqual(server.encoding, .utf8)
    }

    func testUTF16IsTheDefault() {
        let answer = initialize()
        XCTAssertEqual(answer?[path: "result", "capabilities", "positionEncoding"]?.stringValue, "utf-16")
    }

    func testErrorsAndLifecycle() {
        let early = request(7, "textDocument/hover", "{}")
        XCTAssertEqual(early?[path: "error", "code"]?.intValue, -32002)
        initialize()
        _ = outbox.drain()
        XCTAssertEqual(request(2, "baton/unknown", "{}")?[path: "error", "code"]?.intValue, -32601)
        notify("baton/unknownNotification", "{}")
        notify("$/setTrace", #"{"value":"off"}"#)
        XCTAssertTrue(outbox.drain().isEmpty, "unknown notifications get no answer")
        send("{not json")
        XCTAssertEqual(outbox.drain().first?[path: "error", "code"]?.intValue, -32700)
        server.handle([0x7B, 0xFF, 0xFE, 0x7D])
        XCTAssertEqual(outbox.drain().first?[path: "error", "code"]?.intValue, -32700)
        send("[1,2]")
        XCTAssertEqual(outbox.drain().first?[path: "error", "code"]?.intValue, -32600)
        send(#"{"jsonrpc":"2.0","id":{"a":1},"method":"x"}"#)
        XCTAssertEqual(outbox.drain().first?[path: "error", "code"]?.intValue, -32600)
        server.handle(
            Array(#"{"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":{}}"#.utf8), cancelled: ["9"])
        XCTAssertEqual(outbox.drain().first?[path: "error", "code"]?.intValue, -32800)
        XCTAssertEqual(
            LanguageServer.cancelledID(
                in: Array(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"a"}}"#.utf8)),
            "\"a\"")
        // Positions past the end and bad params answer, never crash.
        XCTAssertNotNil(
            request(
                3, "textDocument/hover",
                #"{"textDocument":{"uri":"\#(project.uri("Queries/Profile.graphql"))"},"position":{"line":9999,"character":9999}}"#
            ))
        XCTAssertEqual(request(4, "textDocument/hover", #"{"position":1}"#)?[path: "error", "code"]?.intValue, -32602)
        XCTAssertEqual(request(5, "shutdown", "null")?["result"]?.isNull, true)
        XCTAssertEqual(request(6, "textDocument/hover", "{}")?[path: "error", "code"]?.intValue, -32600)
        notify("exit", "{}")
        XCTAssertEqual(server.exitStatus, 0)
    }

    func testExitWithoutShutdownIsStatusOne() {
        initialize()
        notify("exit", "null")
        XCTAssertEqual(server.exitStatus, 1)
    }

    // MARK: Diagnostics

    /// `baton check`'s diagnostics for the project as it is on disk, as (uri, line, character, code, message).
    func checkDiagnostics() -> [[String]] {
        var driver = Driver(request: ProjectRequest(workingDirectory: project.root), targets: .configured)
        driver.options.checksOnly = true
        return driver.compile(upTo: .plan).shownDiagnostics.compactMap { diagnostic in
            guard let start = diagnostic.range?.start else { return nil }
            return [
                DocumentURI.uri(of: project.root + "/" + start.file.path), "\(start.location.line - 1)",
                "\(start.location.column - 1)", diagnostic.rule, diagnostic.message,
            ]
        }
    }

    func lspDiagnostics(_ published: [String: [JSONValue]]) -> [[String]] {
        published.flatMap { uri, list in
            list.map { diagnostic in
                let start = position(diagnostic[path: "range", "start"])
                return [
                    uri, "\(start[0])", "\(start[1])", diagnostic["code"]?.stringValue ?? "",
                    diagnostic["message"]?.stringValue ?? "",
                ]
            }
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    func testDiagnosticsAreChecksWithUTF16ColumnsAfterEmojiAndCJK() throws {
        initialize()
        settle()
        let first = published()
        let expected = checkDiagnostics().sorted { $0.lexicographicallyPrecedes($1) }
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(lspDiagnostics(first), expected)
        let swift = first[project.uri("Sources/Screen.swift")]?.first
        // `    let title = "👋 日本語"; @Query("query Screen { me { ` is 54 UTF-16 code units before `nmae`.
        XCTAssertEqual(position(swift?[path: "range", "start"]), [1, 54])
        XCTAssertEqual(position(swift?[path: "range", "end"]), [1, 58])
        XCTAssertEqual(swift?["severity"]?.intValue, 1)
    }

    func testDiagnosticsInUTF8() throws {
        initialize(encodings: ["utf-8"])
        settle()
        let swift = published()[project.uri("Sources/Screen.swift")]?.first
        // 👋 is 4 bytes (2 code units) and 日本語 9 bytes (3): 7 more than in UTF-16.
        XCTAssertEqual(position(swift?[path: "range", "start"]), [1, 62])
    }

    func testAnEditReachesTheDocumentsSpreadingItsFragment() throws {
        initialize()
        settle()
        XCTAssertNil(published()[project.uri("Queries/Profile.graphql")])
        open("Queries/UserParts.graphql", ScratchProject.fragment)
        settle()
        // Opened as it is on disk: its diagnostics (none) are sent again, and no other file's.
        XCTAssertEqual(published().mapValues(\.count), [project.uri("Queries/UserParts.graphql"): 0])
        change("Queries/UserParts.graphql", "fragment UserPartz on User {\n  id\n}\n")
        settle()
        let afterRename = published()
        XCTAssertEqual(
            afterRename[project.uri("Queries/Profile.graphql")]?.first?["message"]?.stringValue,
            "Unknown fragment \"UserParts\".")
        XCTAssertEqual(
            afterRename[project.uri("Queries/UserParts.graphql")]?.first?["code"]?.stringValue, "no-unused-fragments")
        // The same text on disk, checked by `baton check`: the same diagnostics.
        try project.write("Queries/UserParts.graphql", "fragment UserPartz on User {\n  id\n}\n")
        change("Queries/UserParts.graphql", ScratchProject.fragment, version: 3)
        settle()
        let restored = published()
        XCTAssertEqual(restored[project.uri("Queries/Profile.graphql")]?.count, 0)
    }

    func testAnEditedSchemaRevalidatesEveryDocument() {
        initialize()
        settle()
        _ = published()
        open("schema.graphql", ScratchProject.schema)
        change(
            "schema.graphql",
            ScratchProject.schema.replacingOccurrences(of: "  name: String\n", with: "  nmae: String\n"))
        settle()
        let after = published()
        XCTAssertEqual(
            after[project.uri("Queries/UserParts.graphql")]?.first?["code"]?.stringValue, "fields-on-correct-type")
        XCTAssertEqual(after[project.uri("Sources/Screen.swift")]?.count, 0)
    }

    func testIncrementalChangesAndABrokenBatonJSON() throws {
        initialize()
        settle()
        _ = published()
        open("Queries/Profile.graphql", ScratchProject.operation)
        notify(
            "textDocument/didChange",
            #"{"textDocument":{"uri":"\#(project.uri("Queries/Profile.graphql"))","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":4}},"text":"you"}]}"#
        )
        // Validated first (the report goes out), then planned while the editor is quiet.
        XCTAssertTrue(server.idle())
        XCTAssertFalse(server.idle())
        XCTAssertEqual(
            published()[project.uri("Queries/Profile.graphql")]?.first?["message"]?.stringValue,
            "Cannot query field \"you\" on type \"Query\".")
        try project.write("baton.json", #"{"schema": 12}"#)
        notify("textDocument/didSave", #"{"textDocument":{"uri":"\#(project.uri("baton.json"))"}}"#)
        settle()
        let broken = published()
        XCTAssertEqual(broken[project.uri("baton.json")]?.first?["code"]?.stringValue, "config")
        try project.write(
            "baton.json", #"{"schema": "schema.graphql", "documents": ["Queries/*.graphql", "Sources/*.swift"]}"#)
        notify("textDocument/didSave", #"{"textDocument":{"uri":"\#(project.uri("baton.json"))"}}"#)
        settle()
        let fixed = published()
        XCTAssertEqual(fixed[project.uri("baton.json")]?.count, 0)
        XCTAssertEqual(
            fixed[project.uri("Queries/Profile.graphql")]?.first?["message"]?.stringValue,
            "Cannot query field \"you\" on type \"Query\".", "the open document's unsaved text still counts")
    }

    // MARK: Navigation

    func testHoverDefinitionCompletionAndSymbols() throws {
        initialize()
        let fragmentURI = project.uri("Queries/UserParts.graphql")
        let hover = request(
            2, "textDocument/hover", #"{"textDocument":{"uri":"\#(fragmentURI)"},"position":{"line":2,"character":3}}"#)
        let text = hover?[path: "result", "contents", "value"]?.stringValue ?? ""
        XCTAssertTrue(text.contains("User.name: String"), text)
        XCTAssertTrue(text.contains("The user's display name."), text)

        let profileURI = project.uri("Queries/Profile.graphql")
        let definition = request(
            3, "textDocument/definition",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":2,"character":9}}"#)
        let location = definition?["result"]?.arrayValue?.first
        XCTAssertEqual(location?["uri"]?.stringValue, fragmentURI)
        XCTAssertEqual(position(location?[path: "range", "start"]), [0, 9])

        let field = request(
            4, "textDocument/definition",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":1,"character":3}}"#)
        XCTAssertEqual(field?["result"]?.arrayValue?.first?["uri"]?.stringValue, project.uri("schema.graphql"))
        XCTAssertEqual(position(field?["result"]?.arrayValue?.first?[path: "range", "start"]), [3, 2])

        // Hover inside the Swift literal, after the emoji and CJK text.
        let swiftHover = request(
            5, "textDocument/hover",
            #"{"textDocument":{"uri":"\#(project.uri("Sources/Screen.swift"))"},"position":{"line":1,"character":50}}"#)
        XCTAssertTrue(swiftHover?[path: "result", "contents", "value"]?.stringValue?.contains("Query.me: User") == true)

        let completion = request(
            6, "textDocument/completion",
            #"{"textDocument":{"uri":"\#(fragmentURI)"},"position":{"line":2,"character":2}}"#)
        let labels = (completion?["result"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
        XCTAssertEqual(Set(labels), ["id", "name", "login", "__typename", "UserParts"])

        let symbols = request(7, "workspace/symbol", #"{"query":"pro"}"#)
        XCTAssertEqual(symbols?["result"]?.arrayValue?.compactMap { $0["name"]?.stringValue }, ["Profile"])
        let documentSymbols = request(8, "textDocument/documentSymbol", #"{"textDocument":{"uri":"\#(fragmentURI)"}}"#)
        XCTAssertEqual(documentSymbols?["result"]?.arrayValue?.first?["name"]?.stringValue, "UserParts")
    }

    func testPlateRowReferencesRenameAndCodeActions() throws {
        initialize()
        let fragmentURI = project.uri("Queries/UserParts.graphql")
        let profileURI = project.uri("Queries/Profile.graphql")
        let swiftURI = project.uri("Sources/Screen.swift")
        // The plate row of `me` in Profile: what it reads and as what.
        let hover = request(
            2, "textDocument/hover", #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":1,"character":3}}"#)
        let text = hover?[path: "result", "contents", "value"]?.stringValue ?? ""
        XCTAssertTrue(text.contains("| `me` |"), text)

        let references = request(
            3, "textDocument/references",
            #"{"textDocument":{"uri":"\#(fragmentURI)"},"position":{"line":0,"character":12},"context":{"includeDeclaration":true}}"#
        )
        XCTAssertEqual(
            references?["result"]?.arrayValue?.compactMap { $0["uri"]?.stringValue }.sorted(),
            [profileURI, fragmentURI].sorted())
        // `User.name`'s uses: the fragment's selection (the Swift literal selects `nmae`, no use).
        let fieldReferences = request(
            4, "textDocument/references",
            #"{"textDocument":{"uri":"\#(fragmentURI)"},"position":{"line":2,"character":3},"context":{"includeDeclaration":false}}"#
        )
        XCTAssertEqual(fieldReferences?["result"]?.arrayValue?.count, 1)

        let rename = request(
            5, "textDocument/rename",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":2,"character":9},"newName":"UserFields"}"#)
        let changes = rename?[path: "result", "changes"]
        XCTAssertEqual(changes?[fragmentURI]?.arrayValue?.first?["newText"]?.stringValue, "UserFields")
        XCTAssertEqual(position(changes?[profileURI]?.arrayValue?.first?[path: "range", "start"]), [2, 7])
        XCTAssertEqual(
            request(
                6, "textDocument/rename",
                #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":2,"character":9},"newName":"1x"}"#)?[
                    path: "error", "code"]?.intValue, -32602)

        // "Did you mean" applied inside the Swift literal, at its UTF-16 range.
        let diagnostic =
            #"{"range":{"start":{"line":1,"character":54},"end":{"line":1,"character":58}},"message":"Cannot query field \"nmae\" on type \"User\". Did you mean \"name\"?"}"#
        let actions = request(
            7, "textDocument/codeAction",
            #"{"textDocument":{"uri":"\#(swiftURI)"},"range":{"start":{"line":1,"character":54},"end":{"line":1,"character":58}},"context":{"diagnostics":[\#(diagnostic)]}}"#
        )
        let first = actions?["result"]?.arrayValue?.first
        XCTAssertEqual(first?["title"]?.stringValue, "Change to \"name\"")
        XCTAssertEqual(first?[path: "edit", "changes"]?[swiftURI]?.arrayValue?.first?["newText"]?.stringValue, "name")
        // `me { … }` in the Swift literal selects no `id`: adding it is offered.
        XCTAssertTrue(
            actions?["result"]?.arrayValue?.contains { $0["title"]?.stringValue?.hasPrefix("Add \"id\" to me") == true }
                == true)

        try project.write("Queries/Profile.graphql", "query Profile {\n  user {\n    id\n  }\n}\n")
        notify("workspace/didChangeWatchedFiles", #"{"changes":[{"uri":"\#(profileURI)","type":2}]}"#)
        settle()
        let missing = published()[profileURI]?.first
        let message = missing?["message"]?.stringValue ?? ""
        XCTAssertEqual(message, "Field \"user\" argument \"id\" of type \"ID!\" is required, but it was not provided.")
        let add = request(
            8, "textDocument/codeAction",
            #"{"textDocument":{"uri":"\#(profileURI)"},"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":2}},"context":{"diagnostics":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":6}},"message":\#(JSONText.quote(message))}]}}"#
        )
        let edit = add?["result"]?.arrayValue?.first { $0["title"]?.stringValue == "Add the argument \"id\"" }
        let textEdit = edit?[path: "edit", "changes"]?[profileURI]?.arrayValue?.first
        XCTAssertEqual(textEdit?["newText"]?.stringValue, "(id: )")
        XCTAssertEqual(position(textEdit?[path: "range", "start"]), [1, 6])
    }

    func testDeepLiteralsDeletedFilesAndWatcherRegistration() throws {
        let answer = request(
            1, "initialize",
            #"{"rootUri":"\#(DocumentURI.uri(of: project.root))","capabilities":{"workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}}}}"#
        )
        XCTAssertNotNil(answer?["result"])
        notify("initialized", "{}")
        XCTAssertTrue(outbox.drain().contains { $0["method"]?.stringValue == "client/registerCapability" })
        // A client's answer to our request is ignored.
        send(#"{"jsonrpc":"2.0","id":"baton-register-1","result":null}"#)
        XCTAssertTrue(outbox.drain().isEmpty)

        // 3,000 nested selection sets typed into a document: one located syntax error, and the server answers.
        let deep = "query Deep " + String(repeating: "{ me ", count: 3_000) + String(repeating: "}", count: 3_000)
        open("Queries/Profile.graphql", ScratchProject.operation)
        change("Queries/Profile.graphql", deep)
        settle()
        let profileURI = project.uri("Queries/Profile.graphql")
        XCTAssertEqual(published()[profileURI]?.first?["code"]?.stringValue, "syntax")
        XCTAssertNotNil(
            request(
                2, "textDocument/hover",
                #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":0,"character":9000}}"#))

        // The fragment's file deleted on disk: the operation spreading it is told, and the file's own report cleared.
        notify("textDocument/didClose", #"{"textDocument":{"uri":"\#(profileURI)"}}"#)
        settle()
        _ = published()
        let fragmentURI = project.uri("Queries/UserParts.graphql")
        try FileManager.default.removeItem(atPath: project.root + "/Queries/UserParts.graphql")
        notify("workspace/didChangeWatchedFiles", #"{"changes":[{"uri":"\#(fragmentURI)","type":3}]}"#)
        settle()
        XCTAssertEqual(
            published()[profileURI]?.first?["message"]?.stringValue, "Unknown fragment \"UserParts\".")
    }

    func testCompletionWhileTheDocumentDoesNotParse() {
        initialize()
        let profileURI = project.uri("Queries/Profile.graphql")
        open("Queries/Profile.graphql", ScratchProject.operation)
        change("Queries/Profile.graphql", "query Profile($id: ID!) {\n  user(id: $id) {\n    \n  }\n}\n")
        let fields = request(
            2, "textDocument/completion",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":2,"character":4}}"#)
        let labels = (fields?["result"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
        XCTAssertEqual(Set(labels), ["id", "name", "login", "__typename", "UserParts"])
        // In a Swift literal, after the emoji: `me { nmae }` becomes `me {  }` being typed.
        let swiftURI = project.uri("Sources/Screen.swift")
        open("Sources/Screen.swift", ScratchProject.swift, language: "swift")
        change("Sources/Screen.swift", ScratchProject.swift.replacingOccurrences(of: "nmae", with: ""))
        let swiftFields = request(
            3, "textDocument/completion",
            #"{"textDocument":{"uri":"\#(swiftURI)"},"position":{"line":1,"character":54}}"#)
        XCTAssertTrue(
            (swiftFields?["result"]?.arrayValue ?? []).contains { $0["label"]?.stringValue == "login" },
            "\(String(describing: swiftFields))")
        // Variables after `$`, directives after `@`.
        change("Queries/Profile.graphql", "query Profile($id: ID!) {\n  user(id: $) {\n    id\n  }\n}\n", version: 3)
        let variables = request(
            4, "textDocument/completion",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":1,"character":12}}"#)
        XCTAssertEqual(variables?["result"]?.arrayValue?.compactMap { $0["label"]?.stringValue }, ["id"])
        change(
            "Queries/Profile.graphql", "query Profile($id: ID!) {\n  user(id: $id) @ {\n    id\n  }\n}\n", version: 4)
        let directives = request(
            5, "textDocument/completion",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":1,"character":17}}"#)
        let names = Set((directives?["result"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue })
        XCTAssertTrue(names.isSuperset(of: ["include", "skip", "required", "catch"]), "\(names)")
        // Arguments in `user()` being typed, and a directive's argument's enum values.
        change("Queries/Profile.graphql", "query Profile($id: ID!) {\n  user() {\n    id\n  }\n}\n", version: 5)
        let arguments = request(
            6, "textDocument/completion",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":1,"character":7}}"#)
        XCTAssertEqual(arguments?["result"]?.arrayValue?.compactMap { $0["label"]?.stringValue }, ["id"])
        change(
            "Queries/Profile.graphql",
            "query Profile($id: ID!) {\n  user(id: $id) {\n    name @required(action: )\n  }\n}\n",
            version: 6)
        let actions = request(
            7, "textDocument/completion",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":2,"character":27}}"#)
        let values = Set((actions?["result"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue })
        XCTAssertTrue(values.isSuperset(of: ["THROW", "LOG", "NONE"]), "\(values)")
        // Input object fields, nested, and an enum value inside one.
        change(
            "Queries/Profile.graphql", "query Profile {\n  search(filter: { and: {  } }) {\n    id\n  }\n}\n",
            version: 7)
        let inputFields = request(
            8, "textDocument/completion",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":1,"character":25}}"#)
        XCTAssertEqual(
            inputFields?["result"]?.arrayValue?.compactMap { $0["label"]?.stringValue }, ["name", "role", "and"])
        change(
            "Queries/Profile.graphql", "query Profile {\n  search(filter: { role:  }) {\n    id\n  }\n}\n", version: 8)
        let roles = request(
            9, "textDocument/completion",
            #"{"textDocument":{"uri":"\#(profileURI)"},"position":{"line":1,"character":25}}"#)
        XCTAssertEqual(roles?["result"]?.arrayValue?.compactMap { $0["label"]?.stringValue }, ["ADMIN", "MEMBER"])
    }

    func testSeveralWorkspaceFolders() throws {
        let second = try ScratchProject()
        defer { second.remove() }
        try second.write("Queries/Profile.graphql", "query Profile {\n  you\n}\n")
        let folders = [project.root, second.root].map { #"{"uri":"\#(DocumentURI.uri(of: $0))","name":"x"}"# }
        _ = request(
            1, "initialize", #"{"workspaceFolders":[\#(folders.joined(separator: ","))],"capabilities":{}}"#)
        notify("initialized", "{}")
        settle()
        let first = published()
        XCTAssertEqual(
            first[second.uri("Queries/Profile.graphql")]?.first?["code"]?.stringValue, "fields-on-correct-type")
        XCTAssertEqual(first[project.uri("Sources/Screen.swift")]?.count, 1)
        XCTAssertNil(first[project.uri("Queries/Profile.graphql")])
        // The second folder removed: its reports are cleared.
        notify(
            "workspace/didChangeWorkspaceFolders",
            #"{"event":{"added":[],"removed":[{"uri":"\#(DocumentURI.uri(of: second.root))","name":"x"}]}}"#)
        settle()
        XCTAssertEqual(published()[second.uri("Queries/Profile.graphql")]?.count, 0)
    }

    func testHoverAndReferencesFromTheSchemaFile() {
        initialize()
        settle()
        let schemaURI = project.uri("schema.graphql")
        // `name` of `type User` in the schema (the last `  name: String`; `input Filter` has one too).
        let line = ScratchProject.schema.split(separator: "\n", omittingEmptySubsequences: false)
            .lastIndex { $0 == "  name: String" }
        XCTAssertNotNil(line)
        let references = request(
            2, "textDocument/references",
            #"{"textDocument":{"uri":"\#(schemaURI)"},"position":{"line":\#(line ?? 0),"character":3},"context":{"includeDeclaration":false}}"#
        )
        XCTAssertEqual(
            references?["result"]?.arrayValue?.compactMap { $0["uri"]?.stringValue },
            [project.uri("Queries/UserParts.graphql")])
        let hover = request(
            3, "textDocument/hover",
            #"{"textDocument":{"uri":"\#(schemaURI)"},"position":{"line":\#(line ?? 0),"character":3}}"#)
        XCTAssertTrue(
            hover?[path: "result", "contents", "value"]?.stringValue?.contains("User.name: String") == true,
            "\(line ?? -1) \(outbox.texts.suffix(2))")
    }

    func testPositionsRoundTrip() {
        let file = SourceFile(path: "x", bytes: Array("a👋b\r\n日c\nd".utf8))
        for encoding in [PositionEncoding.utf16, .utf8] {
            for offset in [0, 1, 5, 6, 8, 11, 12, 14] {
                let position = TextPositions.position(of: offset, in: file, encoding: encoding)
                XCTAssertEqual(
                    TextPositions.offset(of: position, in: file, encoding: encoding), offset, "\(encoding) \(offset)")
            }
        }
        XCTAssertEqual(TextPositions.position(of: 5, in: file, encoding: .utf16), TextPosition(line: 0, character: 3))
        XCTAssertEqual(TextPositions.offset(of: TextPosition(line: 0, character: 99), in: file, encoding: .utf16), 6)
        XCTAssertEqual(TextPositions.offset(of: TextPosition(line: 99, character: 0), in: file, encoding: .utf16), 14)
        XCTAssertEqual(DocumentURI.path(of: DocumentURI.uri(of: "/a b/ç#.graphql")), "/a b/ç#.graphql")
        XCTAssertNil(DocumentURI.path(of: "untitled:1"))
    }
}
