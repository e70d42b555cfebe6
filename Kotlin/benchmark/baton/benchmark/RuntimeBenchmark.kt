package baton.benchmark

import baton.runtime.Field
import baton.runtime.LensDecoder
import baton.runtime.ListDecoder
import baton.runtime.OptionalItemsDecoder
import baton.runtime.PlanTable
import baton.runtime.ReadContext
import baton.runtime.RecordReader
import baton.runtime.RecordStore
import baton.runtime.Scalars
import baton.runtime.Selection
import java.lang.management.ManagementFactory

/**
 * The Kotlin runtime's benchmark, the same work as the Swift runtime's (Sources/BatonBenchmark/RuntimeBenchmark.swift,
 * Docs/Performance.md "Runtime"): commits of the same generated Rick-and-Morty `characters` response at 0.25, 1 and
 * 4 MB into a fresh store (parse + normalize + merge), a small commit into a store holding the 4 MB response with and
 * without a snapshot held, and 1,000,000 scalar reads through one lens. The JVM compiles hot code as it runs, so each
 * measurement is preceded by untimed rounds; each figure is the best of its rounds, as wall-clock and thread CPU time.
 *
 * Run it with `Kotlin/benchmark/run.sh` (kotlinc, then java with the Kotlin standard library).
 */
fun main() {
    println("## Kotlin runtime (JVM ${System.getProperty("java.version")})")
    val node = Field("__typename", "__typename", "String", Scalars.STRING, true)
    val id = Field("id", "id", "ID", Scalars.ID, false)
    val origin = Field("origin", "origin", "Location", LensDecoder { it }, false, selections = listOf(
        node, id, Field("name", "name", "String", Scalars.STRING, false), Field("dimension", "dimension", "String", Scalars.STRING, false)
    ))
    val episode = Field("episode", "episode", "Episode", ListDecoder(LensDecoder { it }, false), true, selections = listOf(
        node, id, Field("air_date", "air_date", "String", Scalars.STRING, false)
    ))
    val results = Field("results", "results", "Character", OptionalItemsDecoder(LensDecoder { it }), false, selections = listOf(
        node, id, Field("name", "name", "String", Scalars.STRING, false), Field("status", "status", "String", Scalars.STRING, false),
        Field("species", "species", "String", Scalars.STRING, false), Field("gender", "gender", "String", Scalars.STRING, false),
        Field("image", "image", "String", Scalars.STRING, false), Field("created", "created", "String", Scalars.STRING, false),
        origin, episode
    ))
    val characters = Field("characters", "characters", "Characters", LensDecoder { it }, false,
        arguments = mapOf("page" to 1), selections = listOf(results))
    val selections: List<Selection> = listOf(characters)

    for (size in listOf(256 * 1024, 1024 * 1024, 4 * 1024 * 1024)) {
        val body = response(size, "Alive")
        var changed = 0
        repeat(if (size > 1024 * 1024) 10 else 40) { RecordStore().commit(body, selections) }
        val best = best(7) { changed = RecordStore().commit(body, selections).changed.size }
        val megabytes = body.toByteArray(Charsets.UTF_8).size / 1048576.0
        println(String.format(
            "commit %5.2f MB: %7.2f ms, %6.1f MB/s; CPU %7.2f ms, %6.1f MB/s (%d slots)",
            megabytes, best.wall * 1000, megabytes / best.wall, best.cpu * 1000, megabytes / best.cpu, changed
        ))
    }

    val large = RecordStore()
    large.commit(response(4 * 1024 * 1024, "Alive"), selections)
    val small = listOf(response(1, "Alive"), response(1, "Dead"))
    for (holdSnapshot in listOf(false, true)) {
        var round = 0
        repeat(200) { large.commit(small[round++ % 2], selections) }
        var held: Any? = null
        val best = best(40) {
            held = if (holdSnapshot) large.snapshot() else null
            large.commit(small[round++ % 2], selections)
        }
        println(String.format(
            "small commit into %d records, %s: %.1f µs; CPU %.1f µs", large.snapshot().records.size,
            if (holdSnapshot) "snapshot held" else "no snapshot held", best.wall * 1e6, best.cpu * 1e6
        ) + (if (held == null) "" else ""))
    }

    val store = RecordStore()
    val name = Field("name", "name", "String", Scalars.STRING, false)
    val status = Field("status", "status", "String", Scalars.STRING, false)
    store.commit(
        "{\"data\":{\"character\":{\"__typename\":\"Character\",\"id\":\"1\",\"name\":\"Rick Sanchez\",\"status\":\"Alive\"}}}",
        listOf(Field("character", "character", "Character", LensDecoder { it }, false, arguments = mapOf("id" to "1"),
            selections = listOf(Field("__typename", "__typename", "String", Scalars.STRING, false), id, name, status)))
    )
    val lens = RecordReader(ReadContext(store.snapshot(), emptyMap()), "Character:1", null)
    val reads = 1_000_000
    var checksum = 0L
    repeat(5) { for (index in 0 until reads) checksum += (lens.read(if (index and 1 == 0) name else status)?.length ?: 0) }
    checksum = 0
    val best = best(5) {
        for (index in 0 until reads) checksum += (lens.read(if (index and 1 == 0) name else status)?.length ?: 0)
    }
    println(String.format(
        "reads: %d scalar reads in %.2f ms, %.1f million reads/s; CPU %.2f ms, %.1f million reads/s (checksum %d)",
        reads, best.wall * 1000, reads / best.wall / 1e6, best.cpu * 1000, reads / best.cpu / 1e6, checksum
    ))

    // The same reads as generated getters make them: by line number through the file's `PlanTable`.
    repeat(5) { for (index in 0 until reads) checksum += (ReadPlan.read<String>(lens, 1 + (index and 1))?.length ?: 0) }
    checksum = 0
    val byIndex = best(5) {
        for (index in 0 until reads) checksum += (ReadPlan.read<String>(lens, 1 + (index and 1))?.length ?: 0)
    }
    println(String.format(
        "reads by plan index: %d scalar reads in %.2f ms, %.1f million reads/s; CPU %.2f ms, %.1f million reads/s (checksum %d)",
        reads, byIndex.wall * 1000, reads / byIndex.wall / 1e6, byIndex.cpu * 1000, reads / byIndex.cpu / 1e6, checksum
    ))
}

