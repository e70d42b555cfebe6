import BatonTestSupport
import Foundation
import XCTest

/// Docs/Testing.md's Kotlin test (`<!-- file: src/test/kotlin/RepositoryScreenTest.kt -->`) as a user runs it: compiled
/// by kotlinc against the shared build (the runtime, the kit `baton.testing`, the guide's generated code and test
/// builders) and JUnit 4, then run by JUnit's runner, which must report every test passed.
final class KotlinJUnitGuideTests: XCTestCase {
    /// JUnit 4 and Hamcrest, from Debian's `junit4` package (`.ci/install.d/kotlin-libraries.sh`).
    static func junitLibraries() throws -> [URL] {
        let folder = ProcessInfo.processInfo.environment["BATON_KOTLIN_LIBRARIES"] ?? "/usr/share/java"
        let jars = ["junit4.jar", "hamcrest-core.jar"].map { URL(fileURLWithPath: folder).appendingPathComponent($0) }
        guard jars.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) else {
            throw KotlinTestSupport.unavailable(
                "JUnit 4 is not in \(folder) (junit4.jar, hamcrest-core.jar); apt-get install junit4")
        }
        return jars
    }

    func testTheGuidesKotlinScenariosPassUnderJUnit() throws {
        let blocks = try GettingStartedTests.blocks(of: TestingGuideTests.page).filter { $0.language == "kotlin" }
        let tests = blocks.filter { $0.file == "src/test/kotlin/RepositoryScreenTest.kt" }
        XCTAssertEqual(tests.count, 1, "one Kotlin test file in Docs/Testing.md")
        guard let test = tests.first else { return }
        let junit = try Self.junitLibraries()
        let built = try KotlinBuild.shared()
        let folder = try KotlinTestSupport.temporaryFolder("junit-guide")
        defer { try? FileManager.default.removeItem(at: folder) }
        try KotlinTestSupport.write([(path: "RepositoryScreenTest.kt", contents: test.text)], under: folder)
        let classes = try KotlinTestSupport.compile(folder: folder, classpath: [built.classes] + junit)
        let output = try KotlinTestSupport.runMain(
            "org.junit.runner.JUnitCore", classes: classes, classpath: [built.classes] + junit,
            arguments: ["RepositoryScreenTest"], in: folder)
        let names = test.text.components(separatedBy: "@Test").count - 1
        XCTAssertEqual(names, 4)
        XCTAssertTrue(output.contains("OK (\(names) tests)"), output)
    }
}
