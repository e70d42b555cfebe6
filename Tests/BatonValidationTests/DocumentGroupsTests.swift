import XCTest

@testable import BatonValidation

/// `DocumentGroups.groups` finds each key's first document through a `NameSet` (a word-at-a-time hash, `String`'s
/// `==`): its groups are those of a plain union over `[String: Int]`, whatever the keys.
final class DocumentGroupsTests: XCTestCase {
    /// The groups as a dictionary of keys to their first document gives them (what `groups` did before).
    private func reference(_ links: [DocumentLinks]) -> [[Int]] {
        guard !links.isEmpty else { return [] }
        if links.contains(where: \.joinsAll) { return [Array(links.indices)] }
        var group = Array(links.indices)
        var owner: [String: Int] = [:]
        for (index, link) in links.enumerated() {
            for key in link.keys {
                guard let other = owner[key] else {
                    owner[key] = index
                    continue
                }
                // Every document of the later group joins the earlier one.
                let (keep, drop) = (min(group[index], group[other]), max(group[index], group[other]))
                for member in group.indices where group[member] == drop { group[member] = keep }
            }
        }
        var order: [Int] = []
        var members: [Int: [Int]] = [:]
        for index in links.indices {
            if members[group[index]] == nil { order.append(group[index]) }
            members[group[index], default: []].append(index)
        }
        return order.map { members[$0] ?? [] }
    }

    func testGroupsAreThoseOfADictionaryOfKeys() {
        var generator = SystemRandomNumberGenerator()
        // Short and long names, names that differ in their last byte only, and one name in two Unicode forms
        // (`String`'s `==`, and so a dictionary, holds them equal: so must the groups).
        let pool = [
            "name:A", "name:B", "name:AppProblemDismissByKey_1", "name:AppProblemDismissByKey_2",
            "name:CheckoutLinesUpdateFragment", "label:x", "label:\u{E9}t\u{E9}", "label:e\u{301}te\u{301}",
            "name:\u{1F600}", "name:a_very_long_fragment_name_of_more_than_forty_bytes_0",
            "name:a_very_long_fragment_name_of_more_than_forty_bytes_1",
        ]
        for round in 0..<400 {
            let count = Int.random(in: 0...60, using: &generator)
            let names = round % 4 == 0 ? 8 : 200
            let links = (0..<count).map { _ in
                let keys = (0..<Int.random(in: 0...4, using: &generator)).map { _ -> String in
                    Bool.random(using: &generator)
                        ? pool.randomElement(using: &generator) ?? ""
                        : "name:F\(Int.random(in: 0..<names, using: &generator))"
                }
                return DocumentLinks(keys: Array(Set(keys)).sorted(), joinsAll: round % 50 == 1)
            }
            XCTAssertEqual(DocumentGroups.groups(links), reference(links), "round \(round)")
        }
    }
}
