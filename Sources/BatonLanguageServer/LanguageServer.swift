import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonSyntax

/// `baton lsp`'s message handler: one JSON-RPC message in, its answers and notifications out through `send`.
///
/// It does no I/O of its own (`StandardStreams` frames the stream), so tests and the fuzz target drive it
/// directly. Edits are applied when the stream falls quiet (`idle()`) or before a request that needs them, so a
/// burst of keystrokes costs one re-validation; then `textDocument/publishDiagnostics` goes out for every file
/// whose diagnostics changed: the edited document, the documents spreading a fragment it defines, every document
/// after a schema or baton.json change, and baton.json itself.
package final class LanguageServer {
    /// The server's lifecycle, as LSP defines it.
    package enum State: Sendable {
        case uninitialized, running, shuttingDown
    }

    package private(set) var state = State.uninitialized
    /// Set by `exit`: the process's status (0 after `shutdown`, 1 without it).
    package private(set) var exitStatus: Int32?
    package private(set) var encoding = PositionEncoding.utf16
    package private(set) var folders: [WorkspaceFolder] = []
    /// Where a workspace without folders is rooted (the process's working directory).
    private let defaultRoot: String
    private var folderRoots: [String] = []
    private var loaded = false
    /// The client registers file watchers for us (`client/registerCapability`).
    private var watchesFiles = false
    /// Open documents' texts, by absolute path.
    private var openTexts: [String: [UInt8]] = [:]
    /// Open documents whose text differs from what the compilations read.
    private var pendingEdits: Set<String> = []
    /// Paths changed on disk, not yet applied.
    private var pendingDisk: Set<String> = []
    /// The diagnostics last published, by URI, so only changes are sent; and their JSON (to send a document's
    /// again when it is opened).
    private var publishedDiagnostics: [String: [Diagnostic]] = [:]
    private var published: [String: String] = [:]
    private let send: (String) -> Void

    /// A server writing each outgoing message's JSON through `send`.
    package init(workingDirectory: String, send: @escaping (String) -> Void) {
        defaultRoot = workingDirectory
        self.send = send
    }

    // MARK: Messages

    /// Handles one frame's body. `cancelled` lists request ids (JSON text) cancelled before they were handled.
    package func handle(_ body: [UInt8], cancelled: Set<String> = []) {
        switch JSONRPC.decode(body) {
        case .failure(let error):
            send(JSONRPC.error(id: error.id, error.code, error.message))
        case .success(let message):
            if message.isResponse { return }
            guard let method = message.method else { return }
            if let id = message.id {
                if cancelled.contains(id) {
                    send(JSONRPC.error(id: id, .requestCancelled, "The request was cancelled."))
                    return
                }
                request(id: id, method: method, params: message.params)
            } else {
                notification(method, params: message.params)
            }
        }
    }

    /// A frame that could not be read (`FrameDecoder`'s `.malformed`).
    package func handleMalformedFrame(_ reason: String) {
        send(JSONRPC.error(id: "null", .parseError, reason))
    }

    /// The ids (JSON text) a body cancels, if it is a `$/cancelRequest`.
    package static func cancelledID(in body: [UInt8]) -> String? {
        guard case .success(let message) = JSONRPC.decode(body), message.method == "$/cancelRequest" else {
            return nil
        }
        switch message.params?["id"] {
        case .number(let literal, _)?: return literal
        case .string(let string, _)?: return JSONText.quote(string)
        default: return nil
        }
    }

    private func request(id: String, method: String, params: JSONValue?) {
        switch state {
        case .uninitialized where method != "initialize":
            send(JSONRPC.error(id: id, .serverNotInitialized, "The server is not initialized."))
            return
        case .shuttingDown:
            send(JSONRPC.error(id: id, .invalidRequest, "The server is shutting down."))
            return
        default:
            break
        }
        let answer: Result<String, ProtocolError>
        switch method {
        case "initialize": answer = initialize(id: id, params: params)
        case "shutdown":
            state = .shuttingDown
            answer = .success("null")
        case "textDocument/hover": answer = withDocument(id: id, params) { hover($0, $1, $2) }
        case "textDocument/definition": answer = withDocument(id: id, params) { definition($0, $1, $2) }
        case "textDocument/completion": answer = withDocument(id: id, params) { completion($0, $1, $2) }
        case "textDocument/references":
            answer = withDocument(id: id, params) { path, position, _ in references(path, position, params) }
        case "textDocument/rename": answer = rename(id: id, params)
        case "textDocument/codeAction": answer = codeActions(id: id, params)
        case "textDocument/documentSymbol": answer = documentSymbols(id: id, params)
        case "workspace/symbol": answer = workspaceSymbols(params)
        default:
            answer = .failure(ProtocolError(id: id, code: .methodNotFound, message: "Unknown method \(method)."))
        }
        switch answer {
        case .success(let result): send(JSONRPC.result(id: id, result))
        case .failure(let error): send(JSONRPC.error(id: id, error.code, error.message))
        }
    }

    private func notification(_ method: String, params: JSONValue?) {
        if method == "exit" {
            exitStatus = state == .shuttingDown ? 0 : 1
            return
        }
        guard state == .running else { return }
        switch method {
        case "initialized":
            ensureLoaded()
            registerFileWatchers()
        case "textDocument/didOpen":
            guard let path = path(params?[path: "textDocument", "uri"]),
                let text = params?[path: "textDocument", "text"]?.stringValue
            else { return }
            let bytes = Array(text.utf8)
            openTexts[path] = bytes
            // A document opened as it is on disk changes nothing the compilations read.
            if FileSystem.readFile(path).success != bytes { pendingEdits.insert(path) } else { republish(path) }
        case "textDocument/didChange":
            guard let path = path(params?[path: "textDocument", "uri"]), openTexts[path] != nil,
                let changes = params?["contentChanges"]?.arrayValue
            else { return }
            for change in changes { apply(change, to: path) }
            pendingEdits.insert(path)
        case "textDocument/didClose":
            guard let path = path(params?[path: "textDocument", "uri"]) else { return }
            openTexts[path] = nil
            pendingEdits.insert(path)
        case "textDocument/didSave":
            guard let path = path(params?[path: "textDocument", "uri"]) else { return }
            if let text = params?["text"]?.stringValue, openTexts[path] != nil { openTexts[path] = Array(text.utf8) }
            // baton.json and new files only matter once saved: the session reads the disk.
            if !isKnownFile(path) || Path.lastComponent(path) == ConfigurationLoader.fileName {
                pendingDisk.insert(path)
            }
        case "workspace/didChangeWatchedFiles":
            for change in params?["changes"]?.arrayValue ?? [] {
                if let path = path(change["uri"]) { pendingDisk.insert(path) }
            }
        case "workspace/didChangeWorkspaceFolders":
            let removed = (params?[path: "event", "removed"]?.arrayValue ?? []).compactMap { path($0["uri"]) }
            let added = (params?[path: "event", "added"]?.arrayValue ?? []).compactMap { path($0["uri"]) }
            folderRoots = folderRoots.filter { !removed.contains($0) } + added
            if loaded {
                folders = Self.distinct(
                    folderRoots.map { root in folders.first { $0.root == root } ?? WorkspaceFolder(root: root) })
                publishAll()
            }
        default:
            break  // Unknown notifications ($/setTrace, $/progress, …) are ignored.
        }
    }

    /// Applies one `contentChanges` entry: a whole text, or a range replaced.
    private func apply(_ change: JSONValue, to path: String) {
        guard let text = change["text"]?.stringValue else { return }
        guard let range = change["range"], let start = position(range["start"]), let end = position(range["end"]),
            let current = openTexts[path]
        else {
            openTexts[path] = Array(text.utf8)
            return
        }
        let file = SourceFile(path: path, bytes: current)
        let from = TextPositions.offset(of: start, in: file, encoding: encoding)
        let to = max(from, TextPositions.offset(of: end, in: file, encoding: encoding))
        openTexts[path] = Array(current[..<from]) + Array(text.utf8) + Array(current[to...])
    }

    // MARK: Lifecycle

    private func initialize(id: String, params: JSONValue?) -> Result<String, ProtocolError> {
        if state != .uninitialized {
            return .failure(ProtocolError(id: id, code: .invalidRequest, message: "The server is initialized already."))
        }
        let offered = (params?[path: "capabilities", "general", "positionEncodings"]?.arrayValue ?? [])
            .compactMap(\.stringValue)
        encoding = offered.contains(PositionEncoding.utf8.rawValue) ? .utf8 : .utf16
        watchesFiles =
            params?[path: "capabilities", "workspace", "didChangeWatchedFiles", "dynamicRegistration"]?.boolValue
            == true
        if let list = params?["workspaceFolders"]?.arrayValue, !list.isEmpty {
            folderRoots = list.compactMap { path($0["uri"]) }
        } else if let root = path(params?["rootUri"]) {
            folderRoots = [root]
        } else if let root = params?["rootPath"]?.stringValue, root.hasPrefix("/") {
            folderRoots = [root]
        } else {
            folderRoots = [defaultRoot]
        }
        state = .running
        let capabilities = JSONText.object([
            ("positionEncoding", JSONText.quote(encoding.rawValue)),
            (
                "textDocumentSync",
                "{\"openClose\":true,\"change\":2,\"save\":{\"includeText\":false}}"
            ),
            ("hoverProvider", "true"),
            ("definitionProvider", "true"),
            ("completionProvider", "{\"triggerCharacters\":[\"@\",\"$\",\".\",\"(\",\" \"]}"),
            ("referencesProvider", "true"),
            ("renameProvider", "true"),
            ("codeActionProvider", "{\"codeActionKinds\":[\"quickfix\"]}"),
            ("documentSymbolProvider", "true"),
            ("workspaceSymbolProvider", "true"),
            ("workspace", "{\"workspaceFolders\":{\"supported\":true,\"changeNotifications\":true}}"),
        ])
        return .success(
            JSONText.object([
                ("capabilities", capabilities),
                ("serverInfo", "{\"name\":\"baton\",\"version\":\"0.1.0\"}"),
            ]))
    }

    /// Compiles every folder's projects the first time they are needed, and publishes their diagnostics.
    private func ensureLoaded() {
        guard !loaded, state != .uninitialized else { return }
        loaded = true
        folders = Self.distinct(folderRoots.map(WorkspaceFolder.init(root:)))
        publishAll()
    }

    /// The folders with their own baton.json: a folder whose projects an earlier folder already serves (the same
    /// baton.json, found from a subfolder or a folder listed twice) is left out, so nothing is reported twice.
    private static func distinct(_ folders: [WorkspaceFolder]) -> [WorkspaceFolder] {
        var seen = Set<String>()
        return folders.filter { folder in
            guard let configuration = folder.configurationPath else { return true }
            return seen.insert(configuration).inserted
        }
    }

    /// Asks a client that can watch files for us (`workspace.didChangeWatchedFiles.dynamicRegistration`) to report
    /// documents, schemas and baton.json created, changed or deleted on disk, so a file renamed or removed outside
    /// the editor is seen.
    private func registerFileWatchers() {
        guard watchesFiles else { return }
        let watchers = ["**/*.graphql", "**/*.graphqls", "**/*.gql", "**/*.swift", "**/*.json"].map {
            "{\"globPattern\":\(JSONText.quote($0))}"
        }
        let registration = JSONText.object([
            ("id", "\"baton-watched-files\""), ("method", "\"workspace/didChangeWatchedFiles\""),
            ("registerOptions", "{\"watchers\":[" + watchers.joined(separator: ",") + "]}"),
        ])
        send(
            "{\"jsonrpc\":\"2.0\",\"id\":\"baton-register-1\",\"method\":\"client/registerCapability\",\"params\":{\"registrations\":["
                + registration + "]}}")
    }

    // MARK: Applying changes

    /// Does the next piece of pending work and publishes what changed; true when more is left. Called while no
    /// message is waiting: first every pending change is applied and validated (the edited document's report goes
    /// out then), then, if the editor stays quiet, the plans run (their diagnostics complete `check`'s).
    @discardableResult
    package func idle() -> Bool {
        guard state == .running else { return false }
        ensureLoaded()
        if !pendingEdits.isEmpty || !pendingDisk.isEmpty {
            applyChanges()
            return folders.contains(where: \.planPending)
        }
        guard folders.contains(where: \.planPending) else { return false }
        for folder in folders { folder.plan() }
        publishAll()
        return false
    }

    /// Applies every pending change (validated, not yet planned) and publishes what changed: before a request
    /// reads the compilations, and as `idle()`'s first step.
    private func applyChanges() {
        ensureLoaded()
        guard !pendingEdits.isEmpty || !pendingDisk.isEmpty else { return }
        let edits = pendingEdits
        let disk = pendingDisk
        pendingEdits = []
        pendingDisk = []
        let texts = openTexts
        for folder in folders {
            let onDisk = disk.filter(folder.contains)
            if !onDisk.isEmpty { folder.filesChangedOnDisk(onDisk, texts: texts) }
            let edited = edits.filter(folder.contains)
            if !edited.isEmpty { folder.edit(edited, texts: texts) }
        }
        publishAll()
    }

    private func isKnownFile(_ path: String) -> Bool {
        folders.contains { folder in
            folder.compilations.contains {
                $0.project.documentFiles.contains(path) || $0.project.schemaFiles.contains(path)
            }
        }
    }

    // MARK: Diagnostics

    /// Publishes every file's diagnostics that differ from those last published (an empty list for a file
    /// whose last ones are gone). Only a file whose diagnostics changed is sorted and written out.
    private func publishAll() {
        var groups: [String: (folder: WorkspaceFolder, list: [Diagnostic])] = [:]
        for folder in folders {
            var byDisplay: [String: [Diagnostic]] = [:]
            for diagnostic in folder.unorderedDiagnostics {
                // The file shown, without locating the diagnostic (an embedded document's host).
                guard let display = diagnostic.range.map({ $0.file.host?.path ?? $0.file.path }) ?? diagnostic.path
                else { continue }
                byDisplay[display, default: []].append(diagnostic)
            }
            for (display, list) in byDisplay {
                let uri = folder.uri(ofDisplay: display)
                if groups[uri] == nil { groups[uri] = (folder, list) }
            }
        }
        var current: [String: [Diagnostic]] = [:]
        for (uri, group) in groups { current[uri] = group.list }
        for uri in Set(publishedDiagnostics.keys).union(current.keys).sorted()
        where publishedDiagnostics[uri] != current[uri] {
            var json = "[]"
            if let group = groups[uri] {
                let sorted = group.list.sorted(by: Diagnostic.sortKey)
                json =
                    "[" + sorted.compactMap { lspDiagnostic($0, folder: group.folder)?.1 }.joined(separator: ",") + "]"
            }
            published[uri] = json == "[]" ? nil : json
            send(
                JSONRPC.notification(
                    "textDocument/publishDiagnostics",
                    JSONText.object([("uri", JSONText.quote(uri)), ("diagnostics", json)])))
        }
        publishedDiagnostics = current
    }

    /// Sends a document's published diagnostics again (a client forgets them when it closes a document).
    private func republish(_ path: String) {
        let uri = DocumentURI.uri(of: path)
        send(
            JSONRPC.notification(
                "textDocument/publishDiagnostics",
                JSONText.object([("uri", JSONText.quote(uri)), ("diagnostics", published[uri] ?? "[]")])))
    }

    /// A diagnostic as LSP's `Diagnostic` and the URI of the file it is in (the Swift host of embedded GraphQL).
    private func lspDiagnostic(_ diagnostic: Diagnostic, folder: WorkspaceFolder) -> (String, String)? {
        let path: String
        let range: String
        if let located = diagnostic.range {
            let (host, start) = TextPositions.hostPosition(of: located.span.start, in: located.file, encoding: encoding)
            let (_, end) = TextPositions.hostPosition(of: located.span.end, in: located.file, encoding: encoding)
            path = folder.absolute(host.path)
            range = rangeJSON(start, max(start, end))
        } else if let display = diagnostic.path {
            path = folder.absolute(display)
            range = rangeJSON(TextPosition(line: 0, character: 0), TextPosition(line: 0, character: 0))
        } else {
            return nil
        }
        let severity =
            switch diagnostic.severity {
            case .error: 1
            case .warning: 2
            case .note: 3
            }
        var members: [(String, String)] = [
            ("range", range), ("severity", "\(severity)"), ("code", JSONText.quote(diagnostic.rule)),
            ("source", "\"baton\""), ("message", JSONText.quote(diagnostic.message)),
        ]
        let related = diagnostic.notes.compactMap { note -> String? in
            guard let range = note.range else { return nil }
            let (host, start) = TextPositions.hostPosition(of: range.span.start, in: range.file, encoding: encoding)
            let (_, end) = TextPositions.hostPosition(of: range.span.end, in: range.file, encoding: encoding)
            let location = JSONText.object([
                ("uri", JSONText.quote(DocumentURI.uri(of: folder.absolute(host.path)))),
                ("range", rangeJSON(start, max(start, end))),
            ])
            return JSONText.object([("location", location), ("message", JSONText.quote(note.message))])
        }
        if !related.isEmpty { members.append(("relatedInformation", "[" + related.joined(separator: ",") + "]")) }
        return (DocumentURI.uri(of: path), JSONText.object(members))
    }

    // MARK: Requests on a position

    /// Runs `body` with the document's path and position (pending edits applied first).
    private func withDocument(
        id: String, _ params: JSONValue?, _ body: (String, TextPosition, String) -> String
    ) -> Result<String, ProtocolError> {
        guard let path = path(params?[path: "textDocument", "uri"]), let position = position(params?["position"])
        else {
            return .failure(ProtocolError(id: id, code: .invalidParams, message: "Expected textDocument and position."))
        }
        applyChanges()
        return .success(body(path, position, id))
    }

    private func hover(_ path: String, _ position: TextPosition, _ id: String) -> String {
        guard let found = locate(path, position), let target = found.target,
            let text = SymbolInfo.hover(target, in: found)
        else { return "null" }
        let contents = JSONText.object([("kind", "\"markdown\""), ("value", JSONText.quote(text))])
        return JSONText.object([("contents", contents), ("range", hostRange(target.span, in: found.source))])
    }

    private func definition(_ path: String, _ position: TextPosition, _ id: String) -> String {
        guard let found = locate(path, position), let target = found.target else { return "null" }
        let locations = SymbolInfo.definitions(target, in: found).map { location($0.file, $0.span, found.folder) }
        return locations.isEmpty ? "null" : "[" + locations.joined(separator: ",") + "]"
    }

    private func completion(_ path: String, _ position: TextPosition, _ id: String) -> String {
        guard let found = locate(path, position) ?? locateWhileTyping(path, position) else { return "[]" }
        return "[" + Completions.items(at: found).joined(separator: ",") + "]"
    }

    private func references(_ path: String, _ position: TextPosition, _ params: JSONValue?) -> String {
        guard let found = locate(path, position), let target = found.target else { return "null" }
        let declaration = params?[path: "context", "includeDeclaration"]?.boolValue ?? false
        let places = Navigation.references(target, in: found, declaration: declaration)
        return "[" + places.map { location($0.file, $0.span, found.folder) }.joined(separator: ",") + "]"
    }

    private func rename(id: String, _ params: JSONValue?) -> Result<String, ProtocolError> {
        guard let newName = params?["newName"]?.stringValue else {
            return .failure(ProtocolError(id: id, code: .invalidParams, message: "Expected newName."))
        }
        guard Navigation.isName(newName) else {
            return .failure(
                ProtocolError(id: id, code: .invalidParams, message: "\"\(newName)\" is not a GraphQL name."))
        }
        return withDocument(id: id, params) { path, position, _ in
            guard let found = locate(path, position), let target = found.target,
                let places = Navigation.renameEdits(target, in: found)
            else { return "null" }
            return workspaceEdit(places.map { ($0, newName) }, folder: found.folder)
        }
    }

    /// Quick fixes: a "Did you mean" suggestion applied, a missing required argument added, and `id` added to a
    /// selection of a type that has one (the store normalizes records by it).
    private func codeActions(id: String, _ params: JSONValue?) -> Result<String, ProtocolError> {
        guard let uriValue = params?[path: "textDocument", "uri"], let path = path(uriValue),
            let uri = uriValue.stringValue, let start = position(params?[path: "range", "start"])
        else {
            return .failure(ProtocolError(id: id, code: .invalidParams, message: "Expected textDocument and range."))
        }
        applyChanges()
        var actions: [String] = []
        for diagnostic in params?[path: "context", "diagnostics"]?.arrayValue ?? [] {
            guard let message = diagnostic["message"]?.stringValue, let range = diagnostic["range"],
                let from = position(range["start"]), let to = position(range["end"])
            else { continue }
            for suggestion in CodeActions.suggestions(in: message) {
                let edit = textEdits(uri, [(rangeJSON(from, to), suggestion)])
                actions.append(
                    CodeActions.action("Change to \"\(suggestion)\"", edit: edit, preferred: actions.isEmpty))
            }
            if let argument = CodeActions.missingArgument(in: message), let found = locate(path, from),
                let (field, _) = Navigation.field(at: found.offset, in: found.document, schema: found.schema)
            {
                let (offset, text) =
                    field.arguments.last.map { ($0.span.end, ", \(argument): ") } ?? (
                        field.name.span.end, "(\(argument): )"
                    )
                let (_, at) = TextPositions.hostPosition(of: offset, in: found.source, encoding: encoding)
                let edit = textEdits(uri, [(rangeJSON(at, at), text)])
                actions.append(CodeActions.action("Add the argument \"\(argument)\"", edit: edit, preferred: false))
            }
        }
        if let found = locate(path, start),
            let (field, parent) = Navigation.field(
                at: found.offset, in: found.document, schema: found.schema, selecting: true),
            let selectionSet = field.selectionSet,
            let type = parent?.field(named: field.name.value).flatMap({ found.schema?.type(named: $0.type.namedType) }),
            type.field(named: "id") != nil,
            !selectionSet.selections.contains(where: {
                if case .field(let child) = $0 { child.name.value == "id" && child.alias == nil } else { false }
            })
        {
            let (_, at) = TextPositions.hostPosition(
                of: selectionSet.span.start + 1, in: found.source, encoding: encoding)
            let edit = textEdits(uri, [(rangeJSON(at, at), " id")])
            actions.append(
                CodeActions.action(
                    "Add \"id\" to \(field.responseKey) (the store normalizes \(type.name) records by it)", edit: edit,
                    preferred: false))
        }
        return .success("[" + actions.joined(separator: ",") + "]")
    }

    /// A `WorkspaceEdit` replacing each place with its text, grouped by the file the editor shows.
    private func workspaceEdit(_ edits: [(SourcePlace, String)], folder: WorkspaceFolder) -> String {
        var byURI: [String: [String]] = [:]
        for (place, text) in edits {
            let (host, _) = place.file.resolve(place.span.start)
            let uri = DocumentURI.uri(of: folder.absolute(host.path))
            byURI[uri, default: []].append(
                JSONText.object([("range", hostRange(place.span, in: place.file)), ("newText", JSONText.quote(text))]))
        }
        let changes = byURI.keys.sorted().map {
            JSONText.quote($0) + ":[" + byURI[$0, default: []].joined(separator: ",") + "]"
        }
        return "{\"changes\":{" + changes.joined(separator: ",") + "}}"
    }

    /// A `WorkspaceEdit` of edits in one document, given as (range JSON, new text).
    private func textEdits(_ uri: String, _ edits: [(String, String)]) -> String {
        let list = edits.map { JSONText.object([("range", $0.0), ("newText", JSONText.quote($0.1))]) }
        return "{\"changes\":{" + JSONText.quote(uri) + ":[" + list.joined(separator: ",") + "]}}"
    }

    private func documentSymbols(id: String, _ params: JSONValue?) -> Result<String, ProtocolError> {
        guard let path = path(params?[path: "textDocument", "uri"]) else {
            return .failure(ProtocolError(id: id, code: .invalidParams, message: "Expected textDocument."))
        }
        applyChanges()
        var symbols: [String] = []
        for folder in folders {
            for compilation in folder.compilations {
                for unit in compilation.units where unit.path == path {
                    for document in unit.documents {
                        symbols += SymbolInfo.symbols(in: document).map { symbol in
                            let range = hostRange(symbol.span, in: document.source)
                            let selection = hostRange(symbol.nameSpan, in: document.source)
                            return JSONText.object([
                                ("name", JSONText.quote(symbol.name)), ("detail", JSONText.quote(symbol.detail)),
                                ("kind", "\(symbol.kind)"), ("range", range), ("selectionRange", selection),
                            ])
                        }
                    }
                }
            }
        }
        return .success("[" + symbols.joined(separator: ",") + "]")
    }

    private func workspaceSymbols(_ params: JSONValue?) -> Result<String, ProtocolError> {
        applyChanges()
        let query = (params?["query"]?.stringValue ?? "").lowercased()
        var symbols: [String] = []
        for folder in folders {
            for compilation in folder.compilations {
                for document in compilation.documents {
                    for symbol in SymbolInfo.symbols(in: document)
                    where query.isEmpty || symbol.name.lowercased().contains(query) {
                        symbols.append(
                            JSONText.object([
                                ("name", JSONText.quote(symbol.name)), ("kind", "\(symbol.kind)"),
                                ("location", location(document.source, symbol.nameSpan, folder)),
                            ]))
                        if symbols.count >= 1000 { return .success("[" + symbols.joined(separator: ",") + "]") }
                    }
                }
            }
        }
        return .success("[" + symbols.joined(separator: ",") + "]")
    }

    /// The document and offset at a position of an editor's file, and what is there. A schema file is parsed
    /// again (the compilation keeps the schema built from it, not its syntax).
    private func locate(_ path: String, _ position: TextPosition) -> Located? {
        for folder in folders {
            for compilation in folder.compilations where compilation.project.schemaFiles.contains(path) {
                guard let bytes = openTexts[path] ?? FileSystem.readFile(path).success,
                    let document = Parser.parse(SourceFile(path: path, bytes: bytes)).document
                else { continue }
                let offset = TextPositions.offset(of: position, in: document.source, encoding: encoding)
                return Located(folder: folder, compilation: compilation, document: document, offset: offset)
            }
            for compilation in folder.compilations where compilation.project.documentFiles.contains(path) {
                guard let unit = compilation.units.first(where: { $0.path == path }) else { continue }
                for document in unit.documents {
                    guard let offset = Self.offset(of: position, in: document.source, encoding: encoding) else {
                        continue
                    }
                    return Located(folder: folder, compilation: compilation, document: document, offset: offset)
                }
            }
        }
        return nil
    }

    /// A position in a document that does not parse as it is, the usual state while typing (`{ me { } }`): the
    /// text is parsed again with a placeholder field name at the position, so completion still knows the
    /// selection set and its type there.
    private func locateWhileTyping(_ path: String, _ position: TextPosition) -> Located? {
        for folder in folders {
            for compilation in folder.compilations where compilation.project.documentFiles.contains(path) {
                guard let bytes = openTexts[path] ?? FileSystem.readFile(path).success else { continue }
                let host = SourceFile(path: path, bytes: bytes)
                let hostOffset = TextPositions.offset(of: position, in: host, encoding: encoding)
                // A field or value name; an argument being named (`user(|)`).
                for placeholder in ["__batonCompletion", "__batonCompletion: null"] {
                    let edited = SourceFile(
                        path: path, bytes: Array(bytes[..<hostOffset]) + Array(placeholder.utf8) + bytes[hostOffset...])
                    let sources =
                        Path.pathExtension(path) == "swift"
                        ? SwiftDocumentExtractor.extract(from: edited).documents.map(\.source) : [edited]
                    for source in sources {
                        guard let offset = Self.offset(of: position, in: source, encoding: encoding),
                            let document = Parser.parse(source).document
                        else { continue }
                        return Located(folder: folder, compilation: compilation, document: document, offset: offset)
                    }
                }
            }
        }
        return nil
    }

    /// The offset in `source` of a position in the file the editor shows (its host, for embedded GraphQL), or
    /// nil when the position lies outside the source's text.
    static func offset(of position: TextPosition, in source: SourceFile, encoding: PositionEncoding) -> Int? {
        guard let host = source.host else { return TextPositions.offset(of: position, in: source, encoding: encoding) }
        let hostOffset = TextPositions.offset(of: position, in: host, encoding: encoding)
        for (index, segment) in source.segments.enumerated() {
            let end = index + 1 < source.segments.count ? source.segments[index + 1].offset : source.bytes.count
            let length = end - segment.offset
            if hostOffset >= segment.hostOffset && hostOffset <= segment.hostOffset + length {
                return segment.offset + (hostOffset - segment.hostOffset)
            }
        }
        return nil
    }

    // MARK: JSON pieces

    private func rangeJSON(_ start: TextPosition, _ end: TextPosition) -> String {
        "{\"start\":\(start.json),\"end\":\(end.json)}"
    }

    private func hostRange(_ span: Span, in file: SourceFile) -> String {
        let (_, start) = TextPositions.hostPosition(of: span.start, in: file, encoding: encoding)
        let (_, end) = TextPositions.hostPosition(of: span.end, in: file, encoding: encoding)
        return rangeJSON(start, max(start, end))
    }

    private func location(_ file: SourceFile, _ span: Span, _ folder: WorkspaceFolder) -> String {
        let (host, _) = file.resolve(span.start)
        return JSONText.object([
            ("uri", JSONText.quote(DocumentURI.uri(of: folder.absolute(host.path)))),
            ("range", hostRange(span, in: file)),
        ])
    }

    private func path(_ value: JSONValue?) -> String? {
        value?.stringValue.flatMap(DocumentURI.path(of:)).map(Path.normalize)
    }

    private func position(_ value: JSONValue?) -> TextPosition? {
        guard let line = value?["line"]?.intValue, let character = value?["character"]?.intValue else { return nil }
        return TextPosition(line: max(0, line), character: max(0, character))
    }
}

extension TextPosition: Comparable {
    package static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }
}

extension Result where Success == [UInt8] {
    /// The bytes read, or nil.
    fileprivate var success: [UInt8]? {
        if case .success(let bytes) = self { return bytes }
        return nil
    }
}
