package baton.coroutines

import baton.runtime.BatonEnvironment
import baton.runtime.Cancellation
import baton.runtime.Handle
import baton.runtime.HandleState
import baton.runtime.Operation
import baton.runtime.Phase
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.suspendCancellableCoroutine
import kotlin.coroutines.EmptyCoroutineContext
import kotlin.coroutines.resume

/**
 * Coroutines over the core's listener API, on the part of kotlinx-coroutines that is the same from 1.0 (Debian's
 * 1.0.1, which the tests use) to today: `suspendCancellableCoroutine`, `Dispatchers.IO`. The `Flow`
 * adapter (Kotlin/flow) is one line over [collectStates].
 */

/**
 * Calls [collector] with the handle's state now and after every change, until the calling coroutine is cancelled.
 * Conflated: a collector slower than the changes sees the latest state, never a queue of old ones. The observer
 * is removed when the coroutine ends.
 */
suspend fun <D : Any> Handle<D>.collectStates(collector: suspend (HandleState<D>) -> Unit) {
    val changes = Changes()
    val observation = observe { changes.bump() }
    try {
        var seen = -1L
        while (true) {
            seen = changes.after(seen)
            collector(state)
        }
    } finally {
        observation.cancel()
    }
}

/** Suspends until the handle has data or failed (its phase is no longer [Phase.Loading]); returns that phase. */
suspend fun <D : Any> Handle<D>.awaitSettled(): Phase<D> {
    val changes = Changes()
    val observation = observe { changes.bump() }
    try {
        var seen = -1L
        while (true) {
            val phase = phase
            if (phase !is Phase.Loading) return phase
            seen = changes.after(seen)
        }
    } finally {
        observation.cancel()
    }
}

/**
 * [BatonEnvironment.fetch] off the caller's thread (on `Dispatchers.IO`), for coroutine callers. Cancelling the
 * calling coroutine cancels the fetch: its request is aborted, it logs `fetchCancelled`, and nothing is committed.
 */
suspend fun <D : Any> BatonEnvironment.fetchSuspending(operation: Operation<D>): D {
    val cancellation = Cancellation()
    return suspendCancellableCoroutine { continuation ->
        continuation.invokeOnCancellation { cancellation.cancel() }
        Dispatchers.IO.dispatch(EmptyCoroutineContext, Runnable {
            val outcome = try {
                Result.success(fetch(operation, cancellation = cancellation))
            } catch (error: Throwable) {
                Result.failure<D>(error)
            }
            // A cancelled coroutine already ended; resuming it with the fetch's failure would report that elsewhere.
            if (continuation.isActive) continuation.resumeWith(outcome)
        })
    }
}

/** A change counter a coroutine can wait on: the observer bumps it on any thread; [after] suspends until it moves. */
private class Changes {
    private var version = 0L
    private var waiting: CancellableContinuation<Long>? = null

    fun bump() {
        val resume: CancellableContinuation<Long>?
        val now: Long
        synchronized(this) {
            version++
            now = version
            resume = waiting
            waiting = null
        }
        resume?.resume(now)
    }

    /** The version once it is greater than [seen] (at once if it already is). */
    suspend fun after(seen: Long): Long {
        synchronized(this) { if (version > seen) return version }
        return suspendCancellableCoroutine { continuation ->
            val ready = synchronized(this) {
                if (version > seen) {
                    version
                } else {
                    waiting = continuation
                    -1L
                }
            }
            if (ready >= 0) continuation.resume(ready)
            continuation.invokeOnCancellation { synchronized(this) { if (waiting === continuation) waiting = null } }
        }
    }
}
