import BatonConfig
import BatonDiagnostics
import BatonFiles
import Foundation
import XCTest

final class GlobPatternTests: XCTestCase {
    private func matches(_ pattern: String, _ path: String) -> Bool {
        GlobPattern(pattern, base: "/project").matches("/project/" + path)
    }

    func testStarStaysInOneSegment() {
        XCTAssertTrue(matches("*.graphql", "a.graphql"))
        XCTAssertTrue(matches("*.graphql", ".graphql"))
        XCTAssertFalse(matches("*.graphql", "dir/a.graphql"))
        XCTAssertTrue(matches("src/*/q.gql", "src/x/q.gql"))
        XCTAssertFalse(matches("src/*/q.gql", "src/x/y/q.gql"))
        XCTAssertTrue(matches("a*b*c", "aXbYc"))
        XCTAssertTrue(matches("a*b*c", "abc"))
        XCTAssertFalse(matches("a*b*c", "acb"))
    }

    func testQuestionMarkMatchesOneCharacter() {
        XCTAssertTrue(matches("q?.graphql", "q1.graphql"))
        XCTAssertTrue(matches("q?.graphql", "qé.graphql"))
        XCTAssertFalse(matches("q?.graphql", "q.graphql"))
        XCTAssertFalse(matches("q?.graphql", "q12.graphql"))
        XCTAssertFalse(matches("a?b", "a/b"))
    }

    func testDoubleStarMatchesAnyNumberOfSegments() {
        XCTAssertTrue(matches("**/*.graphql", "a.graphql"))
        XCTAssertTrue(matches("**/*.graphql", "x/y/z/a.graphql"))
        XCTAssertTrue(matches("src/**/queries/*.gql", "src/queries/a.gql"))
        XCTAssertTrue(matches("src/**/queries/*.gql", "src/a/b/queries/a.gql"))
        XCTAssertFalse(matches("src/**/queries/*.gql", "src/a/b/a.gql"))
        XCTAssertTrue(matches("src/**", "src/a/b"))
        XCTAssertTrue(matches("**/**/x", "x"))
    }

    /// `**/*.ext` patterns are matched on bytes: a path must begin with the root's bytes, every one of them, then `/`.
    func testARecursiveSuffixPatternMatchesOnlyUnderItsRoot() {
        let pattern = GlobPattern("Documents/**/*.graphql", base: "/project")
        XCTAssertTrue(pattern.matches("/project/Documents/a/b.graphql"))
        XCTAssertTrue(pattern.matches("/project/Documents/b.graphql"))
        for other in [
            "/project/Documentz/b.graphql", "/projecT/Documents/b.graphql", "/Project/Documents/b.graphql",
            "xproject/Documents/b.graphql", "/project/Document/sb.graphql", "/project/Documents.graphql",
            "/project/Documents/b.graphqm",
        ] {
            XCTAssertFalse(pattern.matches(other), other)
        }
    }

    func testPlainPathsMatchThemselvesAndWhatIsUnder() {
        XCTAssertTrue(matches("Examples", "Examples/GitHub/a.swift"))
        XCTAssertTrue(matches("./Examples/", "Examples/a.swift"))
        XCTAssertFalse(matches("Examples", "ExamplesX/a.swift"))
        XCTAssertTrue(matches("a.graphql", "a.graphql"))
    }

    func testRootIsTheLiteralPrefix() {
        XCTAssertEqual(GlobPattern("src/**/*.graphql", base: "/p").root, "/p/src")
        XCTAssertEqual(GlobPattern("../shared/*.gql", base: "/p/q").root, "/p/shared")
        XCTAssertEqual(GlobPattern("/abs/x?/y", base: "/p").root, "/abs")
        XCTAssertEqual(GlobPattern("*.gql", base: "/").root, "/")
        XCTAssertTrue(GlobPattern("*.gql", base: "/").matches("/a.gql"))
    }

