import Foundation

/// The runtime scenarios stated once (KotlinScenarios/Scenarios.json): each names the answers its fixture transport
/// gives, the steps to run and the lines a runtime must print. `ScenarioInterpreter` runs them on the Swift runtime,
/// Kotlin/tests/baton/tests/ScenarioInterpreter.kt on the Kotlin runtime; what they read goes through each
/// language's generated accessors by the tables `ScenarioTablePrinter` writes from this file (Docs/Kotlin.md,
/// "Runtime scenarios").
struct ScenarioSet {
    struct Scenario {
        var name: String
        /// Operation name → its answers in order: a fixture file name, `{"failure": reason}` or `{"text": body}`.
        var answers: [(operation: String, answers: [Answer])]
        var steps: [Step]
        /// The lines the Swift runtime must print.
        var expected: [String]
        /// The lines the Kotlin runtime must print: `expected`, but for a known divergence (an expected line
        /// `{"swift": line, "kotlin": line}`, each runtime's own).
        var expectedKotlin: [String]
        /// `{"bufferSize": n, "automatic": b}`: the environment's garbage collection (else the standard one).
        var garbageCollection: (bufferSize: Int, automatic: Bool)?

        /// The steps before `awaitOtherRuntime`, for a scenario that has one: what a runtime runs before the other
        /// runtime's run starts (the image it saves).
        var firstPhase: Scenario? {
            guard let boundary = steps.firstIndex(of: .awaitOtherRuntime) else { return nil }
            var first = self
            first.steps = Array(steps[..<boundary])
            return first
        }
    }

    enum Answer: Equatable {
        /// A file of KotlinScenarios/Fixtures.
        case file(String)
        /// `{"seed": name}`: a file of Tests/BatonRuntimeTests/Fixtures.
        case seed(String)
        case failure(String)
        case text(String)

        var isFile: Bool {
            switch self {
            case .file, .seed: true
            case .failure, .text: false
            }
        }
    }

    enum Step: Equatable {
        /// Attaches the operation (`Name(argument: literal, …)`, Swift's call syntax) as `handle`.
        case attach(handle: String, operation: String, policy: String?, expiration: Double?)
        case settle, hold, release, revalidate, clearLog
        /// Remembers the log's length for `{newLogLines}`.
        case markLog
        /// A one-off fetch of the operation (waited for); `as` names its data for `{read name path}`.
        case fetch(String, name: String?)
        case advance(Double)
        case retry(String)
        case detach(String)
        /// Commits a fixture (a file or `{"seed": name}`) to the store for the operation, as its answer; `as` names
        /// the commit's result for `{changedCount c}` and `{changed c}`.
        case commit(file: Answer, operation: String, result: String?)
        /// Names a reader of the operation's data in the store now, for `{read name path}`.
        case storeRead(name: String, operation: String)
        case invalidateRecord(String)
        case invalidateType(String)
        case invalidateOperation(String)
        /// A line: text with placeholders (`Placeholder`).
        case print([Segment])
        /// The log's lines that start with the prefix ("" for all), the first `from` of them left out, at most
        /// `count`, and without the lines equal to `except` (a line whose place varies).
        case printLog(String, from: Int, count: Int?, except: String?)
        /// Observes the handle: at each notification, the handle's data read at `path` (as `{read}` reads it)
        /// joins what `{seen handle first}` and `{seen handle last}` print.
        case observe(handle: String, path: String)
        /// Keeps the value read now at `path` of handle or store read `from` as `name`: an operation key's
        /// argument `$name` passes it (a value no literal can state, such as a connection's ID).
        case keep(name: String, from: String, path: String)
        /// Calls the mutation (its key as an operation's) through the generated mutation call, waited for, with
        /// `optimistic` (`(field: value, …)`, nested alike, in the builder's order) as its optimistic response;
        /// `as` names its data, or the error it threw, as a fetch's.
        case mutate(String, optimistic: String?, name: String?)
        /// The pagination of the `@refetchable` fragment `fragment` spread at `path` of handle `from`'s data, as
        /// `name`: `{read name path}` reads its fragment's data, `{hasNext}`, `{loadingNext}`, `{pageError}` and
        /// `{samePagination}` its state.
        case paginate(name: String, from: String, path: String, fragment: String)
        /// `loadNext(count)` of pagination `name`, waited for; `as` names the error it threw for `{error}`.
        case loadNext(String, count: Int, result: String?)
        /// Two `loadNext(count)` calls of pagination `name` at once: the first's request is held until the second
        /// has started (`{loadingAtOnce name}` is `isLoadingNext` then), and both are waited for.
        case loadNextTwice(String, count: Int)
        /// `refetch` of pagination `name` with integer variables, waited for.
        case refetchPages(String, variables: [String: Int])
        /// Remembers each answered operation's request count for `{newRequests Operation}`.
        case markRequests
        /// Saves the environment's image as this runtime's image (`mine`).
        case saveImage
        /// Writes image `name` (a file of this runtime's) with `bytes`.
        case writeImage(name: String, bytes: ImageBytes)
        /// The app starts again: handles detached, a new environment (an empty store, a new log, the clock at its
        /// start; the same transport); `{sameRecords}` compares the store with the records it held before.
        case restart
        /// The steps after it run once the other runtime has run the steps before it (the image it saved).
        case awaitOtherRuntime
    }

