import BatonCompiler
import BatonTestSupport
import Foundation
import XCTest

/// Which runs write the test data builders, and the settings `gen` refuses before writing anything.
final class TestBuilderTargetTests: XCTestCase {
    static let documents = "query Viewer { viewer { id login } }"

    func project(_ output: String, targets: TargetSelection) throws -> FixtureProject {
        let schema = try Data(contentsOf: GeneratorFixtureTests.fixtures.appendingPathComponent("schema.graphql"))
        return FixtureProject(
            sections: [
                ("baton.json", #"{"schema": "schema.graphql", "output": \#(output)}"#),
                ("documents.graphql", Self.documents),
            ],
            defaultSchema: ("schema.graphql", Array(schema)), upTo: .generate, targets: targets)
    }

    func targetNames(_ project: FixtureProject) -> [String] { project.compilation.outputs.map(\.target.name) }

    func testLanguagesSelectTheirBuildersWhenConfigured() throws {
        let output =
            #"{"swift": {"path": "swift", "testBuilders": {"path": "tests"}}, "kotlin": {"path": "kotlin", "package": "app"}}"#
        XCTAssertEqual(
            targetNames(try project(output, targets: .configured)), ["swift", "kotlin", "swift-test-builders"])
        XCTAssertEqual(targetNames(try project(output, targets: .named(["swift"]))), ["swift", "swift-test-builders"])
        XCTAssertEqual(targetNames(try project(output, targets: .named(["kotlin"]))), ["kotlin"])
        // A build plugin's run (`--build-map`) writes the app's code only.
        XCTAssertEqual(targetNames(try project(output, targets: .named(["swift"], testBuilders: false))), ["swift"])
        let files = try XCTUnwrap(try project(output, targets: .configured).compilation.outputs.last?.files)
        XCTAssertEqual(files.map(\.path), ["ViewerBuilder.graphql.swift"])
        XCTAssertTrue(files[0].contents.contains("struct ViewerBuilder: BatonTesting.OperationDataBuilder {"))
    }

    func testBuildersInsideTheOutputFolderAreRefused() throws {
        let inside = try project(
            #"{"swift": {"path": "Generated", "testBuilders": {"path": "Generated/Tests"}}}"#, targets: .configured)
        XCTAssertEqual(
            inside.diagnostics.map(\.message),
            [
                "output.swift.testBuilders.path must be a folder apart from output.swift.path (neither inside the other): each removes the generated files it did not write."
            ])
        XCTAssertTrue(inside.compilation.outputs.isEmpty)
        let kotlin = try project(#"{"kotlin": {"package": "app", "testBuilders": {"path": "tests"}}}"#, targets: .configured)
        XCTAssertEqual(
            kotlin.diagnostics.map(\.message).filter { $0.contains("testBuilders") },
            [
                "output.kotlin.testBuilders needs output.kotlin.path and output.kotlin.package: the builders are in the generated code's package."
            ])
    }
}
