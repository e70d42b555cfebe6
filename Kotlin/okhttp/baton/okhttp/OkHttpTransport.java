package baton.okhttp;

import baton.runtime.Authenticator;
import baton.runtime.GraphQLHttp;
import baton.runtime.GraphQLRequest;
import baton.runtime.HttpExchange;
import baton.runtime.HttpMethod;
import baton.runtime.HttpRequest;
import baton.runtime.HttpResponse;
import baton.runtime.IncrementalTransport;
import baton.runtime.PersistedQueries;
import baton.runtime.Transport;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import kotlin.Unit;
import kotlin.jvm.functions.Function1;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The Baton {@link Transport} on OkHttp: the requests the runtime's {@link GraphQLHttp} spells (a POST of JSON, or a
 * GET for queries; the persisted id in both persisted modes; the transport's, the authenticator's and the request's
 * headers), each sent through the app's {@link OkHttpClient} (its interceptors, cache, timeouts and connection pool).
 * This class only carries the bytes: every decision is {@link GraphQLHttp}'s, shared with the
 * {@code HttpURLConnection} transport — 401 refreshed once, the whole-exchange timeout, the body limit, the exchange
 * cancelled ({@code Call.cancel}) when the fetch is; retries are the environment's.
 *
 * <p>A status outside 200…299 is a {@code TransportException} ({@code HTTP status 503}) unless the body is a
 * GraphQL response, which GraphQL over HTTP may carry a request error in; an I/O failure is a network failure with
 * OkHttp's message. OkHttp's own {@code retryOnConnectionFailure} (on by default) may send a request once more when
 * a pooled connection turns out dead before any answer; a server that must never see a mutation twice needs an
 * idempotency key, or a client with it off.
 *
 * <p>Written in Java on purpose: OkHttp 4 (Kotlin) keeps OkHttp 3's Java API ({@code response.code()},
 * {@code response.body()}, {@code MediaType.parse}) but makes those calls errors for Kotlin callers, so only Java
 * source compiles against both 3.x (Debian's 3.13, which the tests use) and 4.x.
 */
public final class OkHttpTransport implements IncrementalTransport {
    private static final MediaType JSON = MediaType.parse("application/json");

    private final OkHttpClient client;
    private final GraphQLHttp http;

    /**
     * A transport through {@code client}; {@code timeoutMillis} bounds each whole exchange (30 000 by default),
     * {@code maxResponseBytes} the body (32 MiB), and {@code authenticator} (or null) adds credentials.
     */
    public OkHttpTransport(
            OkHttpClient client, String url, Map<String, String> headers, HttpMethod method,
            PersistedQueries persistedQueries, long timeoutMillis, long maxResponseBytes, Authenticator authenticator) {
        this.client = client;
        this.http = new GraphQLHttp(
                url, headers, method, persistedQueries, timeoutMillis, maxResponseBytes, authenticator);
    }

    public OkHttpTransport(
            OkHttpClient client, String url, Map<String, String> headers, HttpMethod method,
            PersistedQueries persistedQueries) {
        this(client, url, headers, method, persistedQueries, 30000, 32L << 20, null);
    }

    public OkHttpTransport(OkHttpClient client, String url, Map<String, String> headers) {
        this(client, url, headers, HttpMethod.POST, PersistedQueries.OFF);
    }

    public OkHttpTransport(OkHttpClient client, String url) {
        this(client, url, Collections.<String, String>emptyMap());
    }

    /** How this transport spells and sends requests. */
    public GraphQLHttp getHttp() {
        return http;
    }

    /** The OkHttp request this transport sends first for {@code request} (for tests and for apps that sign). */
    public Request request(GraphQLRequest request) {
        return okHttpRequest(http.request(request, http.getPersistedQueries() == PersistedQueries.OFF));
    }

    @Override
    public byte[] send(GraphQLRequest request) {
        return http.send(request, CallExchange::new);
    }

    @Override
    public void sendIncrementally(GraphQLRequest request, Function1<? super byte[], Unit> receive) {
        http.sendIncrementally(request, CallExchange::new, receive);
    }

    private static Request okHttpRequest(HttpRequest request) {
        Request.Builder builder = new Request.Builder().url(request.getUrl());
        for (Map.Entry<String, String> header : request.getHeaders().entrySet()) {
            builder.header(header.getKey(), header.getValue());
        }
        byte[] body = request.getBody();
        if (body == null) {
            builder.get();
        } else {
            builder.post(RequestBody.create(JSON, body));
        }
        return builder.build();
    }

    /** One OkHttp call: {@link #abort} cancels it from any thread. */
    private final class CallExchange implements HttpExchange {
        private final Call call;
        private volatile Response response;

        CallExchange(HttpRequest request) {
            this.call = client.newCall(okHttpRequest(request));
        }

        @Override
        public HttpResponse execute() throws IOException {
            Response response = call.execute();
            this.response = response;
            Map<String, String> headers = new LinkedHashMap<>();
            for (String name : response.headers().names()) {
                headers.put(name, response.header(name));
            }
            ResponseBody body = response.body();
            return new HttpResponse(
                    response.code(), headers, body == null ? -1 : body.contentLength(),
                    body == null ? null : body.byteStream());
        }

        @Override
        public void abort() {
            call.cancel();
        }

        @Override
        public void close() {
            Response response = this.response;
            if (response != null) {
                response.close();
            }
        }
    }
}
