import BatonCodegenKotlin
import BatonDeclarations
import XCTest

@testable import BatonCodegen

final class NamingTests: XCTestCase {
    let swift = IdentifierRules.swift

    func testKeywordsAreQuoted() {
        for keyword in [
            "class", "default", "func", "protocol", "struct", "in", "is", "as", "let", "var", "where", "true", "nil",
            "async", "await", "some", "any", "get", "set", "Any", "throws", "repeat",
        ] {
            XCTAssertEqual(swift.escape(keyword, in: .member), "`\(keyword)`", keyword)
        }
        XCTAssertEqual(swift.escape("name", in: .member), "name")
        XCTAssertEqual(swift.escape("Class", in: .type), "Class")
    }

    func testUnusableNamesAreRenamed() {
        for name in ["self", "Self", "init", "deinit", "subscript", "Type", "Protocol"] {
            XCTAssertEqual(swift.escape(name, in: .member), name + "_", name)
            XCTAssertEqual(swift.escape(name, in: .type), name + "_", name)
        }
        XCTAssertEqual(swift.escape("_", in: .member), "__")
        XCTAssertEqual(swift.escape("String", in: .type), "String_")
        XCTAssertEqual(swift.escape("Baton", in: .type), "Baton_")
        XCTAssertEqual(swift.escape("String", in: .member), "String")
        XCTAssertEqual(swift.escape("none", in: .enumCase), "none_")
        XCTAssertEqual(swift.escape("none", in: .member), "`none`")
        XCTAssertEqual(swift.escape("default", in: .enumCase), "`default`")
    }

    func testNameScopeMakesNamesUnique() {
        var scope = NameScope(reserved: ["unknown", "rawValue"])
        XCTAssertEqual(scope.claim("unknown"), "unknown_")
        XCTAssertEqual(scope.claim("unknown_"), "unknown__")
        XCTAssertEqual(scope.claim("a"), "a")
        XCTAssertEqual(scope.claim("A"), "A")
        var files = NameScope(caseInsensitive: true)
        XCTAssertEqual(files.claim("Foo"), "Foo")
        XCTAssertEqual(files.claim("foo"), "foo_")
        XCTAssertTrue(files.contains("FOO"))
    }

    /// A scope keeps its names in a list while they are few and in a set past that: both hand out
    /// the same names, with reserved, claimed, reserved-later and shared names, whatever the count.
    func testNameScopeAgreesWithASetAtEverySize() {
        for reservedCount in [0, 3, 15, 16, 17, 40] {
            for caseInsensitive in [false, true] {
                let reserved = (0..<reservedCount).map { "n\($0 % 11)" } + (reservedCount > 0 ? ["Dup", "dup"] : [])
                let shared: Set<String> = ["Shared", "n3_"]
                var scope = NameScope(reserved: reserved, shared: shared, caseInsensitive: caseInsensitive)
                func key(_ name: String) -> String { caseInsensitive ? name.lowercased() : name }
                var taken = Set(reserved.map(key)).union(shared.map(key))
                for index in 0..<60 {
                    let preferred = ["n\(index % 13)", "N\(index % 5)", "Shared", "dup", "x\(index)"][index % 5]
                    if index % 7 == 6 {
                        scope.reserve("r\(index)")
                        taken.insert(key("r\(index)"))
                        continue
                    }
                    var expected = preferred
                    while taken.contains(key(expected)) { expected += "_" }
                    taken.insert(key(expected))
                    XCTAssertEqual(scope.claim(preferred), expected, "\(reservedCount) \(caseInsensitive) \(index)")
                }
                for name in taken {
                    XCTAssertTrue(scope.contains(name))
                    if caseInsensitive { XCTAssertTrue(scope.contains(name.uppercased())) }
                }
                XCTAssertFalse(scope.contains("never-claimed"))
            }
        }
    }

    /// The rules and scopes ask a `NameFilter` before they hash a name (issue 34): it may only rule out names its
    /// set does not hold, so every answer is the sets' own: for each rule's keywords and unusable names, names near
    /// them (suffixed, cut, cased, the same length and ends), long names (lengths past the filter's 32) and plain
    /// ones, in Swift and Kotlin, in every position.
    func testFilteredNamingAgreesWithTheFullRule() {
        for rules in [IdentifierRules.swift, IdentifierRules.kotlin] {
            var special = rules.quotable.union(rules.labelQuotable ?? [])
            for names in rules.unusable.values { special.formUnion(names) }
            var names = [
                "", "a", "id", "name", "title", "createdAt", "é", "ü_", "x" + String(repeating: "y", count: 40),
            ]
            for name in special.sorted() {
                names += [name, name + "_", name + "__", String(name.dropLast()), "_" + name, name.uppercased()]
                names.append(Casing.upperFirst(name))
                names.append(Casing.lowerFirst(name))
                // Same length modulo 32, same first and last bytes: the filter cannot tell them apart.
                if let first = name.first, let last = name.last, name.count > 1 {
                    names.append(String(first) + String(repeating: "q", count: name.count - 2) + String(last))
                    names.append(String(first) + String(repeating: "q", count: name.count + 30) + String(last))
                }
            }
            for name in names {
                XCTAssertEqual(
                    rules.quoted(name),
                    rules.quotable.contains(name) ? rules.openQuote + name + rules.closeQuote : name,
                    "\(rules.language) \(name)")
                let labelQuoted = (rules.labelQuotable ?? rules.quotable).contains(name)
                XCTAssertEqual(
                    rules.argumentLabel(name), labelQuoted ? rules.openQuote + name + rules.closeQuote : name,
                    "\(rules.language) \(name)")
                for position in [IdentifierPosition.type, .member, .enumCase] {
                    var expected = name
                    while rules.unusable[position]?.contains(expected) ?? false { expected += rules.renameSuffix }
                    XCTAssertEqual(rules.declaredName(name, in: position), expected, "\(rules.language) \(name)")
                    XCTAssertEqual(
                        rules.mustRename(name, in: position), rules.unusable[position]?.contains(name) ?? false,
                        "\(rules.language) \(name)")
                }
            }
            // A scope sharing the names through their filter takes exactly the names of the set.
            let shared = FilteredNames(special)
            let scope = NameScope(shared: shared)
            for name in names { XCTAssertEqual(scope.contains(name), special.contains(name), name) }
        }
    }

