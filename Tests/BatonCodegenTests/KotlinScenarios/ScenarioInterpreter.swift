import Baton
import BatonTesting
import Foundation

/// Runs a scenario of `ScenarioSet` on the Swift runtime and returns the lines it prints; its reads go through the
/// generated Swift by `ScenarioTables`. Kotlin/tests/baton/tests/ScenarioInterpreter.kt is its twin.
struct ScenarioInterpreter {
    let fixtures: URL
    let seed: URL
    /// The folder of both runtimes' images (`swift.image`, `kotlin.image`, and the images `writeImage` writes).
    let images: URL
    /// What `awaitOtherRuntime` waits for: the other runtime's run (the Swift run's first phases came before it).
    let otherRuntime: @Sendable () async throws -> Void

    /// An image by its name in a scenario: `mine` (this runtime's), `other` (the other runtime's), or one this
    /// runtime wrote with `writeImage` (a name never written is an absent file).
    func image(_ name: String) -> URL {
        switch name {
        case "mine": images.appendingPathComponent("swift.image")
        case "other": images.appendingPathComponent("kotlin.image")
        default: images.appendingPathComponent("swift-\(name).image")
        }
    }

    func file(_ answer: ScenarioSet.Answer) -> URL? {
        switch answer {
        case .file(let name): fixtures.appendingPathComponent(name)
        case .seed(let name): seed.appendingPathComponent(name)
        case .failure, .text: nil
        }
    }

    /// What the steps see of an attached handle, whatever its operation.
    struct AttachedHandle {
        var operation: String
        var phase: () -> String
        var kind: () -> String
        var data: () -> Any?
        var isStale: () -> Bool
        var lastFetchError: () -> String
        var errorCode: () -> String
        var retry: () -> Void
        var detach: () -> Void
        /// Calls `callback` with the handle's data at each notification.
        var observe: (_ callback: @escaping @Sendable (Any?) -> Void) -> Void

