import BatonCodegen
import BatonCompiler
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The stamps in the manifest (`GenerationManifest.documentStamps`, `projectFileStamps`): a
/// document, baton.json or schema file whose stamp is the recorded one is not read, one changed
/// since is, however its modification time was set back; a file changed just before it was hashed
/// gets no stamp, and a run with nothing changed records the stamps settled since.
extension IncrementalGenTests {
    func testADocumentWithItsRecordedStampIsNotReadAndOneChangedIs() throws {
        // Files written less than 2 s ago get no stamp: the setUp's cold run recorded none.
        let swift = folder + "/Generated/Swift"
        XCTAssertEqual(GenerationManifest.load(root: swift)?.documentStamps.count, 0)
        XCTAssertEqual(GenerationManifest.load(root: swift)?.projectFileStamps.count, 0)
        clockAhead = 3
        // Nothing changed: the run is up to date, and records the stamps the files have settled to.
        XCTAssertNotNil(gen().compilations.first?.generation.upToDate)
        let refreshed = try XCTUnwrap(GenerationManifest.load(root: swift))
        XCTAssertEqual(refreshed.documentStamps.count, Self.documents.count)
        XCTAssertEqual(
            refreshed.projectFileStamps.keys.map { ($0 as NSString).lastPathComponent }.sorted(),
            ["baton.json", "schema.graphql"])
        XCTAssertNotNil(gen().compilations.first?.generation.upToDate, "and the next run is up to date by them")
        // From here on the clock is the system's: a file written now is not settled.
        clockAhead = 0

        // baton.json and the schema are taken unread by their stamps too: a hash no file has is believed.
        let schemaPath = try XCTUnwrap(refreshed.projectFiles.keys.first { $0.hasSuffix("/schema.graphql") })
        var forgedSchema = refreshed
        forgedSchema.projectFiles[schemaPath] = "forged"
        let unchanged = try XCTUnwrap(gen(check: true).compilations.first)
        let believed = try XCTUnwrap(
            GenerationInputs.read(
                project: unchanged.project, workingDirectory: folder, kotlinRuntime: true, options: [],
                recorded: forgedSchema))
        XCTAssertEqual(believed.projectFiles[schemaPath], "forged")
        // An edit of the schema that keeps its size and modification time is still seen.
        try assertIncrementalIsCold("a schema edit hiding its modification time") {
            try overwriteInPlace(schemaPath, keepingTimes: true) {
                $0.replacingOccurrences(of: "HAPPY SAD", with: "HAPPY BAD")
            }
        }
        XCTAssertEqual(try outputs()["Swift/Mood.graphql.swift"]?.contains("BAD"), true)

        try assertIncrementalIsCold("an edited operation, the others settled") {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        }
        let manifest = try XCTUnwrap(GenerationManifest.load(root: swift))
        XCTAssertEqual(
            manifest.documentStamps.keys.sorted(), Self.documents.keys.filter { !$0.hasSuffix("C.graphql") }.sorted())

        // The recorded hash is taken without reading the file: a hash no file has is believed.
        let compilation = try XCTUnwrap(gen(check: true).compilations.first)
        var forged = manifest
        forged.documents["Documents/Queries/B.graphql"] = "forged"
        let inputs = try XCTUnwrap(
            GenerationInputs.read(
                project: compilation.project, workingDirectory: folder, kotlinRuntime: true, options: [],
                recorded: forged))
        XCTAssertEqual(inputs.documents["Documents/Queries/B.graphql"], "forged")
        XCTAssertNotEqual(inputs.documents["Documents/Queries/C.graphql"], "forged")

        // The same size, written in place (same inode), the modification time set back: the
        // status-change time still moved, so the document is read and its operation rendered.
        let path = folder + "/Documents/Queries/B.graphql"
        let before = try XCTUnwrap(FileStamp(of: path))
        try assertIncrementalIsCold("an edit hiding its modification time") {
            try overwriteInPlace(path, keepingTimes: true) {
                $0.replacingOccurrences(of: "query HeroB(", with: "query HeroZ(")
            }
            let after = try XCTUnwrap(FileStamp(of: path))
            XCTAssertEqual(
                [after.size, after.seconds, after.nanoseconds], [before.size, before.seconds, before.nanoseconds])
            XCTAssertEqual(after.inode, before.inode)
        }
        XCTAssertNotNil(try outputs()["Swift/HeroZ.graphql.swift"])
    }

    /// Rewrites the file at `path` in place (same inode, same size when `edit` keeps it), its
    /// modification time set back to what it was.
    func overwriteInPlace(_ path: String, keepingTimes: Bool, _ edit: (String) -> String) throws {
        let before = try XCTUnwrap(FileStamp(of: path))
        let text = edit(try String(contentsOfFile: path, encoding: .utf8))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.write(Data(text.utf8))
        handle.closeFile()
        guard keepingTimes else { return }
        var times = [
            timespec(tv_sec: Int(before.seconds), tv_nsec: Int(before.nanoseconds)),
            timespec(tv_sec: Int(before.seconds), tv_nsec: Int(before.nanoseconds)),
        ]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        XCTAssertEqual(try XCTUnwrap(FileStamp(of: path)).inode, before.inode)
    }
}
