package baton.tests

import java.io.File
import kotlin.system.exitProcess

/**
 * The JVM test suites, one per run (kotlinc and the JVM are slow to start, so `swift test` compiles everything
 * once and runs each suite once):
 *
 *     scenarios <scenario fixtures> <seed fixtures> <Swift image> <Kotlin image out>
 *         (then the declarative scenarios, Scenarios.json beside the fixtures folder: [ScenarioInterpreter])
 *     checks <doubles file>
 *     stress <seed> <seconds>
 *     server <python> <Tests/Server/server.py> <persisted-query manifest>
 *     testing
 *     faultrun <the fault proxy's URL>
 */
fun main(args: Array<String>) {
    when (args.firstOrNull()) {
        "scenarios" -> {
            Scenarios(File(args[1]), File(args[2]), File(args[3]), File(args[4])).run()
            ScenarioInterpreter(File(File(args[1]).parentFile, "Scenarios.json"), File(args[1]), File(args[2])).run()
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
