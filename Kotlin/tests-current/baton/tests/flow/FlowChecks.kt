package baton.tests.flow

import baton.coroutines.states
import baton.coroutines.watch
import baton.runtime.BatonEnvironment
import baton.runtime.FetchPolicy
import baton.runtime.FixtureTransport
import baton.runtime.GraphQLRequest
import baton.runtime.HandleState
import baton.runtime.MemoryLog
import baton.runtime.Phase
import baton.runtime.RetryPolicy
import baton.runtime.Transport
import baton.tests.ScenarioShow
import baton.tests.TestClock
import baton.tests.section
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Job
import kotlinx.coroutines.cancel
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.SharingStarted
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.distinctUntilChanged
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.launchIn
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.flow.onEach
import kotlinx.coroutines.flow.stateIn
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import scenarios.CharacterDetail
import java.io.File
import java.util.concurrent.Semaphore
import java.util.concurrent.TimeUnit

/**
 * The coroutine adapters' `Flow`s against the real kotlinx-coroutines (1.10, with Flow and StateFlow), compiled by a
 * current Kotlin compiler (Tests/BatonCodegenTests/KotlinCurrentCompilerTests.swift): a handle's phases as a Flow,
 * a field error in the data, a request error and `retry()`, cancellation detaching the handle, and a `StateFlow`
 * of states that are equal by record and snapshot. Argument: the scenario fixtures folder.
 */
fun main(args: Array<String>) {
    val fixtures = File(args[0])
    section("flow phases") { phases(fixtures, it) }
    section("flow field error") { fieldError(it) }
    section("flow request error and retry") { retry(it) }
    section("flow cancellation") { cancellation(it) }
    section("state flow") { stateFlow(fixtures, it) }
}

private val detailQuery = CharacterDetail(id = "1")

/** A transport that lets requests through one at a time, when the test releases them. */
private class GatedTransport(val answers: FixtureTransport = FixtureTransport()) : Transport {
    private val gate = Semaphore(0)

    fun release() = gate.release()

    override fun send(request: GraphQLRequest): ByteArray {
        if (!gate.tryAcquire(10, TimeUnit.SECONDS)) throw IllegalStateException("the test never released the request")
        return answers.send(request)
    }
}

/** A state as one line: its phase and the character's name. */
private fun describe(state: HandleState<CharacterDetail.Data>): String =
    ScenarioShow.phase(state.phase) + (state.phase.data?.let { ", name " + ScenarioShow.text(it.character?.name) } ?: "")

/** The environment's attached handles and the store's subscriptions, as one line. */
private fun holds(environment: BatonEnvironment): String =
    "handles ${environment.attachedHandleCount}, store subscriptions ${environment.store.subscriptionCount}"

/** Loading, then Ready, as `watch` emits them; the handle goes when the collector stops. */
private fun phases(fixtures: File, out: MutableList<String>) = runBlocking {
    val transport = GatedTransport()
    transport.answers.answer("CharacterDetail", FixtureTransport.Answer.FromFile(File(fixtures, "detail.json")))
    val environment = BatonEnvironment(transport, MemoryLog(), TestClock().function)
    out.add("before collecting: " + holds(environment))
    val seen = ArrayList<String>()
    val ready = withTimeout(10000) {
        environment.watch(detailQuery).first { state ->
            val line = describe(state)
            if (seen.lastOrNull() != line) seen.add(line)
            if (state.phase is Phase.Loading && seen.size == 1) {
                out.add("while loading: " + holds(environment))
                transport.release()
            }
            state.phase is Phase.Ready
        }
    }
    out.add("phases: " + seen.joinToString(" → "))
    out.add("first ready state is ready: " + (ready.phase is Phase.Ready))
    environment.settle(5000)
    out.add("after the collector stopped: " + holds(environment))
}

/** A field error: the data is ready, the field is null, and its error is stored beside it. */
private fun fieldError(out: MutableList<String>) = runBlocking {
    val transport = FixtureTransport()
    transport.answer(
        "CharacterDetail",
        FixtureTransport.Answer.Text(
            "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick Sanchez\",\"origin\":null}}," +
                "\"errors\":[{\"message\":\"no origin\",\"path\":[\"character\",\"origin\"]}]}"
        )
    )
    val environment = BatonEnvironment(transport, MemoryLog(), TestClock().function)
    val ready = withTimeout(10000) { environment.watch(detailQuery).first { it.phase is Phase.Ready } }
    out.add(describe(ready) + ", origin " + (ready.phase.data?.character?.origin?.name ?: "nil"))
    out.add("origin's error in the store: " + environment.store.record("Character:1")?.slots?.get("origin")?.errors?.map { it.message })
}

