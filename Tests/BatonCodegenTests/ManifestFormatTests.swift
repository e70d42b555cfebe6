import BatonCompiler
import XCTest

/// The manifest's text (`GenerationManifest.text`, read back by `ManifestReader`): what is
/// written reads back equal; anything else, a version-2 manifest, every truncation, a changed
/// byte in a number or separator, is no manifest (a full run), never a crash or a wrong value.
final class ManifestFormatTests: XCTestCase {
    static let stamp = FileStamp(
        size: 120, seconds: 1_764_000_000, nanoseconds: 123_456_789, inode: UInt64.max - 1,
        changeSeconds: -5, changeNanoseconds: 0)

    static var manifest: GenerationManifest {
        GenerationManifest(
            inputs: String(repeating: "a", count: 64), names: String(repeating: "b", count: 64),
            documents: ["Documents/A query.graphql": "h1", "Documents/B.graphql": "h2"],
            documentStamps: ["Documents/A query.graphql": stamp],
            files: [
                .init(path: "HeroA.graphql.swift", stamp: stamp, definition: "o:HeroA", digest: "d1"),
                .init(path: "Schema/Mood.swift", stamp: stamp, definition: "-", digest: "-"),
            ],
            extras: [("/tmp/project/persisted.json", stamp)],
            projectFiles: ["/tmp/project/baton.json": "c1", "/tmp/project/schema.graphql": "c2"],
            projectFileStamps: ["/tmp/project/schema.graphql": stamp])
    }

    func testWhatIsWrittenReadsBackEqual() throws {
        let text = try XCTUnwrap(Self.manifest.text)
        XCTAssertTrue(text.hasPrefix("baton-gen-manifest 4\n"))
        let read = try XCTUnwrap(GenerationManifest(text: text))
        XCTAssertEqual(read, Self.manifest)
        XCTAssertEqual(read.documentStamps["Documents/A query.graphql"], Self.stamp)
        XCTAssertNil(read.documentStamps["Documents/B.graphql"])
        XCTAssertEqual(read.projectFileStamps.keys.sorted(), ["/tmp/project/schema.graphql"])
        XCTAssertEqual(read.text, text)
    }

    func testAnythingButAWholeManifestIsNone() throws {
        let bytes = Array(try XCTUnwrap(Self.manifest.text).utf8)
        for count in 0..<bytes.count {
            XCTAssertNil(GenerationManifest(bytes: Array(bytes[..<count])), "truncated to \(count) bytes")
        }
        XCTAssertNil(GenerationManifest(bytes: bytes + Array("x\n".utf8)), "a line after end")
        // Every digit, space and tab replaced by a letter: a number or a separator broken.
        for index in bytes.indices where [UInt8(ascii: " "), UInt8(ascii: "\t")].contains(bytes[index]) {
            var edited = bytes
            edited[index] = UInt8(ascii: "x")
            // A space inside a path is part of the path; every other separator matters.
            let inPath = bytes[..<index].last { $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") }
            if inPath == UInt8(ascii: "\t") { continue }
            XCTAssertNil(GenerationManifest(bytes: edited), "separator \(index) replaced")
        }
        let version2 = try XCTUnwrap(Self.manifest.text).replacingOccurrences(
            of: "baton-gen-manifest 4", with: "baton-gen-manifest 3")
        XCTAssertNil(GenerationManifest(text: version2), "another version: a full run")
        let overflowing = try XCTUnwrap(Self.manifest.text).replacingOccurrences(
            of: " 1764000000 ", with: " 99999999999999999999 ")
        XCTAssertNil(GenerationManifest(text: overflowing), "a number that does not fit")
    }
}
