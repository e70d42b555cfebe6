import Foundation

/// A response the app writes before the server answers: what a generated `Optimistic` value (built from the
/// mutation's data types, field by field) gives the store as the response's `data`.
public protocol OptimisticResponse: Sendable {
    /// The response object, keyed by response keys, with `__typename` on every object.
    var responseObject: JSONObject { get }
}

/// A mutation bound to an environment, called like a function: the guide's
/// `try await addComment(input: AddCommentInput(body: body, subjectId: subjectID), connections: [connectionID])`.
///
/// A view gets one from `@Mutation("mutation AddComment(…) { … }") var addComment: MutationCall<AddComment>`,
/// plain code from `environment.mutation(AddComment.self)`; the generated `callAsFunction` takes the mutation's
/// variables, typed, and an optional typed optimistic response, and calls `perform`.
public struct MutationCall<Operation: GraphQLOperation>: Sendable {
    /// Where the mutation is sent; nil for a call made without one (a view without a `BatonEnvironment`).
    public let environment: BatonEnvironment?
    /// Headers the mutation is sent with, over the transport's.
    public var headers: [String: String]

    public init(environment: BatonEnvironment?, headers: [String: String] = [:]) {
        self.environment = environment
        self.headers = headers
    }

    /// The call with more headers (these win over the call's own): `try await addComment.headers(h)(input: …)`,
    /// the generated call's arguments unchanged.
    public func headers(_ headers: [String: String]) -> MutationCall {
        MutationCall(environment: environment, headers: self.headers.merging(headers) { $1 })
    }

    /// The call with an `Idempotency-Key` header, so a server can tell a mutation sent again from a new one (what
    /// Docs/Runtime.md recommends for mutations that must never run twice): `try await
    /// addComment.idempotencyKey(key)(input: …)`. Keep the key with the user's intent and send the same key again
    /// when retrying that intent yourself.
    public func idempotencyKey(_ key: String) -> MutationCall { headers(["Idempotency-Key": key]) }

    /// Sends the mutation (see `BatonEnvironment.perform`).
    @discardableResult
    public func perform(_ mutation: Operation, optimisticResponse: (any OptimisticResponse)? = nil)
        async throws(FetchError) -> Operation.Data
    {
        guard let environment else {
            throw .unattached(
                "\(Operation.operationName) has no environment: read it through @Mutation in a view with "
                    + "`.environment(\\.baton, environment)`, or make it with environment.mutation(\(Operation.self).self)"
            )
        }
        return try await environment.perform(mutation, optimisticResponse: optimisticResponse, headers: headers)
    }
}

extension BatonEnvironment {
    /// The mutation as a call bound to this environment: `try await environment.mutation(AddComment.self)(input: …)`.
    public func mutation<Operation: GraphQLOperation>(_ type: Operation.Type = Operation.self) -> MutationCall<
        Operation
    > {
        MutationCall(environment: self)
    }

    /// Sends a mutation and returns its data.
    ///
    /// The mutation is always sent (never answered from the store) and never sent again by Baton. With an
    /// `optimisticResponse`, that response is applied at once as a layer over the store (logged
    /// `optimisticApplied`), so every view reading what it writes shows it, marked optimistic; the server's answer
    /// replaces the layer in the same batch it is committed in, and a failure removes it (logged
    /// `optimisticRolledBack`), so views show again exactly what they showed before. The answer is committed as a
    /// server batch — field errors beside their fields, declarative updates (`@appendEdge`, `@deleteRecord`, …)
    /// applied in it — and the data read from it; a request error, a transport failure, or a read failure
    /// (`@throwOnFieldError`, a `@required` null at the root) throws `FetchError`.
    @discardableResult
    public func perform<Operation: GraphQLOperation>(
        _ mutation: Operation, optimisticResponse: (any OptimisticResponse)? = nil, headers: [String: String] = [:]
    ) async throws(FetchError) -> Operation.Data {
        var layer: OptimisticLayerID?
        if let optimisticResponse {
            // Nothing is sent when the optimistic response cannot be a response (nested past the parser's limit).
            let write: NormalizedWrite
            do {
                write = try Store.normalize(
                    GraphQLResponse(data: optimisticResponse.responseObject), rootKey: Operation.rootTypename,
                    rootTypename: Operation.rootTypename, selections: Operation.Data.selections,
                    variables: mutation.resolvedVariables)
            } catch { throw FetchError(error) }
            let (id, result, deliver) = store.addOptimisticLayer(write)
            layer = id
            log.record(
                LogEvent(
                    "optimisticApplied",
                    JSONObject([
                        ("operation", .string(Operation.operationName)),
                        ("changed", .number(String(result.changedSlots.count))),
                    ])))
            deliver()
        }
        do {
            try await send(mutation, headers: headers, replacing: layer, beforeDelivery: {}, afterDelivery: {})
        } catch {
            if let layer {
                let (result, deliver) = store.removeOptimisticLayer(layer)
                log.record(
                    LogEvent(
                        "optimisticRolledBack",
                        JSONObject([
                            ("operation", .string(Operation.operationName)),
                            ("changed", .number(String(result.changedSlots.count))),
                        ])))
                deliver()
            }
            throw error
        }
        keepRecent(RetainedRoot(mutation))
        do {
            return try store.read(mutation, reporter: LoggingReporter(log: log))
        } catch {
            throw .read(error)
        }
    }
}

extension JSONObject {
    /// Adds `other`'s members (a fragment's part of an optimistic response): an object member present in both is
    /// merged member by member, any other member of `other` replaces this one's.
    public mutating func merge(_ other: JSONObject) {
        for (key, value) in other.members {
            if case .object(var mine)? = self[key], case .object(let theirs) = value {
                mine.merge(theirs)
                self[key] = .object(mine)
            } else {
                self[key] = value
            }
        }
    }
}
