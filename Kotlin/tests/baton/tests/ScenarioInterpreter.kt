package baton.tests

import baton.runtime.BatonEnvironment
import baton.runtime.CommitResult
import baton.runtime.FetchError
import baton.runtime.FetchException
import baton.runtime.FetchPolicy
import baton.runtime.FieldResult
import baton.runtime.FixtureTransport
import baton.runtime.GarbageCollection
import baton.runtime.GraphQLRequest
import baton.runtime.Handle
import baton.runtime.Json
import baton.runtime.JsonNumber
import baton.runtime.MemoryLog
import baton.runtime.Operation
import baton.runtime.Phase
import baton.runtime.Record
import baton.runtime.StoreImage
import baton.runtime.StoredValue
import baton.runtime.Transport
import baton.runtime.collectGarbage
import java.io.File
import java.util.concurrent.locks.ReentrantLock

/**
 * Runs the scenarios of Tests/BatonCodegenTests/KotlinScenarios/Scenarios.json on the Kotlin runtime, each printing a
 * section `== scenario <name>` with its lines, which `KotlinScenarioTests` compares with the scenario's expected
 * lines. Its reads go through the generated Kotlin by [ScenarioTables]; the Swift runtime's twin is
 * Tests/BatonCodegenTests/KotlinScenarios/ScenarioInterpreter.swift, and the format is read as `ScenarioSet` reads it.
 */
class ScenarioInterpreter(private val file: File, private val fixtures: File, private val seed: File, private val images: File) {
    private class Failure(message: String) : RuntimeException(message)

    /**
     * An image by its name in a scenario: `mine` (this runtime's), `other` (the other runtime's), or one this runtime
     * wrote with `writeImage` (a name never written is an absent file).
     */
    private fun image(name: String): File = when (name) {
        "mine" -> File(images, "kotlin.image")
        "other" -> File(images, "swift.image")
        else -> File(images, "kotlin-$name.image")
    }

    fun run() {
        @Suppress("UNCHECKED_CAST")
        val root = Json.parse(file.readText()) as? Map<String, Any?> ?: throw Failure("Scenarios.json: not an object")
        @Suppress("UNCHECKED_CAST")
        val scenarios = root["scenarios"] as? List<Map<String, Any?>> ?: throw Failure("Scenarios.json: no scenarios")
        for (scenario in scenarios) {
            section("scenario " + scenario["name"]) { run(scenario, it) }
        }
    }

