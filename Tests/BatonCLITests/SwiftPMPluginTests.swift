import BatonTestSupport
import Foundation
import XCTest

/// The SwiftPM plugins in a package that uses them as an app would: a sample package (in a temporary
/// folder, depending on this repository by path) whose `GraphQLAPI` target adopts `BatonPlugin`, with
/// a Swift literal and a `.graphql` document, `public` code in the schema namespace `API`, imported by
/// an `App` target. One build (which builds `baton` itself, a few minutes), then incremental rebuilds:
/// the generated code compiles and runs; a rebuild with nothing changed runs nothing; editing the
/// literal regenerates its file only; a bad literal fails the build with the error at its line and
/// column; `swift package baton check` runs the command plugin.
///
/// Slow (it builds Baton inside the sample), so it runs in CI (`CI` set; `.ci/run` also starts its first build
/// beside the suite with `BATON_PLUGIN_WARMUP=1`, which stops after that build) or with
/// `BATON_PLUGIN_TEST=1`, and skips otherwise. The sample's build folder is kept in the temporary
/// folder, so a second local run is incremental.
final class SwiftPMPluginTests: XCTestCase {
    static var enabled: Bool {
        Unavailable.inCI || ProcessInfo.processInfo.environment["BATON_PLUGIN_TEST"] == "1"
    }

    func testSamplePackageBuildsWithThePlugin() throws {
        try XCTSkipUnless(
            Self.enabled, "builds Baton inside a sample package (minutes): set BATON_PLUGIN_TEST=1 (CI runs it)")
        let swift = try Unavailable.executable("swift", install: "install a Swift 6 toolchain")
        let sample = try SamplePackage()
        let started = Date()

        // One build: baton, the runtime, the generated code, the app; and the app runs.
        let first = try sample.build(swift)
        XCTAssertEqual(first.status, 0, first.output)
        let generated = sample.generatedFolder()
        let screen = try XCTUnwrap(generated?.appendingPathComponent("Screen.baton.swift"), first.output)
        let feed = try XCTUnwrap(generated?.appendingPathComponent("Feed.graphql.baton.swift"))
        XCTAssertTrue(try String(contentsOf: screen, encoding: .utf8).contains("public nonisolated struct HelloQuery"))
        XCTAssertTrue(try String(contentsOf: feed, encoding: .utf8).contains("public nonisolated struct FeedQuery"))
        XCTAssertEqual(
            try SamplePackage.run(sample.executable("App")), "Hello [\"name\"] HAPPY Feed\n")
        let firstBuild = Date().timeIntervalSince(started)
        if ProcessInfo.processInfo.environment["BATON_PLUGIN_WARMUP"] == "1" {
            // `.ci/run` runs this far beside the rest of the suite, so the suite's own run finds the first build done.
            print("SwiftPMPluginTests: warm-up build \(Int(firstBuild)) s")
            return
        }

        // Nothing changed: nothing is rewritten or compiled again. (SwiftPM on Linux may relink
        // `baton-tool` on the first rebuilds after building it, as both its plugin-tools graph and its
        // main graph link it; a new tool reruns the command, which then writes nothing.)
        let dates = try [screen, feed].map {
            try FileManager.default.attributesOfItem(atPath: $0.path)[.modificationDate] as? Date
        }
        let again = try sample.build(swift)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertFalse(again.output.contains("Compiling GraphQLAPI"), again.output)
        XCTAssertEqual(
            try [screen, feed].map {
                try FileManager.default.attributesOfItem(atPath: $0.path)[.modificationDate] as? Date
            },
            dates)
        if again.output.contains("Baton: generating") {
            XCTAssertTrue(again.output.contains("Linking baton-tool"), again.output)
        }

        // Editing the literal regenerates its file (and leaves the other document's file alone).
        let feedDate = try FileManager.default.attributesOfItem(atPath: feed.path)[.modificationDate] as? Date
        try sample.writeScreen(["mood"])
        let edited = try sample.build(swift)
        XCTAssertEqual(edited.status, 0, edited.output)
        XCTAssertTrue(try String(contentsOf: screen, encoding: .utf8).contains("public var mood: API.Mood?"))
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: feed.path)[.modificationDate] as? Date, feedDate)

        // A bad literal fails the build, located in the Swift source.
        try sample.writeScreen(["helo"])
        let bad = try sample.build(swift)
        XCTAssertNotEqual(bad.status, 0, bad.output)
        XCTAssertTrue(
            bad.output.contains(
                sample.root.appendingPathComponent("Sources/GraphQLAPI/Screen.swift").path
                    + ":6:7: error: Cannot query field \"helo\" on type \"Query\". Did you mean \"hello\"?"),
            bad.output)

        // The command plugin: `swift package baton check` reports the same error, then passes once fixed.
        let check = try sample.swiftPackage(swift, ["baton", "check"])
        XCTAssertEqual(check.status == 0, false, check.output)
        XCTAssertTrue(
            check.output.contains("Sources/GraphQLAPI/Screen.swift:6:7: error: Cannot query field"), check.output)
        try sample.writeScreen()
        let fixed = try sample.swiftPackage(swift, ["baton", "check"])
        XCTAssertEqual(fixed.status, 0, fixed.output)
        // `swift package baton gen` with the baton built as the plugin's tool writes Kotlin with its runtime, read
        // from the checkout of this package the tool was built in.
        let kotlin = try sample.swiftPackage(
            swift, ["baton", "gen", "--lang", "kotlin"])
        XCTAssertEqual(kotlin.status, 0, kotlin.output)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: sample.root.appendingPathComponent("kotlin/baton/runtime/Store.kt").path),
            kotlin.output)
        print("SwiftPMPluginTests: first build \(Int(firstBuild)) s, all \(Int(Date().timeIntervalSince(started))) s")
    }
}

