package baton.runtime

/**
 * The observers of a handle (a query's or a subscription's): added and removed from any thread, each [Observation]
 * removing its own; [all] is a copy, so they are called outside every lock.
 */
internal class Observers {
    private val lock = Any()
    private val observers = LinkedHashMap<Int, () -> Unit>()
    private var next = 0

    fun add(observer: () -> Unit): Observation {
        val id = synchronized(lock) {
            val id = next++
            observers[id] = observer
            id
        }
        return Observation { synchronized(lock) { observers.remove(id) } }
    }

    fun all(): List<() -> Unit> = synchronized(lock) { ArrayList(observers.values) }
}
