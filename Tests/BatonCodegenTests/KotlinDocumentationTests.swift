import Foundation
import XCTest

/// Docs/Kotlin.md does not call missing what the Kotlin runtime ships: its last paragraph once said
/// "Not in Kotlin yet: mutations, connections and pagination" long after they had landed.
final class KotlinDocumentationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each feature with the runtime file that implements it.
    static let features = [
        ("mutation", "Mutations.kt"), ("connection", "Connections.kt"), ("pagination", "Pagination.kt"),
        ("subscription", "SubscriptionTransport.kt"),
    ]

    func testNoShippedFeatureIsCalledMissing() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Docs/Kotlin.md"), encoding: .utf8)
        let runtime = Self.root.appendingPathComponent("Kotlin/runtime/baton/runtime")
        // Sentences that say something is not there yet.
        let sentences = text.replacingOccurrences(of: "\n", with: " ").components(separatedBy: ". ").filter {
            let lower = $0.lowercased()
            return lower.contains("not in kotlin") || lower.contains("not yet") || lower.contains("yet to come")
        }
        for (feature, file) in Self.features
        where FileManager.default.fileExists(atPath: runtime.appendingPathComponent(file).path) {
            for sentence in sentences where sentence.lowercased().contains(feature) {
                XCTFail("Docs/Kotlin.md calls \(feature)s missing, but the runtime ships \(file): \(sentence)")
            }
        }
    }
}
