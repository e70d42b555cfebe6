import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP half of `baton fetch-schema`: one POST of a GraphQL request, waited for synchronously.
package enum IntrospectionFetch {
    /// What came back: the status and the body.
    package struct Reply: Sendable {
        package var status: Int
        package var body: [UInt8]
    }

    /// POSTs `{"query": query, "operationName": "IntrospectionQuery"}` with the headers; nil reply and the
    /// reason when the exchange failed (no connection, timeout, not HTTP).
    package static func post(query: String, to url: URL, headers: [(String, String)], timeout: TimeInterval)
        -> Result<Reply, FetchSchemaError>
    {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        let body: [String: Any] = ["query": query, "operationName": "IntrospectionQuery"]
        request.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/graphql-response+json, application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                outcome.result = .failure(.network(url.absoluteString, (error as NSError).localizedDescription))
            } else if let http = response as? HTTPURLResponse {
                outcome.result = .success(Reply(status: http.statusCode, body: Array(data ?? Data())))
            } else {
                outcome.result = .failure(.network(url.absoluteString, "the answer is not HTTP"))
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            return .failure(.network(url.absoluteString, "no answer within \(Int(timeout)) s"))
        }
        return outcome.result ?? .failure(.network(url.absoluteString, "no answer"))
    }

    /// The completion handler's result, read after the semaphore (the handler runs on URLSession's queue).
    private final class Outcome: @unchecked Sendable {
        var result: Result<Reply, FetchSchemaError>?
    }
}