        init<Operation: GraphQLOperation>(_ name: String, _ handle: Handle<Operation>) {
            operation = name
            phase = { ScenarioShow.phase(handle.phase) }
            kind = { ScenarioShow.kind(handle.phase) }
            data = { handle.phase.data }
            isStale = { handle.isStale }
            lastFetchError = { ScenarioShow.text(handle.lastFetchError?.description) }
            errorCode = {
                guard case .failed(.request(let errors)) = handle.phase else { return "nil" }
                return ScenarioShow.text(errors.first?.extensions?["code"]?.stringValue)
            }
            retry = { handle.retry() }
            detach = { handle.detach() }
            observe = { callback in _ = handle.observe { callback(handle.phase.data) } }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func run(_ scenario: ScenarioSet.Scenario) async throws -> [String] {
        let transport = FixtureTransport()
        for (operation, answers) in scenario.answers {
            for answer in answers {
                switch answer {
                case .file, .seed: transport.answer(operation, with: .file(file(answer) ?? fixtures))
                case .failure(let reason): transport.answer(operation, with: .failure(reason))
                case .text(let text): transport.answer(operation, with: .json(text))
                }
            }
        }
        let held = HeldTransport(transport)
        var log = MemoryLog()
        var clock = ScenarioClock()
        func newEnvironment() -> BatonEnvironment {
            BatonEnvironment(
                transport: held, log: log, clock: clock.function,
                garbageCollection: scenario.garbageCollection.map {
                    GarbageCollection(bufferSize: $0.bufferSize, automatic: $0.automatic)
                } ?? .standard)
        }
        var environment = newEnvironment()
        // The store's records before the last `restart`, for `{sameRecords}`.
        var recordsBefore: [RecordKey: Record]?
        var handles: [String: AttachedHandle] = [:]
        var out: [String] = []
        var mark = 0
        func handle(_ name: String) throws -> AttachedHandle {
            guard let handle = handles[name] else { throw Failure(description: "no handle \(name) attached") }
            return handle
        }
        var kept: [String: Any] = [:]
        func operation(_ key: String) throws -> any GraphQLOperation {
            guard let operation = try ScenarioTables.operation(key, kept) else {
                throw Failure(description: "\(key) is not in ScenarioTables: regenerate the tables")
            }
            return operation
        }
        func attach<Operation: GraphQLOperation>(
            _ operation: Operation, _ name: String, policy: FetchPolicy, expiration: Double?
        )
            -> AttachedHandle
        {
            AttachedHandle(name, environment.attach(operation, policy: policy, expiration: expiration))
        }
        func invalidate<Operation: GraphQLOperation>(_ operation: Operation) {
            environment.invalidate(operation: operation)
        }
        func fetch<Operation: GraphQLOperation>(_ operation: Operation) async throws -> Any {
            try await environment.fetch(operation)
        }
        func commit<Operation: GraphQLOperation>(_ bytes: Data, _ operation: Operation) throws -> CommitResult {
            try environment.store.commit(bytes: bytes, for: operation)
        }
        func storeRead<Operation: GraphQLOperation>(_ operation: Operation) -> () throws -> Any? {
            { try environment.store.read(operation) }
        }
        var commits: [String: CommitResult] = [:]
        var readers: [String: (operation: String, data: () throws -> Any?)] = [:]
        var seen: [String: Guarded<[String]>] = [:]
        var errors: [String: String] = [:]
        var paginations: [String: ScenarioPages] = [:]
        var requestMarks: [String: Int] = [:]
        func pages(_ name: String) throws -> ScenarioPages {
            guard let pages = paginations[name] else { throw Failure(description: "no pagination \(name)") }
            return pages
        }
        func keep(_ result: Result<Any?, any Error>, as name: String, _ operation: String) {
            readers[name] = (operation, { try result.get() })
            if case .failure(let error) = result { errors[name] = "\(error)" } else { errors[name] = nil }
        }
        func reader(_ name: String) throws -> (operation: String, data: () throws -> Any?) {
            guard let reader = readers[name] else { throw Failure(description: "no handle or store read \(name)") }
            return reader
        }
        func missing(_ key: String) -> Failure {
            Failure(description: "\(key) is not in ScenarioTables: regenerate the tables")
        }
        func commitResult(_ name: String) throws -> CommitResult {
            guard let result = commits[name] else { throw Failure(description: "no commit named \(name)") }
            return result
        }
        defer { for handle in handles.values { handle.detach() } }
        for step in scenario.steps {
            switch step {
            case .attach(let name, let key, let policy, let expiration):
                let handle = attach(
                    try operation(key), ScenarioSet.operationName(key), policy: try Self.policy(policy),
                    expiration: expiration)
                handles[name] = handle
                readers[name] = (handle.operation, handle.data)
            case .settle: await environment.settle()
            case .hold: held.hold()
            case .release: held.release()
            case .revalidate: environment.revalidate()
            case .clearLog: log.clear()
            case .markLog: mark = log.lines.count
            case .fetch(let key, nil): _ = try await fetch(try operation(key))
            case .fetch(let key, let name?):
                // A fetch that throws keeps its error under its name: `{attempt name path}` and `{error name}`
                // print it.
                let result: Result<Any?, any Error>
                do { result = .success(try await fetch(try operation(key))) } catch { result = .failure(error) }
                keep(result, as: name, ScenarioSet.operationName(key))
            case .paginate(let name, let from, let path, let fragment):
                let source = try reader(from)
                let key = source.operation + ": pagination \(fragment) \(path)"
                guard let made = ScenarioTables.pagination(key, try source.data(), environment) else {
                    throw Failure(description: "\(key): no fragment to page, or not in ScenarioTables")
                }
                paginations[name] = made
                readers[name] = (fragment, { made.fragment() })
            case .loadNext(let name, let count, let result):
                let made = try pages(name)
                do {
                    try await made.loadNext(count)
                    if let result { errors[result] = nil }
                } catch {
                    guard let result else { throw error }
                    errors[result] = "\(error)"
                }
            case .loadNextTwice(let name, let count):
                // The first call's request is held; the second starts (and waits for the first's page) before the
                // request is answered.
                let made = try pages(name)
                held.hold()
                let first = Task { try await made.loadNext(count) }
                await held.waitForHeld(1)
                made.loadingAtOnce = made.isLoadingNext()
                let second = Task {
                    held.mark()
                    try await made.loadNext(count)
                }
                await held.waitForMark()
                try await Task.sleep(nanoseconds: 50_000_000)
                held.release()
                try await first.value
                try await second.value
            case .refetchPages(let name, let variables):
                try await pages(name).refetch(variables.mapValues { .number(String($0)) })
            case .markRequests:
                for (operation, _) in scenario.answers { requestMarks[operation] = transport.requestCount(operation) }
            case .saveImage: try environment.saveImage(to: image("mine"))
            case .writeImage(let name, let bytes):
                try Self.bytes(bytes, image).write(to: image(name))
            case .restart:
                recordsBefore = environment.store.snapshot().records
                for handle in handles.values { handle.detach() }
                handles = [:]
                readers = [:]
                paginations = [:]
                seen = [:]
                log = MemoryLog()
                clock = ScenarioClock()
                environment = newEnvironment()
            case .awaitOtherRuntime: try await otherRuntime()
            case .mutate(let call, _, let name):
                let result: Result<Any?, any Error>
                do {
                    result = .success(try await ScenarioTables.mutate(call, kept, environment))
                } catch {
                    result = .failure(error)
                }
                if let name { keep(result, as: name, ScenarioSet.operationName(call)) } else { _ = try result.get() }
            case .advance(let seconds): clock.advance(by: seconds)
            case .retry(let name): try handle(name).retry()
            case .detach(let name): try handle(name).detach()
            case .commit(let answer, let key, let name):
                let result = try commit(try Data(contentsOf: file(answer) ?? fixtures), try operation(key))
                if let name { commits[name] = result }
            case .storeRead(let name, let key):
                readers[name] = (ScenarioSet.operationName(key), storeRead(try operation(key)))
            case .invalidateRecord(let key): environment.invalidate(record: key)
            case .invalidateType(let type): environment.invalidate(type: type)
            case .invalidateOperation(let key): invalidate(try operation(key))
            case .printLog(let prefix, let from, let count, let except):
                let lines = log.lines.filter { $0.hasPrefix(prefix) }.dropFirst(from).prefix(count ?? .max)
                out += lines.filter { $0 != except }
            case .observe(let name, let path):
                let key = try handle(name).operation + ": " + path
                let lines = Guarded<[String]>([])
                seen[name] = lines
                guard ScenarioTables.read(key, nil) != nil else { throw missing(key) }
                try handle(name).observe { data in
                    let line = ScenarioTables.read(key, data) ?? "nil"
                    lines.withLock { $0.append(line) }
                }
            case .keep(let name, let from, let path):
                let source = try reader(from)
                let key = source.operation + ": value " + path
                guard let value = ScenarioTables.value(key, try source.data()) else { throw missing(key) }
                kept[name] = value.value
            case .print(let segments):
                var line = ""
                for segment in segments {
                    switch segment {
                    case .text(let text): line += text
                    case .placeholder(let name, let arguments):
                        let argument = arguments.first ?? ""
                        switch name {
                        case "requests": line += String(transport.requestCount(argument))
                        case "phase": line += try handle(argument).phase()
                        case "kind": line += try handle(argument).kind()
                        case "stale": line += String(try handle(argument).isStale())
                        case "lastFetchError": line += try handle(argument).lastFetchError()
                        case "errorCode": line += try handle(argument).errorCode()
                        case "records": line += String(environment.store.snapshot().records.count)
                        case "events": line += log.events.map(\.name).joined(separator: " ")
                        case "log": line += log.lines.joined(separator: " ")
                        case "logCount": line += String(log.lines.filter { $0.hasPrefix(argument) }.count)
                        case "lastLog": line += log.lines.last { $0.hasPrefix(argument) } ?? "null"
                        case "newLogLines": line += String(log.lines.count - mark)
                        case "hasSlot":
                            line += String(environment.store.record(argument)?.slots[arguments.last ?? ""] != nil)
                        case "collectGarbage": line += String(environment.collectGarbage())
                        case "recordKeys":
                            line += environment.store.snapshot().records.keys.sorted().joined(separator: " ")
                        case "changedCount": line += String(try commitResult(argument).changed.count)
                        case "changed": line += try commitResult(argument).changedDescription
                        case "error": line += errors[argument] ?? "none"
                        case "newRequests":
                            line += String(transport.requestCount(argument) - (requestMarks[argument] ?? 0))
                        case "hasNext": line += String(try pages(argument).hasNext())
                        case "loadingNext": line += String(try pages(argument).isLoadingNext())
                        case "pageError": line += try pages(argument).lastError()
                        case "samePagination": line += String(try pages(argument).isShared())
                        case "loadingAtOnce": line += try pages(argument).loadingAtOnce.map(String.init) ?? "nil"
                        case "optimisticLayers": line += String(environment.store.optimisticLayerCount)
                        case "deleted": line += String(environment.store.record(argument)?.isDeleted ?? false)
                        case "loadImage": line += String(environment.loadImage(from: image(argument)))
                        case "sameBytes":
                            guard arguments.count == 2 else {
                                throw Failure(description: "{sameBytes a b}: \(arguments)")
                            }
                            let bytes = try arguments.map { try Data(contentsOf: image($0)) }
                            line += String(bytes[0] == bytes[1])
                        case "sameRecords":
                            guard let recordsBefore else {
                                throw Failure(description: "{sameRecords} before a restart")
                            }
                            line += String(environment.store.snapshot().records == recordsBefore)
                        case "number":
                            let slot = environment.store.record(argument)?.slots[arguments.last ?? ""]
                            if case .number(let literal)? = slot?.value { line += literal } else { line += "nil" }
                        case "updatedAt": line += String(environment.store.record(argument)?.updatedAt ?? -1)
                        case "logHas":
                            guard let from = Int(argument), arguments.count == 2 else {
                                throw Failure(description: "{logHas from line}: \(arguments)")
                            }
                            line += String(log.lines.dropFirst(from).contains(arguments[1]))
                        case "seen":
                            guard let lines = seen[argument], ["first", "last"].contains(arguments.last) else {
                                throw Failure(description: "{seen h first|last} needs an observed handle h")
                            }
                            let all = lines.withLock { $0 }
                            line += (arguments.last == "first" ? all.first : all.last) ?? "null"
                        case _ where ScenarioSet.readKinds[name] != nil:
                            let reader = try reader(argument)
                            let key =
                                reader.operation + ": " + (ScenarioSet.readKinds[name] ?? "") + (arguments.last ?? "")
                            let data: Any?
                            do {
                                data = try reader.data()
                            } catch  where name == "attempt" || name == "try" {
                                line += "throws \(error)"
                                continue
                            }
                            guard let text = ScenarioTables.read(key, data) else { throw missing(key) }
                            line += name == "items" ? ScenarioShow.items(text) : text
                        default: throw Failure(description: "unknown placeholder {\(name)}")
                        }
                    }
                }
                out.append(line)
            }
        }
        return out
    }

    /// The bytes `writeImage` writes: a text, or the bytes of another image (found by `image`) changed.
    static func bytes(_ bytes: ScenarioSet.ImageBytes, _ image: (String) -> URL) throws -> Data {
        switch bytes {
        case .text(let text): return Data(text.utf8)
        case .changed(let name, .truncate):
            let data = try Data(contentsOf: image(name))
            return data.prefix(data.count / 2)
        case .changed(let name, .flipByte):
            var data = try Data(contentsOf: image(name))
            guard data.count >= 10 else { throw Failure(description: "image \(name) has fewer than ten bytes") }
            data[data.count - 10] ^= 0x01
            return data
        case .changed(let name, .nextVersion):
            var text = String(decoding: try Data(contentsOf: image(name)), as: UTF8.self)
            guard let header = text.range(of: "BATON-IMAGE 1 ") else {
                throw Failure(description: "image \(name) has no BATON-IMAGE 1 header")
            }
            text.replaceSubrange(header, with: "BATON-IMAGE 2 ")
            return Data(text.utf8)
        }
    }

    static func policy(_ name: String?) throws -> FetchPolicy {
        guard let name else { return .storeOrNetwork }
        guard let policy = FetchPolicy(rawValue: name) else { throw Failure(description: "unknown policy \(name)") }
        return policy
    }
}

/// How a scenario prints a value it read: the same text in both runtimes (ScenarioShow in ScenarioInterpreter.kt).
enum ScenarioShow {
    static func text(_ value: String?) -> String { value ?? "nil" }
    static func text(_ value: Int?) -> String { value.map(String.init) ?? "nil" }
    static func text(_ value: Bool?) -> String { value.map(String.init) ?? "nil" }