    func testCouldMatchInsidePrunesFolders() {
        let pattern = GlobPattern("src/*/queries/*.gql", base: "/p")
        XCTAssertTrue(pattern.couldMatchInside("/p"))
        XCTAssertTrue(pattern.couldMatchInside("/p/src"))
        XCTAssertTrue(pattern.couldMatchInside("/p/src/a"))
        XCTAssertTrue(pattern.couldMatchInside("/p/src/a/queries"))
        XCTAssertFalse(pattern.couldMatchInside("/p/src/a/other"))
        XCTAssertFalse(pattern.couldMatchInside("/p/src/a/queries/deeper"))
        XCTAssertFalse(pattern.couldMatchInside("/p/lib"))
        let recursive = GlobPattern("src/**/*.gql", base: "/p")
        XCTAssertTrue(recursive.couldMatchInside("/p/src/a/b/c"))
    }

    func testPathologicalPatternsStayFast() {
        let pattern = GlobPattern(String(repeating: "**/a*", count: 30) + "/b", base: "/p")
        let path = "/p/" + Array(repeating: "aaaaaaaaaaaaaaaaaaaa", count: 40).joined(separator: "/")
        XCTAssertFalse(pattern.matches(path))
        XCTAssertFalse(
            GlobPattern(String(repeating: "*a", count: 40) + "b", base: "/p").matches(
                "/p/" + String(repeating: "a", count: 200)))
    }

    /// `absolute` returns a path that needs no normalising as it is (read on bytes): always what
    /// normalising the joined path gives, `Character`s that hold a `/` with a mark beside it included.
    func testAbsolutePathsAreTheNormalisedJoin() {
        let paths = [
            "/", "//", "/a", "/a/", "/a/b.graphql", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/a/...", "/a/.b",
            "/.hidden/x", "/a/b..", "a", "a/b", "./a", "../a", "a/..", ".", "..", "", "a//b", "a/", "/é/ü.graphql",
            "/a/\u{301}b", "/\u{301}a", "/a\u{600}/b", "\u{600}/b", "/a/\u{200D}", "/a/b/\u{301}", "a/\u{301}/..",
        ]
        for base in ["/", "/p", "/p/q", "/p/", "/p/./q", "/\u{600}", "/é"] {
            for path in paths {
                let expected = Path.normalize(path.hasPrefix("/") ? path : base + "/" + path)
                XCTAssertEqual(Path.absolute(path, relativeTo: base), expected, "\(path) relative to \(base)")
            }
        }
        XCTAssertTrue(Path.isNormalAbsolute("/p/q/Name_1.graphql"))
        XCTAssertFalse(Path.isNormalAbsolute("/p/\u{301}q"))
    }

    func testPathHelpers() {
        XCTAssertEqual(Path.normalize("/a/./b/../c//d/"), "/a/c/d")
        XCTAssertEqual(Path.normalize("../a/../../b"), "../../b")
        XCTAssertEqual(Path.relative("/a/b/c", to: "/a"), "b/c")
        XCTAssertEqual(Path.relative("/a/x", to: "/a/b"), "../x")
        XCTAssertEqual(Path.relative("/a", to: "/a"), ".")
        XCTAssertEqual(Path.display("/far/away/file", from: "/a/b/c/d"), "/far/away/file")
        XCTAssertEqual(Path.pathExtension("/a/b.GraphQL"), "graphql")
        XCTAssertEqual(Path.pathExtension("/a/.gql"), "")
        XCTAssertTrue(Path.isInside("/a/b", directory: "/a"))
        XCTAssertFalse(Path.isInside("/ab", directory: "/a"))
    }

    func testSuggestions() {
        XCTAssertEqual(Suggestion.closest(to: "scheme", in: ["schema", "documents"]), "schema")
        XCTAssertEqual(Suggestion.closest(to: "Documents", in: ["schema", "documents"]), "documents")
        XCTAssertNil(Suggestion.closest(to: "banana", in: ["schema", "documents"]))
        XCTAssertEqual(Suggestion.editDistance("kitten", "sitting"), 3)
        XCTAssertEqual(Suggestion.editDistance("", "abc"), 3)
    }
}

/// A scratch folder with files, removed when the test ends.
final class ScratchDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("baton-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        // Resolve symbolic links (macOS's /var → /private/var) so paths compare as the code sees them.
        path = base.resolvingSymlinksInPath().path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }
}

