package baton.tests

import baton.runtime.Authenticator
import baton.runtime.BatonEnvironment
import baton.runtime.FetchException
import baton.runtime.FetchPolicy
import baton.runtime.Field
import baton.runtime.GraphQLRequest
import baton.runtime.HttpMethod
import baton.runtime.HttpTransport
import baton.runtime.Json
import baton.runtime.LensDecoder
import baton.runtime.MemoryLog
import baton.runtime.Operation
import baton.runtime.Optional
import baton.runtime.PersistedQueries
import baton.runtime.RecordReader
import baton.runtime.RetryPolicy
import baton.runtime.Scalars
import baton.runtime.Selection
import baton.runtime.SocketWebSocketConnector
import baton.runtime.Transport
import baton.runtime.Variable
import baton.runtime.WebSocketConnector
import network.CharacterQuery
import network.CharactersPage
import network.RenameCharacter
import java.io.File
import java.net.URL
import java.security.MessageDigest
import java.util.concurrent.TimeUnit
import kotlin.system.exitProcess

/** What a check asks of its transport: the URL, the transport's headers, how queries travel, persisted mode, limits. */
class TransportOptions(
    val url: URL,
    val headers: Map<String, String>,
    val method: HttpMethod = HttpMethod.POST,
    val persisted: PersistedQueries = PersistedQueries.OFF,
    val timeoutMillis: Long = 10000,
    val maxResponseBytes: Long = 32L shl 20,
    val authenticator: Authenticator? = null
)

/** Makes the transport a check runs over. */
typealias TransportFactory = (TransportOptions) -> Transport

/** The `HttpURLConnection` transport for [options]. */
fun httpTransport(options: TransportOptions): Transport = HttpTransport(
    options.url, options.headers, options.timeoutMillis, options.method, options.persisted, options.maxResponseBytes,
    options.authenticator
)

/**
 * The Kotlin runtime against the test GraphQL server (Tests/Server/server.py, started with the network tests'
 * persisted-query manifest), over the transport [transports] makes (`HttpURLConnection` by default, OkHttp from the
 * adapters' suite): a fetch, a field error the server's resolver raises, a request error, a retry after a 502; then
 * the requests themselves, as the server's request log (`/_baton/log`) saw them: POST, GET for queries, headers
 * per transport and per request, `onError`, and the persisted id in both persisted modes; then the transport's
 * rules ([TransportFaultChecks]: 401 refresh, timeout, cancellation, retries) and subscriptions over
 * graphql-transport-ws through [connectors]' sockets ([SubscriptionChecks]). The server's faults are asked for with
 * its `X-Baton-Fault` header. Arguments: python, the server script, the manifest.
 */