/** The read benchmark's fields as a generated file's plan: `__typename`, `name`, `status`. */
private object ReadPlan : PlanTable("F|__typename|__typename|String|S|1|\nF|name|name|String|S|0|\nF|status|status|String|S|0|\nR|0,1,2")

/** The best wall-clock and thread-CPU seconds of [rounds] runs of [body]. */
private class Timing(var wall: Double = Double.MAX_VALUE, var cpu: Double = Double.MAX_VALUE)

private fun best(rounds: Int, body: () -> Unit): Timing {
    val threads = ManagementFactory.getThreadMXBean()
    val best = Timing()
    repeat(rounds) {
        val cpu = threads.currentThreadCpuTime
        val wall = System.nanoTime()
        body()
        best.wall = minOf(best.wall, (System.nanoTime() - wall) / 1e9)
        best.cpu = minOf(best.cpu, (threads.currentThreadCpuTime - cpu) / 1e9)
    }
    return best
}

/** The Swift benchmark's Rick-and-Morty-shaped `characters` response of about [bytes] bytes, byte for byte. */
private fun response(bytes: Int, status: String): String {
    val text = StringBuilder("{\"data\":{\"characters\":{\"results\":[")
    var index = 0
    var length = text.length
    while (length < bytes || index == 0) {
        val start = text.length
        if (index > 0) text.append(',')
        val episodes = (0 until 8).joinToString(",") { episode ->
            "{\"__typename\":\"Episode\",\"id\":\"${index % 51 + episode}\",\"air_date\":\"December ${episode + 1}, 2013\"}"
        }
        text.append("{\"__typename\":\"Character\",\"id\":\"$index\",\"name\":\"Character number $index\",\"status\":\"$status\",\"species\":\"Human\",\"gender\":\"Male\",\"image\":\"https://rickandmortyapi.com/api/character/avatar/$index.jpeg\",\"created\":\"2017-11-04T18:48:46.250Z\",\"origin\":{\"__typename\":\"Location\",\"id\":\"${index % 126}\",\"name\":\"Earth (C-137)\",\"dimension\":\"Dimension C-137\"},\"episode\":[$episodes]}")
        length += text.length - start
        index++
    }
    text.append("]}}}")
    return text.toString()
}
