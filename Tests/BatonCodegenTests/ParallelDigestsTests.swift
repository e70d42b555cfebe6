import BatonCodegen
import BatonCompiler
import BatonIR
import Foundation
import XCTest

/// Cold `gen`'s serial steps moved onto the workers: each definition's digest (`PlanDigests.definitions`) and the
/// stamps of the files written (`Driver.writtenStamps`) are what one thread finds, whatever the workers.
final class ParallelDigestsTests: XCTestCase {
    /// 160 fragments, each spreading the one at half its number (F1 spreads none), and 160 queries, each spreading
    /// one fragment; every definition in a document of its own. Enough definitions for the digests to run in
    /// ranges on the workers.
    static let count = 160

    static var documents: [(String, String)] {
        var documents: [(String, String)] = []
        for number in 1...count {
            let spread = number > 1 ? " ...F\(number / 2)" : ""
            documents.append(("f/f\(number).graphql", "fragment F\(number) on User { name\(spread) }"))
            documents.append(("q/q\(number).graphql", "query Q\(number) { me { ...F\(number) } }"))
        }
        return documents
    }

    /// The files a query `Q<number>` is built from: its own and those of the fragments down the halving chain.
    static func closure(ofQuery number: Int) -> [String] {
        var files = ["q/q\(number).graphql"]
        var fragment = number
        while fragment >= 1 {
            files.append("f/f\(fragment).graphql")
            fragment /= 2
        }
        return files
    }

    func testDefinitionDigestsOnTheWorkersAreOneThreadsAndTheClosures() throws {
        let schema = try ModelHarness.schema(sdl: PlanDigestsTests.schema)
        let documents = Self.documents
        let model = try ModelHarness.model(schema: schema, documents: documents)
        XCTAssertEqual(model.operations.count + model.fragments.count, 2 * Self.count)
        var hashes: [String: String] = [:]
        for (path, text) in documents { hashes[path] = SHA256.hexDigest(text) }
        // Without F3's hash, every definition whose chain passes F3 has no digest.
        hashes["f/f3.graphql"] = nil
        let one = PlanDigests.definitions(model, documents: hashes, workers: 1)
        for workers in [2, 3, 8] {
            let (digests, undigested) = PlanDigests.definitions(model, documents: hashes, workers: workers)
            XCTAssertEqual(digests, one.digests, "\(workers) workers")
            XCTAssertEqual(undigested, one.undigested, "\(workers) workers")
            for operation in model.operations {
                let number = try XCTUnwrap(Int(operation.name.dropFirst()))
                let expected = PlanDigestsTests.expected(files: Self.closure(ofQuery: number), hashes: hashes)
                XCTAssertEqual(digests[operation.definitionKey], expected, "\(operation.name), \(workers) workers")
                XCTAssertEqual(undigested.contains(operation.definitionKey), expected == nil, operation.name)
            }
            for fragment in model.fragments {
                let number = try XCTUnwrap(Int(fragment.name.dropFirst()))
                let reachesF3 = Self.closure(ofQuery: number).contains("f/f3.graphql")
                XCTAssertEqual(digests[fragment.definitionKey] == nil, reachesF3, fragment.name)
                XCTAssertEqual(undigested.contains(fragment.definitionKey), reachesF3, fragment.name)
            }
        }
        XCTAssertEqual(one.undigested.count, 2 * (1...Self.count).filter { Self.closure(ofQuery: $0).contains("f/f3.graphql") }.count)
    }

    func testWrittenStampsAreEachFilesStampAndNoneForKeptOrMissingFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("baton-stamps-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        var files: [GeneratedFile] = []
        for index in 0..<700 {
            let path = "\(["A", "B", "C"][index % 3])/File\(index).swift"
            if index % 7 == 3 {
                files.append(.kept(path: path, origin: nil, definition: "o:Q\(index)"))
            } else {
                files.append(GeneratedFile(path: path, bytes: Array("// \(index)\n".utf8)))
            }
            // Every file is on disk but one in 50 (a file the run did not write: no stamp).
            guard index % 50 != 17 else { continue }
            let full = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(repeating: UInt8(index % 251), count: index).write(to: URL(fileURLWithPath: full))
        }
        for workers in [1, 2, 4] {
            let stamps = Driver.writtenStamps(files, root: root, workers: workers)
            XCTAssertEqual(stamps.count, files.count)
            for (index, file) in files.enumerated() {
                let expected = file.kept ? nil : FileStamp(of: root + "/" + file.path)
                XCTAssertEqual(stamps[index], expected, "\(file.path), \(workers) workers")
                XCTAssertEqual(stamps[index] == nil, file.kept || index % 50 == 17, file.path)
            }
        }
    }
}