    private fun run(scenario: Map<String, Any?>, out: MutableList<String>) {
        val transport = FixtureTransport()
        @Suppress("UNCHECKED_CAST")
        val answers = scenario["answers"] as? Map<String, List<Any?>> ?: emptyMap()
        for (operation in answers.keys.sorted()) {
            for (answer in answers.getValue(operation)) {
                transport.answer(
                    operation,
                    when {
                        file(answer) != null -> FixtureTransport.Answer.FromFile(file(answer)!!)
                        answer is Map<*, *> && answer["failure"] is String ->
                            FixtureTransport.Answer.Failure(answer["failure"] as String)
                        answer is Map<*, *> && answer["text"] is String -> FixtureTransport.Answer.Text(answer["text"] as String)
                        else -> throw Failure("an answer of $operation is not a file name, {failure} or {text}")
                    }
                )
            }
        }
        val held = HeldTransport(transport)
        var log = MemoryLog()
        var clock = TestClock()
        val collection = scenario["garbageCollection"] as? Map<*, *>
        fun newEnvironment() = BatonEnvironment(
            held, log, clock.function,
            garbageCollection = if (collection == null) GarbageCollection.STANDARD else GarbageCollection(
                bufferSize = (collection["bufferSize"] as JsonNumber).literal.toInt(),
                automatic = collection["automatic"] as Boolean
            )
        )
        var environment = newEnvironment()
        // The store's records before the last `restart`, for `{sameRecords}`.
        var recordsBefore: Map<String, Record>? = null
        val handles = HashMap<String, Pair<String, Handle<*>>>()
        var mark = 0
        val commits = HashMap<String, CommitResult>()
        val readers = HashMap<String, Pair<String, () -> Any?>>()
        val seen = HashMap<String, MutableList<String>>()
        val kept = HashMap<String, Any?>()
        val errors = HashMap<String, String>()
        val paginations = HashMap<String, ScenarioPages<*>>()
        val requestMarks = HashMap<String, Int>()
        fun pages(name: String): ScenarioPages<*> = paginations[name] ?: throw Failure("no pagination $name")
        fun keep(result: Pair<Any?, FetchException?>, name: String, key: String) {
            readers[name] = Pair(key.takeWhile { it != '(' }, {
                result.second?.let { throw it }
                result.first
            })
            val error = result.second
            if (error == null) errors.remove(name) else errors[name] = error.error.description
        }
        fun handle(name: String): Handle<*> = handles[name]?.second ?: throw Failure("no handle $name attached")
        fun reader(name: String): Pair<String, () -> Any?> = readers[name] ?: throw Failure("no handle or store read $name")
        fun missing(key: String) = Failure("$key is not in ScenarioTables: regenerate the tables")
        fun operation(key: String): Operation<*> = ScenarioTables.operation(key, kept) ?: throw missing(key)
        try {
            for (step in scenario["steps"] as? List<*> ?: throw Failure("no steps")) {
                if (step is String) {
                    when (step) {
                        "settle" -> environment.settle()
                        "hold" -> held.hold()
                        "release" -> held.release()
                        "revalidate" -> environment.revalidate()
                        "clearLog" -> log.clear()
                        "markLog" -> mark = log.lines.size
                        "markRequests" -> for (operation in answers.keys) requestMarks[operation] = transport.requestCount(operation)
                        "saveImage" -> environment.saveImage(image("mine"))
                        "restart" -> {
                            recordsBefore = environment.store.snapshot().records
                            for ((_, attached) in handles.values) attached.detach()
                            handles.clear()
                            readers.clear()
                            paginations.clear()
                            seen.clear()
                            log = MemoryLog()
                            clock = TestClock()
                            environment = newEnvironment()
                        }
                        // The Swift runtime ran its steps before this one before the JVM started: nothing to wait for.
                        "awaitOtherRuntime" -> {}
                        else -> throw Failure("unknown step $step")
                    }
                    continue
                }
                val fields = step as? Map<*, *> ?: throw Failure("a step is neither a word nor an object")
                when {
                    fields["attach"] is String -> {
                        val key = fields["operation"] as? String ?: throw Failure("attach: no operation")
                        val attached = environment.attach(
                            operation(key), policy(fields["policy"] as String?),
                            (fields["expiration"] as JsonNumber?)?.literal?.toDouble()
                        )
                        handles[fields["attach"] as String] = Pair(key.takeWhile { it != '(' }, attached)
                        readers[fields["attach"] as String] = Pair(key.takeWhile { it != '(' }, { attached.phase.data })
                    }
                    fields["fetch"] is String -> {
                        val key = fields["fetch"] as String
                        val name = fields["as"] as? String
                        if (name == null) {
                            environment.fetch(operation(key))
                        } else {
                            // A fetch that throws keeps its error under its name: `{attempt name path}` and
                            // `{error name}` print it.
                            val fetched: Pair<Any?, FetchException?> = try {
                                Pair(environment.fetch(operation(key)), null)
                            } catch (error: FetchException) {
                                Pair(null, error)
                            }
                            keep(fetched, name, key)
                        }
                    }
                    fields["paginate"] is String -> {
                        val name = fields["paginate"] as String
                        val source = reader(fields["from"] as? String ?: throw Failure("paginate $name: no from"))
                        val fragment = fields["fragment"] as? String ?: throw Failure("paginate $name: no fragment")
                        val key = source.first + ": pagination " + fragment + " " + (fields["path"] as? String ?: throw Failure("paginate $name: no path"))
                        val made = ScenarioTables.pagination(key, source.second(), environment)
                            ?: throw Failure("$key: no fragment to page, or not in ScenarioTables")
                        paginations[name] = made
                        readers[name] = Pair(fragment, { made.pages.fragment })
                    }
                    fields["loadNext"] is String -> {
                        val made = pages(fields["loadNext"] as String)
                        val result = fields["as"] as? String
                        try {
                            made.pages.loadNext((fields["count"] as JsonNumber).literal.toInt())
                            if (result != null) errors.remove(result)
                        } catch (error: FetchException) {
                            if (result == null) throw error
                            errors[result] = error.error.description
                        }
                    }
                    fields["loadNextTwice"] is String -> {
                        // The first call's request is held; the second starts (and waits for the first's page, in
                        // Object.wait) before the request is answered.
                        val made = pages(fields["loadNextTwice"] as String)
                        val count = (fields["count"] as JsonNumber).literal.toInt()
                        held.hold()
                        val first = Thread { made.pages.loadNext(count) }
                        first.start()
                        held.waitForHeld(1)
                        made.loadingAtOnce = made.pages.isLoadingNext
                        val second = Thread { made.pages.loadNext(count) }
                        second.start()
                        val deadline = System.currentTimeMillis() + 10_000
                        while (second.state != Thread.State.WAITING && second.isAlive && System.currentTimeMillis() < deadline) Thread.sleep(1)
                        held.release()
                        first.join()
                        second.join()
                    }
                    fields["refetchPages"] is String -> {
                        val variables = fields["variables"] as? Map<*, *> ?: throw Failure("refetchPages: no variables")
                        pages(fields["refetchPages"] as String).pages.refetch(
                            variables.entries.associate { (name, value) -> name as String to (value as JsonNumber).literal.toInt() }
                        )
                    }
                    fields["mutate"] is String -> {
                        val key = fields["mutate"] as String
                        val name = fields["as"] as? String
                        val result: Pair<Any?, FetchException?> = try {
                            Pair(ScenarioTables.mutate(key, kept, environment), null)
                        } catch (error: FetchException) {
                            Pair(null, error)
                        }
                        if (name == null) result.second?.let { throw it } else keep(result, name, key)
                    }
                    fields["advance"] is JsonNumber -> clock.advance((fields["advance"] as JsonNumber).literal.toDouble())
                    fields["retry"] is String -> handle(fields["retry"] as String).retry()
                    fields["detach"] is String -> handle(fields["detach"] as String).detach()
                    fields.containsKey("commit") -> {
                        val result = environment.store.commit(
                            operation(fields["operation"] as? String ?: throw Failure("commit: no operation")),
                            (file(fields["commit"]) ?: throw Failure("commit: needs a file or {seed}")).readText()
                        )
                        (fields["as"] as? String)?.let { commits[it] = result }
                    }
                    fields["storeRead"] is String -> {
                        val key = fields["operation"] as? String ?: throw Failure("storeRead: no operation")
                        val read = operation(key)
                        readers[fields["storeRead"] as String] = Pair(key.takeWhile { it != '(' }, { environment.store.read(read) })
                    }
                    fields["invalidateRecord"] is String -> environment.invalidateRecord(fields["invalidateRecord"] as String)
                    fields["invalidateType"] is String -> environment.invalidateType(fields["invalidateType"] as String)
                    fields["invalidateOperation"] is String ->
                        environment.invalidate(operation(fields["invalidateOperation"] as String))
                    fields["printLog"] is String -> {
                        val from = (fields["from"] as JsonNumber?)?.literal?.toInt() ?: 0
                        val count = (fields["count"] as JsonNumber?)?.literal?.toInt() ?: Int.MAX_VALUE
                        val lines = log.lines.filter { it.startsWith(fields["printLog"] as String) }.drop(from).take(count)
                        out.addAll(lines.filter { it != fields["except"] })
                    }
                    fields["observe"] is String -> {
                        val name = fields["observe"] as String
                        val attached = handle(name)
                        val key = handles.getValue(name).first + ": " + (fields["path"] as? String ?: throw Failure("observe $name: no path"))
                        val lines = ArrayList<String>()
                        seen[name] = lines
                        if (ScenarioTables.read(key, null) == null) throw missing(key)
                        attached.observe {
                            val line = ScenarioTables.read(key, attached.phase.data) ?: "nil"
                            synchronized(lines) { lines.add(line) }
                        }
                    }
                    fields["keep"] is String -> {
                        val source = reader(fields["from"] as? String ?: throw Failure("keep: needs from and path"))
                        val key = source.first + ": value " + (fields["path"] as? String ?: throw Failure("keep: needs from and path"))
                        kept[fields["keep"] as String] = (ScenarioTables.value(key, source.second()) ?: throw missing(key)).value
                    }
                    fields["writeImage"] is String -> {
                        val name = fields["writeImage"] as String
                        val text = fields["text"] as? String
                        val usage = "writeImage $name: needs text, or from and a change (truncate, flipByte, nextVersion)"
                        val bytes = if (text != null && fields["from"] == null) text.toByteArray(Charsets.UTF_8) else {
                            val from = fields["from"] as? String ?: throw Failure(usage)
                            changed(image(from).readBytes(), fields["change"] as? String ?: throw Failure(usage), from, usage)
                        }
                        image(name).writeBytes(bytes)
                    }
                    fields["print"] is String -> out.add(line(fields["print"] as String) { name, arguments ->
                        val argument = arguments.firstOrNull() ?: ""
                        when (name) {
                            "requests" -> transport.requestCount(argument).toString()
                            "phase" -> ScenarioShow.phase(handle(argument).phase)
                            "kind" -> ScenarioShow.kind(handle(argument).phase)
                            "stale" -> handle(argument).isStale.toString()
                            "lastFetchError" -> ScenarioShow.text(handle(argument).lastFetchError?.description)
                            "errorCode" -> {
                                val request = (handle(argument).phase as? Phase.Failed)?.error as? FetchError.Request
                                ScenarioShow.text(request?.errors?.firstOrNull()?.extensions?.get("code") as? String)
                            }
                            "records" -> environment.store.snapshot().records.size.toString()
                            "events" -> log.events.joinToString(" ") { it.name }
                            "log" -> log.lines.joinToString(" ")
                            "logCount" -> log.lines.count { it.startsWith(argument) }.toString()
                            "lastLog" -> log.lines.lastOrNull { it.startsWith(argument) } ?: "null"
                            "newLogLines" -> (log.lines.size - mark).toString()
                            "hasSlot" -> (environment.store.record(argument)?.slots?.containsKey(arguments.last()) == true).toString()
                            "collectGarbage" -> environment.collectGarbage().toString()
                            "recordKeys" -> environment.store.snapshot().records.keys.sorted().joinToString(" ")
                            "changedCount" -> (commits[argument] ?: throw Failure("no commit $argument")).changed.size.toString()
                            "changed" -> (commits[argument] ?: throw Failure("no commit $argument")).changedDescription
                            "error" -> errors[argument] ?: "none"
                            "newRequests" -> (transport.requestCount(argument) - (requestMarks[argument] ?: 0)).toString()
                            "hasNext" -> pages(argument).pages.hasNext.toString()
                            "loadingNext" -> pages(argument).pages.isLoadingNext.toString()
                            "pageError" -> ScenarioShow.text(pages(argument).pages.lastError?.description)
                            "samePagination" -> pages(argument).isShared().toString()
                            "loadingAtOnce" -> pages(argument).loadingAtOnce?.toString() ?: "nil"
                            "optimisticLayers" -> environment.store.optimisticLayerCount.toString()
                            "deleted" -> (environment.store.record(argument)?.isDeleted ?: false).toString()
                            "loadImage" -> environment.loadImage(image(argument)).toString()
                            "sameBytes" -> {
                                if (arguments.size != 2) throw Failure("{sameBytes a b}: $arguments")
                                image(arguments[0]).readBytes().contentEquals(image(arguments[1]).readBytes()).toString()
                            }
                            "sameRecords" -> {
                                val before = recordsBefore ?: throw Failure("{sameRecords} before a restart")
                                (environment.store.snapshot().records == before).toString()
                            }
                            "number" ->
                                (environment.store.record(argument)?.slots?.get(arguments.last())?.value as? StoredValue.Number)?.literal ?: "nil"
                            "updatedAt" -> StoreImage.swiftDouble(environment.store.record(argument)?.updatedAt ?: -1.0)
                            "logHas" -> {
                                val from = argument.toIntOrNull()
                                if (from == null || arguments.size != 2) throw Failure("{logHas from line}: $arguments")
                                log.lines.drop(from).contains(arguments[1]).toString()
                            }
                            "seen" -> {
                                val lines = seen[argument]
                                if (lines == null || arguments.last() !in listOf("first", "last")) {
                                    throw Failure("{seen h first|last} needs an observed handle h")
                                }
                                synchronized(lines) { if (arguments.last() == "first") lines.firstOrNull() else lines.lastOrNull() } ?: "null"
                            }
                            in readKinds -> {
                                val reader = reader(argument)
                                val key = reader.first + ": " + readKinds.getValue(name) + arguments.last()
                                val text = try {
                                    ScenarioTables.read(key, reader.second()) ?: throw missing(key)
                                } catch (error: FetchException) {
                                    if (name != "attempt" && name != "try") throw error
                                    "throws " + error.error.description
                                }
                                if (name == "items") ScenarioShow.items(text) else text
                            }
                            else -> throw Failure("unknown placeholder {$name}")
                        }
                    })
                    else -> throw Failure("unknown step ${fields.keys}")
                }
            }
        } finally {
            for ((_, attached) in handles.values) attached.detach()
        }
    }

