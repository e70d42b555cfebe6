import BatonCompiler
import BatonKotlinRuntime
import BatonTestSupport
import Foundation
import XCTest

/// Which runs write the test data builders, and the settings `gen` refuses before writing anything.
final class TestBuilderTargetTests: XCTestCase {
    static let documents = "query Viewer { viewer { id login } }"

    static func project(_ output: String, targets: TargetSelection) throws -> FixtureProject {
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
            targetNames(try Self.project(output, targets: .configured)), ["swift", "kotlin", "swift-test-builders"])
        XCTAssertEqual(targetNames(try Self.project(output, targets: .named(["swift"]))), ["swift", "swift-test-builders"])
        XCTAssertEqual(targetNames(try Self.project(output, targets: .named(["kotlin"]))), ["kotlin"])
        // A build plugin's run (`--build-map`) writes the app's code only.
        XCTAssertEqual(targetNames(try Self.project(output, targets: .named(["swift"], testBuilders: false))), ["swift"])
        let files = try XCTUnwrap(try Self.project(output, targets: .configured).compilation.outputs.last?.files)
        XCTAssertEqual(files.map(\.path), ["ViewerBuilder.graphql.swift"])
        XCTAssertTrue(files[0].contents.contains("struct ViewerBuilder: BatonTesting.OperationDataBuilder {"))
    }

    func testBuildersInsideTheOutputFolderAreRefused() throws {
        let inside = try Self.project(
            #"{"swift": {"path": "Generated", "testBuilders": {"path": "Generated/Tests"}}}"#, targets: .configured)
        XCTAssertEqual(
            inside.diagnostics.map(\.message),
            [
                "output.swift.testBuilders.path must be a folder apart from output.swift.path (neither inside the other): each removes the generated files it did not write."
            ])
        XCTAssertTrue(inside.compilation.outputs.isEmpty)
        let kotlin = try Self.project(#"{"kotlin": {"package": "app", "testBuilders": {"path": "tests"}}}"#, targets: .configured)
        XCTAssertEqual(
            kotlin.diagnostics.map(\.message).filter { $0.contains("testBuilders") },
            [
                "output.kotlin.testBuilders needs output.kotlin.path and output.kotlin.package: the builders are in the generated code's package."
            ])
    }
}

/// Where `baton gen` finds the Kotlin test kit it writes beside the Kotlin builders (`KotlinTestKitFiles`).
final class KotlinTestKitFilesTests: XCTestCase {
    func testTheKitIsFoundInTheSourceTreeAndAFolderOfOtherFilesIsRefused() throws {
        let sources = try KotlinTestKitFiles.found.get()
        XCTAssertEqual(sources.map(\.name), ["DataBuilders.kt", "MockEnvironment.kt"])
        XCTAssertEqual(
            KotlinTestKitFiles.folders(environment: nil, executable: "/opt/baton/bin/baton").first,
            "/opt/baton/share/baton/kotlin-testing")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-kit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "package other\n".write(to: folder.appendingPathComponent("A.kt"), atomically: true, encoding: .utf8)
        guard case .failure(let problem) = KotlinTestKitFiles.locate(environment: folder.path, executable: nil) else {
            return XCTFail("a folder of other files was taken for the kit")
        }
        XCTAssertTrue(problem.description.hasSuffix("not a file of the Kotlin test kit (its files begin with `package baton.testing` and use \\n line endings)"), problem.description)
        guard case .failure(let missing) = KotlinTestKitFiles.locate(environment: folder.path + "/none", executable: nil)
        else { return XCTFail("a missing folder was found") }
        XCTAssertTrue(missing.description.hasPrefix("the Kotlin test kit's files were not found"), missing.description)
    }

    /// `output.kotlin.runtime: false` (another module provides the runtime) writes no kit either.
    func testTheKitIsWrittenWhereTheRuntimeIs() throws {
        let written = try TestBuilderTargetTests.project(
            #"{"kotlin": {"path": "k", "package": "app", "testBuilders": {"path": "t"}}}"#, targets: .configured)
        let builders = try XCTUnwrap(written.compilation.outputs.first { $0.target.name == "kotlin-test-builders" })
        XCTAssertEqual(
            builders.files.map(\.path), ["ViewerBuilder.kt", "baton/testing/DataBuilders.kt", "baton/testing/MockEnvironment.kt"])
        let omitted = try TestBuilderTargetTests.project(
            #"{"kotlin": {"path": "k", "package": "app", "runtime": false, "testBuilders": {"path": "t"}}}"#,
            targets: .configured)
        let only = try XCTUnwrap(omitted.compilation.outputs.first { $0.target.name == "kotlin-test-builders" })
        XCTAssertEqual(only.files.map(\.path), ["ViewerBuilder.kt"])
    }
}
