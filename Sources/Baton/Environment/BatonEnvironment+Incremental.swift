import Foundation

extension BatonEnvironment {
    /// Sends an operation with `@defer` or `@stream` and commits its answer payload by payload: each payload is
    /// merged (`IncrementalMerger`) into the response so far, which is committed as its own batch (so only the slots
    /// the payload filled change and notify), with the marks of deferred fragments completed with errors and of
    /// lists still streaming (`IncrementalMarks`). Each payload is logged (`committed` with its `payload` summary).
    ///
    /// A payload that cannot be read or merged fails the fetch with `malformedResponse` and commits nothing of
    /// itself; what earlier payloads committed stays (each was a whole batch). A query is sent again after a
    /// transient failure only while no payload has been committed.
    func receiveIncrementally<Operation: GraphQLOperation>(
        _ operation: Operation, _ request: GraphQLRequest, through transport: any IncrementalTransport,
        replacing layer: OptimisticLayerID?, beforeDelivery: () -> Void, afterDelivery: () -> Void,
        afterPayload: () -> Void
    ) async throws(FetchError) {
        var merger = IncrementalMerger()
        var committed = 0
        var streaming: [[PathComponent]] = []
        // A query goes again after a transient failure only while nothing of it was committed.
        let nothingCommitted = { committed == 0 }
        try await retrying(request, mayRetry: nothingCommitted) {
            merger = IncrementalMerger()
            try await transport.sendIncrementally(request) { bytes throws(FetchError) in
                let step: IncrementalStep
                do {
                    step = try merger.apply(try JSONParser.parse(bytes))
                } catch {
                    throw .malformedResponse("\(error)", body: FetchError.kept(bytes))
                }
                let body = Data(step.response.compactText.utf8)
                let (result, deliver): (CommitResult, () -> Void)
                do {
                    (result, deliver) = try store.commitDeferringNotifications(
                        bytes: body, for: operation, replacing: committed == 0 ? layer : nil)
                } catch {
                    throw FetchError(error as? ResponseError ?? .malformed("\(error)"), body: body)
                }
                let marks = store.incrementalMarks(
                    for: operation, failures: step.failures, streaming: step.streaming,
                    stopped: streaming.filter { !step.streaming.contains($0) })
                streaming = step.streaming
                committed += 1
                log.record(
                    LogEvent(
                        "committed",
                        JSONObject([
                            ("kind", "server"), ("changed", .number(String(result.changedSlots.count))),
                            ("payload", .string(step.summary)),
                        ])))
                beforeDelivery()
                deliver()
                store.write(marks)
                afterDelivery()
                if step.hasNext { afterPayload() }
            }
        }
        do {
            try merger.finish()
        } catch {
            throw .malformedResponse(error.description, body: Data())
        }
    }
}