    /** The bytes `writeImage` writes from image [name]'s [bytes], changed by [change]. */
    private fun changed(bytes: ByteArray, change: String, name: String, usage: String): ByteArray = when (change) {
        "truncate" -> bytes.copyOf(bytes.size / 2)
        "flipByte" -> {
            if (bytes.size < 10) throw Failure("image $name has fewer than ten bytes")
            val flipped = bytes.copyOf()
            flipped[flipped.size - 10] = (flipped[flipped.size - 10].toInt() xor 1).toByte()
            flipped
        }
        "nextVersion" -> {
            val text = String(bytes, Charsets.UTF_8)
            if (!text.contains("BATON-IMAGE 1 ")) throw Failure("image $name has no BATON-IMAGE 1 header")
            text.replaceFirst("BATON-IMAGE 1 ", "BATON-IMAGE 2 ").toByteArray(Charsets.UTF_8)
        }
        else -> throw Failure(usage)
    }

    /** A fixture file: a name in the scenario fixtures, or `{"seed": name}` in the seed fixtures. */
    private fun file(answer: Any?): File? = when {
        answer is String -> File(fixtures, answer)
        answer is Map<*, *> && answer["seed"] is String -> File(seed, answer["seed"] as String)
        else -> null
    }

    /**
     * The line of a `print` template: text with `{name argument…}` placeholders, the last argument the rest (a
     * placeholder ends at its matching `}`); `{{` and `}}` in the text are a literal `{` and `}`.
     */
    private fun line(template: String, value: (String, List<String>) -> String): String {
        val out = StringBuilder()
        var index = 0
        while (index < template.length) {
            val character = template[index]
            if ((character == '{' || character == '}') && index + 1 < template.length && template[index + 1] == character) {
                out.append(character)
                index += 2
                continue
            }
            if (character == '}') throw Failure("a lone } in $template (a literal } is }})")
            if (character != '{') {
                out.append(character)
                index += 1
                continue
            }
            var depth = 1
            var close = index + 1
            while (close < template.length) {
                if (template[close] == '{') depth += 1
                if (template[close] == '}') depth -= 1
                if (depth == 0) break
                close += 1
            }
            if (depth != 0) throw Failure("unclosed { in $template")
            val words = template.substring(index + 1, close).split(" ", limit = 3)
            out.append(value(words.first(), words.drop(1)))
            index = close + 1
        }
        return out.toString()
    }

