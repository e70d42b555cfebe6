import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonCompiler
import Foundation
import XCTest

/// Both generators render files on several threads (`ParallelWork`): the files, their order and
/// their bytes are those of a run on one thread, whatever the scheduling.
final class ParallelGenerationTests: XCTestCase {
    func testFilesDoNotDependOnTheNumberOfWorkers() throws {
        // Forty operations and their fragments: enough files to be cut into chunks.
        let folder = NSTemporaryDirectory() + "baton-parallel-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/Documents", withIntermediateDirectories: true)
        try
            "type Query { hero(id: ID!): Hero }\ntype Hero { id: ID! name: String mood: Mood }\nenum Mood { HAPPY SAD }\n"
            .write(toFile: folder + "/schema.graphql", atomically: true, encoding: .utf8)
        try #"{"schema": "schema.graphql", "documents": "Documents/*.graphql"}"#.write(
            toFile: folder + "/baton.json", atomically: true, encoding: .utf8)
        for index in 0..<40 {
            let selection = index % 2 == 0 ? "id name" : "id mood"
            try
                "query Hero\(index) { hero(id: \"\(index)\") { ...Bits\(index) } }\nfragment Bits\(index) on Hero { \(selection) }\n"
                .write(toFile: folder + "/Documents/Hero\(index).graphql", atomically: true, encoding: .utf8)
        }
        let result = Driver(request: ProjectRequest(workingDirectory: folder)).compile(upTo: .plan)
        let model = try XCTUnwrap(result.models.first, "\(result.diagnostics.map(\.message))")
        XCTAssertEqual(model.operations.count + model.fragments.count, 80)
        let swift = SwiftGenerator(model: model).generate(workers: 1)
        let kotlin = KotlinGenerator.generate(
            model, options: KotlinGeneratorOptions(packageName: "app", includeRuntime: false), workers: 1)
        for workers in [2, 3, 8] {
            XCTAssertEqual(SwiftGenerator(model: model).generate(workers: workers), swift, "\(workers) workers")
            XCTAssertEqual(
                KotlinGenerator.generate(
                    model, options: KotlinGeneratorOptions(packageName: "app", includeRuntime: false), workers: workers),
                kotlin, "\(workers) workers")
        }
        // Kept definitions stay in their places, with their paths.
        let kept = Set(swift.compactMap(\.definition).prefix(3))
        let partial = SwiftGenerator(model: model).generate(keeping: kept, workers: 2)
        XCTAssertEqual(partial.map(\.path), swift.map(\.path))
        XCTAssertEqual(partial.filter(\.kept).compactMap(\.definition).sorted(), kept.sorted())
    }
}
