package baton.okhttp;

import baton.runtime.GraphQLHttp;
import baton.runtime.GraphQLRequest;
import baton.runtime.HttpMethod;
import baton.runtime.HttpReply;
import baton.runtime.HttpRequest;
import baton.runtime.PersistedQueries;
import baton.runtime.Transport;
import baton.runtime.TransportException;
import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The Baton {@link Transport} on OkHttp: the requests the runtime's {@link GraphQLHttp} spells (a POST of JSON, or a
 * GET for queries; the persisted id in both persisted modes; the transport's and the request's headers), each sent
 * through the app's {@link OkHttpClient} (its interceptors, cache, timeouts and connection pool). This class only
 * carries the bytes: every decision is {@link GraphQLHttp}'s, shared with the {@code HttpURLConnection} transport.
 *
 * <p>A status outside 200…299 is a {@link TransportException} ({@code HTTP status 503}) unless the body is a
 * GraphQL response, which GraphQL over HTTP may carry a request error in; an I/O failure is a
 * {@link TransportException} with OkHttp's message.
 *
 * <p>Written in Java on purpose: OkHttp 4 (Kotlin) keeps OkHttp 3's Java API ({@code response.code()},
 * {@code response.body()}, {@code MediaType.parse}) but makes those calls errors for Kotlin callers, so only Java
 * source compiles against both 3.x (Debian's 3.13, which the tests use) and 4.x.
 */
public final class OkHttpTransport implements Transport {
    private static final MediaType JSON = MediaType.parse("application/json");

    private final OkHttpClient client;
    private final GraphQLHttp http;

    public OkHttpTransport(
            OkHttpClient client, String url, Map<String, String> headers, HttpMethod method,
            PersistedQueries persistedQueries) {
        this.client = client;
        this.http = new GraphQLHttp(url, headers, method, persistedQueries);
    }

    public OkHttpTransport(OkHttpClient client, String url, Map<String, String> headers) {
        this(client, url, headers, HttpMethod.POST, PersistedQueries.OFF);
    }

    public OkHttpTransport(OkHttpClient client, String url) {
        this(client, url, Collections.<String, String>emptyMap());
    }

    /** How this transport spells requests. */
    public GraphQLHttp getHttp() {
        return http;
    }

    /** The OkHttp request this transport sends first for {@code request} (for tests and for apps that sign). */
    public Request request(GraphQLRequest request) {
        return okHttpRequest(http.request(request, http.getPersistedQueries() == PersistedQueries.OFF));
    }

    @Override
    public byte[] send(GraphQLRequest request) {
        return http.send(request, this::perform);
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

    private HttpReply perform(HttpRequest request) {
        try (Response response = client.newCall(okHttpRequest(request)).execute()) {
            ResponseBody body = response.body();
            return new HttpReply(response.code(), body == null ? new byte[0] : body.bytes());
        } catch (IOException error) {
            throw new TransportException(error.getMessage() == null ? error.toString() : error.getMessage(), error);
        }
    }
}
