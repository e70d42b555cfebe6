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

    /// The JVM getter of a property, by the bytes of an ASCII name and by Characters otherwise.
    func testGetterNames() {
        XCTAssertEqual(KotlinNames.getterName("url"), "getUrl")
        XCTAssertEqual(KotlinNames.getterName("Url"), "getUrl")
        XCTAssertEqual(KotlinNames.getterName("isOpen"), "isOpen")
        XCTAssertEqual(KotlinNames.getterName("isopen"), "getIsopen")
        XCTAssertEqual(KotlinNames.getterName("is_open"), "getIs_open")
        XCTAssertEqual(KotlinNames.getterName("is"), "getIs")
        XCTAssertEqual(KotlinNames.getterName("_id"), "get_id")
        XCTAssertEqual(KotlinNames.getterName("2fa"), "get2fa")
        XCTAssertEqual(KotlinNames.getterName("éclair"), "getÉclair")
        XCTAssertEqual(KotlinNames.getterName("isÉtat"), "isÉtat")
        var getters = JVMGetterNames()
        XCTAssertNil(getters.annotation(for: "url"))
        XCTAssertEqual(getters.annotation(for: "Url"), #"@get:JvmName("getUrl_")"#)
        XCTAssertEqual(getters.annotation(for: "class"), #"@get:JvmName("getClass_")"#)
        for index in 0..<40 { XCTAssertNil(getters.annotation(for: "p\(index)")) }
        XCTAssertEqual(getters.annotation(for: "P39"), #"@get:JvmName("getP39_")"#)
    }
}