    static func text(_ value: [String]?) -> String { text(value?.map { $0 as String? }) }

    static func text(_ value: [String?]?) -> String {
        value.map { "[" + $0.map { text($0) }.joined(separator: ", ") + "]" } ?? "nil"
    }

    static func text(_ value: [[Int]?]?) -> String {
        value.map { "[" + $0.map { text($0?.map { String($0) }) }.joined(separator: ", ") + "]" } ?? "nil"
    }

    /// The scenario project's enum: a declared value by its text, an undeclared one as the server sent it.
    static func text(_ value: Mood?) -> String {
        switch value {
        case nil: "nil"
        case .unknown(let text)?: "undeclared " + text
        case let mood?: "declared " + mood.rawText
        }
    }

    /// A connection's ID (`{keep}` passes it to an operation).
    static func text(_ value: ConnectionID?) -> String { value?.description ?? "nil" }

    static func phase<D>(_ phase: Phase<D>) -> String {
        switch phase {
        case .loading: "loading"
        case .ready: "ready"
        case .failed(let error): "failed: " + error.description
        }
    }

    /// `{kind h}`: the phase, a failure by its kind.
    static func kind<D>(_ phase: Phase<D>) -> String {
        switch phase {
        case .loading: "loading"
        case .ready: "ready"
        case .failed(.request): "failed: request"
        case .failed(.offline): "failed: offline"
        case .failed(.timedOut): "failed: timedOut"
        case .failed(.httpStatus): "failed: httpStatus"
        case .failed(.malformedResponse): "failed: malformedResponse"
        case .failed(.tooLarge): "failed: tooLarge"
        case .failed(.cancelled): "failed: cancelled"
        case .failed(.protocolViolation): "failed: protocolViolation"
        case .failed(.transportFailed): "failed: transportFailed"
        case .failed(.read): "failed: read"
        case .failed(.unattached): "failed: unattached"
        }
    }