/// The sample package on disk, and how to build it.
struct SamplePackage {
    let root: URL
    let scratch: URL

    init() throws {
        // Kept between runs (keyed by the repository's path), so a second local run builds incrementally.
        let source = TestPaths.repository.standardizedFileURL
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in source.path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-plugin-sample-" + String(hash % 0xffff_ffff, radix: 16))
        root = base.appendingPathComponent("Sample")
        scratch = base.appendingPathComponent("build")
        // The package as a team gets it (its identity "baton"): a copy of the repository's files, so
        // edits to the checkout during the build cannot disturb it; unchanged files keep their dates.
        let repository = base.appendingPathComponent("baton")
        try Self.mirror(source, to: repository)
        let identity = repository.lastPathComponent
        try write(
            "Package.swift",
            """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Sample",
                dependencies: [.package(path: \(quoted(repository.path)))],
                targets: [
                    .target(
                        name: "GraphQLAPI", dependencies: [.product(name: "Baton", package: \(quoted(identity)))],
                        plugins: [.plugin(name: "BatonPlugin", package: \(quoted(identity)))]),
                    .executableTarget(name: "App", dependencies: ["GraphQLAPI"]),
                ]
            )

            """)
        try write(
            "baton.json",
            """
            {
              "//": "The sample of SwiftPMPluginTests: the plugin writes the Swift into its own folder.",
              "schema": "schema.graphqls",
              "output": { "operationSuffix": true, "swift": { "path": "Generated", "accessModifier": "public", "namespace": "API" }, "kotlin": { "path": "kotlin", "package": "sample" } }
            }

            """)
        try write(
            "schema.graphqls",
            "enum Mood { HAPPY SAD }\ntype Query { hello(name: String!): String mood: Mood }\n")
        try write(
            "Sources/GraphQLAPI/Query.swift",
            """
            /// A stand-in for Baton's SwiftUI `@Query` (SwiftUI is not on Linux): it holds the literal.
            @propertyWrapper public struct Query {
                public let wrappedValue: String
                public init(_ document: String) { wrappedValue = document }
            }

            """)
        try write("Sources/GraphQLAPI/Feed.graphql", "query Feed { mood }\n")
        try writeScreen()
        try write(
            "Sources/App/main.swift",
            """
            import GraphQLAPI

            let query = HelloQuery(name: "Ada")
            print(HelloQuery.operationName, query.variables.keys.sorted(), API.Mood.HAPPY.rawText, FeedQuery.operationName)

            """)
        // Whatever an earlier run left (the Kotlin that `swift package baton gen` wrote) goes; the files above
        // are written only when they differ, so a build of the same sample that is still running (CI's warm-up,
        // `.ci/run`) is not disturbed and this run's first build finds its work done.
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var stale: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if relative == ".swiftpm" || relative == "Package.resolved" {
                enumerator?.skipDescendants()
            } else if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                !Self.sampleFiles.contains(relative)
            {
                stale.append(url)
            }
        }
        for url in stale { try FileManager.default.removeItem(at: url) }
    }

    /// The files `init` writes, relative to `root`.
    static let sampleFiles: Set<String> = [
        "Package.swift", "baton.json", "schema.graphqls", "Sources/GraphQLAPI/Query.swift",
        "Sources/GraphQLAPI/Feed.graphql", "Sources/GraphQLAPI/Screen.swift", "Sources/App/main.swift",
    ]

    /// Screen.swift, its literal selecting `hello` and then `more` (the first of them on line 6, column 7).
    func writeScreen(_ more: [String] = []) throws {
        let lines = more.map { "      " + $0 + "\n" }.joined()
        try write(
            "Sources/GraphQLAPI/Screen.swift",
            """
            public struct Screen {
                @Query(\"\"\"
                query Hello($name: String!) {
                  __typename
                  hello(name: $name)
            \(lines)    }
                \"\"\")
                public var hello: String
            }

            """)
    }

    /// Makes `destination` hold `source`'s files (build and VCS folders left out), copying only those
    /// that differ and removing those gone.
    static func mirror(_ source: URL, to destination: URL) throws {
        let manager = FileManager.default
        func files(_ root: URL) -> Set<String> {
            var found = Set<String>()
            let enumerator = manager.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = enumerator?.nextObject() as? URL {
                if [".build", ".git", ".swiftpm"].contains(url.lastPathComponent) {
                    enumerator?.skipDescendants()
                    continue
                }
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                    found.insert(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count)))
                }
            }
            return found
        }
        let wanted = files(source)
        for gone in files(destination).subtracting(wanted) {
            try manager.removeItem(at: URL(fileURLWithPath: destination.path + gone))
        }
        for path in wanted {
            let from = URL(fileURLWithPath: source.path + path)
            let to = URL(fileURLWithPath: destination.path + path)
            let data = try Data(contentsOf: from)
            if (try? Data(contentsOf: to)) == data { continue }
            try manager.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: to)
        }
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        if (try? String(contentsOf: url, encoding: .utf8)) == text { return }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }

    /// The plugin's output folder for GraphQLAPI, once built.
    func generatedFolder() -> URL? {
        let enumerator = FileManager.default.enumerator(at: scratch, includingPropertiesForKeys: nil)
        while let next = enumerator?.nextObject() as? URL {
            if next.lastPathComponent == "Generated", next.path.contains("/GraphQLAPI/"),
                next.path.contains("/BatonPlugin/")
            {
                return next
            }
        }
        return nil
    }

    func executable(_ name: String) -> URL { scratch.appendingPathComponent("debug/\(name)") }

    struct Outcome {
        var status: Int32
        var output: String
    }

    func build(_ swift: String) throws -> Outcome {
        try Self.launch(swift, ["build", "--package-path", root.path, "--scratch-path", scratch.path])
    }

    func swiftPackage(_ swift: String, _ arguments: [String]) throws -> Outcome {
        try Self.launch(
            swift,
            [
                "package", "--package-path", root.path, "--scratch-path", scratch.path,
                "--allow-writing-to-package-directory",
            ]
                + arguments)
    }

    static func run(_ executable: URL) throws -> String {
        let outcome = try launch(executable.path, [])
        return outcome.output
    }

    /// Runs a program; stdout and stderr together.
    static func launch(_ program: String, _ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