    /** The placeholders that read a path through the tables, with their keys' prefixes (ScenarioSet.readKinds). */
    private val readKinds = mapOf("read" to "", "items" to "", "outcome" to "outcome ", "attempt" to "attempt ", "try" to "try ", "present" to "present ")

    private fun policy(name: String?): FetchPolicy = when (name) {
        null, "storeOrNetwork" -> FetchPolicy.STORE_OR_NETWORK
        "storeOnly" -> FetchPolicy.STORE_ONLY
        "storeAndNetwork" -> FetchPolicy.STORE_AND_NETWORK
        "networkOnly" -> FetchPolicy.NETWORK_ONLY
        else -> throw Failure("unknown policy $name")
    }
}

/** How a scenario prints a value it read: the same text in both runtimes (ScenarioShow in ScenarioInterpreter.swift). */
object ScenarioShow {
    fun text(value: String?): String = value ?: "nil"

    fun text(value: Int?): String = value?.toString() ?: "nil"

    fun text(value: Boolean?): String = value?.toString() ?: "nil"

    @JvmName("textStrings")
    fun text(value: List<String?>?): String = value?.joinToString(", ", "[", "]") { text(it) } ?: "nil"

    @JvmName("textIntLists")
    fun text(value: List<List<Int>?>?): String =
        value?.joinToString(", ", "[", "]") { inner -> text(inner?.map { it.toString() }) } ?: "nil"

