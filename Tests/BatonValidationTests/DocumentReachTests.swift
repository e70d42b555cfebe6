import XCTest

@testable import BatonValidation

/// `DocumentGroups.reaching` gives the changed documents' groups (`DocumentGroups.groups`), whatever the links.
final class DocumentReachTests: XCTestCase {
    /// The groups holding a changed document, ascending: what `reaching` must answer.
    private func groupsReached(_ changed: Set<Int>, _ links: [DocumentLinks]) -> [Int] {
        DocumentGroups.groups(links).filter { $0.contains(where: changed.contains) }.flatMap { $0 }.sorted()
    }

    func testReachingIsTheChangedDocumentsGroups() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let count = Int.random(in: 0...40, using: &generator)
            let names = round % 3 == 0 ? 4 : 60  // few names: large groups; many: chains and loners
            let links = (0..<count).map { _ in
                let keys = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    "name:F\(Int.random(in: 0..<names, using: &generator))"
                }
                return DocumentLinks(keys: DocumentLinks.sortedWithoutRepeats(keys))
            }
            let changed = Set(
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    Int.random(in: 0...(count + 1), using: &generator)
                })
            XCTAssertEqual(
                DocumentGroups.reaching(changed, links: links), groupsReached(changed, links), "round \(round)")
        }
    }

    func testReachingFollowsLongChainsAndEqualStrings() {
        // A chain walked from either end, and from its middle.
        let chain = (0..<50).map { DocumentLinks(keys: ["name:K\($0)", "name:K\($0 + 1)"].sorted()) }
        let loners = (0..<5).map { DocumentLinks(keys: ["name:L\($0)"]) }
        let links = loners + chain + loners
        for start in [5, 30, 54] {
            XCTAssertEqual(DocumentGroups.reaching([start], links: links), Array(5..<55))
        }
        XCTAssertEqual(DocumentGroups.reaching([2, 57], links: links), [2, 57])
        // Keys equal as `String`s with other bytes (a composed and a decomposed `é`) link their documents.
        let labels = [
            DocumentLinks(keys: ["label:\u{E9}"]), DocumentLinks(keys: ["label:x"]),
            DocumentLinks(keys: ["label:e\u{301}"]),
        ]
        XCTAssertEqual(DocumentGroups.reaching([0], links: labels), [0, 2])
        XCTAssertEqual(DocumentGroups.reaching([0], links: labels), groupsReached([0], labels))
        // One document joining every other: all, when a change is among them; nothing for none or one outside.
        var joining = links
        joining[3].joinsAll = true
        XCTAssertEqual(DocumentGroups.reaching([0], links: joining), Array(joining.indices))
        XCTAssertEqual(DocumentGroups.reaching([], links: joining), [])
        XCTAssertEqual(DocumentGroups.reaching([joining.count], links: joining), [])
        XCTAssertEqual(DocumentGroups.reaching([0], links: []), [])
    }
}
