import BatonCodegen
import BatonTestSupport
import Foundation
import XCTest

/// Issue 29's check: a project the tests have not seen (anilist's schema and two of AniHyou's documents from the
/// shared corpus, read in place) gets its code and test builders from the built `baton gen`, and a test written
/// against the documented API only (Docs/Testing.md) builds a screen's states with them, in Swift (swiftc with
/// `Baton` and `BatonTesting`) and in Kotlin (kotlinc with the runtime and the test kit `baton gen` wrote, and
/// JUnit 4).
final class FreshProjectBuildersTests: XCTestCase {
    static let documents = "documents/anilist/AniHyou-android/operations"

    /// What both tests print: the screen's rows, read through the generated lenses from the built response.
    static let expected = [
        "sent: SearchCharacter",
        "loading",
        "Spike Spiegel (1)", "(no name) (0)", "no character",
        "page: nil, more: true",
    ]

    /// The project folder after `baton gen`.
    func generatedProject() throws -> URL {
        let corpus = TestPaths.corpus
        let schema = corpus.appendingPathComponent("schemas/anilist/schema.graphqls")
        let search = corpus.appendingPathComponent(Self.documents + "/character/SearchCharacter.graphql")
        let page = corpus.appendingPathComponent(Self.documents + "/CommonPage.graphql")
        for file in [schema, search, page] where !FileManager.default.fileExists(atPath: file.path) {
            throw Unavailable.error("the shared corpus is not at \(corpus.path) (BATON_SHARED names it)")
        }
        let baton = TestPaths.repository.appendingPathComponent(".build/debug/baton")
        guard FileManager.default.isExecutableFile(atPath: baton.path) else {
            throw XCTSkip("the baton executable is not built; run `swift build` first")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-fresh-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let configuration = """
            {
              "schema": "\(schema.path)",
              "documents": ["\(search.path)", "\(page.path)"],
              "output": {
                "swift": { "path": "Sources/App/Generated", "testBuilders": { "path": "Tests/AppTests/Builders" } },
                "kotlin": { "path": "src/main/kotlin", "package": "app", "testBuilders": { "path": "src/test/kotlin" } }
              }
            }
            """
        try configuration.write(to: folder.appendingPathComponent("baton.json"), atomically: true, encoding: .utf8)
        let output = try SwiftCompiler.run(baton.path, ["gen", "--config", folder.appendingPathComponent("baton.json").path])
        XCTAssertTrue(output.contains("/Tests/AppTests/Builders/SearchCharacterBuilder.graphql.swift\n"), output)
        return folder
    }

    static func files(under folder: URL, ending suffix: String) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.sorted().map {
            folder.appendingPathComponent($0)
        }
    }

    static let swiftTest = #"""
        import Baton
        import BatonTesting

        let mock = MockEnvironment()
        let handle = mock.environment.attach(SearchCharacter(page: 1, perPage: 3, search: "Spike"))
        let screen = handle.attachedOperation
        try await mock.transport.waitForOperation("SearchCharacter")
        let request = try mock.expectSent("SearchCharacter", variables: ["page": 1, "perPage": 3, "search": "Spike"])
        print("sent: " + request.operationName)
        if case .loading = screen.phase { print("loading") }
        try await mock.resolve(
            SearchCharacterBuilder(
                Page: .value(
                    .init(
                        characters: [
                            .value(.init(id: 1, name: .value(.init(userPreferred: "Spike Spiegel")))), .value(.init()),
                            .null,
                        ],
                        pageInfo: .value(.init(commonPage: CommonPageBuilder(hasNextPage: true)))))))
        await mock.settle()
        guard case .ready(let data) = screen.phase, let page = data.Page else { fatalError("not ready: \(screen.phase)") }
        for character in page.characters ?? .empty {
            guard let character = character.value else {
                print("no character")
                continue
            }
            print("\(character.name?.userPreferred ?? "(no name)") (\(character.id))")
        }
        let info = page.pageInfo?.commonPage.wrappedValue
        print("page: \(info?.currentPage.map(String.init) ?? "nil"), more: \(info?.hasNextPage ?? false)")
        handle.detach()
        """#

    func testSwiftTestBuildsTheScreensStates() throws {
        let project = try generatedProject()
        let main = project.appendingPathComponent("Tests/AppTests/main.swift")
        try Self.swiftTest.write(to: main, atomically: true, encoding: .utf8)
        let sources =
            try Self.files(under: project.appendingPathComponent("Sources/App/Generated"), ending: ".swift")
            + Self.files(under: project.appendingPathComponent("Tests/AppTests/Builders"), ending: ".swift") + [main]
        let output = try SwiftCompiler.buildAndRun(sources.map(\.path), testKit: true)
        XCTAssertEqual(output.split(separator: "\n").map(String.init), Self.expected)
    }

    static let kotlinTest = #"""
        import app.CommonPageBuilder
        import app.SearchCharacter
        import app.SearchCharacterBuilder
        import app.SearchCharacterBuilder.Page2
        import baton.runtime.Optional
        import baton.runtime.Phase
        import baton.testing.BuiltField
        import baton.testing.MockEnvironment
        import baton.testing.built
        import baton.testing.resolve
        import org.junit.Assert.assertEquals
        import org.junit.Test

