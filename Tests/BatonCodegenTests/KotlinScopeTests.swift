import XCTest

@testable import BatonCodegenKotlin

/// A Kotlin scope keeps the names it takes in a list while few and in a set past that: both claim
/// the same names, exactly or ignoring case, over a shared base, whatever the count.
final class KotlinScopeTests: XCTestCase {
    func testClaimsAgreeWithSetsAtEverySize() {
        let base = KotlinScope(["Shared", "data"]).flattened()
        for reserved in [0, 5, 16, 17, 40] {
            var scope = KotlinScope(base: base, (0..<reserved).map { "n\($0 % 13)" })
            var exact: Set<String> = Set((0..<reserved).map { "n\($0 % 13)" }).union(["Shared", "data"])
            var folded = Set(exact.map { $0.lowercased() })
            for index in 0..<60 {
                let preferred = ["n\(index % 17)", "N\(index % 5)", "shared", "Data", "x\(index)"][index % 5]
                let ignoringCase = index % 2 == 0
                var expected = preferred
                while ignoringCase ? folded.contains(expected.lowercased()) : exact.contains(expected) {
                    expected += "_"
                }
                exact.insert(expected)
                folded.insert(expected.lowercased())
                XCTAssertEqual(scope.claim(preferred, ignoringCase: ignoringCase), expected, "\(reserved) \(index)")
            }
            for name in exact {
                XCTAssertTrue(scope.contains(name, ignoringCase: false))
                XCTAssertTrue(scope.contains(name.uppercased(), ignoringCase: true))
            }
            XCTAssertFalse(scope.contains("never", ignoringCase: true))
            XCTAssertEqual(KotlinScope(base: scope).allNames, exact.sorted())
        }
    }
}