    /// The scenario project's `Year` (Kotlin maps it to `Int`).
    static func text(_ value: ScenarioYear?) -> String { text(value?.year) }

    /// `{items h path}`: a list's text without its brackets.
    static func items(_ text: String) -> String {
        text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    }

    /// `{outcome h path}`: whether a `@catch` field's result is a success, or its errors.
    static func outcome<Value>(_ value: Result<Value, FieldErrors>?) -> String {
        switch value {
        case nil: "nil"
        case .success?: "success"
        case .failure(let errors)?: "failure: " + errors.errors.map(\.description).joined(separator: "; ")
        }
    }

    /// `{present h path}`: whether a value is there, whatever its type.
    static func present<Value>(_ value: Value?) -> String { value == nil ? "nil" : "a value" }

    /// `{attempt h path}`: a read that may throw, as `value …` or `throws …`.
    static func attempt(_ read: () throws -> String?) -> String {
        do {
            return "value " + text(try read())
        } catch {
            return "throws \(error)"
        }
    }

    /// `{try h path}`: a read that may throw, as `{read}` prints it or `throws …`.
    static func tryRead(_ read: () throws -> String?) -> String {
        do {
            return text(try read())
        } catch {
            return "throws \(error)"
        }
    }

    static func text(_ value: Result<String?, FieldErrors>?) -> String {
        switch value {
        case nil: "nil"
        case .success(let value)?: "success: " + text(value)
        case .failure(let errors)?: "failure: " + errors.errors.map(\.description).joined(separator: "; ")
        }
    }
}

/// A pagination as the steps see it, whatever its fragment (`ScenarioPages` in ScenarioInterpreter.kt).
final class ScenarioPages: @unchecked Sendable {
    let loadNext: @Sendable (Int) async throws -> Void
    let refetch: @Sendable ([String: JSONValue]) async throws -> Void
    let hasNext: @Sendable () -> Bool
    let isLoadingNext: @Sendable () -> Bool
    let lastError: @Sendable () -> String
    let fragment: @Sendable () -> Any
    /// The environment gives this pagination again for its fragment (the same record and variables).
    let isShared: @Sendable () -> Bool
    /// `isLoadingNext` while the first of `loadNextTwice`'s calls was held.
    var loadingAtOnce: Bool?

