package baton.coroutines

import baton.runtime.BatonEnvironment
import baton.runtime.FetchPolicy
import baton.runtime.Handle
import baton.runtime.HandleState
import baton.runtime.Operation
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow

/**
 * The handle's state as a cold `Flow`: the current state, then one per change, conflated. Needs kotlinx-coroutines
 * 1.3 or later (`Flow`); with a `StateFlow`, `handle.states().stateIn(scope, SharingStarted.WhileSubscribed(), handle.state)`.
 * Collecting observes the handle; cancelling the collector stops observing (the handle stays attached: its owner
 * detaches it).
 */
fun <D : Any> Handle<D>.states(): Flow<HandleState<D>> = flow { collectStates { emit(it) } }

/**
 * [operation] watched as a cold `Flow` that owns its handle: each collection attaches a handle under [policy],
 * emits its state now and after every change (conflated; equal states are equal values, so `StateFlow` and
 * Compose skip them), and detaches it when the collector ends or is cancelled (a fetch under way is cancelled, the
 * store subscription dropped). Use [states] instead to call `retry()` on a handle you hold.
 */
fun <D : Any> BatonEnvironment.watch(
    operation: Operation<D>, policy: FetchPolicy = FetchPolicy.STORE_OR_NETWORK
): Flow<HandleState<D>> = flow {
    val handle = attach(operation, policy)
    try {
        handle.collectStates { emit(it) }
    } finally {
        handle.detach()
    }
}