    /// What `writeImage` writes: another image's bytes changed, or a text.
    enum ImageBytes: Equatable {
        case changed(image: String, change: ImageChange)
        case text(String)
    }

    enum ImageChange: String, Equatable {
        /// The first half of the bytes (the count halved, rounded down).
        case truncate
        /// The tenth byte from the end with its lowest bit flipped.
        case flipByte
        /// The first `BATON-IMAGE 1 ` (the header's format version) made `BATON-IMAGE 2 `.
        case nextVersion
    }

    enum Segment: Equatable {
        case text(String)
        /// A placeholder, `{name argument…}`: the list is in Docs/Kotlin.md, "Runtime scenarios" (`{read h path}`
        /// applies the path to the data of handle or store read `h`, as both languages spell it: `character?.name`).
        case placeholder(name: String, arguments: [String])
    }

    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    var scenarios: [Scenario]

    static let file = KotlinBuild.scenarios.appendingPathComponent("Scenarios.json")

    static func load(_ url: URL = file) throws -> ScenarioSet {
        try ScenarioSet(json: try Data(contentsOf: url))
    }

    init(json: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let list = root["scenarios"] as? [[String: Any]]
        else { throw FormatError(description: "Scenarios.json: expected an object with a list `scenarios`") }
        scenarios = try list.map(Self.scenario)
        var seen = Set<String>()
        for scenario in scenarios where !seen.insert(scenario.name).inserted {
            throw FormatError(description: "two scenarios named \(scenario.name)")
        }
    }

    private static func scenario(_ object: [String: Any]) throws -> Scenario {
        guard let name = object["name"] as? String else { throw FormatError(description: "a scenario without a name") }
        func fail(_ message: String) -> FormatError { FormatError(description: "scenario \(name): \(message)") }
        let answerObject = object["answers"] as? [String: Any] ?? [:]
        let answers = try answerObject.keys.sorted().map { operation in
            guard let list = answerObject[operation] as? [Any] else {
                throw fail("answers of \(operation): not a list")
            }
            return (
                operation: operation,
                answers: try list.map { item -> Answer in
                    if let file = item as? String { return .file(file) }
                    if let answer = Self.answer(item) { return answer }
                    throw fail("an answer of \(operation) is not a file name, {seed}, {failure} or {text}")
                }
            )
        }
        guard let steps = object["steps"] as? [Any] else { throw fail("no steps") }
        guard let expectedLines = object["expected"] as? [Any] else { throw fail("no expected lines") }
        // A line, or a known divergence: `{"swift": line, "kotlin": line}`.
        let expected = try expectedLines.map { item -> (swift: String, kotlin: String) in
            if let line = item as? String { return (line, line) }
            guard let pair = item as? [String: Any], let swift = pair["swift"] as? String,
                let kotlin = pair["kotlin"] as? String, pair.count == 2
            else { throw fail("an expected line is neither a string nor {\"swift\": …, \"kotlin\": …}") }
            return (swift, kotlin)
        }
        var scenario = Scenario(
            name: name, answers: answers, steps: try steps.map { try step($0, fail) },
            expected: expected.map(\.swift), expectedKotlin: expected.map(\.kotlin))
        if let collection = object["garbageCollection"] as? [String: Any] {
            guard let size = collection["bufferSize"] as? Int, let automatic = collection["automatic"] as? Bool else {
                throw fail("garbageCollection needs bufferSize and automatic")
            }
            scenario.garbageCollection = (size, automatic)
        }
        return scenario
    }

