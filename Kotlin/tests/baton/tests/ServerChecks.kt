package baton.tests

import baton.runtime.BatonEnvironment
import baton.runtime.FetchPolicy
import baton.runtime.Field
import baton.runtime.HttpTransport
import baton.runtime.LensDecoder
import baton.runtime.MemoryLog
import baton.runtime.Operation
import baton.runtime.RecordReader
import baton.runtime.Scalars
import baton.runtime.Selection
import baton.runtime.Variable
import java.io.File
import java.net.URL
import java.util.concurrent.TimeUnit
import kotlin.system.exitProcess

/**
 * The Kotlin runtime against the test GraphQL server (Tests/Server/server.py), over `HttpURLConnection`: a fetch,
 * a field error the server's resolver raises, a request error, and a retry after a 502. The server's faults are
 * asked for with its `X-Baton-Fault` header. Arguments: python, the server script.
 */
class ServerChecks(private val python: String, private val script: File) {
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
        override val operationId: String get() = "0"
        override val onError: String? get() = null
        override val rootTypename: String get() = "Query"
        override val selections: List<Selection> get() = listOf(Plan.character)
        override val throwOnFieldError: Boolean get() = false
        override fun variables(): Map<String, Any?> = mapOf("id" to id)
        override fun data(reader: RecordReader): Data = Data(reader)
    }

    fun run() {
        val server = ProcessBuilder(python, "-u", script.path).redirectErrorStream(true).start()
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
            val url = URL("http://127.0.0.1:$port/graphql")
            section("fetch") { out -> scenario(url, emptyMap(), out, retry = false) }
            section("field error") { out -> scenario(url, mapOf("X-Baton-Fault" to "field-error=character.name"), out, retry = false) }
            section("request error") { out -> scenario(url, mapOf("X-Baton-Fault" to "body=errors"), out, retry = false) }
            val key = "kotlin-" + System.nanoTime()
            section("retry") { out -> scenario(url, mapOf("X-Baton-Fault" to "status=502,times=1,key=$key"), out, retry = true) }
        } finally {
            server.outputStream.close()
            if (!server.waitFor(10, TimeUnit.SECONDS)) server.destroy()
        }
    }

    private fun scenario(url: URL, headers: Map<String, String>, out: MutableList<String>, retry: Boolean) {
        val log = MemoryLog()
        val environment = BatonEnvironment(HttpTransport(url, headers), log, TestClock().function)
        val handle = environment.attach(ServerCharacter(id = "1"), FetchPolicy.NETWORK_ONLY)
        environment.settle()
        if (retry) {
            out.add("first: " + Scenarios.phase(handle.phase))
            handle.retry()
            environment.settle()
        }
        out.add("phase: " + Scenarios.phase(handle.phase))
        val character = handle.phase.data?.character
        out.add("character: " + (if (character == null) "nil" else "${character.id} ${character.name} ${character.status}"))
        val slot = environment.store.record("Query")?.slots?.get("character({\"id\":\"1\"})")
        out.add("errors stored on Query.character: " + (slot?.errors?.map { it.toString() } ?: "no slot"))
        out.addAll(log.lines)
    }
}