/** A request error fails the phase; `retry()` on the handle the Flow watches makes it ready. */
private fun retry(out: MutableList<String>) = runBlocking {
    val transport = GatedTransport()
    transport.answers.answer(
        "CharacterDetail",
        FixtureTransport.Answer.Text("{\"errors\":[{\"message\":\"rate limited\",\"extensions\":{\"code\":\"RATE\"}}]}"),
        FixtureTransport.Answer.Text(
            "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick Sanchez\",\"origin\":{\"id\":\"1\",\"name\":\"Earth (C-137)\",\"dimension\":\"Dimension C-137\"}}}}"
        )
    )
    val log = MemoryLog()
    val environment = BatonEnvironment(transport, log, TestClock().function, retryPolicy = RetryPolicy.NEVER)
    val handle = environment.attach(detailQuery, FetchPolicy.NETWORK_ONLY)
    val seen = ArrayList<String>()
    var retried = false
    withTimeout(10000) {
        handle.states().first { state ->
            val line = describe(state) + (state.lastFetchError?.let { ", last error " + it.description } ?: "")
            if (seen.lastOrNull() != line) seen.add(line)
            if (seen.size == 1) transport.release()
            if (state.phase is Phase.Failed && !retried) {
                retried = true
                handle.retry()
                transport.release()
            }
            state.phase is Phase.Ready
        }
    }
    for (line in seen) out.add(line)
    out.add("requests: " + transport.answers.requestCount("CharacterDetail"))
    environment.settle(5000)
    out.addAll(log.lines)
    handle.detach()
}

/** Cancelling the collecting coroutine detaches the handle `watch` attached: nothing leaks. */
private fun cancellation(out: MutableList<String>) = runBlocking {
    val transport = GatedTransport()
    transport.answers.answer(
        "CharacterDetail", FixtureTransport.Answer.Text("{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick\",\"origin\":null}}}")
    )
    val log = MemoryLog()
    val environment = BatonEnvironment(transport, log, TestClock().function)
    out.add("before: " + holds(environment))
    val collected = ArrayList<String>()
    val jobs = (1..3).map {
        launch(start = CoroutineStart.UNDISPATCHED) {
            environment.watch(detailQuery, FetchPolicy.NETWORK_ONLY).collect { synchronized(collected) { collected.add(describe(it)) } }
        }
    }
    withTimeout(10000) { while (synchronized(collected) { collected.size } < 3) delay(5) }
    out.add("three collectors, loading: " + holds(environment))
    jobs.forEach { it.cancelAndJoin() }
    out.add("cancelled while fetching: " + holds(environment))
    repeat(3) { transport.release() }
    environment.settle(5000)
    out.add("fetches cancelled, nothing committed: " + (environment.store.record("Character:1") == null) + ", " +
        log.lines.count { it.startsWith("fetchCancelled") } + " fetchCancelled")
    out.add("collected while attached: " + synchronized(collected) { collected.distinct() })
}

/** A `StateFlow` over `watch`, as a Compose screen would hold it: equal states are not emitted again. */
private fun stateFlow(fixtures: File, out: MutableList<String>) = runBlocking {
    val transport = GatedTransport()
    transport.answers.answer("CharacterDetail", FixtureTransport.Answer.FromFile(File(fixtures, "detail.json")))
    val environment = BatonEnvironment(transport, MemoryLog(), TestClock().function)
    // The screen's scope: `stateIn` keeps a sharing coroutine in it, so the scope ends when the screen goes.
    val scope = CoroutineScope(coroutineContext + Job())
    val shared: StateFlow<HandleState<CharacterDetail.Data>?> =
        environment.watch(detailQuery).stateIn(scope, SharingStarted.WhileSubscribed(), null)
    val names = ArrayList<String>()
    val screen = shared.map { it?.let(::describe) ?: "nothing yet" }.distinctUntilChanged()
        .onEach { synchronized(names) { names.add(it) } }.launchIn(scope)
    withTimeout(10000) { while (synchronized(names) { names.lastOrNull() } != "loading") delay(5) }
    transport.release()
    val ready = withTimeout(10000) { shared.first { it?.phase is Phase.Ready } }!!
    environment.settle(5000)
    withTimeout(10000) { while (shared.value?.isFetching != false) delay(5) }
    val settled = shared.value!!
    out.add("state flow holds: " + describe(settled) + ", " + holds(environment))
    // The same store snapshot read twice: equal states, equal data lenses; a MutableStateFlow keeps its value.
    val handleState = MutableStateFlow(settled)
    var emissions = 0
    val counting = handleState.onEach { emissions++ }.launchIn(scope)
    delay(50)
    handleState.value = settled.copy()
    delay(50)
    out.add("a copy of the state is equal: " + (settled.copy() == settled) + ", data equal " +
        (settled.phase.data == ready.phase.data) + ", emissions " + emissions)
    // A commit that changes a slot the screen reads: one new, unequal state with the new name.
    environment.store.commit(
        detailQuery,
        "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick C-137\",\"origin\":{\"id\":\"1\",\"name\":\"Earth (C-137)\",\"dimension\":\"Dimension C-137\"}}}}"
    )
    val renamed = withTimeout(10000) { shared.first { it?.phase?.data?.character?.name == "Rick C-137" } }!!
    out.add("after a commit: unequal " + (renamed != settled) + ", old data still reads " +
        ScenarioShow.text(settled.phase.data?.character?.name))
    withTimeout(10000) { while (synchronized(names) { names.lastOrNull() } != "ready, name Rick C-137") delay(5) }
    counting.cancel()
    screen.cancelAndJoin()
    scope.cancel()
    withTimeout(10000) { while (environment.attachedHandleCount != 0) delay(5) }
    out.add("the screen went: " + holds(environment))
    out.add("screen saw: " + synchronized(names) { ArrayList(names) }.joinToString(" → "))
}
