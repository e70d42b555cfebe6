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

    /// Getters resolved with a short list of the taken ones (a lens's few members) or a set (past 24) are the ones
    /// a set gives at every size, and case twins found pair by pair (up to 16 names) or counted in a dictionary are
    /// the same: clashing names (`url`, `Url`, `url_`, `class`, fixed members) at sizes around both limits, and names
    /// past ASCII, which meet others only when lowercased (`İd`; the Kelvin sign's `Key` meets `key`; `ß`).
    func testGetterAndTwinPathsAgreeAtEverySize() {
        let pool = [
            "url", "Url", "url_", "URL", "class", "document", "isOpen", "IsOpen", "id", "Id", "name", "_", "@", "`",
            "İd", "i\u{307}d", "\u{212A}ey", "key", "KEY", "straße", "STRASSE", "Straße",
        ]
        let edges = ["@", "`", "\u{212A}ey", "key", "İd", "id", "i\u{307}d", "Straße", "STRASSE", "URL", "url_"]
        XCTAssertEqual(DeclarationLowering.caseTwins(edges), Self.referenceTwins(edges))
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 5, 15, 16, 17, 22, 23, 24, 25, 26, 40] {
            for _ in 0..<20 {
                let names = (0..<count).map { index in
                    Bool.random(using: &generator) ? pool.randomElement(using: &generator)! : "p\(index % 7)"
                }
                let fixed = Bool.random(using: &generator) ? ["document", "url"] : []
                XCTAssertEqual(
                    JVMAccessorNames.resolve(names, fixed: fixed), Self.referenceResolve(names, fixed: fixed),
                    "\(names)")
                XCTAssertEqual(DeclarationLowering.caseTwins(names), Self.referenceTwins(names), "\(names)")
            }
        }
    }

    /// `JVMAccessorNames.resolve`'s rule with a set of the taken getters.
    private static func referenceResolve(_ properties: [String], fixed: [String]) -> [String] {
        func host(_ name: String) -> String { !name.isEmpty && name.allSatisfy { $0 == "_" } ? name + "0" : name }
        var taken: Set<String> = ["getClass"]
        for name in fixed { taken.insert(referenceNatural(host(name))) }
        return properties.map { name in
            var getter = referenceNatural(host(name))
            while taken.contains(getter) { getter += "_" }
            taken.insert(getter)
            return getter
        }
    }

    /// `DeclarationLowering.caseTwins`' rule with a dictionary of counts.
    private static func referenceTwins(_ names: [String]) -> [Bool] {
        var counts: [String: Int] = [:]
        for name in names { counts[name.lowercased(), default: 0] += 1 }
        return names.map { counts[$0.lowercased(), default: 0] > 1 }
    }

    /// The getter rule on characters, as `JVMAccessorNames.natural` states it.
    private static func referenceNatural(_ name: String) -> String {
        let characters = Array(name)
        if characters.count > 2, characters[0] == "i", characters[1] == "s", characters[2].isUppercase { return name }
        guard let first = characters.first else { return "get" }
        return "get" + first.uppercased() + String(characters.dropFirst())
    }
}
