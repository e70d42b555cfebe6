import BatonCodegen
import BatonCompiler
import BatonDiagnostics
import Foundation
import XCTest

/// `gen --watch` (`WatchSession` at `.generate`) on the project of `IncrementalGenTests`: after
/// every kind of change the session's output is byte for byte what a cold run writes in a fresh
/// copy, it renders only the definitions the change reaches, and it leaves each output folder's
/// manifest as a one-shot `gen` would (the next one has nothing to do).
extension IncrementalGenTests {
    func watchSession() -> WatchSession {
        WatchSession(
            driver: Driver(request: ProjectRequest(workingDirectory: folder), targets: .configured), stage: .generate)
    }

    /// The definitions whose files the session's last run rendered (rather than kept).
    func rendered(_ watch: WatchSession) -> Set<String> {
        Set(watch.result.compilations.flatMap(\.outputs).flatMap(\.files).filter { !$0.kept }.compactMap(\.definition))
    }

    /// Applies `edit`, hands the session `paths` (relative) as a watcher would, and checks the
    /// output against a cold run's and the manifests against a one-shot `gen`'s.
    func assertWatchIsCold(
        _ watch: WatchSession, _ what: String, _ paths: [String], file: StaticString = #filePath, line: UInt = #line,
        _ edit: () throws -> Void
    ) throws {
        try edit()
        XCTAssertNotNil(watch.apply(Set(paths.map { folder + "/" + $0 })), "\(what): a change", file: file, line: line)
        XCTAssertEqual(
            watch.result.status, .clean, "\(what): \(watch.result.diagnostics.map(\.message))", file: file, line: line)
        let incremental = try outputs()
        let cold = try coldOutputs()
        XCTAssertEqual(incremental.keys.sorted(), cold.keys.sorted(), "\(what): the files", file: file, line: line)
        for (path, text) in cold where incremental[path] != text {
            XCTFail("\(what): \(path) differs from a cold run's", file: file, line: line)
        }
        for language in ["Swift", "Kotlin"] {
            XCTAssertNotNil(
                GenerationManifest.load(root: folder + "/Generated/" + language), "\(what): \(language)'s manifest",
                file: file, line: line)
        }
        XCTAssertNotNil(
            gen().compilations.first?.generation.upToDate, "\(what): a one-shot gen has nothing to do", file: file, line: line)
    }

    func testAWatchSessionRendersOnlyWhatAnEditReachesAndKeepsTheManifest() throws {
        let watch = watchSession()
        XCTAssertEqual(rendered(watch), [], "the cold run's manifest serves the session's first run")
        try assertWatchIsCold(watch, "an edited operation", ["Documents/Queries/C.graphql"]) {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        }
        XCTAssertEqual(rendered(watch), ["o:HeroC"])
        XCTAssertEqual(watch.result.compilations.first?.cache?.plan.built, 1, "HeroC alone is planned again")
        try assertWatchIsCold(watch, "an edited fragment", ["Documents/Fragments/HeroBits.graphql"]) {
            try write("Documents/Fragments/HeroBits.graphql", "fragment HeroBits on Hero { id name mood }\n")
        }
        XCTAssertEqual(rendered(watch), ["f:HeroBits", "f:HeroFriends", "o:HeroA", "o:HeroB"])
        XCTAssertEqual(watch.result.compilations.first?.cache?.plan.built, 4)
    }

