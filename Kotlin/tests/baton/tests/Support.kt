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

/**
 * A loopback HTTP/1.1 server that answers the first request on each connection and keeps the connection open, then
 * resets it (RST, no answer byte) when a second request arrives on it: a server dropping a keep-alive connection just
 * as the client reuses it (as Swift's `ResettingServer`). Every request read whole is answered
 * `{"data":null,"errors":[{"message":"answered <operationName>"}]}` and counted by operation.
 */
class ResettingServer {
    private val server = java.net.ServerSocket(0, 32, java.net.InetAddress.getByName("127.0.0.1"))
    private val answered = HashMap<String, Int>()
    @Volatile var resets = 0
        private set

    val url: String get() = "http://127.0.0.1:${server.localPort}/graphql"

    init {
        val acceptor = Thread {
            while (true) {
                val client = try { server.accept() } catch (error: java.io.IOException) { break }
                val worker = Thread { serve(client) }
                worker.isDaemon = true
                worker.start()
            }
        }
        acceptor.isDaemon = true
        acceptor.start()
    }

    /** How many requests of an operation it answered (a mutation answered is a mutation executed). */
    fun answers(operation: String): Int = synchronized(answered) { answered[operation] ?: 0 }

    fun stop() = server.close()

    private fun serve(client: java.net.Socket) {
        try {
            val input = java.io.BufferedInputStream(client.getInputStream())
            var served = 0
            while (true) {
                val head = readHead(input) ?: break
                if (served > 0) {
                    client.setSoLinger(true, 0)
                    synchronized(answered) { resets++ }
                    break
                }
                val lines = head.split("\r\n")
                fun header(name: String): String? =
                    lines.firstOrNull { it.substringBefore(":").trim().equals(name, ignoreCase = true) && it.contains(":") }
                        ?.substringAfter(":")?.trim()
                val length = header("Content-Length")?.toIntOrNull() ?: 0
                val body = ByteArray(length)
                var read = 0
                while (read < length) {
                    val count = input.read(body, read, length - read)
                    if (count < 0) return
                    read += count
                }
                val text = if (length > 0) String(body, Charsets.UTF_8) else lines[0]
                val name = Regex("\"operationName\":\"(\\w+)\"|operationName=(\\w+)").find(text)?.groupValues?.drop(1)
                    ?.firstOrNull { it.isNotEmpty() } ?: "?"
                synchronized(answered) { answered[name] = (answered[name] ?: 0) + 1 }
                val answer = "{\"data\":null,\"errors\":[{\"message\":\"answered $name\"}]}".toByteArray(Charsets.UTF_8)
                val closing = header("Connection").equals("close", ignoreCase = true)
                val out = client.getOutputStream()
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${answer.size}\r\n" +
                    (if (closing) "Connection: close\r\n" else "") + "\r\n").toByteArray(Charsets.US_ASCII))
                out.write(answer)
                out.flush()
                served++
                if (closing) break
            }
        } catch (error: java.io.IOException) {
        } finally {
            try { client.close() } catch (error: java.io.IOException) {}
        }
    }

    /** The head's text, or null when the connection ended first. */
    private fun readHead(input: java.io.InputStream): String? {
        val bytes = java.io.ByteArrayOutputStream()
        var matched = 0
        while (matched < 4) {
            val byte = input.read()
            if (byte < 0) return null
            bytes.write(byte)
            matched = when {
                (matched == 0 || matched == 2) && byte == 13 -> matched + 1
                (matched == 1 || matched == 3) && byte == 10 -> matched + 1
                byte == 13 -> 1
                else -> 0
            }
        }
        return String(bytes.toByteArray(), Charsets.US_ASCII).trimEnd()
    }
}

/** A clock tests move by hand, starting at a fixed time: seconds since 1970. */
class TestClock(start: Double = 1_700_000_000.0) {
    @Volatile
    private var now = start

    /** The clock as the runtime takes it. */
    val function: () -> Double = { now }

    fun advance(seconds: Double) {
        now += seconds
    }
}
