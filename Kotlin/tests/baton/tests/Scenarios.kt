package baton.tests

import baton.runtime.BatonEnvironment
import baton.runtime.Field
import baton.runtime.GraphQLRequest
import baton.runtime.FieldResult
import baton.runtime.FixtureTransport
import baton.runtime.MemoryLog
import baton.runtime.OptionalItemsDecoder
import baton.runtime.RecordStore
import baton.runtime.Scalars
import baton.runtime.StoreImage
import baton.runtime.StoredValue
import baton.runtime.Transport
import scenarios.CharacterDetail
import scenarios.TestProfileQuery
import baton.runtime.RetainedRoot
import baton.runtime.retain
import java.io.File
import java.util.concurrent.locks.ReentrantLock

/**
 * The runtime scenarios still written twice (the rest are stated once in Scenarios.json: [ScenarioInterpreter]), each
 * printing a section (`== name`, then its lines) that the Swift test prints from the Swift runtime running the same
 * scenario through the same project's generated Swift: the image in both directions, and bad images; and Kotlin's
 * malformed-response text.
 *
 * Arguments: the scenario fixtures folder, the seed fixtures folder, the Swift runtime's image, and where to write
 * this runtime's image.
 */
class Scenarios(private val fixtures: File, private val seed: File, private val swiftImage: File, private val kotlinImage: File) {
    private fun fixture(name: String): String = File(fixtures, name).readText()

    fun run() {
        section("image") { image(it) }
        section("bad images") { badImages(it) }
        section("malformed text") { malformedText(it) }
    }

    /**
     * The failed phase's text for a malformed answer (`<html>`), checked exactly per runtime (each runtime's JSON
     * parser words its own reason; Swift's in `EnvironmentTests`): the scenario "transport and malformed failures"
     * prints only the failure's kind.
     */
    private fun malformedText(out: MutableList<String>) {
        val transport = FixtureTransport()
        transport.answer("CharacterDetail", FixtureTransport.Answer.Text("<html>"))
        val environment = BatonEnvironment(transport, MemoryLog(), TestClock().function)
        val handle = environment.attach(CharacterDetail(id = "1"))
        environment.settle()
        out.add(ScenarioShow.phase(handle.phase))
    }

    /** What both runtimes commit before saving an image: Plate 3's two answers and custom scalars of every shape. */
    private fun imageStore(clock: TestClock): RecordStore {
        val store = RecordStore(clock.function)
        store.commit(TestProfileQuery(id = "1"), fixture("earlier-answer.json"))
        clock.advance(0.25)
        store.commit(TestProfileQuery(id = "1"), File(seed, "character-errors.json").readText())
        clock.advance(0.125)
        store.commit(fixture("custom-values.json"), customValueSelections)
        return store
    }

    private val customValueSelections = listOf(
        Field("price", "price", "Decimal", Scalars.CUSTOM, false),
        Field("meta", "meta", "JSON", Scalars.CUSTOM, false),
        Field("tags", "tags", "String", OptionalItemsDecoder(Scalars.STRING), false)
    )

    private fun image(out: MutableList<String>) {
        val environment = BatonEnvironment(FixtureTransport(), MemoryLog(), TestClock().function, imageStore(TestClock()))
        // The image saves what the environment's roots reach: both commits are retained.
        val retained = listOf(
            environment.retain(TestProfileQuery(id = "1")),
            environment.retain(RetainedRoot("Query", customValueSelections, emptyMap()))
        )
        environment.saveImage(kotlinImage)
        for (retention in retained) retention.release()
        out.add("the same bytes as the other runtime's image: " + kotlinImage.readBytes().contentEquals(swiftImage.readBytes()))
        val log = MemoryLog()
        val loaded = BatonEnvironment(FixtureTransport(), log, TestClock().function)
        out.add("loaded the other runtime's image: ${loaded.loadImage(swiftImage)}")
        out.addAll(log.lines)
        out.add("the same records: " + (loaded.store.snapshot().records == environment.store.snapshot().records))
        val character = loaded.store.read(TestProfileQuery(id = "1")).character
        out.add("name: " + ScenarioShow.text(character?.name))
        out.add("image (@catch): " + ScenarioShow.text(character?.image ?: FieldResult.Success(null)))
        out.add("location.name (@catch): " + ScenarioShow.text(character?.location?.name ?: FieldResult.Success(null)))
        out.add("Query.price: " + ((loaded.store.record("Query")?.slots?.get("price")?.value as? StoredValue.Number)?.literal ?: "nil"))
        out.add("Character:1 updatedAt: " + StoreImage.swiftDouble(loaded.store.record("Character:1")?.updatedAt ?: -1.0))
    }

    private fun badImages(out: MutableList<String>) {
        val good = swiftImage.readBytes()
        val flipped = good.copyOf()
        flipped[flipped.size - 10] = (flipped[flipped.size - 10].toInt() xor 1).toByte()
        val future = String(good, Charsets.UTF_8).replaceFirst("BATON-IMAGE 1 ", "BATON-IMAGE 2 ").toByteArray(Charsets.UTF_8)
        val cases = listOf(
            "truncated" to good.copyOf(good.size / 2), "corrupt" to flipped, "future" to future,
            "garbage" to "not an image at all".toByteArray(Charsets.UTF_8), "empty" to ByteArray(0)
        )
        for ((name, bytes) in cases) {
            val file = File(kotlinImage.parentFile, "kotlin-$name.image")
            file.writeBytes(bytes)
            val log = MemoryLog()
            val environment = BatonEnvironment(FixtureTransport(), log, TestClock().function)
            environment.store.commit("{\"data\":{\"x\":1}}", listOf(Field("x", "x", "Int", Scalars.INT, false)))
            val loaded = environment.loadImage(file)
            out.add("$name: loaded $loaded, records ${environment.store.snapshot().records.size}, " + log.lines.joinToString(" "))
        }
        val absent = BatonEnvironment(FixtureTransport(), MemoryLog(), TestClock().function)
        out.add("absent: loaded " + absent.loadImage(File(kotlinImage.parentFile, "none.image")))
    }
}

/** A clock tests move by hand, starting at a fixed time: seconds since 1970. */
class TestClock(start: Double = 1_700_000_000.0) {
    @Volatile
    private var now = start

    /** The clock as the runtime takes it. */
    val function: () -> Double = { now }

    fun advance(seconds: Double) {
        now += seconds
    }
}

/**
 * A transport that holds requests while [hold] is in effect, so a scenario reads a handle's phase "at once" while
 * its fetch is still in flight: without it a fixture answers fast enough to race the read under load.
 */
class HeldTransport(private val inner: Transport) : Transport {
    private val lock = ReentrantLock()
    private val released = lock.newCondition()
    private var held = false
    private var waiting = 0

    fun hold() {
        lock.lock()
        try { held = true } finally { lock.unlock() }
    }

    /** Waits (up to ten seconds) until [count] requests are held. */
    fun waitForHeld(count: Int) {
        lock.lock()
        try {
            val deadline = System.currentTimeMillis() + 10_000
            while (waiting < count && System.currentTimeMillis() < deadline) released.await(10, java.util.concurrent.TimeUnit.MILLISECONDS)
        } finally { lock.unlock() }
    }

    fun release() {
        lock.lock()
        try {
            held = false
            released.signalAll()
        } finally { lock.unlock() }
    }

    override fun send(request: GraphQLRequest): ByteArray {
        lock.lock()
        try {
            if (held) waiting += 1
            released.signalAll()
            while (held) released.await()
        } finally { lock.unlock() }
        return inner.send(request)
    }
}