    /// `check --watch`: after each change the session reports what a fresh `check` reports, and its
    /// plan builds only the definitions the change reaches.
    func testACheckSessionReportsWhatAFreshCheckReports() throws {
        var driver = Driver(request: ProjectRequest(workingDirectory: folder), targets: .configured)
        driver.options.checksOnly = true
        let watch = WatchSession(driver: driver, stage: .plan)
        func assertFresh(_ what: String, _ paths: [String], line: UInt = #line, _ edit: () throws -> Void) throws {
            try edit()
            XCTAssertNotNil(watch.apply(Set(paths.map { folder + "/" + $0 })), what, line: line)
            XCTAssertEqual(
                TextRenderer.render(watch.result.shownDiagnostics),
                TextRenderer.render(driver.compile(upTo: .plan).shownDiagnostics), what, line: line)
        }
        try assertFresh("an edited operation", ["Documents/Queries/C.graphql"]) {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        }
        // HeroC alone is built again.
        XCTAssertEqual(watch.result.compilations.first?.cache?.plan.built, 1)
        try assertFresh("an accessor name conflict", ["Documents/Queries/C.graphql"]) {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { heroBits: id ...HeroBits } }\n")
        }
        XCTAssertEqual(watch.result.shownDiagnostics.map(\.rule), ["lens-accessor-name-conflict"])
        try assertFresh("a fragment the conflict spreads, edited", ["Documents/Fragments/HeroBits.graphql"]) {
            try write("Documents/Fragments/HeroBits.graphql", "fragment HeroBits on Hero { id name mood }\n")
        }
        XCTAssertEqual(watch.result.shownDiagnostics.map(\.rule), ["lens-accessor-name-conflict"])
        try assertFresh("both fixed", ["Documents/Queries/C.graphql", "Documents/Fragments/HeroBits.graphql"]) {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id } }\n")
            try write("Documents/Fragments/HeroBits.graphql", "fragment HeroBits on Hero { id name }\n")
        }
        XCTAssertEqual(watch.result.shownDiagnostics.count, 0)
        try assertFresh(
            "a fragment moved to another file",
            ["Documents/Fragments/HeroBits.graphql", "Documents/Fragments/HeroFriends.graphql"]
        ) {
            try FileManager.default.removeItem(atPath: folder + "/Documents/Fragments/HeroBits.graphql")
            try write(
                "Documents/Fragments/HeroFriends.graphql",
                "fragment HeroFriends on Hero { friends { ...HeroBits } }\nfragment HeroBits on Hero { id name }\n")
        }
        try assertFresh("a changed schema", ["schema.graphql"]) {
            try write("schema.graphql", Self.schema.replacingOccurrences(of: "HAPPY SAD", with: "HAPPY SAD CALM"))
        }
    }

    func testAWatchSessionMatchesAColdRunAfterEveryKindOfChange() throws {
        let watch = watchSession()
        try assertWatchIsCold(watch, "a renamed operation", ["Documents/Queries/C.graphql"]) {
            try write("Documents/Queries/C.graphql", "query HeroSee { hero(id: \"1\") { id } }\n")
        }
        try assertWatchIsCold(
            watch, "a renamed file", ["Documents/Queries/C.graphql", "Documents/Queries/See.graphql"]
        ) {
            try FileManager.default.moveItem(
                atPath: folder + "/Documents/Queries/C.graphql", toPath: folder + "/Documents/Queries/See.graphql")
        }
        try assertWatchIsCold(watch, "a deleted document", ["Documents/Queries/B.graphql"]) {
            try FileManager.default.removeItem(atPath: folder + "/Documents/Queries/B.graphql")
        }
        try assertWatchIsCold(watch, "an added document", ["Documents/Queries/D.graphql"]) {
            try write("Documents/Queries/D.graphql", "query HeroD { heroes { ...HeroFriends } }\n")
        }
        try assertWatchIsCold(
            watch, "a fragment moved to another file",
            ["Documents/Fragments/HeroBits.graphql", "Documents/Fragments/HeroFriends.graphql"]
        ) {
            try FileManager.default.removeItem(atPath: folder + "/Documents/Fragments/HeroBits.graphql")
            try write(
                "Documents/Fragments/HeroFriends.graphql",
                "fragment HeroFriends on Hero { friends { ...HeroBits } }\nfragment HeroBits on Hero { id name }\n")
        }
        // Half written, then completed; invalid, then fixed: nothing is written meanwhile.
        let before = try outputs()
        for (what, text) in [
            ("a half-written file", "query HeroD { heroes { ...Hero"),
            ("an invalid file", "query HeroD { heroes { nope } }\n"),
        ] {
            try write("Documents/Queries/D.graphql", text)
            XCTAssertNotNil(watch.apply([folder + "/Documents/Queries/D.graphql"]))
            XCTAssertEqual(watch.result.status, .problems, what)
            XCTAssertEqual(try outputs(), before, "\(what): the last good files stay")
        }
        try assertWatchIsCold(watch, "the file fixed", ["Documents/Queries/D.graphql"]) {
            try write("Documents/Queries/D.graphql", "query HeroD { heroes { ...HeroFriends mood } }\n")
        }
        try assertWatchIsCold(watch, "a changed schema", ["schema.graphql"]) {
            try write("schema.graphql", Self.schema.replacingOccurrences(of: "HAPPY SAD", with: "HAPPY SAD CALM"))
        }
        try assertWatchIsCold(watch, "a changed baton.json", ["baton.json"]) {
            try write(
                "baton.json",
                Self.configuration.replacingOccurrences(
                    of: #""persistedQueries""#, with: #""operationSuffix": true, "persistedQueries""#))
        }
    }
}
