import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonTestSupport
import Foundation
import Testing

/// Fixture tests in relay's style: each `Fixtures/plates/<case>.graphql` (see `PlateFixtures` for
/// its sections) is compiled to the plan, and `<case>.expected` holds the input and then the
/// plates of every operation and fragment (OUTPUT), or the diagnostics (ERROR). A
/// `*.invalid.graphql` case must produce an error and every other case none. Each case is its own
/// test; regenerate with `BATON_UPDATE_FIXTURES=1 swift test`.
@Suite struct PlateFixtureTests {
    static let cases = FixtureRunner.cases("plates", in: PlateFixtures.fixtures.appendingPathComponent("plates"))

    @Test func suiteHasCases() { #expect(!Self.cases.isEmpty) }

    @Test(arguments: cases)
    func plates(_ fixture: FixtureCase) throws {
        let built: PlateFixtures.Built
        do {
            built = try PlateFixtures.build(fixture)
        } catch let missing as Unavailable.Missing {
            Issue.record("\(fixture): \(missing)")
            return
        } catch {
            // The corpus is absent locally: nothing to compare.
            print("PlateFixtureTests skipped \(fixture): \(error)")
            return
        }
        let result = FixtureResult.diagnostics(built.diagnostics, output: PlateFixtures.plates(built.model))
        let problems = FixtureRunner.verify(fixture, result)
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }
}
