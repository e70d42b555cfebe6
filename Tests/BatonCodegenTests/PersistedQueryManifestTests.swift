import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonIR
import Foundation
import XCTest

/// The persisted-query manifest: Apollo's format, every operation once, and the same id the Swift and Kotlin
/// operations carry (one value, `OperationModel.operationID`), for the examples and the hostile schema.
final class PersistedQueryManifestTests: XCTestCase {
    func models() throws -> [(name: String, model: LensModel, packageName: String)] {
        try ["RickAndMorty", "GitHub"].map { name in
            let project = try KotlinProjectSupport.example(name)
            return (name, project.model, project.packageName)
        } + [("hostile", try KotlinHostileSchema.model(), KotlinHostileSchema.packageName)]
    }

    func testTheManifestIsApollosFormatWithTheGeneratedIDs() throws {
        for (name, model, packageName) in try models() {
            let text = PersistedQueryManifest.text(for: model.operations)
            XCTAssertEqual(text, PersistedQueryManifest.text(for: model.operations), "\(name): deterministic")
            XCTAssertTrue(text.hasSuffix("}\n"))
            let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            XCTAssertEqual(json?["format"] as? String, "apollo-persisted-query-manifest")
            XCTAssertEqual(json?["version"] as? Int, 1)
            let operations = try XCTUnwrap(json?["operations"] as? [[String: String]], name)
            XCTAssertEqual(operations.map { $0["name"] }, model.operations.map(\.name), name)
            XCTAssertFalse(operations.isEmpty, name)

            let swift = SwiftGenerator(model: model).generate().map(\.contents).joined(separator: "\n")
            let kotlin = KotlinGenerator.generate(
                model, options: KotlinGeneratorOptions(packageName: packageName, includeRuntime: false)
            ).map(\.contents).joined(separator: "\n")
            for (entry, operation) in zip(operations, model.operations) {
                let id = try XCTUnwrap(entry["id"])
                XCTAssertEqual(id.count, 64, "\(name) \(operation.name)")
                XCTAssertEqual(entry["body"], operation.documentText, "\(name) \(operation.name)")
                XCTAssertEqual(entry["type"], operation.kind.rawValue)
                XCTAssertTrue(swift.contains("static var operationID: String { \"\(id)\" }"), "\(name) \(operation.name)")
                XCTAssertTrue(
                    kotlin.contains("const val OPERATION_ID: String = \"\(id)\""), "\(name) \(operation.name)")
            }
        }
    }
}
