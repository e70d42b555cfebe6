import BatonTestSupport
import Foundation
import XCTest

/// Issue 33's check, in Kotlin: the seeded fault run of `SeededFaultRunTests` over the Kotlin runtime's
/// `HttpTransport` (`HttpURLConnection`; Kotlin/tests/baton/tests/FaultRun.kt prints one line per request), held to
/// the same rules (`FaultRun.problems`).
final class KotlinFaultRunTests: XCTestCase {
    func testEveryOutcomeIsTheFaultItMet() throws {
        let run = try FaultRun()
        let build = try KotlinBuild.shared()
        let output = try build.run("baton.tests.MainKt", ["faultrun", run.url.absoluteString], timeout: 300)
        var outcomes: [FaultRun.Outcome] = []
        for line in output.split(separator: "\n") where line.hasPrefix("outcome ") {
            // outcome <label> <kind> <seconds> <ids> <untraced> <elsewhere>; a kind may hold a space (`http 503`).
            var fields = line.split(separator: " ").map(String.init)
            fields.removeFirst()
            guard fields.count >= 6, let elsewhere = Int(fields.removeLast()), let untraced = Int(fields.removeLast())
            else {
                XCTFail("cannot read \(line)")
                continue
            }
            let ids = fields.removeLast()
            let seconds = Double(fields.removeLast()) ?? .infinity
            let label = fields.removeFirst()
            outcomes.append(
                FaultRun.Outcome(
                    label: label, isMutation: label.hasPrefix("m"), seconds: seconds,
                    kind: fields.joined(separator: " "),
                    requestIDs: Set(ids.split(separator: ",").compactMap { UInt64($0) }),
                    strayEvents: untraced + elsewhere))
        }
        XCTAssertEqual(try run.problems(outcomes, language: "Kotlin"), [])
    }
}
