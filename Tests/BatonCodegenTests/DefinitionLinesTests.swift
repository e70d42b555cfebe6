import BatonIR
import XCTest

/// A plan summary's `def` lines kept as byte ranges (`DefinitionLines`) read back field for field as the summaries
/// written, and refused where a summary would be.
final class DefinitionLinesTests: XCTestCase {
    /// `count` summaries of every kind and shape `writeFields` writes: names of 1 to 40 bytes, lists empty or of
    /// one to three names, ids and type conditions present or `-`, a generated name absent or other.
    static func summaries(_ count: Int, seed: UInt64) -> [DefinitionSummary] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let letters = Array("abcXYZ_019".utf8)
        func word() -> String {
            var bytes: [UInt8] = [UInt8(ascii: "N")]
            for _ in 0..<next(40) { bytes.append(letters[next(letters.count)]) }
            return String(decoding: bytes, as: UTF8.self)
        }
        func list() -> [String] { (0..<next(4)).map { _ in word() } }
        let kinds: [DefinitionSummary.Kind] = [.query, .mutation, .subscription, .fragment]
        return (0..<count).map { index in
            let kind = kinds[next(kinds.count)]
            var summary = DefinitionSummary(
                kind: kind, name: word() + "_\(index)", path: "Documents/\(next(5))/D\(index).graphql",
                usedTypes: UsedTypeNames(enums: list(), inputObjects: list(), customScalars: list()),
                operationID: kind == .fragment || next(4) == 0 ? "" : word(),
                typeCondition: kind == .fragment ? word() : "")
            if next(3) == 0 { summary.typeName = summary.name + "_" }
            return summary
        }
    }

    /// The section `PlanSummary` writes: a `links` line per path, each summary's `def` line after it.
    static func section(_ summaries: [DefinitionSummary]) -> [UInt8] {
        var out: [UInt8] = []
        for summary in summaries {
            out.append(contentsOf: "links 0 name:\(summary.name)\t\(summary.path)\n".utf8)
            summary.writeFields(to: &out)
            out.append(contentsOf: "\t\(summary.path)\n".utf8)
        }
        return out
    }

    func testEachLineReadsBackAsTheSummaryWritten() throws {
        for round in 0..<5 {
            let summaries = Self.summaries(300, seed: UInt64(round) + 1)
            // A slice that does not start at the array's start, as the manifest's plan section is.
            let bytes = Array("baton-gen-manifest 4\nplan\n".utf8) + Self.section(summaries)
            let lines = try XCTUnwrap(DefinitionLines(section: bytes[26...]))
            XCTAssertEqual(lines.count, summaries.count)
            for (index, summary) in summaries.enumerated() {
                XCTAssertEqual(lines.summary(at: index), summary, "round \(round), line \(index)")
                XCTAssertEqual(lines.name(at: index), summary.name)
                XCTAssertEqual(lines.path(at: index), summary.path)
                XCTAssertEqual(lines.withName(at: index) { Array($0) }, Array(summary.name.utf8))
            }
        }
    }

    func testALineASummaryWouldRefuseIsRefused() throws {
        let good = "def query Feed - - - - -\tF.graphql\n"
        XCTAssertEqual(DefinitionLines(section: Array(good.utf8)[...])?.count, 1)
        let damaged = [
            "def quer Feed - - - - -\tF.graphql\n",  // no such kind
            "def query Feed - - - -\tF.graphql\n",  // six fields
            "def query Feed - - - - - A B\tF.graphql\n",  // nine
            "def query Feed - - a,,b - -\tF.graphql\n",  // an empty name in a list
            "def query Fe,ed - - - - -\tF.graphql\n",  // a comma in the name
            "def query Feed - - - - - -\tF.graphql\n",  // a generated name `-`
            "def query Feed - - - - -\n",  // no path
            "def query Feed - - - - -\t\n",  // an empty path
        ]
        for line in damaged {
            XCTAssertNil(DefinitionLines(section: Array((good + line).utf8)[...]), line)
        }
    }
}