class ServerChecks(
    private val python: String,
    private val script: File,
    private val manifest: File,
    private val transports: TransportFactory = ::httpTransport,
    private val connectors: () -> WebSocketConnector = { SocketWebSocketConnector() }
) {
    class Character(private val reader: RecordReader) {
        val id: String get() = reader.readNonNull(Plan.id)
        val name: String get() = reader.readNonNull(Plan.name)
        val status: String get() = reader.readNonNull(Plan.status)
    }

    class Data(private val reader: RecordReader) {
        val character: Character? get() = reader.read(Plan.character)
    }

    object Plan {
        val id = Field("id", "id", "ID", Scalars.ID, true)
        val name = Field("name", "name", "String", Scalars.STRING, true)
        val status = Field("status", "status", "Status", Scalars.STRING, true)
        val character = Field("character", "character", "Character", LensDecoder { Character(it) }, false,
            arguments = mapOf("id" to Variable("id")), selections = listOf(id, name, status))
    }

    /** `query ServerCharacter($id: ID!) { character(id: $id) { id name status } }`, written as generated code would. */
    class ServerCharacter(private val id: String) : Operation<Data> {
        override val operationName: String get() = "ServerCharacter"
        override val operationType: String get() = "query"
        override val document: String get() = "query ServerCharacter(\$id: ID!) { character(id: \$id) { id name status __typename } }"
        override val operationId: String get() = sha256(document)
        override val onError: String? get() = null
        override val rootTypename: String get() = "Query"
        override val selections: List<Selection> get() = listOf(Plan.character)
        override val throwOnFieldError: Boolean get() = false
        override fun variables(): Map<String, Any?> = mapOf("id" to id)
        override fun data(reader: RecordReader): Data = Data(reader)
    }

    fun run() {
        val server = ProcessBuilder(python, "-u", script.path, "--manifest", manifest.path).redirectErrorStream(true).start()
        val reader = server.inputStream.bufferedReader()
        var port: Int? = null
        val seen = StringBuilder()
        while (port == null) {
            val line = reader.readLine() ?: break
            seen.append(line).append('\n')
            if (line.startsWith("BATON_SERVER_PORT=")) port = line.removePrefix("BATON_SERVER_PORT=").toIntOrNull()
        }
        if (port == null) {
            System.err.println("the test server did not start:\n$seen")
            server.destroy()
            exitProcess(3)
        }
        Thread { while (reader.readLine() != null) Unit }.apply { isDaemon = true }.start()
        try {
            val root = "http://127.0.0.1:$port"
            val url = URL("$root/graphql")
            section("fetch") { out -> scenario(url, emptyMap(), out, retry = false) }
            section("field error") { out -> scenario(url, mapOf("X-Baton-Fault" to "field-error=character.name"), out, retry = false) }
            section("request error") { out -> scenario(url, mapOf("X-Baton-Fault" to "body=errors"), out, retry = false) }
            val key = "kotlin-" + System.nanoTime()
            section("retry") { out -> scenario(url, mapOf("X-Baton-Fault" to "status=502,times=1,key=$key"), out, retry = true) }
            val requests = Requests(root, url)
            section("post") { requests.post(it) }
            section("get for queries") { requests.getForQueries(it) }
            section("headers") { requests.headers(it) }
            section("persisted only") { requests.persistedOnly(it) }
            section("automatic persisted queries") { requests.automatic(it) }
            TransportFaultChecks(root, url, transports).run()
            SubscriptionChecks(root, transports, connectors).run()
        } finally {
            server.outputStream.close()
            if (!server.waitFor(10, TimeUnit.SECONDS)) server.destroy()
        }
    }

    /** The requests as the server's log saw them, each check under a test key of its own. */
    private inner class Requests(private val root: String, private val url: URL) {
        private var keys = 0

        private fun environment(
            key: String, method: HttpMethod = HttpMethod.POST, persisted: PersistedQueries = PersistedQueries.OFF,
            headers: Map<String, String> = emptyMap()
        ): BatonEnvironment {
            val transport = transports(TransportOptions(url, mapOf("X-Baton-Test-Key" to key) + headers, method, persisted))
            return BatonEnvironment(transport, MemoryLog(), TestClock().function)
        }

        private fun newKey(): String = "kotlin-requests-" + System.nanoTime() + "-" + (keys++)

        private fun log(key: String): List<String> = requestLog(root, key)

        private fun failure(read: () -> Any?): String = try {
            "value " + read()
        } catch (error: FetchException) {
            "failed: " + error.error.description
        }

        fun post(out: MutableList<String>) {
            val key = newKey()
            val data = environment(key).fetch(CharacterQuery(id = "7"))
            out.add("character: " + data.character?.characterSummary?.name + ", origin " + data.character?.origin?.name)
            out.addAll(log(key))
        }

        fun getForQueries(out: MutableList<String>) {
            val key = newKey()
            val environment = environment(key, method = HttpMethod.GET_FOR_QUERIES)
            val page = environment.fetch(CharactersPage(first = Optional.Present(3), after = Optional.Present("10")))
            out.add("page: " + page.characters.edges.joinToString(", ") { it.node.name })
            val renamed = environment.fetch(RenameCharacter(id = "300", name = "Zeep + Xanflorp & co"))
            out.add("renamed: " + renamed.renameCharacter?.name)
            out.addAll(log(key))
            // The GET form offline, for the Swift test to read back with URLComponents: a `+` must be percent-encoded.
            val http = baton.runtime.GraphQLHttp("https://example.com/graphql?app=1", method = HttpMethod.GET_FOR_QUERIES)
            val request = http.request(GraphQLRequest(CharactersPage(first = Optional.Present(2), after = Optional.Present("a+b"))), true)
            out.add("offline GET: " + request.method + " " + request.url + " body " + (request.body?.size ?: "none"))
        }

        fun headers(out: MutableList<String>) {
            val key = newKey()
            val environment = environment(key, headers = mapOf("Authorization" to "Bearer environment"))
            environment.fetch(CharacterQuery(id = "1"))
            environment.fetch(CharacterQuery(id = "1"), mapOf("Authorization" to "Bearer request"))
            out.addAll(log(key))
        }

        fun persistedOnly(out: MutableList<String>) {
            val key = newKey()
            val environment = environment(key, persisted = PersistedQueries.PERSISTED_ONLY)
            out.add("character: " + environment.fetch(CharacterQuery(id = "21")).character?.characterSummary?.name)
            out.add("renamed: " + environment.fetch(RenameCharacter(id = "22", name = "Persisted")).renameCharacter?.name)
            val get = environment(key, method = HttpMethod.GET_FOR_QUERIES, persisted = PersistedQueries.PERSISTED_ONLY)
            out.add("page: " + get.fetch(CharactersPage(first = Optional.Present(2))).characters.edges.joinToString(", ") { it.node.id })
            // ServerCharacter is in no manifest: persisted-only fails and never sends the document.
            out.add("unknown id: " + failure { environment.fetch(ServerCharacter(id = "1")).character?.name })
            out.addAll(log(key))
        }

        fun automatic(out: MutableList<String>) {
            val key = newKey()
            val environment = environment(key, persisted = PersistedQueries.AUTOMATIC)
            out.add("first: " + environment.fetch(ServerCharacter(id = "31")).character?.name)
            out.add("second: " + environment.fetch(ServerCharacter(id = "32")).character?.name)
            out.addAll(log(key))
        }
    }

    /** A handle's fetch and, with [retry], its `retry()` after the first failure (no automatic retries here). */
    private fun scenario(url: URL, headers: Map<String, String>, out: MutableList<String>, retry: Boolean) {
        val log = MemoryLog()
        val transport = transports(TransportOptions(url, headers))
        val environment = BatonEnvironment(transport, log, TestClock().function, retryPolicy = RetryPolicy.NEVER)
        val handle = environment.attach(ServerCharacter(id = "1"), FetchPolicy.NETWORK_ONLY)
        environment.settle()
        if (retry) {
            out.add("first: " + ScenarioShow.phase(handle.phase))
            handle.retry()
            environment.settle()
        }
        out.add("phase: " + ScenarioShow.phase(handle.phase))
        val character = handle.phase.data?.character
        out.add("character: " + (if (character == null) "nil" else "${character.id} ${character.name} ${character.status}"))
        val slot = environment.store.record("Query")?.slots?.get("character({\"id\":\"1\"})")
        out.add("errors stored on Query.character: " + (slot?.errors?.map { it.toString() } ?: "no slot"))
        out.addAll(log.lines)
    }
}

/** One line per request the server at [root] logged under [key]: `METHOD name document|no document id=… auth=… onError=…`. */
fun requestLog(root: String, key: String): List<String> {
    val entries = Json.parse(URL("$root/_baton/log?key=$key").readText()) as List<*>
    return entries.map { item ->
        val entry = item as Map<*, *>
        listOf(
            entry["method"], entry["operationName"],
            if (entry["hasQuery"] == true) "document" else "no document",
            "id=" + (entry["persistedId"] ?: "none"), "auth=" + (entry["authorization"] ?: "none"),
            "onError=" + (entry["onError"] ?: "none")
        ).joinToString(" ")
    }
}

/** The SHA-256 of [text]'s UTF-8, lower-case hex: a persisted-query id as `baton gen` computes it. */
fun sha256(text: String): String =
    MessageDigest.getInstance("SHA-256").digest(text.toByteArray(Charsets.UTF_8)).joinToString("") { "%02x".format(it) }
