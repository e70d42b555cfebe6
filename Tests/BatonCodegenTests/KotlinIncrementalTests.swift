import Baton
import BatonTestSupport
import Foundation
import XCTest

/// The Kotlin runtime's multipart reader and merger (IncrementalDelivery.kt) against the Swift runtime's, on the same
/// byte fixtures (Tests/BatonRuntimeTests/Fixtures/incremental), whole and in reads of 1 and 7 bytes: both print the
/// same lines, payload by payload, error for error.
final class KotlinIncrementalTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BatonRuntimeTests/Fixtures/incremental")

    /// Each fixture with its boundary, in the order both print them.
    static let cases = [
        ("current-defer.multipart", "-"), ("current-failed.multipart", "-"), ("current-stream.multipart", "-"),
        ("apollo-2022.multipart", "graphql"), ("unknown-id.multipart", "-"), ("subpath-outside.multipart", "-"),
        ("truncated.multipart", "-"), ("never-ends.multipart", "-"),
    ]

    /// The read sizes both use (`Int.max`: the whole body at once).
    static let chunks = [Int.max, 1, 7]

    func testBothRuntimesReadTheFixturesAlike() throws {
        let build = try KotlinBuild.shared()
        let kotlin = try build.run("check.incremental.IncrementalCheckKt", [Self.fixtures.path])
        XCTAssertEqual(kotlin, try Self.swiftLines())
    }

    /// The Kotlin environment fetching the guide's repository screen (`@defer` on its issues, `@stream` on its
    /// stargazers) payload by payload from the fixtures prints what the Swift environment's `IncrementalFetchTests`
    /// read after each payload, and the same `committed` payload summaries.
    func testTheKotlinEnvironmentCommitsPayloadByPayloadAsSwiftDoes() throws {
        let build = try KotlinBuild.shared()
        let kotlin = try build.run("check.incremental.EnvironmentCheckKt", [Self.fixtures.path])
        XCTAssertEqual(
            kotlin.split(separator: "\n").map(String.init),
            [
                "== current-defer.multipart",
                "baton; issues pending; stargazers []",
                "baton; issues Defer it, Stream it; stargazers []",
                "committed: payload 1: filled data; pending 1; more coming",
                "committed: payload 2: filled repository (issues); completed repository (issues); pending 0; complete",
                "end",
                "== current-failed.multipart",
                "baton; issues pending; stargazers []",
                "baton; issues failed: issues are unavailable; stargazers []",
                "committed: payload 1: filled data; pending 1; more coming",
                "committed: payload 2: completed repository (issues); failed repository (issues); pending 0; complete",
                "end",
                "== current-stream.multipart",
                "baton; issues pending; stargazers [ada] more coming",
                "baton; issues pending; stargazers [ada] more coming",
                "baton; issues pending; stargazers [ada, grace] more coming",
                "baton; issues pending; stargazers [ada, grace, linus]",
                "committed: payload 1: filled data; pending 2; more coming",
                "committed: payload 2: pending 2; more coming",
                "committed: payload 3: filled repository.stargazers +1; pending 2; more coming",
                "committed: payload 4: filled repository.stargazers.0, repository.stargazers +1; completed repository, repository.stargazers (more); pending 0; complete",
                "end",
                "== unknown-id.multipart",
                "baton; issues pending; stargazers []",
                "committed: payload 1: filled data; pending 1; more coming",
                "error: " + IncrementalError.unknownID("7").description,
                "== never-ends.multipart",
                "baton; issues pending; stargazers []",
                "committed: payload 1: filled data; pending 1; more coming",
                "error: " + IncrementalError.endedWithMoreToCome.description,
            ])
    }

    /// The Kotlin program of `testTheKotlinEnvironmentCommitsPayloadByPayloadAsSwiftDoes`: the repository screen's
    /// operation written as `baton gen` writes one, over a transport handing over a fixture's parts.
    static let environmentProgram = #"""
        package check.incremental

        import baton.runtime.*
        import java.io.File

        class Screen : Operation<Screen.Data> {
            override val operationName: String get() = "RepositoryScreen"
            override val operationType: String get() = "query"
            override val document: String get() = "query RepositoryScreen { repository { id name owner ...Issues_repository @defer(label: \"issues\") stargazers @stream(label: \"more\", initialCount: 1) { login } } }"
            override val operationId: String get() = ""
            override val onError: String? get() = null
            override val rootTypename: String get() = "Query"
            override val selections: List<Selection> get() = Plan.SELECTIONS
            override val throwOnFieldError: Boolean get() = false
            override val incrementalDelivery: Boolean get() = true
            override fun variables(): Map<String, Any?> = emptyMap()
            override fun data(reader: RecordReader): Data = Data(reader)

            class Data(private val reader: RecordReader) {
                val repository: Repository? get() = reader.read(Plan.repository)
            }

            class Repository(private val reader: RecordReader) {
                val name: String? get() = reader.read(Plan.name)
                val issues: DeferredPhase<Issues> get() = reader.deferred(Plan.issues, "issues") ?: DeferredPhase.Pending
                val stargazers: Streamed<List<Stargazer>?> get() = reader.streamed(Plan.stargazers, StreamCount.literal(1), reader.read(Plan.stargazers))
            }

            class Stargazer(private val reader: RecordReader) {
                val login: String? get() = reader.read(Plan.login)
            }

            class Issues(private val reader: RecordReader) {
                val issues: List<Issue>? get() = reader.read(Plan.issueList)
            }

            class Issue(private val reader: RecordReader) {
                val title: String? get() = reader.read(Plan.title)
            }

            object Plan {
                val title = Field("title", "title", "String", Scalars.STRING, false)
                val issueId = Field("id", "id", "ID", Scalars.ID, true)
                val issueList = Field("issues", "issues", "Issue", ListDecoder(LensDecoder { Issue(it) }, true), false, selections = listOf(issueId, title))
                val issues = FragmentSpread("Issues_repository", "Repository", null, listOf(issueList), { Issues(it) })
                val login = Field("login", "login", "String", Scalars.STRING, false)
                val stargazers = Field("stargazers", "stargazers", "User", ListDecoder(LensDecoder { Stargazer(it) }, true), false, selections = listOf(login))
                val id = Field("id", "id", "ID", Scalars.ID, true)
                val name = Field("name", "name", "String", Scalars.STRING, false)
                val owner = Field("owner", "owner", "String", Scalars.STRING, false)
                val repository = Field("repository", "repository", "Repository", LensDecoder { Repository(it) }, false, selections = listOf(id, name, owner, issues, stargazers))
                val SELECTIONS: List<Selection> = listOf(repository)
            }
        }

        fun describe(store: RecordStore): String {
            val repository = store.read(Screen()).repository ?: return "no repository"
            val issues = when (val phase = repository.issues) {
                is DeferredPhase.Ready -> "issues " + (phase.value.issues ?: emptyList()).joinToString(", ") { it.title ?: "?" }
                is DeferredPhase.Failed -> "issues failed: " + phase.errors
                else -> "issues pending"
            }
            val stars = repository.stargazers
            val logins = (stars.items ?: emptyList()).joinToString(", ") { it.login ?: "?" }
            return "${repository.name ?: "?"}; $issues; stargazers [$logins]" + (if (stars.moreComing) " more coming" else "")
        }

        class Parts(file: File, private val store: RecordStore, private val out: StringBuilder) : IncrementalTransport {
            private val parts = MultipartReader("-").feed(file.readBytes())
            override fun send(request: GraphQLRequest): ByteArray = throw TransportException("an incremental operation was sent whole")
            override fun sendIncrementally(request: GraphQLRequest, receive: (ByteArray) -> Unit) {
                for (part in parts) {
                    receive(part)
                    out.append(describe(store)).append("\n")
                }
            }
        }

        fun main(args: Array<String>) {
            val out = StringBuilder()
            for (name in listOf("current-defer.multipart", "current-failed.multipart", "current-stream.multipart", "unknown-id.multipart", "never-ends.multipart")) {
                out.append("== ").append(name).append("\n")
                val store = RecordStore()
                val log = MemoryLog()
                val environment = BatonEnvironment(Parts(File(args[0], name), store, out), log, store = store)
                val outcome = try {
                    environment.fetch(Screen())
                    "end"
                } catch (error: FetchException) {
                    "error: " + ((error.error as? FetchError.MalformedResponse)?.reason ?: error.error.toString())
                }
                for (event in log.events) if (event.name == "committed") out.append("committed: ").append(event.payload["payload"]).append("\n")
                out.append(outcome).append("\n")
            }
            print(out)
        }
        """#

    /// The Kotlin runtime against the incremental-delivery server (Tests/Server/incremental, graphql-core 3.3) over
    /// `HttpTransport` and `GraphQLWebSocketTransport`, through the Kotlin `baton gen` writes for the network tests'
    /// operations (Tests/BatonNetworkTests/Incremental): the lines the Swift runtime's `IncrementalServerTests` expect,
    /// the first payload committed before the server sends the rest (its gate opened from inside the first payload).
    func testTheKotlinRuntimeAgainstTheIncrementalServer() throws {
        let python = try PythonScript.incrementalPython()
        let build = try KotlinBuild.shared()
        let script = KotlinProjectSupport.repositoryRoot.appendingPathComponent("Tests/Server/incremental/server.py")
        let output = try build.run("check.incremental.ServerCheckKt", [python.path, script.path])
        // The OkHttp adapter is optional: without its libraries the program says so.
        let overOkHttp: [String] =
            KotlinBuild.adapterLibraries == nil
            ? ["okhttp: unavailable"]
            : [
                "gate: {\"opened\": \"kotlin-okhttp-gate\", \"restSent\": false}",
                "baton; issues pending", "baton; issues Defer it, Stream it",
            ]
        let expected: [String] =
            [
                "== the repository, then its issues",
                "baton; issues pending", "baton; issues Defer it, Stream it",
                "committed: payload 1: filled data; pending 1; more coming",
                "committed: payload 2: filled repository (issues); completed repository (issues); pending 0; complete",
                "== a failing deferred fragment",
                "baton; pending", "baton; failed: issues are unavailable",
                "== a streamed list",
                "ada …", "ada, grace …", "ada, grace, linus",
                "== the repository committed before the server sends its issues",
                "gate: {\"opened\": \"kotlin-gate\", \"restSent\": false}",
                "baton; issues pending", "baton; issues Defer it, Stream it",
                "== over graphql-transport-ws, the repository committed before the server sends its issues",
                "gate: {\"opened\": \"kotlin-ws-gate\", \"restSent\": false}",
                "baton; issues pending", "baton; issues Defer it, Stream it",
                "committed: payload 1: filled data; pending 1; more coming",
                "committed: payload 2: filled repository (issues); completed repository (issues); pending 0; complete",
                "== over graphql-transport-ws, a streamed list",
                "ada …", "ada, grace …", "ada, grace, linus",
                "== over graphql-transport-ws, closed after the first next",
                "baton; issues pending", "error: offline", "store: baton; issues pending",
                "== over OkHttp, the repository committed before the server sends its issues",
            ] + overOkHttp + [
                "== truncated between parts",
                "baton; issues pending",
                "error: transport: network: " + MultipartError.truncated.description, "store: baton; issues pending",
                "== plain JSON",
                "baton; issues Defer it, Stream it",
            ]
        XCTAssertEqual(output.split(separator: "\n").map(String.init), expected)
    }

    /// The program of `testTheKotlinRuntimeAgainstTheIncrementalServer`: it starts the server (stopping it at the end).
    static let serverProgram = #"""
        package check.incremental

        import baton.runtime.*
        import incremental.network.FailingIssues
        import incremental.network.RepositoryScreen
        import incremental.network.Stargazers
        import java.net.URL
        import kotlin.system.exitProcess

        class Recording(private val http: IncrementalTransport, private val read: () -> String, private val afterFirst: () -> Unit) : IncrementalTransport {
            val seen = ArrayList<String>()
            override fun send(request: GraphQLRequest): ByteArray = http.send(request)
            override fun sendIncrementally(request: GraphQLRequest, receive: (ByteArray) -> Unit) {
                http.sendIncrementally(request) { payload ->
                    receive(payload)
                    seen.add(read())
                    if (seen.size == 1) afterFirst()
                }
            }
        }

        fun screen(store: RecordStore): String {
            val repository = store.read(RepositoryScreen("octocat", "baton")).repository ?: return "nothing"
            return when (val phase = repository.repositoryIssues) {
                is DeferredPhase.Ready -> repository.name + "; issues " + phase.value.issues.joinToString(", ") { it.title }
                is DeferredPhase.Failed -> repository.name + "; issues failed: " + phase.errors
                else -> repository.name + "; issues pending"
            }
        }

        fun <D : Any> fetch(
            url: URL, out: StringBuilder, operation: Operation<D>, fault: String?, log: Boolean, gate: String? = null,
            via: String = "http", read: (RecordStore) -> String
        ) {
            val webSocket = via == "ws"
            val store = RecordStore()
            val headers = LinkedHashMap<String, String>()
            if (fault != null) headers["X-Baton-Fault"] = fault
            if (gate != null) headers["X-Baton-Gate"] = gate
            // The server holds the rest behind the gate until the first payload has been committed and read here (its
            // answer is printed then, before the lines read after each payload).
            val opened = { if (gate != null) out.append("gate: ").append(URL(url, "/_baton/gate?open=" + gate).readText()).append("\n") }
            val carrier: IncrementalTransport = when (via) {
                "ws" -> GraphQLWebSocketTransport("ws://" + url.host + ":" + url.port + url.path, headers = headers, operationTimeoutMillis = 20000)
                "okhttp" -> okHttp(url, headers) ?: run {
                    out.append("okhttp: unavailable\n")
                    return
                }
                else -> HttpTransport(url, headers, timeoutMillis = 20000)
            }
            val transport = Recording(carrier, { read(store) }, { opened() })
            val events = MemoryLog()
            val environment = BatonEnvironment(transport, events, store = store, retryPolicy = RetryPolicy(0, 0.0, 0.0, 0.0))
            try {
                environment.fetch(operation)
                for (line in transport.seen) out.append(line).append("\n")
                if (log) for (event in events.events) if (event.name == "committed") out.append("committed: ").append(event.payload["payload"]).append("\n")
            } catch (error: FetchException) {
                for (line in transport.seen) out.append(line).append("\n")
                val failure = error.error
                // A socket's failure names what broke it, which differs between runs: over a socket only its kind.
                out.append("error: ").append(if (webSocket && failure is FetchError.Offline) "offline" else failure.description).append("\n")
                out.append("store: ").append(read(store)).append("\n")
            }
        }

        /** The OkHttp adapter's transport when the adapters are on the classpath (they are optional), else null. */
        fun okHttp(url: URL, headers: Map<String, String>): IncrementalTransport? = try {
            val client = Class.forName("okhttp3.OkHttpClient").getConstructor().newInstance()
            Class.forName("baton.okhttp.OkHttpTransport")
                .getConstructor(client.javaClass, String::class.java, Map::class.java)
                .newInstance(client, url.toString(), headers) as IncrementalTransport
        } catch (error: ClassNotFoundException) {
            null
        }

        fun main(args: Array<String>) {
            val server = ProcessBuilder(args[0], "-u", args[1]).redirectErrorStream(true).start()
            val reader = server.inputStream.bufferedReader()
            var port: Int? = null
            while (port == null) {
                val line = reader.readLine() ?: break
                if (line.startsWith("BATON_SERVER_PORT=")) port = line.removePrefix("BATON_SERVER_PORT=").toIntOrNull()
            }
            if (port == null) {
                server.destroy()
                exitProcess(3)
            }
            Thread { while (reader.readLine() != null) Unit }.apply { isDaemon = true }.start()
            val url = URL("http://127.0.0.1:$port/graphql")
            val out = StringBuilder()
            try {
                out.append("== the repository, then its issues\n")
                fetch(url, out, RepositoryScreen("octocat", "baton"), null, true) { screen(it) }
                out.append("== a failing deferred fragment\n")
                fetch(url, out, FailingIssues("octocat", "baton"), null, false) { store ->
                    val repository = store.read(FailingIssues("octocat", "baton")).repository
                    if (repository == null) "nothing" else when (val phase = repository.asRepository) {
                        is DeferredPhase.Ready -> repository.name + "; ready"
                        is DeferredPhase.Failed -> repository.name + "; failed: " + phase.errors
                        else -> repository.name + "; pending"
                    }
                }
                out.append("== a streamed list\n")
                fetch(url, out, Stargazers("octocat", "baton"), null, false) { store ->
                    val stars = store.read(Stargazers("octocat", "baton")).repository?.stargazers
                    if (stars == null) "nothing" else stars.items.joinToString(", ") { it.login } + (if (stars.moreComing) " …" else "")
                }
                out.append("== the repository committed before the server sends its issues\n")
                fetch(url, out, RepositoryScreen("octocat", "baton"), null, false, "kotlin-gate") { screen(it) }
                out.append("== over graphql-transport-ws, the repository committed before the server sends its issues\n")
                fetch(url, out, RepositoryScreen("octocat", "baton"), null, true, "kotlin-ws-gate", "ws") { screen(it) }
                out.append("== over graphql-transport-ws, a streamed list\n")
                fetch(url, out, Stargazers("octocat", "baton"), null, false, null, "ws") { store ->
                    val stars = store.read(Stargazers("octocat", "baton")).repository?.stargazers
                    if (stars == null) "nothing" else stars.items.joinToString(", ") { it.login } + (if (stars.moreComing) " …" else "")
                }
                out.append("== over graphql-transport-ws, closed after the first next\n")
                fetch(url, out, RepositoryScreen("octocat", "baton"), "truncate-after=1", false, null, "ws") { screen(it) }
                out.append("== over OkHttp, the repository committed before the server sends its issues\n")
                fetch(url, out, RepositoryScreen("octocat", "baton"), null, false, "kotlin-okhttp-gate", "okhttp") { screen(it) }
                out.append("== truncated between parts\n")
                fetch(url, out, RepositoryScreen("octocat", "baton"), "truncate-after=1", false) { screen(it) }
                out.append("== plain JSON\n")
                fetch(url, out, RepositoryScreen("octocat", "baton"), "plain", false) { screen(it) }
            } finally {
                server.outputStream.close()
                server.destroy()
            }
            print(out)
        }
        """#

    /// What the Swift runtime reads: per fixture and read size, `== name (chunk)` then a line per payload and `end`
    /// or the error.
    static func swiftLines() throws -> String {
        var out = ""
        for (name, boundary) in cases {
            let bytes = Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
            for chunk in chunks {
                out += "== \(name) (\(chunk == .max ? "whole" : String(chunk)))\n"
                var reader = MultipartReader(boundary: boundary)
                var merger = IncrementalMerger()
                do {
                    var offset = 0
                    while offset < bytes.count {
                        let end = offset + min(chunk, bytes.count - offset)
                        for part in try reader.feed(bytes[offset..<end]) {
                            out += try merger.apply(JSONParser.parse(Data(part))).summary + "\n"
                        }
                        offset = end
                    }
                    try reader.finish()
                    try merger.finish()
                    out += "end\n"
                } catch {
                    out += "error: \(error)\n"
                }
            }
        }
        return out
    }

    /// The Kotlin program printing the same.
    static let program = #"""
        package check.incremental

        import baton.runtime.IncrementalException
        import baton.runtime.IncrementalMerger
        import baton.runtime.Json
        import baton.runtime.MultipartReader
        import java.io.File

        val cases = listOf(
            "current-defer.multipart" to "-", "current-failed.multipart" to "-", "current-stream.multipart" to "-",
            "apollo-2022.multipart" to "graphql", "unknown-id.multipart" to "-", "subpath-outside.multipart" to "-",
            "truncated.multipart" to "-", "never-ends.multipart" to "-"
        )

        fun main(args: Array<String>) {
            val out = StringBuilder()
            for ((name, boundary) in cases) {
                val bytes = File(args[0], name).readBytes()
                for (chunk in listOf(Int.MAX_VALUE, 1, 7)) {
                    out.append("== ").append(name).append(" (").append(if (chunk == Int.MAX_VALUE) "whole" else chunk.toString()).append(")\n")
                    val reader = MultipartReader(boundary)
                    val merger = IncrementalMerger()
                    try {
                        var offset = 0
                        while (offset < bytes.size) {
                            val length = minOf(chunk, bytes.size - offset)
                            for (part in reader.feed(bytes, offset, length)) {
                                out.append(merger.apply(Json.parse(String(part, Charsets.UTF_8))).summary).append("\n")
                            }
                            offset += length
                        }
                        reader.finish()
                        merger.finish()
                        out.append("end\n")
                    } catch (error: IncrementalException) {
                        out.append("error: ").append(error.message).append("\n")
                    }
                }
            }
            print(out)
        }
        """#
}
