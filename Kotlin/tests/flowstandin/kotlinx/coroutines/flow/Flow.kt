package kotlinx.coroutines.flow

// A stand-in for the three declarations of kotlinx-coroutines 1.3+'s Flow API that Kotlin/flow/HandleFlow.kt uses,
// with their public signatures, because Debian ships kotlinx-coroutines 1.0.1, which has no Flow. It lets the test
// build compile and run HandleFlow.kt here; it is not the library, and apps never see it.

interface FlowCollector<in T> {
    suspend fun emit(value: T)
}

interface Flow<out T> {
    suspend fun collect(collector: FlowCollector<T>)
}

fun <T> flow(block: suspend FlowCollector<T>.() -> Unit): Flow<T> = object : Flow<T> {
    override suspend fun collect(collector: FlowCollector<T>) = collector.block()
}