    init<Fragment>(_ pages: Pagination<Fragment>) {
        loadNext = { try await pages.loadNext($0) }
        refetch = { try await pages.refetch($0) }
        hasNext = { pages.hasNext }
        isLoadingNext = { pages.isLoadingNext }
        lastError = { ScenarioShow.text(pages.lastError?.description) }
        fragment = { pages.fragment }
        isShared = { pages.environment.pagination(of: pages.fragment) === pages }
    }
}

/// A value `{"keep": name}` read, for an operation key's `$name` (`kept` in ScenarioInterpreter.kt).
struct ScenarioKept {
    var value: Any?

    init(_ value: Any?) { self.value = value }

    /// The value kept as `name`, as the operation's argument takes it.
    static func get<Value>(_ values: [String: Any], _ name: String) throws -> Value {
        guard let value = values[name] as? Value else {
            throw ScenarioInterpreter.Failure(description: "no \(Value.self) kept as \(name)")
        }
        return value
    }
}

extension Result where Failure == FieldErrors {
    /// A path's `a!.b`: the value of a `@catch` field's result, nil when it failed (`caught()` in
    /// ScenarioInterpreter.kt).
    func caught<Wrapped>() -> Wrapped? where Success == Wrapped? {
        if case .success(let value) = self { return value }
        return nil
    }
}

/// The scenario project's `Year`: `year 1990` is 1990; any other text does not convert.
struct ScenarioYear: CustomScalar, Hashable {
    var year: Int

