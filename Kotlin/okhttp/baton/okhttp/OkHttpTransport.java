package baton.okhttp;

import baton.runtime.GraphQLRequest;
import baton.runtime.GraphQLResponse;
import baton.runtime.MalformedResponseException;
import baton.runtime.Transport;
import baton.runtime.TransportException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The Baton {@link Transport} on OkHttp: a POST of the request as JSON through the app's {@link OkHttpClient}
 * (its interceptors, cache, timeouts and connection pool).
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
    private final String url;
    private final Map<String, String> headers;

    public OkHttpTransport(OkHttpClient client, String url, Map<String, String> headers) {
        this.client = client;
        this.url = url;
        this.headers = headers;
    }

    public OkHttpTransport(OkHttpClient client, String url) {
        this(client, url, Collections.<String, String>emptyMap());
    }

    /** The OkHttp request this transport sends (for tests and for apps that sign requests). */
    public Request request(GraphQLRequest request) {
        Request.Builder builder = new Request.Builder()
                .url(url)
                .post(RequestBody.create(JSON, request.getBody().getBytes(StandardCharsets.UTF_8)))
                .header("Accept", "application/graphql-response+json, application/json");
        for (Map.Entry<String, String> header : headers.entrySet()) {
            builder.header(header.getKey(), header.getValue());
        }
        return builder.build();
    }

    @Override
    public byte[] send(GraphQLRequest request) {
        try (Response response = client.newCall(request(request)).execute()) {
            ResponseBody body = response.body();
            byte[] bytes = body == null ? new byte[0] : body.bytes();
            if (!response.isSuccessful() && !isGraphQLResponse(bytes)) {
                throw new TransportException("HTTP status " + response.code(), null);
            }
            return bytes;
        } catch (IOException error) {
            throw new TransportException(error.getMessage() == null ? error.toString() : error.getMessage(), error);
        }
    }

    private static boolean isGraphQLResponse(byte[] bytes) {
        try {
            GraphQLResponse.Companion.parse(new String(bytes, StandardCharsets.UTF_8));
            return true;
        } catch (MalformedResponseException error) {
            return false;
        }
    }
}