    func testCasing() {
        XCTAssertEqual(Casing.upperFirst("repository"), "Repository")
        XCTAssertEqual(Casing.upperFirst("_id"), "_id")
        XCTAssertEqual(Casing.lowerFirst("Repository"), "repository")
        XCTAssertEqual(Casing.upperFirst(""), "")
    }

    func testFileNamesAreShortenedStablyAndUniqueIgnoringCase() {
        var naming = FileNaming()
        XCTAssertEqual(naming.claim("RepositoryQuery"), "RepositoryQuery")
        XCTAssertEqual(naming.claim("repositoryquery"), "repositoryquery_")
        XCTAssertEqual(naming.claim("CON"), "CON_")
        let long = String(repeating: "VeryLongName", count: 40)
        let shortened = naming.claim(long)
        XCTAssertLessThanOrEqual(
            (shortened + ".graphql.swift").utf8.count, FileNaming.maximumNameBytes - 4,
            "room for the longest extension and a few `_`")
        XCTAssertTrue(shortened.hasPrefix("VeryLongName"))
        var again = FileNaming()
        XCTAssertEqual(again.claim(long), shortened, "the same long name shortens the same way")
        XCTAssertNotEqual(again.claim(long + "X"), shortened, "long names with a common prefix stay apart")
        let multibyte = String(repeating: "é", count: 300)
        let cut = FileNaming.shortened(multibyte, maximumBytes: 100)
        XCTAssertLessThanOrEqual(cut.utf8.count, 100)
        XCTAssertTrue(cut.hasPrefix("éé"))
    }

    /// A namer takes ASCII names by a hash of their bytes with case folded, and from the first name that is not
    /// ASCII on holds every name lower-cased: both hand out what a set of `lowercased()` names would, names equal
    /// ignoring case, device names, and names that lower-case to ASCII (the Kelvin sign's `K`) included.
    func testFileNamingAgreesWithASetOfLowerCasedNames() {
        let ascii =
            ["Query", "QUERY", "query_", "Con", "lpt1", "Query_", "a", "A", "A_", "B", "b__", "B_", "b_"]
            + (0..<150).flatMap { ["Name\($0)", "NAME\($0 / 2)", "name\($0 % 7)_"] }  // past the table's first sizes
        for tail in [[], ["\u{212A}elvin", "kelvin", "Éclair", "éclair", "Query", "KELVIN_", "x"]] {
            var naming = FileNaming()
            var taken = Set(FileNaming.windowsReservedNames.map { $0.lowercased() })
            for name in ascii + tail {
                var expected = name
                while taken.contains(expected.lowercased()) { expected += "_" }
                taken.insert(expected.lowercased())
                XCTAssertEqual(naming.claim(name), expected, "\(name) after \(tail.isEmpty ? "ASCII" : "all")")
            }
        }
    }

    func testDocCommentsCannotEscape() {
        let hostile = "Ends */ here \\ back\nslash\r\nCR\rline\u{2028}sep /* nested \u{0}nul  "
        XCTAssertEqual(
            DocComment.tripleSlash(hostile).text,
            "/// Ends */ here \\ back\n/// slash\n/// CR\n/// line\n/// sep /* nested \u{FFFD}nul")
        XCTAssertEqual(DocComment.tripleSlash("\n\nA\n\nB\n\n").text, "/// A\n///\n/// B")
        XCTAssertEqual(DocComment.tripleSlash(nil).text, "")
        XCTAssertEqual(DocComment.tripleSlash("  \n ").text, "")
        let block = DocComment.block("a */ b /* c").text
        XCTAssertEqual(block, "/**\n * a *&#47; b &#47;* c\n */")
        XCTAssertFalse(block.dropFirst(3).dropLast(3).contains("*/"))
    }

    func testReplacingAll() {
        XCTAssertEqual("a*/b*/".replacingAll("*/", with: "!"), "a!b!")
        XCTAssertEqual("abc".replacingAll("", with: "!"), "abc")
        XCTAssertEqual("`class`".replacingAll("`", with: ""), "class")
        XCTAssertEqual("plain name".replacingAll("`", with: ""), "plain name", "no byte of the target")
        XCTAssertEqual("a * b / c".replacingAll("*/", with: "!"), "a * b / c", "its first byte, not the target")
        XCTAssertEqual("é*/ü".replacingAll("*/", with: "!"), "é!ü")
        XCTAssertEqual(
            String(repeating: "x", count: 40).replacingAll("*/", with: "!"), String(repeating: "x", count: 40))
    }
}