final class DocumentDiscoveryTests: XCTestCase {
    func testWalkIsSortedSkipsBuildFoldersAndHonoursExclude() throws {
        let scratch = try ScratchDirectory()
        for file in [
            "b/q.graphql", "a/z.gql", "a/y.swift", "a/readme.md", ".build/x.graphql", "node_modules/m/x.graphql",
            ".git/x.graphql", "Generated/g.swift", "a/Generated/h.swift", "schema.graphql",
        ] {
            try scratch.write(file, "")
        }
        let config = try scratch.write(
            "baton.json",
            #"{"schema": "schema.graphql", "documents": ["**/*", "missing/*.graphql"], "exclude": ["**/Generated", "schema.graphql"]}"#
        )
        let loaded = ConfigurationLoader.load(path: config, workingDirectory: scratch.path)
        XCTAssertEqual(loaded.diagnostics.count, 0)
        guard let project = loaded.projects.first else { return XCTFail("no project") }
        let (files, diagnostics) = DocumentDiscovery.documentFiles(of: project)
        XCTAssertEqual(files.map { Path.relative($0, to: scratch.path) }, ["a/y.swift", "a/z.gql", "b/q.graphql"])
        XCTAssertEqual(
            diagnostics.map { TextRenderer.render($0) },
            ["baton.json:1:52: warning: Documents pattern \"missing/*.graphql\" matches no file. [config]\n"])
        let schema = DocumentDiscovery.schemaFiles(of: project)
        XCTAssertEqual(schema.files.map { Path.relative($0, to: scratch.path) }, ["schema.graphql"])
        XCTAssertEqual(schema.diagnostics.count, 0)
    }

    /// A walk asks only the exclude patterns whose root lies above the walked folder or inside it (the others can
    /// match nothing it finds): both kinds still exclude, folders and files, and one beside it changes nothing.
    func testExcludePatternsAboveAndInsideTheWalkedFolderStillExclude() throws {
        let scratch = try ScratchDirectory()
        for file in [
            "src/a.graphql", "src/Generated/g.graphql", "src/deep/Generated/h.graphql", "src/deep/skip.graphql",
            "src/deep/keep.graphql", "src/Vendor/v.graphql", "src/Vendor/x/w.graphql", "srcOther/o.graphql",
            "schema.graphql",
        ] {
            try scratch.write(file, "")
        }
        let config = try scratch.write(
            "baton.json",
            #"{"schema": "schema.graphql", "documents": "src/**/*.graphql", "exclude": ["**/Generated", "src/deep/skip.graphql", "src/Vendor", "srcOther", "Elsewhere/**/*.graphql"]}"#
        )
        let loaded = ConfigurationLoader.load(path: config, workingDirectory: scratch.path)
        XCTAssertEqual(loaded.diagnostics.count, 0)
        guard let project = loaded.projects.first else { return XCTFail("no project") }
        let (files, diagnostics) = DocumentDiscovery.documentFiles(of: project)
        XCTAssertEqual(files.map { Path.relative($0, to: scratch.path) }, ["src/a.graphql", "src/deep/keep.graphql"])
        XCTAssertEqual(diagnostics.count, 0)
        // The walk itself, a pattern rooted above the folder and one inside it.
        let pattern = GlobPattern("src/**/*.graphql", base: scratch.path)
        let found = DocumentDiscovery.expand(
            pattern,
            exclude: [
                GlobPattern("**/*skip.graphql", base: scratch.path), GlobPattern("src/Vendor/x", base: scratch.path),
                GlobPattern("srcOther/**", base: scratch.path),
            ],
            extensions: ["graphql"])
        XCTAssertEqual(
            found.files.map { Path.relative($0, to: scratch.path) },
            [
                "src/a.graphql", "src/Generated/g.graphql", "src/Vendor/v.graphql", "src/deep/keep.graphql",
                "src/deep/Generated/h.graphql",
            ])
    }

    func testNoDocumentsIsAnError() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("schema.graphql", "")
        let config = try scratch.write(
            "baton.json", "{\n  \"schema\": \"schema.graphql\",\n  \"documents\": \"src/**/*.graphql\"\n}\n")
        let loaded = ConfigurationLoader.load(path: config, workingDirectory: scratch.path)
        guard let project = loaded.projects.first else { return XCTFail("no project") }
        let (files, diagnostics) = DocumentDiscovery.documentFiles(of: project)
        XCTAssertEqual(files, [])
        XCTAssertEqual(
            diagnostics.map { TextRenderer.render($0) },
            [
                "baton.json:3:16: error: No documents found: no .graphql, .gql or .swift file matches \"src/**/*.graphql\". [config]\n"
            ])
    }
}