    private static func answer(_ item: Any) -> Answer? {
        if let file = item as? String { return .file(file) }
        guard let object = item as? [String: Any] else { return nil }
        if let name = object["seed"] as? String { return .seed(name) }
        if let reason = object["failure"] as? String { return .failure(reason) }
        if let text = object["text"] as? String { return .text(text) }
        return nil
    }

    private static func step(_ item: Any, _ fail: (String) -> FormatError) throws -> Step {
        if let word = item as? String {
            switch word {
            case "settle": return .settle
            case "hold": return .hold
            case "release": return .release
            case "revalidate": return .revalidate
            case "clearLog": return .clearLog
            case "markLog": return .markLog
            case "markRequests": return .markRequests
            case "saveImage": return .saveImage
            case "restart": return .restart
            case "awaitOtherRuntime": return .awaitOtherRuntime
            default: throw fail("unknown step \(word)")
            }
        }
        guard let object = item as? [String: Any] else { throw fail("a step is neither a word nor an object") }
        if let handle = object["attach"] as? String {
            guard let operation = object["operation"] as? String else { throw fail("attach \(handle): no operation") }
            return .attach(
                handle: handle, operation: operation, policy: object["policy"] as? String,
                expiration: (object["expiration"] as? NSNumber)?.doubleValue)
        }
        if let seconds = object["advance"] as? NSNumber { return .advance(seconds.doubleValue) }
        if let operation = object["fetch"] as? String { return .fetch(operation, name: object["as"] as? String) }
        if let name = object["storeRead"] as? String {
            guard let operation = object["operation"] as? String else { throw fail("storeRead \(name): no operation") }
            return .storeRead(name: name, operation: operation)
        }
        if let handle = object["retry"] as? String { return .retry(handle) }
        if let handle = object["detach"] as? String { return .detach(handle) }
        if let file = object["commit"] {
            guard let operation = object["operation"] as? String else { throw fail("commit: no operation") }
            guard let answer = answer(file), answer.isFile else { throw fail("commit: needs a file or {seed}") }
            return .commit(file: answer, operation: operation, result: object["as"] as? String)
        }
        if let key = object["invalidateRecord"] as? String { return .invalidateRecord(key) }
        if let type = object["invalidateType"] as? String { return .invalidateType(type) }
        if let operation = object["invalidateOperation"] as? String { return .invalidateOperation(operation) }
        if let prefix = object["printLog"] as? String {
            return .printLog(
                prefix, from: object["from"] as? Int ?? 0, count: object["count"] as? Int,
                except: object["except"] as? String)
        }
        if let handle = object["observe"] as? String {
            guard let path = object["path"] as? String else { throw fail("observe \(handle): no path") }
            return .observe(handle: handle, path: path)
        }
        if let name = object["paginate"] as? String {
            guard let from = object["from"] as? String, let path = object["path"] as? String,
                let fragment = object["fragment"] as? String
            else { throw fail("paginate \(name): needs from, path and fragment") }
            return .paginate(name: name, from: from, path: path, fragment: fragment)
        }
        if let name = object["loadNext"] as? String {
            guard let count = object["count"] as? Int else { throw fail("loadNext \(name): no count") }
            return .loadNext(name, count: count, result: object["as"] as? String)
        }
        if let name = object["loadNextTwice"] as? String {
            guard let count = object["count"] as? Int else { throw fail("loadNextTwice \(name): no count") }
            return .loadNextTwice(name, count: count)
        }
        if let name = object["refetchPages"] as? String {
            guard let variables = object["variables"] as? [String: Int] else {
                throw fail("refetchPages \(name): variables must be integers")
            }
            return .refetchPages(name, variables: variables)
        }
        if let call = object["mutate"] as? String {
            return .mutate(call, optimistic: object["optimistic"] as? String, name: object["as"] as? String)
        }
        if let name = object["keep"] as? String {
            guard let from = object["from"] as? String, let path = object["path"] as? String else {
                throw fail("keep \(name): needs from and path")
            }
            return .keep(name: name, from: from, path: path)
        }
        if let name = object["writeImage"] as? String {
            if let text = object["text"] as? String, object["from"] == nil {
                return .writeImage(name: name, bytes: .text(text))
            }
            guard let image = object["from"] as? String,
                let change = (object["change"] as? String).flatMap(ImageChange.init)
            else {
                throw fail("writeImage \(name): needs text, or from and a change (truncate, flipByte, nextVersion)")
            }
            return .writeImage(name: name, bytes: .changed(image: image, change: change))
        }
        if let template = object["print"] as? String { return .print(try segments(template, fail)) }
        throw fail("unknown step \(object.keys.sorted())")
    }

