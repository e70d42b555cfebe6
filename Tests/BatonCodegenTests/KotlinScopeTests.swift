import BatonDeclarations
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

    /// The JVM getter of a property (`JVMAccessorNames`, the tree's), and the clashes it resolves in one pass:
    /// case twins, `getClass`, fixed members, and `_` suffixes meeting another property's natural getter.
    func testGetterNames() {
        XCTAssertEqual(JVMAccessorNames.natural("url"), "getUrl")
        XCTAssertEqual(JVMAccessorNames.natural("Url"), "getUrl")
        XCTAssertEqual(JVMAccessorNames.natural("isOpen"), "isOpen")
        XCTAssertEqual(JVMAccessorNames.natural("isopen"), "getIsopen")
        XCTAssertEqual(JVMAccessorNames.natural("is_open"), "getIs_open")
        XCTAssertEqual(JVMAccessorNames.natural("is"), "getIs")
        XCTAssertEqual(JVMAccessorNames.natural("_id"), "get_id")
        XCTAssertEqual(JVMAccessorNames.natural("2fa"), "get2fa")
        XCTAssertEqual(JVMAccessorNames.natural("éclair"), "getÉclair")
        XCTAssertEqual(JVMAccessorNames.natural("isÉtat"), "isÉtat")
        let names = ["url", "Url", "class", "url_"] + (0..<40).map { "p\($0)" } + ["P39", "_", "document"]
        let getters = JVMAccessorNames.resolve(names, fixed: ["document"])
        XCTAssertEqual(Array(getters.prefix(4)), ["getUrl", "getUrl_", "getClass_", "getUrl__"])
        XCTAssertEqual(getters[4], "getP0")
        XCTAssertEqual(Array(getters.suffix(3)), ["getP39_", "get_0", "getDocument_"])
        XCTAssertEqual(Set(getters).count, getters.count)
        // Kotlin pins the tree's getter only where its spelling would give another.
        XCTAssertNil(KotlinNames.jvmName("url", getter: "getUrl"))
        XCTAssertEqual(KotlinNames.jvmName("Url", getter: "getUrl_"), #"@get:JvmName("getUrl_")"#)
        XCTAssertEqual(KotlinNames.jvmName("Companion_", getter: "getCompanion"), #"@get:JvmName("getCompanion")"#)
    }

    /// A name of ASCII letters, digits and underscores takes its getter on its bytes: the same getter as the
    /// character-by-character rule (`referenceNatural`), on every shape of name (`is` prefixes, digits, underscores,
    /// one or two characters), and names with other characters take that rule itself.
    func testGetterNamesOnBytesAgreeWithCharacters() {
        let alphabet = Array("isIS_aAzZ09xX")
        var generator = SystemRandomNumberGenerator()
        var names = ["", "i", "is", "isA", "isa", "is_", "is0", "I", "_", "a", "z", "A", "Z", "0", "é", "isÉ", "aé"]
        for _ in 0..<4000 {
            let count = Int.random(in: 1...7, using: &generator)
            names.append(String((0..<count).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for name in names {
            XCTAssertEqual(JVMAccessorNames.natural(name), Self.referenceNatural(name), name)
        }
    }

    /// The getter rule on characters, as `JVMAccessorNames.natural` states it.
    private static func referenceNatural(_ name: String) -> String {
        let characters = Array(name)
        if characters.count > 2, characters[0] == "i", characters[1] == "s", characters[2].isUppercase { return name }
        guard let first = characters.first else { return "get" }
        return "get" + first.uppercased() + String(characters.dropFirst())
    }
}
