package baton.runtime

import java.io.BufferedInputStream
import java.io.BufferedOutputStream
import java.io.ByteArrayOutputStream
import java.io.EOFException
import java.io.IOException
import java.io.InputStream
import java.io.OutputStream
import java.net.InetSocketAddress
import java.net.Socket
import java.net.URI
import java.security.MessageDigest
import java.security.SecureRandom

/**
 * Baton's own RFC 6455 WebSocket client over `java.net.Socket` (on every JVM and on Android), as the Swift runtime's
 * `SocketWebSocketConnector`: the opening handshake with `Sec-WebSocket-Accept` and the subprotocol checked, masked
 * frames out, fragmented messages, ping (answered with pong), pong and close frames in, messages up to
 * [maxMessageBytes]. No TLS: `wss://` is refused ([WebSocketException]); the OkHttp adapter's connector speaks it.
 */
class SocketWebSocketConnector @JvmOverloads constructor(
    val connectTimeoutMillis: Int = 10000,
    val maxMessageBytes: Int = 16 shl 20
) : WebSocketConnector {
    override fun connect(url: String, subprotocol: String, headers: Map<String, String>): WebSocketConnection {
        val uri = try {
            URI(url)
        } catch (error: java.net.URISyntaxException) {
            throw WebSocketException("unsupported WebSocket URL $url")
        }
        val host = uri.host
        if (uri.scheme != "ws" || host == null) {
            throw WebSocketException("unsupported WebSocket URL $url (ws:// only; wss:// needs a TLS connector, such as OkHttp's)")
        }
        val port = if (uri.port < 0) 80 else uri.port
        val socket = Socket()
        try {
            socket.tcpNoDelay = true
            socket.connect(InetSocketAddress(host, port), connectTimeoutMillis)
            socket.soTimeout = connectTimeoutMillis
            val input = BufferedInputStream(socket.getInputStream())
            val output = BufferedOutputStream(socket.getOutputStream())
            val key = Base64Text.encode(ByteArray(16).also { random.nextBytes(it) })
            val path = (if (uri.rawPath.isNullOrEmpty()) "/" else uri.rawPath) + (uri.rawQuery?.let { "?$it" } ?: "")
            val head = StringBuilder()
            head.append("GET ").append(path).append(" HTTP/1.1\r\n")
            head.append("Host: ").append(host).append(if (uri.port < 0) "" else ":$port").append("\r\n")
            head.append("Upgrade: websocket\r\nConnection: Upgrade\r\n")
            head.append("Sec-WebSocket-Key: ").append(key).append("\r\n")
            head.append("Sec-WebSocket-Version: 13\r\n")
            head.append("Sec-WebSocket-Protocol: ").append(subprotocol).append("\r\n")
            for ((name, value) in headers) head.append(name).append(": ").append(value).append("\r\n")
            head.append("\r\n")
            output.write(head.toString().toByteArray(Charsets.UTF_8))
            output.flush()
            checkHandshake(readHead(input), key, subprotocol)
            socket.soTimeout = 0
            return SocketWebSocket(socket, input, output, maxMessageBytes)
        } catch (error: IOException) {
            try {
                socket.close()
            } catch (ignored: IOException) {
            }
            throw error
        }
    }

    /** The response head, up to its blank line (at most 16 KiB). */
    private fun readHead(input: InputStream): String {
        val bytes = ByteArrayOutputStream()
        var matched = 0
        while (matched < 4) {
            val byte = input.read()
            if (byte < 0) throw WebSocketException("handshake failed: the server closed the connection")
            bytes.write(byte)
            if (bytes.size() > 16384) throw WebSocketException("handshake failed: a response head over 16 KiB")
            matched = when {
                (matched == 0 || matched == 2) && byte == CR -> matched + 1
                (matched == 1 || matched == 3) && byte == LF -> matched + 1
                byte == CR -> 1
                else -> 0
            }
        }
        return String(bytes.toByteArray(), Charsets.ISO_8859_1)
    }

    private fun checkHandshake(head: String, key: String, subprotocol: String) {
        val lines = head.split("\r\n").filter { it.isNotEmpty() }
        val status = lines.firstOrNull()?.split(' ')?.getOrNull(1)
        if (status != "101") throw WebSocketException("handshake failed: ${lines.firstOrNull() ?: "no status line"}")
        val fields = HashMap<String, String>()
        for (line in lines.drop(1)) {
            val colon = line.indexOf(':')
            if (colon > 0) fields[asciiLowercase(line.substring(0, colon).trim())] = line.substring(colon + 1).trim()
        }
        val expected = Base64Text.encode(
            MessageDigest.getInstance("SHA-1").digest((key + ACCEPT_GUID).toByteArray(Charsets.ISO_8859_1))
        )
        if (fields["sec-websocket-accept"] != expected) throw WebSocketException("handshake failed: a wrong Sec-WebSocket-Accept")
        if (fields["sec-websocket-protocol"] != subprotocol) {
            throw WebSocketException("handshake failed: the server did not accept the subprotocol $subprotocol")
        }
    }

    companion object {
        private const val ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        private const val CR = 13
        private const val LF = 10
        internal val random = SecureRandom()
    }
}

