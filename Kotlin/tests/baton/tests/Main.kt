package baton.tests

import baton.runtime.BatonEnvironment
import baton.runtime.FixtureTransport
import baton.runtime.MemoryLog
import java.io.File
import kotlin.system.exitProcess

/**
 * The JVM test suites, one per run (kotlinc and the JVM are slow to start, so `swift test` compiles everything
 * once and runs each suite once):
 *
 *     scenarios <scenario fixtures> <seed fixtures> <images folder>
 *         (the declarative scenarios, Scenarios.json beside the fixtures folder: [ScenarioInterpreter], the Swift
 *         runtime's images in the images folder; then Kotlin's malformed-response text)
 *     checks <doubles file>
 *     stress <seed> <seconds>
 *     server <python> <Tests/Server/server.py> <persisted-query manifest>
 *     testing
 *     faultrun <the fault proxy's URL>
 */
fun main(args: Array<String>) {
    when (args.firstOrNull()) {
        "scenarios" -> {
            ScenarioInterpreter(File(File(args[1]).parentFile, "Scenarios.json"), File(args[1]), File(args[2]), File(args[3])).run()
            section("malformed text") { malformedText(it) }
        }
        "checks" -> Checks(File(args[1])).run()
        "stress" -> Stress(args[1].toLong(), args[2].toDouble()).run()
        "server" -> ServerChecks(args[1], File(args[2]), File(args[3])).run()
        "testing" -> TestingKitChecks().run()
        "faultrun" -> FaultRun(java.net.URL(args[1])).run()
        else -> {
            System.err.println("usage: scenarios … | checks … | stress <seed> <seconds> | server <python> <script> <manifest> | testing | faultrun <url>")
            exitProcess(2)
        }
    }
}

/**
 * The failed phase's text for a malformed answer (`<html>`), checked exactly per runtime (each runtime's JSON parser
 * words its own reason; Swift's in `EnvironmentTests`): the scenario "transport and malformed failures" prints only
 * the failure's kind.
 */
private fun malformedText(out: MutableList<String>) {
    val transport = FixtureTransport()
    transport.answer("CharacterDetail", FixtureTransport.Answer.Text("<html>"))
    val environment = BatonEnvironment(transport, MemoryLog(), TestClock().function)
    val handle = environment.attach(scenarios.CharacterDetail(id = "1"))
    environment.settle()
    out.add(ScenarioShow.phase(handle.phase))
}
