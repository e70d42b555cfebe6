import BatonCodegen
import BatonCodegenKotlin
import BatonTestSupport
import Foundation
import XCTest

/// The embedding `baton` carries (Kotlin/runtime/KotlinRuntimeFiles+Embedded.swift, checked in) is the
/// runtime's `.kt` files as they are: every file, each text exactly.
final class KotlinRuntimeEmbeddingTests: XCTestCase {
    func testTheEmbeddingIsTheKotlinFiles() throws {
        let folder = TestPaths.repository.appendingPathComponent("Kotlin/runtime/baton/runtime")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".kt") }
            .sorted()
        let hint = "run `swift run KotlinRuntimeEmbedder` in the repository's root"
        XCTAssertEqual(KotlinRuntime.sources.map(\.name), names, hint)
        for source in KotlinRuntime.sources where names.contains(source.name) {
            let text = try String(contentsOf: folder.appendingPathComponent(source.name), encoding: .utf8)
            XCTAssertEqual(source.text + "\n", text, "\(source.name): \(hint)")
        }
        XCTAssertTrue(IdentifierRules.kotlinRuntimeTypeNames.isSuperset(of: ["Operation", "RecordStore"]))
    }
}
