package baton.runtime

/** What a subscription transport reports for one subscription (the Swift runtime's `SubscriptionEvent`). */
sealed class SubscriptionEvent {
    /** A `next` payload's JSON (`{"data":…,"errors":…}`): the environment commits it as a server batch. */
    data class Next(val payload: String) : SubscriptionEvent()

    /** The server's `error` for the subscription: it is over. */
    data class Error(val errors: List<FieldError>) : SubscriptionEvent()

    /** The server completed the subscription. */
    object Complete : SubscriptionEvent() {
        override fun toString(): String = "Complete"
    }

    /** The connection broke; the transport reconnects after [delay] seconds and subscribes again. */
    data class Reconnecting(val attempt: Int, val delay: Double, val reason: String) : SubscriptionEvent()

    /** The transport gave up (reconnects exhausted, or the server refused the connection): it is over. */
    data class Failed(val reason: String) : SubscriptionEvent()
}

/**
 * Sends subscriptions and reports their events, until the returned [Observation] is cancelled (then the transport
 * sends `complete` to the server and forgets the subscription). [onEvent] is called on the transport's thread, in
 * order, never after the cancel returns or after a final event ([SubscriptionEvent.Error], [SubscriptionEvent.Complete],
 * [SubscriptionEvent.Failed]).
 */
interface SubscriptionTransport {
    fun subscribe(request: GraphQLRequest, onEvent: (SubscriptionEvent) -> Unit): Observation
}
