package baton.okhttp;

import baton.runtime.WebSocketConnection;
import baton.runtime.WebSocketConnector;
import baton.runtime.WebSocketException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;

/**
 * WebSockets for Baton's {@code GraphQLWebSocketTransport} through the app's {@link OkHttpClient}: {@code ws://} and
 * {@code wss://} (TLS, the client's certificate pinning and proxies), where the core's own socket client speaks
 * {@code ws://} only. OkHttp's listener callbacks are turned into the blocking {@link WebSocketConnection#receive}
 * the transport's reading thread calls; the subprotocol the server chose is checked as the core's client checks it.
 *
 * <p>Java for the reason {@link OkHttpTransport} is: it compiles against OkHttp 3.x and 4.x alike.
 */
public final class OkHttpWebSocketConnector implements WebSocketConnector {
    private final OkHttpClient client;
    private final long connectTimeoutMillis;

    public OkHttpWebSocketConnector(OkHttpClient client, long connectTimeoutMillis) {
        this.client = client;
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    public OkHttpWebSocketConnector(OkHttpClient client) {
        this(client, 10000);
    }

    @Override
    public WebSocketConnection connect(String url, String subprotocol, Map<String, String> headers) throws IOException {
        Request.Builder builder;
        try {
            builder = new Request.Builder().url(url);
        } catch (IllegalArgumentException error) {
            throw new WebSocketException("unsupported WebSocket URL " + url);
        }
        builder.header("Sec-WebSocket-Protocol", subprotocol);
        for (Map.Entry<String, String> header : headers.entrySet()) {
            builder.header(header.getKey(), header.getValue());
        }
        Connection connection = new Connection(subprotocol);
        WebSocket socket = client.newWebSocket(builder.build(), connection);
        connection.socket = socket;
        try {
            if (!connection.opened.await(connectTimeoutMillis, TimeUnit.MILLISECONDS)) {
                socket.cancel();
                throw new WebSocketException("connection failed: no handshake within " + connectTimeoutMillis + " ms");
            }
        } catch (InterruptedException error) {
            socket.cancel();
            Thread.currentThread().interrupt();
            throw new WebSocketException("connection failed: interrupted");
        }
        if (connection.openFailure != null) {
            throw connection.openFailure;
        }
        return connection;
    }

    /** One socket: OkHttp's callbacks in, a queue the reading thread takes from. */
    private static final class Connection extends WebSocketListener implements WebSocketConnection {
        private static final Object CLOSED = new Object();

        private final String subprotocol;
        private final LinkedBlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
        private final CountDownLatch opened = new CountDownLatch(1);
        private volatile IOException openFailure;
        private volatile boolean ended;
        volatile WebSocket socket;

        Connection(String subprotocol) {
            this.subprotocol = subprotocol;
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            if (!subprotocol.equals(response.header("Sec-WebSocket-Protocol"))) {
                openFailure = new WebSocketException(
                        "handshake failed: the server did not accept the subprotocol " + subprotocol);
                webSocket.cancel();
            }
            opened.countDown();
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            inbox.add(text);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            webSocket.close(1000, null);
            inbox.add(CLOSED);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            inbox.add(CLOSED);
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable failure, Response response) {
            IOException error = failure instanceof IOException
                    ? (IOException) failure
                    : new IOException(failure.getMessage() == null ? failure.toString() : failure.getMessage(), failure);
            if (opened.getCount() > 0) {
                openFailure = response == null
                        ? error
                        : new WebSocketException("handshake failed: HTTP status " + response.code());
                opened.countDown();
            }
            inbox.add(error);
        }

        @Override
        public String receive() throws IOException {
            if (ended) {
                return null;
            }
            Object next;
            try {
                next = inbox.take();
            } catch (InterruptedException error) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", error);
            }
            if (next instanceof String) {
                return (String) next;
            }
            ended = true;
            if (next instanceof IOException) {
                throw (IOException) next;
            }
            return null;
        }

        @Override
        public void send(String text) {
            WebSocket socket = this.socket;
            if (socket != null && !socket.send(text)) {
                // Closing or over OkHttp's outgoing limit: break the connection, as a failed send does.
                socket.cancel();
            }
        }

        @Override
        public void close() {
            WebSocket socket = this.socket;
            if (socket != null) {
                socket.close(1000, null);
            }
            inbox.add(CLOSED);
        }
    }
}