    /** The scenario project's enum: a declared value by its text, an undeclared one as the server sent it. */
    fun text(value: scenarios.Mood?): String = when (value) {
        null -> "nil"
        is scenarios.Mood.Undeclared -> "undeclared " + value.rawValue
        else -> "declared " + value.rawValue
    }

    /** A connection's ID (`{keep}` passes it to an operation). */
    fun text(value: baton.runtime.ConnectionId?): String = value?.toString() ?: "nil"

    fun phase(phase: Phase<*>): String = when (phase) {
        is Phase.Loading -> "loading"
        is Phase.Ready -> "ready"
        is Phase.Failed -> "failed: " + phase.error.description
    }

    /** `{kind h}`: the phase, a failure by its kind. */
    fun kind(phase: Phase<*>): String = when (phase) {
        is Phase.Loading -> "loading"
        is Phase.Ready -> "ready"
        is Phase.Failed -> "failed: " + when (phase.error) {
            is FetchError.Request -> "request"
            is FetchError.Offline -> "offline"
            is FetchError.TimedOut -> "timedOut"
            is FetchError.HttpStatus -> "httpStatus"
            is FetchError.MalformedResponse -> "malformedResponse"
            is FetchError.TooLarge -> "tooLarge"
            is FetchError.Cancelled -> "cancelled"
            is FetchError.ProtocolViolation -> "protocolViolation"
            is FetchError.TransportFailed -> "transportFailed"
            is FetchError.Read -> "read"
            is FetchError.Unattached -> "unattached"
        }
    }