    /// `text {name argument…} text`: a placeholder's words are split on spaces, the last argument is the rest
    /// (a path, or a log line with braces: a placeholder ends at its matching `}`); `{{` and `}}` in the text are
    /// a literal `{` and `}`.
    static func segments(_ template: String, _ fail: (String) -> FormatError) throws -> [Segment] {
        var segments: [Segment] = []
        var text = ""
        var rest = Substring(template)
        while let character = rest.first {
            rest = rest.dropFirst()
            if (character == "{" || character == "}") && rest.first == character {
                text.append(character)
                rest = rest.dropFirst()
                continue
            }
            guard character == "{" else {
                if character == "}" { throw fail("a lone } in \(template) (a literal } is }})") }
                text.append(character)
                continue
            }
            var depth = 1
            guard
                let close = rest.firstIndex(where: { character in
                    depth += character == "{" ? 1 : character == "}" ? -1 : 0
                    return depth == 0
                })
            else { throw fail("unclosed { in \(template)") }
            let words = rest[..<close].split(separator: " ", maxSplits: 2).map(String.init)
            guard let name = words.first else { throw fail("empty {} in \(template)") }
            if !text.isEmpty { segments.append(.text(text)) }
            text = ""
            segments.append(.placeholder(name: name, arguments: Array(words.dropFirst())))
            rest = rest[rest.index(after: close)...]
        }
        if !text.isEmpty { segments.append(.text(text)) }
        return segments
    }

    /// The operation's name in an operation key: `CharacterDetail(id: "1")` → `CharacterDetail`.
    static func operationName(_ key: String) -> String {
        String(key.prefix { $0 != "(" })
    }

    /// Every operation key the scenarios attach or invalidate, and every read (`Operation: path`), sorted.
    /// The placeholders that read a path through the tables, each with its key's prefix before the path (`items`
    /// is `read` printed without the list's brackets): `Operation: path`, `Operation: outcome path`, ….
    static let readKinds = [
        "read": "", "items": "", "outcome": "outcome ", "attempt": "attempt ", "try": "try ", "present": "present ",
    ]

    func tableKeys() throws -> (operations: [String], reads: [String], mutations: [(call: String, optimistic: String?)])
    {
        var operations = Set<String>()
        var mutations: [String: String?] = [:]
        var reads = Set<String>()
        func read(_ scenario: Scenario, _ handles: [String: String], _ handle: String, _ key: String) throws {
            guard let operation = handles[handle] else {
                throw FormatError(description: "scenario \(scenario.name): \(handle) is not an attached handle")
            }
            reads.insert(operation + ": " + key)
        }
        for scenario in scenarios {
            var handles: [String: String] = [:]
            for step in scenario.steps {
                switch step {
                case .attach(let handle, let operation, _, _), .storeRead(let handle, let operation):
                    operations.insert(operation)
                    handles[handle] = Self.operationName(operation)
                case .invalidateOperation(let operation), .commit(_, let operation, _):
                    operations.insert(operation)
                case .fetch(let operation, let name):
                    operations.insert(operation)
                    if let name { handles[name] = Self.operationName(operation) }
                case .observe(let handle, let path): try read(scenario, handles, handle, path)
                case .keep(_, let from, let path): try read(scenario, handles, from, "value " + path)
                case .paginate(let name, let from, let path, let fragment):
                    try read(scenario, handles, from, "pagination \(fragment) \(path)")
                    handles[name] = fragment
                case .mutate(let call, let optimistic, let name):
                    // The table's entry is the call: one optimistic value per call.
                    if let other = mutations[call], other != optimistic {
                        throw FormatError(description: "mutate \(call): two optimistic values")
                    }
                    mutations[call] = optimistic
                    if let name { handles[name] = Self.operationName(call) }
                case .print(let segments):
                    for case .placeholder(let kind, let arguments) in segments {
                        guard let prefix = Self.readKinds[kind] else { continue }
                        guard arguments.count == 2, let operation = handles[arguments[0]] else {
                            throw FormatError(
                                description: "scenario \(scenario.name): {\(kind) \(arguments.joined(separator: " "))} "
                                    + "needs an attached handle and a path")
                        }
                        reads.insert(operation + ": " + prefix + arguments[1])
                    }
                default: break
                }
            }
        }
        return (operations.sorted(), reads.sorted(), mutations.keys.sorted().map { ($0, mutations[$0] ?? nil) })
    }
}
