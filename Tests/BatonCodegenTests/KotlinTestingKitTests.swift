import Foundation
import XCTest

/// The Kotlin test kit (`Kotlin/testing/baton/testing`) on the guide's screen: `baton.tests.MainKt testing` runs
/// Docs/Testing.md's four scenarios through `MockEnvironment` and the real Kotlin runtime, printing what
/// RepositoryScreen shows in each.
final class KotlinTestingKitTests: XCTestCase {
    func testTheGuidesFourStatesInKotlin() throws {
        let sections = KotlinTestSupport.sections(try KotlinBuild.shared().run("baton.tests.MainKt", ["testing"]))
        let rows = [
            "List", "  Text (headline): apple/swift", "  Text: The Swift Programming Language",
            "  IssueRow: #101 Crash in the type checker by alice",
        ]
        XCTAssertEqual(sections["loading then ready"], ["ProgressView"] + rows + ["passed"])
        XCTAssertEqual(sections["an issue without an author"], rows + ["passed"])
        XCTAssertEqual(
            sections["@catch"],
            [
                "Text: Could not load the repository: Could not resolve to a Repository with the name 'apple/swfit'.",
                "extensions: [{type=NOT_FOUND}]", "passed",
            ])
        XCTAssertEqual(
            sections["a request error, then retry"],
            ["ErrorView: transport: The network connection was lost. [Try again]"] + rows + ["passed"])
        XCTAssertEqual(
            sections["the kit's failures"],
            [
                "no request of ViewerQuery was sent within 50 ms; pending: none; sent: none",
                "the log differs (- expected, + logged):", "  a", "- b", "+ c", "  d",
            ])
    }
}
