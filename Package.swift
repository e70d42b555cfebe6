// swift-tools-version:6.0
// Baton: a GraphQL toolkit for Swift and Kotlin apps. No third-party dependencies.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "Baton",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Baton", targets: ["Baton"]),
        // An optional persisted cache in SQLite (the system's library); `Baton` itself stays free of it.
        .library(name: "BatonSQLite", targets: ["BatonSQLite"]),
        // Testing apps: a mock environment over the real `BatonEnvironment` (Docs/Testing.md).
        .library(name: "BatonTesting", targets: ["BatonTesting"]),
        .executable(name: "baton", targets: ["baton"]),
        // `baton fetch-schema`'s work, run by `baton` from beside itself: the only process with an HTTP stack.
        .executable(name: "baton-fetch-schema", targets: ["BatonFetchSchema"]),
        // A target's documents generated at build time; `swift package baton check|gen|init`.
        .plugin(name: "BatonPlugin", targets: ["BatonPlugin"]),
        .plugin(name: "BatonCommand", targets: ["BatonCommand"]),
    ],
    targets: [
        // Compiler layers, each depending only on those above it.
        .target(name: "BatonDiagnostics", swiftSettings: strict),
        // The file system, paths and atomic writes on the C library's calls (no Foundation: `baton` links none on Linux).
        .target(name: "BatonFiles", swiftSettings: strict),
        .target(name: "BatonSyntax", dependencies: ["BatonDiagnostics"], swiftSettings: strict),
        .target(
            name: "BatonSchema", dependencies: ["BatonDiagnostics", "BatonFiles", "BatonSyntax"], swiftSettings: strict),
        // What Baton's directives mean and what "the same response path" is: decoded once, for the
        // validation rules and the lens model alike.
        .target(
            name: "BatonSemantics", dependencies: ["BatonDiagnostics", "BatonSyntax", "BatonSchema"],
            swiftSettings: strict),
        .target(
            name: "BatonValidation",
            dependencies: ["BatonDiagnostics", "BatonSyntax", "BatonSchema", "BatonSemantics"],
            swiftSettings: strict),
        .target(name: "BatonConfig", dependencies: ["BatonDiagnostics", "BatonFiles"], swiftSettings: strict),
        .target(
            name: "BatonIR",
            dependencies: ["BatonDiagnostics", "BatonSyntax", "BatonSchema", "BatonSemantics"],
            swiftSettings: strict),
        .target(
            name: "BatonPlate", dependencies: ["BatonDiagnostics", "BatonSchema", "BatonIR"], swiftSettings: strict),
        .target(name: "BatonCodegen", dependencies: ["BatonDiagnostics", "BatonFiles", "BatonIR"], swiftSettings: strict),
        // The declaration tree: the plan lowered once into what generated code declares, printed by each generator.
        .target(name: "BatonDeclarations", dependencies: ["BatonIR", "BatonSchema", "BatonSyntax"], swiftSettings: strict),
        .target(
            name: "BatonCodegenSwift",
            dependencies: [
                "BatonCodegen", "BatonDeclarations", "BatonDiagnostics", "BatonIR", "BatonSchema", "BatonSyntax",
            ],
            swiftSettings: strict),
        .target(
            name: "BatonCodegenKotlin",
            dependencies: [
                "BatonCodegen", "BatonDeclarations", "BatonDiagnostics", "BatonIR", "BatonKotlinRuntime", "BatonSchema",
                "BatonSyntax",
            ],
            swiftSettings: strict),
        // The driver: projects, one compilation per project through every stage, one gate, one
        // diagnostic policy; every command (and later watch, an editor server, a build plugin) calls it.
        .target(
            name: "BatonCompiler",
            dependencies: [
                "BatonDiagnostics", "BatonSyntax", "BatonSchema", "BatonValidation", "BatonConfig", "BatonFiles",
                "BatonIR", "BatonCodegen", "BatonCodegenSwift", "BatonCodegenKotlin", "BatonDeclarations",
            ],
            swiftSettings: strict),
        // `baton lsp`: a Language Server Protocol server over stdio on the driver's kept compilations.
        .target(
            name: "BatonLanguageServer",
            dependencies: [
                "BatonDiagnostics", "BatonSyntax", "BatonSchema", "BatonConfig", "BatonFiles", "BatonIR", "BatonPlate",
                "BatonCompiler",
            ],
            swiftSettings: strict),
        // Watching folders for `check --watch` and `gen --watch`: inotify, kqueue, or polling.
        .target(name: "BatonWatch", dependencies: ["BatonFiles"], swiftSettings: strict),
        .target(
            name: "BatonCLI",
            dependencies: [
                "BatonDiagnostics", "BatonConfig", "BatonFiles", "BatonPlate", "BatonCodegen", "BatonCompiler",
                "BatonWatch", "BatonLanguageServer",
            ],
            swiftSettings: strict),
        .executableTarget(name: "baton", dependencies: ["BatonCLI"], swiftSettings: strict),
        .executableTarget(
            name: "BatonFetchSchema",
            dependencies: ["BatonCLI", "BatonCodegen", "BatonConfig", "BatonDiagnostics", "BatonFiles", "BatonSchema"],
            swiftSettings: strict),
        .executableTarget(
            name: "BatonBenchmark",
            dependencies: [
                "BatonDiagnostics", "BatonSyntax", "BatonSchema", "BatonValidation", "BatonCompiler", "BatonCodegen",
                "BatonCodegenSwift", "BatonCodegenKotlin", "BatonIR", "BatonPlate", "BatonConfig", "Baton",
                "BatonSQLite",
            ],
            exclude: ["Peers"], swiftSettings: strict),

        // The Kotlin runtime: where its .kt files (Kotlin/runtime/baton/runtime, the single copy) are found when
        // Kotlin is generated (beside an installed binary, else in this source tree), and the type names they declare.
        .target(
            name: "BatonKotlinRuntime", dependencies: ["BatonFiles"], path: "Kotlin/runtime", exclude: ["baton"],
            swiftSettings: strict),

        // Baton in a team's build (Docs/BuildIntegration.md): `baton gen --lang swift` for the target adopting
        // the build-tool plugin, and `swift package baton …` for the other commands.
        .plugin(name: "BatonPlugin", capability: .buildTool(), dependencies: ["baton"]),
        .plugin(
            name: "BatonCommand",
            capability: .command(
                intent: .custom(
                    verb: "baton", description: "Run baton check, gen or init on this package's baton.json."),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "baton gen writes the output folders baton.json names; baton init writes baton.json.")
                ]),
            dependencies: ["baton"]),

        // The runtime apps import. Depends on no other Baton target.
        .target(name: "Baton", swiftSettings: strict),
        // The test kit apps' tests import: a mock transport, clock and log around the real environment.
        .target(name: "BatonTesting", dependencies: ["Baton"], swiftSettings: strict),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "BatonSQLite", dependencies: ["Baton", "CSQLite"], swiftSettings: strict),
        // A child process the kill tests start and SIGKILL while it writes (Tests/BatonSQLiteTests).
        .executableTarget(
            name: "BatonSQLiteKillHelper", dependencies: ["Baton", "BatonSQLite", "BatonTesting"],
            path: "Tests/BatonSQLiteKillHelper",
            swiftSettings: strict),
        // The guide's screen run on any platform with a fixture transport: `swift run GitHubExample`.
        .executableTarget(
            name: "GitHubExample", dependencies: ["Baton", "BatonTesting"], path: "Examples/GitHub",
            exclude: [
                "RepositoryScreen.swift", "IssueCommentsScreen.swift", "ErrorView.swift", "RootView.swift",
                "Generated/Kotlin", "Generated/SwiftTestBuilders", "Generated/KotlinTestBuilders",
                "Fixtures",
                "schema.graphql", "baton.json", "ExpectedOutput.txt",
            ],
            sources: ["Generated/Swift", "Demo"], swiftSettings: strict),

        // What every test target shares: paths (repository, shared corpus), the one fixture runner,
        // and what a test does when a peer is missing (skip locally, fail in CI).
        .target(
            name: "BatonTestSupport",
            dependencies: [
                "BatonDiagnostics", "BatonSyntax", "BatonConfig", "BatonIR", "BatonCodegen", "BatonCodegenSwift",
                "BatonCodegenKotlin", "BatonCompiler", "BatonDeclarations",
            ],
            path: "Tests/BatonTestSupport",
            swiftSettings: strict),

        .testTarget(name: "BatonDiagnosticsTests", dependencies: ["BatonDiagnostics"], swiftSettings: strict),
        .testTarget(
            name: "BatonSyntaxTests", dependencies: ["BatonTestSupport", "BatonSyntax", "BatonDiagnostics"],
            exclude: ["Peers"],
            swiftSettings: strict),
        .testTarget(
            name: "BatonSchemaTests",
            dependencies: ["BatonTestSupport", "BatonSchema", "BatonSyntax", "BatonDiagnostics"],
            exclude: ["Fixtures", "Peers"], swiftSettings: strict),
        .testTarget(
            name: "BatonValidationTests",
            dependencies: ["BatonTestSupport", "BatonValidation", "BatonSchema", "BatonSyntax", "BatonDiagnostics"],
            exclude: ["Fixtures", "BatonFixtures", "Peers"], swiftSettings: strict),
        .testTarget(
            name: "BatonConfigTests", dependencies: ["BatonConfig", "BatonDiagnostics", "BatonFiles"],
            swiftSettings: strict),
        .testTarget(name: "BatonFilesTests", dependencies: ["BatonFiles"], swiftSettings: strict),
        .testTarget(
            name: "BatonIRTests",
            dependencies: ["BatonTestSupport", "BatonIR", "BatonSemantics", "BatonPlate", "BatonCompiler"],
            exclude: ["Fixtures"],
            swiftSettings: strict),
        .testTarget(
            name: "BatonCodegenTests",
            dependencies: [
                "BatonTestSupport", "BatonCodegen", "BatonCodegenSwift", "BatonCodegenKotlin", "BatonCompiler", "Baton",
                "BatonTesting", "BatonSQLite", "BatonDeclarations",
            ],
            // KotlinScenarios: a project whose generated Swift (checked in) and Kotlin (generated by the tests) run
            // the same runtime scenarios.
            exclude: [
                "KotlinScenarios/baton.json", "KotlinScenarios/scenarios.graphqls", "KotlinScenarios/Queries",
                "KotlinScenarios/Fixtures", "KotlinScenarios/Scenarios.json", "Fixtures",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "BatonCLITests",
            dependencies: [
                "BatonTestSupport", "BatonCLI", "BatonCompiler", "BatonConfig", "BatonIR", "BatonSyntax", "BatonWatch",
            ],
            swiftSettings: strict),
        // The driver (`BatonCompiler`) on its own: compilations, watch sessions, the rule catalog.
        .testTarget(
            name: "BatonCompilerTests",
            dependencies: [
                "BatonTestSupport", "BatonCompiler", "BatonConfig", "BatonDiagnostics", "BatonFiles", "BatonIR",
                "BatonSchema", "BatonSyntax", "BatonValidation",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "BatonLanguageServerTests",
            dependencies: ["BatonTestSupport", "BatonLanguageServer", "BatonDiagnostics", "BatonCompiler"],
            exclude: ["EndToEnd"], swiftSettings: strict),
        // Reads real `baton gen` output (Generated/, from baton.json and Operations/), not imitations of it.
        .testTarget(
            name: "BatonRuntimeTests", dependencies: ["Baton", "BatonTesting"],
            exclude: [
                "Fixtures", "baton.json", "Operations", "Propagate/baton.json", "Propagate/Operations",
                "Connections/baton.json", "Connections/Operations", "Connections/schema.graphql",
            ],
            swiftSettings: strict),
        // Against the real test server (Tests/Server); runs the built `baton` for fetch-schema.
        .testTarget(
            name: "BatonNetworkTests",
            dependencies: ["Baton", "BatonSchema", "BatonDiagnostics", "BatonTesting", "BatonTestSupport"],
            exclude: [
                "baton.json", "Operations", "Notes/baton.json", "Notes/Operations", "Incremental/baton.json",
                "Incremental/Operations",
            ],
            swiftSettings: strict),
        // The test kit on the guide's screen (Examples/GitHub's generated code, imported from its executable).
        .testTarget(
            name: "BatonTestingTests", dependencies: ["BatonTesting", "Baton", "GitHubExample"], swiftSettings: strict),
        .testTarget(
            name: "BatonSQLiteTests",
            dependencies: ["BatonSQLite", "Baton", "CSQLite", "BatonSQLiteKillHelper", "BatonTesting"],
            swiftSettings: strict),
    ]
)
