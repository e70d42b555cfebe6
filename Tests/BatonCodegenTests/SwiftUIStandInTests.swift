import BatonCompiler
import Foundation
import XCTest

/// The SwiftUI layer checked on Linux: the stand-in for SwiftUI's declarations (`Tests/SwiftUIStandIn`) accepts
/// ordinary SwiftUI code and rejects what SwiftUI rejects; against it, `Sources/Baton/SwiftUI`, every Examples screen
/// and the guide's Plate 2, exactly as the guide prints it, typecheck in Swift 6 mode without warnings.
final class SwiftUIStandInTests: XCTestCase {
    static let examples = SwiftCompiler.repository.appendingPathComponent("Examples")
    /// The guide's chapter "Honest data" (the seed beside the repository, as CI has it).
    static let guide = SwiftCompiler.repository.deletingLastPathComponent().appendingPathComponent(
        "shared/seeds/000_fab43b69234ac26e.txt")

    static func swiftFiles(_ folder: String) throws -> [String] {
        let directory = examples.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { directory.appendingPathComponent($0).path }
    }

    /// The GitHub example's app files around Plate 2: the generated code and the views the screen assumes.
    static func gitHubSupport() throws -> [String] {
        try swiftFiles("GitHub/Generated/Swift")
            + ["ErrorView.swift", "RootView.swift"].map {
                examples.appendingPathComponent("GitHub/" + $0).path
            }
    }

    // MARK: Baton and the examples

    /// Every Examples screen with its generated code, and through them `Sources/Baton/SwiftUI` (built into the
    /// `Baton` module because the stand-in makes `canImport(SwiftUI)` true).
    func testExampleScreensTypecheck() throws {
        let gitHub = try SwiftUIStandIn.typecheck(
            try Self.swiftFiles("GitHub") + Self.swiftFiles("GitHub/Generated/Swift"))
        let rickAndMorty = try SwiftUIStandIn.typecheck(
            try Self.swiftFiles("RickAndMorty") + Self.swiftFiles("RickAndMorty/Generated/Swift"))
        print("typechecked the GitHub screens in \(gitHub) s, the Rick and Morty screen in \(rickAndMorty) s")
    }

    /// The GitHub screens and their generated code in an app target as Xcode 26 creates one, whose default
    /// isolation is the main actor: generated declarations are `nonisolated`, so the guide's `addComment` still
    /// sends its input object (issue 28; before, `jsonValue` was main-actor isolated and the call did not compile).
    func testExampleScreensTypecheckWithTheMainActorAsDefaultIsolation() throws {
        try SwiftUIStandIn.typecheck(
            try Self.swiftFiles("GitHub") + Self.swiftFiles("GitHub/Generated/Swift"),
            extraFlags: SwiftCompiler.mainActorDefault)
    }