    init?(scalarText: String) {
        guard scalarText.hasPrefix("year "), let year = Int(scalarText.dropFirst(5)) else { return nil }
        self.year = year
    }

    static var placeholder: ScenarioYear { ScenarioYear(year: 0) }

    init(year: Int) { self.year = year }
}

/// The scenario project's `JSON`: any value as its JSON text (the text the runtime stores it as).
struct ScenarioJSON: CustomScalar, Hashable {
    var text: String

    init?(scalarText: String) { text = scalarText }

    static var placeholder: ScenarioJSON { ScenarioJSON(text: "") }

    init(text: String) { self.text = text }
}

/// A clock tests move by hand, starting where the Kotlin scenarios' clock starts.
final class ScenarioClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }

    var function: @Sendable () -> Date {
        {
            self.lock.lock()
            defer { self.lock.unlock() }
            return self.current
        }
    }
}

/// A value behind a lock, for observers called on other threads.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A transport that holds requests while `hold()` is in effect, so a scenario reads a handle's phase "at once"
/// while its fetch is still in flight: without it a fixture answers fast enough to race the read under load.
final class HeldTransport: Transport, @unchecked Sendable {
    private let inner: FixtureTransport
    private let lock = NSLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var marked = false

    init(_ inner: FixtureTransport) { self.inner = inner }

    func hold() { lock.withLock { held = true } }

    /// Waits (up to ten seconds) until `count` requests are held.
    func waitForHeld(_ count: Int) async {
        for _ in 0..<10_000 where lock.withLock({ waiting.count < count }) {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    /// A scenario's mark (the pagination's second call has started), and waiting (up to ten seconds) for it.
    func mark() { lock.withLock { marked = true } }

    func waitForMark() async {
        for _ in 0..<10_000 where !lock.withLock({ marked }) { try? await Task.sleep(nanoseconds: 1_000_000) }
    }

    func release() {
        let resumed: [CheckedContinuation<Void, Never>] = lock.withLock {
            held = false
            defer { waiting = [] }
            return waiting
        }
        for continuation in resumed { continuation.resume() }
    }

    func send(_ request: GraphQLRequest) async throws -> Data {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let run: Bool = lock.withLock {
                if held { waiting.append(continuation) }
                return !held
            }
            if run { continuation.resume() }
        }
        return try await inner.send(request)
    }
}
