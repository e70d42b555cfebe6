import BatonDiagnostics
import BatonIR
import BatonPlate
import Foundation
import XCTest

/// Fixture tests in relay's style: each `Fixtures/plates/<case>.graphql` (see `PlateFixtures` for
/// its sections) is built into the lens model, and `<case>.expected` holds the input and then the
/// plates of every operation and fragment (OUTPUT), or the diagnostics (ERROR). A
/// `*.invalid.graphql` case must produce an error and every other case none. Regenerate with
/// `BATON_UPDATE_FIXTURES=1 swift test --filter BatonIRTests`.
final class PlateFixtureTests: XCTestCase {
    func testPlateFixtures() throws {
        let directory = PlateFixtures.fixtures.appendingPathComponent("plates")
        let cases = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".graphql") }.sorted()
        XCTAssertFalse(cases.isEmpty)
        var skipped: [String] = []
        for name in cases {
            let url = directory.appendingPathComponent(name)
            let input = try String(contentsOf: url, encoding: .utf8)
            let fixture: PlateFixtures.Case
            do {
                fixture = try PlateFixtures.parse(name: name, text: input)
            } catch PlateFixtures.FixtureError.skipped(let reason) {
                skipped.append("\(name): \(reason)")
                continue
            }
            guard let built = PlateFixtures.build(fixture) else {
                XCTFail("\(name): the schema does not build")
                continue
            }
            let hasErrors = built.diagnostics.contains { $0.severity == .error }
            if name.hasSuffix(".invalid.graphql") {
                XCTAssertTrue(hasErrors, "\(name): expected an error")
            } else {
                XCTAssertFalse(hasErrors, "\(name): unexpected errors:\n\(TextRenderer.render(built.diagnostics))")
            }
            var actual = PlateFixtures.banner("INPUT") + input
            if !actual.hasSuffix("\n") { actual += "\n" }
            if built.diagnostics.isEmpty {
                actual += PlateFixtures.banner("OUTPUT") + PlateFixtures.plates(built.model)
            } else {
                actual += PlateFixtures.banner("ERROR") + TextRenderer.render(built.diagnostics)
            }
            try PlateFixtures.check(
                actual, expectedURL: url.deletingPathExtension().appendingPathExtension("expected"),
                label: "plates/\(name)")
        }
        if !skipped.isEmpty {
            print("PlateFixtureTests skipped:\n" + skipped.joined(separator: "\n"))
        }
    }
}