    /** `{items h path}`: a list's text without its brackets. */
    fun items(text: String): String =
        if (text.startsWith("[") && text.endsWith("]")) text.substring(1, text.length - 1) else text

    /** `{outcome h path}`: whether a `@catch` field's result is a success, or its errors. */
    fun outcome(value: FieldResult<*>?): String = when (value) {
        null -> "nil"
        is FieldResult.Success -> "success"
        is FieldResult.Failure -> "failure: " + value.errors.errors.joinToString("; ")
    }

    /** `{present h path}`: whether a value is there, whatever its type. */
    fun present(value: Any?): String = if (value == null) "nil" else "a value"

    /** `{attempt h path}`: a read that may throw, as `value …` or `throws …`. */
    fun attempt(read: () -> String?): String = try {
        "value " + text(read())
    } catch (error: FetchException) {
        "throws " + error.error.description
    } catch (error: RuntimeException) {
        "throws " + error.message
    }

    /** `{try h path}`: a read that may throw, as `{read}` prints it or `throws …`. */
    fun tryRead(read: () -> String?): String = try {
        text(read())
    } catch (error: FetchException) {
        "throws " + error.error.description
    } catch (error: RuntimeException) {
        "throws " + error.message
    }

    fun text(value: FieldResult<String?>?): String = when (value) {
        null -> "nil"
        is FieldResult.Success -> "success: " + text(value.value)
        is FieldResult.Failure -> "failure: " + value.errors.errors.joinToString("; ")
    }
}

/** A path's `a!.b`: the value of a `@catch` field's result, null when it failed (`caught()` in ScenarioInterpreter.swift). */
fun <V> FieldResult<V>?.caught(): V? = (this as? FieldResult.Success)?.value

/**
 * A pagination as the steps see it (`ScenarioPages` in ScenarioInterpreter.swift): [again] is the generated
 * `pagination(environment, fragment)`, for `{samePagination}`.
 */
class ScenarioPages<F>(val pages: baton.runtime.Pagination<F>, private val again: (F) -> baton.runtime.Pagination<F>) {
    /** `isLoadingNext` while the first of `loadNextTwice`'s calls was held. */
    @Volatile
    var loadingAtOnce: Boolean? = null

    /** The environment gives this pagination again for its fragment (the same record and variables). */
    fun isShared(): Boolean = again(pages.fragment) === pages
}

/** A value `{"keep": name}` read, for an operation key's `$name` (`ScenarioKept` in ScenarioInterpreter.swift). */
class ScenarioKept(val value: Any?)

/** The value kept as [name], as the operation's argument takes it. */
inline fun <reified T> kept(values: Map<String, Any?>, name: String): T =
    values[name] as? T ?: throw IllegalStateException("no ${T::class.java.simpleName} kept as $name")

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