/** One client socket's frames (RFC 6455 section 5). */
internal class SocketWebSocket(
    private val socket: Socket,
    private val input: InputStream,
    private val output: OutputStream,
    private val maxMessageBytes: Int
) : WebSocketConnection {
    private val writeLock = Any()
    @Volatile
    private var closing = false
    private var closeSent = false

    override fun receive(): String? {
        try {
            return readMessage()
        } catch (error: IOException) {
            if (closing) return null
            throw error
        }
    }

    private fun readMessage(): String? {
        val message = ByteArrayOutputStream()
        var inMessage = false
        while (true) {
            val first = input.read()
            if (first < 0) {
                if (closing) return null
                throw EOFException("the connection closed without a close frame")
            }
            val second = readByte()
            val fin = first and 0x80 != 0
            val opcode = first and 0x0F
            if (first and 0x70 != 0) throw WebSocketException("protocol violation: reserved bits set")
            if (second and 0x80 != 0) throw WebSocketException("protocol violation: a masked frame from the server")
            var length = (second and 0x7F).toLong()
            if (length == 126L) {
                length = (readByte().toLong() shl 8) or readByte().toLong()
            } else if (length == 127L) {
                length = 0
                for (index in 0 until 8) length = (length shl 8) or readByte().toLong()
            }
            if (opcode >= 8) {
                if (!fin || length > 125) throw WebSocketException("protocol violation: a fragmented or long control frame")
                val payload = readFully(length.toInt())
                when (opcode) {
                    OPCODE_CLOSE -> {
                        closing = true
                        sendFrame(OPCODE_CLOSE, payload.copyOf(Math.min(payload.size, 2)))
                        socket.close()
                        return null
                    }
                    OPCODE_PING -> sendFrame(OPCODE_PONG, payload)
                    OPCODE_PONG -> Unit
                    else -> throw WebSocketException("protocol violation: control opcode $opcode")
                }
                continue
            }
            when (opcode) {
                OPCODE_TEXT -> if (inMessage) throw WebSocketException("protocol violation: a new message inside another")
                OPCODE_CONTINUATION -> if (!inMessage) throw WebSocketException("protocol violation: a continuation without a message")
                else -> throw WebSocketException("protocol violation: opcode $opcode (graphql-transport-ws sends text)")
            }
            if (message.size() + length > maxMessageBytes) {
                throw WebSocketException("protocol violation: a message over $maxMessageBytes bytes")
            }
            inMessage = true
            message.write(readFully(length.toInt()))
            if (fin) return String(message.toByteArray(), Charsets.UTF_8)
        }
    }

    private fun readByte(): Int {
        val byte = input.read()
        if (byte < 0) throw EOFException("the connection closed inside a frame")
        return byte
    }

    private fun readFully(count: Int): ByteArray {
        val bytes = ByteArray(count)
        var offset = 0
        while (offset < count) {
            val read = input.read(bytes, offset, count - offset)
            if (read < 0) throw EOFException("the connection closed inside a frame")
            offset += read
        }
        return bytes
    }

    override fun send(text: String) {
        try {
            sendFrame(OPCODE_TEXT, text.toByteArray(Charsets.UTF_8))
        } catch (error: IOException) {
            // A send that fails breaks the connection: the reader sees it.
            try {
                socket.close()
            } catch (ignored: IOException) {
            }
        }
    }

    /** One masked frame with FIN set. */
    private fun sendFrame(opcode: Int, payload: ByteArray) {
        synchronized(writeLock) {
            if (closeSent) return
            if (opcode == OPCODE_CLOSE) closeSent = true
            val head = ByteArrayOutputStream(14)
            head.write(0x80 or opcode)
            when {
                payload.size < 126 -> head.write(0x80 or payload.size)
                payload.size < 65536 -> {
                    head.write(0x80 or 126)
                    head.write(payload.size shr 8)
                    head.write(payload.size and 0xFF)
                }
                else -> {
                    head.write(0x80 or 127)
                    for (shift in 56 downTo 0 step 8) head.write(((payload.size.toLong() shr shift) and 0xFF).toInt())
                }
            }
            val mask = ByteArray(4).also { SocketWebSocketConnector.random.nextBytes(it) }
            head.write(mask)
            val masked = ByteArray(payload.size)
            for (index in payload.indices) masked[index] = (payload[index].toInt() xor mask[index and 3].toInt()).toByte()
            output.write(head.toByteArray())
            output.write(masked)
            output.flush()
        }
    }

    override fun close() {
        closing = true
        try {
            // Status 1000, normal closure.
            sendFrame(OPCODE_CLOSE, byteArrayOf(0x03, 0xE8.toByte()))
        } catch (ignored: IOException) {
        }
        try {
            socket.close()
        } catch (ignored: IOException) {
        }
    }

    companion object {
        const val OPCODE_CONTINUATION = 0
        const val OPCODE_TEXT = 1
        const val OPCODE_CLOSE = 8
        const val OPCODE_PING = 9
        const val OPCODE_PONG = 10
    }
}

/** Base64 (RFC 4648, with padding) for the handshake's key and accept value (`java.util.Base64` needs Android 8). */
internal object Base64Text {
    private const val ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    fun encode(bytes: ByteArray): String {
        val out = StringBuilder((bytes.size + 2) / 3 * 4)
        var index = 0
        while (index < bytes.size) {
            val a = bytes[index].toInt() and 0xFF
            val b = if (index + 1 < bytes.size) bytes[index + 1].toInt() and 0xFF else 0
            val c = if (index + 2 < bytes.size) bytes[index + 2].toInt() and 0xFF else 0
            out.append(ALPHABET[a shr 2])
            out.append(ALPHABET[((a and 3) shl 4) or (b shr 4)])
            out.append(if (index + 1 < bytes.size) ALPHABET[((b and 15) shl 2) or (c shr 6)] else '=')
            out.append(if (index + 2 < bytes.size) ALPHABET[c and 63] else '=')
            index += 3
        }
        return out.toString()
    }
}
