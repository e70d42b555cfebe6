package baton.runtime

import java.io.IOException

/**
 * One open WebSocket carrying text messages (all `graphql-transport-ws` needs). The core's implementation is
 * [SocketWebSocketConnector]'s, Baton's own RFC 6455 client over `java.net.Socket` (`ws://`); the OkHttp adapter
 * (`Kotlin/okhttp`, `OkHttpWebSocketConnector`) brings OkHttp's, with `wss://`.
 */
interface WebSocketConnection {
    /**
     * Blocks until the server's next text message; null once the socket closed normally. Throws [IOException] when
     * it breaks. Called from one thread at a time.
     */
    @Throws(IOException::class)
    fun receive(): String?

    /** Sends one text message, in order with every other, from any thread; a failure breaks the connection. */
    fun send(text: String)

    /** Closes the socket (normal closure); a blocked [receive] returns null or throws. From any thread. */
    fun close()
}

/** Opens WebSockets. */
interface WebSocketConnector {
    /** Opens [url] asking for [subprotocol], with extra handshake [headers]; throws [IOException] when it cannot. */
    @Throws(IOException::class)
    fun connect(url: String, subprotocol: String, headers: Map<String, String>): WebSocketConnection
}

/** A WebSocket failure: a URL the connector cannot open, a refused handshake, a frame that breaks the protocol. */
class WebSocketException(message: String) : IOException(message)
