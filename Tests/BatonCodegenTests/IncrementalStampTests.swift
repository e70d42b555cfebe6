import BatonCodegen
import BatonCompiler
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The documents' stamps in the manifest (`GenerationManifest.documentStamps`): a document whose
/// stamp is the recorded one is not read, one changed since is, however its modification time
/// was set back; a file changed just before it was hashed gets no stamp.
extension IncrementalGenTests {
    func testADocumentWithItsRecordedStampIsNotReadAndOneChangedIs() throws {
        // Files written less than 2 s ago get no stamp: the setUp's cold run recorded none.
        let swift = folder + "/Generated/Swift"
        XCTAssertEqual(GenerationManifest.load(root: swift)?.documentStamps.count, 0)
        usleep(3_100_000)
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
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
                of: "query HeroB(", with: "query HeroZ(")
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
            handle.write(Data(text.utf8))
            handle.closeFile()
            var times = [
                timespec(tv_sec: Int(before.seconds), tv_nsec: Int(before.nanoseconds)),
                timespec(tv_sec: Int(before.seconds), tv_nsec: Int(before.nanoseconds)),
            ]
            XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
            let after = try XCTUnwrap(FileStamp(of: path))
            XCTAssertEqual(
                [after.size, after.seconds, after.nanoseconds], [before.size, before.seconds, before.nanoseconds])
            XCTAssertEqual(after.inode, before.inode)
        }
        XCTAssertNotNil(try outputs()["Swift/HeroZ.graphql.swift"])
    }
}
