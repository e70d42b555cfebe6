package baton.tests

import com.sun.net.httpserver.HttpServer
import java.net.InetSocketAddress

/** Prints a section of a suite's output: `== name`, then the lines [body] collected (or the error it threw). */
fun section(name: String, body: (MutableList<String>) -> Unit) {
    val lines = ArrayList<String>()
    try {
        body(lines)
    } catch (error: Throwable) {
        lines.add("unexpected ${error.javaClass.simpleName}: ${error.message}")
    }
    println("== $name")
    for (line in lines) println(line)
}

/**
 * A local HTTP server for the transports' tests: answers `POST /graphql` with the queued (status, body) pairs in
 * order and keeps each request as `METHOD Content-Type Authorization body`.
 */
class GraphQLTestServer(answers: List<Pair<Int, String>>) {
    private val queue = ArrayList(answers)
    private val received = ArrayList<String>()
    private val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)

    /** The URL to post to. */
    val url: String get() = "http://127.0.0.1:${server.address.port}/graphql"

    /** The requests so far. */
    val requests: List<String> get() = synchronized(queue) { ArrayList(received) }

    init {
        server.createContext("/graphql") { exchange ->
            val body = exchange.requestBody.readBytes().toString(Charsets.UTF_8)
            val headers = exchange.requestHeaders
            val (status, text) = synchronized(queue) {
                received.add("${exchange.requestMethod} ${headers.getFirst("Content-Type")} ${headers.getFirst("Authorization")} $body")
                if (queue.isEmpty()) 500 to "no answer queued" else queue.removeAt(0)
            }
            val bytes = text.toByteArray(Charsets.UTF_8)
            exchange.sendResponseHeaders(status, bytes.size.toLong())
            exchange.responseBody.use { it.write(bytes) }
        }
        server.start()
    }

    fun stop() = server.stop(0)
}
