package baton.coroutines

import baton.runtime.Handle
import baton.runtime.HandleState
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow

/**
 * The handle's state as a cold `Flow`: the current state, then one per change, conflated. Needs kotlinx-coroutines
 * 1.3 or later (`Flow`); with a `StateFlow`, `handle.states().stateIn(scope, SharingStarted.WhileSubscribed(), handle.state)`.
 * Collecting observes the handle; cancelling the collector stops observing.
 */
fun <D : Any> Handle<D>.states(): Flow<HandleState<D>> = flow { collectStates { emit(it) } }