        class SearchScreenTest {
            @Test
            fun buildsTheScreensStates() {
                val lines = ArrayList<String>()
                val mock = MockEnvironment()
                val handle = mock.environment.attach(
                    SearchCharacter(Optional.Present(1), Optional.Present(3), Optional.Present("Spike"))
                )
                try {
                    mock.transport.waitForOperation("SearchCharacter")
                    val request = mock.expectSent("SearchCharacter", mapOf("page" to 1, "perPage" to 3, "search" to "Spike"))
                    lines.add("sent: " + request.operationName)
                    if (handle.phase is Phase.Loading) lines.add("loading")
                    mock.resolve(
                        SearchCharacterBuilder(
                            Page = built(
                                Page2(
                                    characters = built(
                                        listOf(
                                            built(Page2.Characters(id = built(1), name = built(Page2.Characters.Name(userPreferred = built("Spike Spiegel"))))),
                                            built(Page2.Characters()),
                                            BuiltField.Null
                                        )
                                    ),
                                    pageInfo = built(Page2.PageInfo(commonPage = CommonPageBuilder(hasNextPage = built(true))))
                                )
                            )
                        )
                    )
                    mock.settle()
                    val page = handle.phase.data?.Page ?: throw AssertionError("not ready: ${handle.phase}")
                    for (character in page.characters.orEmpty()) {
                        if (character == null) lines.add("no character")
                        else lines.add("${character.name?.userPreferred ?: "(no name)"} (${character.id})")
                    }
                    val info = page.pageInfo?.commonPage
                    lines.add("page: ${info?.currentPage ?: "nil"}, more: ${info?.hasNextPage ?: false}")
                } finally {
                    handle.detach()
                }
                assertEquals(EXPECTED, lines)
            }
        }
        """#

    func testKotlinTestBuildsTheScreensStatesUnderJUnit() throws {
        let project = try generatedProject()
        let junit = try KotlinJUnitGuideTests.junitLibraries()
        var files: [(path: String, contents: String)] = []
        for folder in ["src/main/kotlin", "src/test/kotlin"] {
            let root = project.appendingPathComponent(folder)
            for file in try Self.files(under: root, ending: ".kt") {
                let relative = String(file.path.dropFirst(root.path.count + 1))
                files.append((folder + "/" + relative, try String(contentsOf: file, encoding: .utf8)))
            }
        }
        // The kit, written by `baton gen` beside the builders (the runtime is written too).
        XCTAssertEqual(
            files.map(\.path).filter { $0.hasPrefix("src/test/kotlin/baton/testing/") },
            ["src/test/kotlin/baton/testing/DataBuilders.kt", "src/test/kotlin/baton/testing/MockEnvironment.kt"])
        let expected = Self.expected.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        files.append(
            (
                "src/test/kotlin/SearchScreenTest.kt",
                Self.kotlinTest + "\nval EXPECTED = listOf(" + expected.joined(separator: ", ") + ")\n"
            ))
        let kotlinc = try KotlinTestSupport.tool("kotlinc").resolvingSymlinksInPath()
        let folder = try KotlinCompileCache.folder(
            "fresh-builders", files: files, inputs: [kotlinc.path] + junit.map(\.path)
        ) { folder in
            try KotlinTestSupport.write(files, under: folder)
            _ = try KotlinTestSupport.compile(folder: folder, classpath: junit)
        }
        let output = try KotlinTestSupport.runMain(
            "org.junit.runner.JUnitCore", classes: folder.appendingPathComponent("classes"), classpath: junit,
            arguments: ["SearchScreenTest"], in: folder)
        XCTAssertTrue(output.contains("OK (1 test)"), output)
    }
}