    /// Plate 2 as the guide prints it is the example's RepositoryScreen.swift, and typechecks as it stands.
    func testGuidesPlate2TypechecksVerbatim() throws {
        guard FileManager.default.fileExists(atPath: Self.guide.path) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("no guide at \(Self.guide.path)") }
            throw XCTSkip("the guide is not beside the repository at \(Self.guide.path)")
        }
        let text = try String(contentsOf: Self.guide, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex(of: "RepositoryScreen.swift"), "the guide names Plate 2's file")
        let end = try XCTUnwrap(lines[start...].firstIndex { $0.hasPrefix("Plate 2.") }, "Plate 2's caption")
        let plate = lines[(start + 1)..<end].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        let example = try String(
            contentsOf: Self.examples.appendingPathComponent("GitHub/RepositoryScreen.swift"), encoding: .utf8)
        XCTAssertEqual(
            example.trimmingCharacters(in: .whitespacesAndNewlines), plate, "the example is Plate 2 verbatim")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("Plate2-\(UUID().uuidString).swift")
        try (plate + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try SwiftUIStandIn.typecheck([file.path] + Self.gitHubSupport())
    }

    /// Baton's own rules, which real SwiftUI would enforce the same way: the screen's value is main-actor state, and a
    /// list whose lens has no `id` needs `id:` in `ForEach`.
    func testBatonMisuseIsRejected() throws {
        let screen =
            try Self.gitHubSupport() + [Self.examples.appendingPathComponent("GitHub/RepositoryScreen.swift").path]
        try assertRejected(
            accepted: """
                import SwiftUI
                @MainActor func peek(_ screen: RepositoryScreen) -> Bool { screen.repository.isStale }
                """,
            rejected: """
                import SwiftUI
                nonisolated func peek(_ screen: RepositoryScreen) -> Bool { screen.repository.isStale }
                """,
            because: "main actor-isolated property 'repository' can not be referenced from a nonisolated context",
            with: screen)
        let row = """
            import Baton
            import SwiftUI

            struct Row: LensType {
                let lens: Lens
                init(lens: Lens) { self.lens = lens }
                static let selections: [Selection] = [.field(Field.leaf("title", "String!"))]
                var title: String { lens.read(Field.leaf("title", "String!")) }
            }

            """
        try assertRejected(
            accepted: row + """
                extension Row: Identifiable { var id: String { title } }
                struct Rows: View {
                    let rows: LensList<NullableItem<Row>>?
                    var body: some View { List { ForEach(rows ?? .empty) { row in Text(row.title ?? "") } } }
                }
                """,
            rejected: row + """
                struct Rows: View {
                    let rows: LensList<NullableItem<Row>>?
                    var body: some View { List { ForEach(rows ?? .empty) { row in Text(row.title ?? "") } } }
                }
                """,
            because: "requires that 'Row' conform to 'Identifiable'")
    }

    // MARK: The stand-in itself

    /// Ordinary SwiftUI: state, observable models (Combine's and Observation's), the environment, every builder
    /// construct, the three `ForEach` initializers, lists, buttons and fonts.
    func testStandInAcceptsOrdinarySwiftUI() throws {
        XCTAssertNil(
            try SwiftUIStandIn.failure(
                of: """
                    import SwiftUI

                    struct Ocean: Identifiable {
                        let name: String
                        let id = UUID()
                    }

                    @Observable final class Counter { var count = 0 }

                    final class Settings: ObservableObject { var dark = false }

                    private struct AccentKey: EnvironmentKey { static let defaultValue = "blue" }

                    extension EnvironmentValues {
                        var accent: String {
                            get { self[AccentKey.self] }
                            set { self[AccentKey.self] = newValue }
                        }
                    }

                    struct Oceans: View {
                        let oceans: [Ocean]
                        @State private var counter = Counter()
                        @StateObject private var settings = Settings()
                        @Environment(\\.accent) private var accent

                        var body: some View {
                            List {
                                Text("Oceans").font(.headline)
                                ForEach(oceans) { ocean in Text(ocean.name) }
                                ForEach(["a", "b"], id: \\.self) { Text($0) }
                                ForEach(0..<3) { index in Text("Row \\(index) of \\(oceans.count)") }
                                if counter.count > 0 { Text("\\(counter.count) taps") } else { EmptyView() }
                                switch accent {
                                case "blue": Text("Blue")
                                default: Text(verbatim: accent)
                                }
                                Button("Tap") { counter.count += 1 }
                                if settings.dark { ProgressView() }
                            }
                            .environment(\\.accent, "red")
                        }
                    }

                    struct Root: View {
                        var body: some View {
                            VStack(alignment: .leading) {
                                Oceans(oceans: [Ocean(name: "Pacific")])
                                List([Ocean(name: "Arctic")]) { ocean in Text(ocean.name) }
                            }
                        }
                    }
                    """))
    }

    /// What SwiftUI rejects, each beside the smallest change SwiftUI accepts, so each failure is the rule's.
    func testStandInRejectsWhatSwiftUIRejects() throws {
        let ocean = """
            import SwiftUI

            struct Ocean: Identifiable { let id: Int }
            struct Plain { let name: String }

            """
        try assertRejected(
            accepted: ocean + """
                struct V: View {
                    let oceans: [Ocean]
                    var body: some View { List { ForEach(oceans) { ocean in Text("\\(ocean.id)") } } }
                }
                """,
            rejected: ocean + """
                struct V: View {
                    let oceans: [Ocean?]
                    var body: some View { List { ForEach(oceans) { ocean in Text("\\(ocean?.id ?? 0)") } } }
                }
                """,
            because: "value of type '[Ocean?]'")
        try assertRejected(
            accepted: ocean + """
                struct V: View {
                    let plain: [Plain]
                    var body: some View { List { ForEach(plain, id: \\.name) { item in Text(item.name) } } }
                }
                """,
            rejected: ocean + """
                struct V: View {
                    let plain: [Plain]
                    var body: some View { List { ForEach(plain) { item in Text(item.name) } } }
                }
                """,
            because: "'Plain' conform to 'Identifiable'")
        try assertRejected(
            accepted: ocean + """
                struct V: View {
                    var body: some View { VStack { Text("a"); Text("42") } }
                }
                """,
            rejected: ocean + """
                struct V: View {
                    var body: some View { VStack { Text("a"); 42 } }
                }
                """,
            because: "this expression does not conform to 'View'")
        try assertRejected(
            accepted: ocean + """
                struct Greeting: View { var body: some View { Text("Hello") } }
                @MainActor func peek(_ greeting: Greeting) -> some View { greeting.body }
                """,
            rejected: ocean + """
                struct Greeting: View { var body: some View { Text("Hello") } }
                nonisolated func peek(_ greeting: Greeting) -> some View { greeting.body }
                """,
            because: "main actor-isolated property 'body' can not be referenced from a nonisolated context")
    }

    /// `accepted` typechecks; `rejected` does not, with a diagnostic containing `because`.
    func assertRejected(
        accepted: String, rejected: String, because: String, with files: [String] = [], line: UInt = #line
    ) throws {
        XCTAssertNil(try SwiftUIStandIn.failure(of: accepted, with: files), "the accepted twin compiles", line: line)
        let diagnostics = try SwiftUIStandIn.failure(of: rejected, with: files)
        XCTAssertNotNil(diagnostics, "rejected: \(because)", line: line)
        if let diagnostics {
            XCTAssertTrue(diagnostics.contains(because), "expected “\(because)” in:\n\(diagnostics)", line: line)
        }
    }
}
