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
                XCTAssertEqual(lines.kind(at: index), summary.kind)
                XCTAssertEqual(lines.names(at: index).name, summary.name)
                XCTAssertEqual(lines.names(at: index).typeName, summary.typeName ?? summary.name)
                XCTAssertEqual(lines.operationID(at: index), summary.operationID)
                XCTAssertEqual(lines.typeCondition(at: index), summary.typeCondition)
                XCTAssertEqual(lines.usedTypes(at: index), summary.usedTypes)
                var line: [UInt8] = []
                summary.writeFields(to: &line)
                XCTAssertEqual(lines.withLine(at: index) { Array($0) }, line + Array("\t\(summary.path)".utf8))
            }
        }
    }

    /// Lines grouped by their paths' bytes are those of the summaries with those paths, in order; lines copied
    /// (`appendLines`) are the lines written, with their newlines, wherever they lie.
    func testLinesGroupedByPathAndCopiedAreTheLinesWritten() throws {
        let summaries = Self.summaries(300, seed: 3)
        let section = Self.section(summaries)
        let lines = try XCTUnwrap(DefinitionLines(section: section[...]))
        let groups = lines.group(byPath: { path in Int(path[10] - UInt8(ascii: "0")) }, count: 5)
        for group in 0..<5 {
            let expected = summaries.indices.filter { summaries[$0].path.hasPrefix("Documents/\(group)/") }
            XCTAssertEqual(groups[group], expected, "group \(group)")
            var copied: [UInt8] = []
            lines.appendLines(groups[group][...], to: &copied)
            var written: [UInt8] = []
            for index in expected {
                summaries[index].writeFields(to: &written)
                written.append(contentsOf: "\t\(summaries[index].path)\n".utf8)
            }
            XCTAssertEqual(copied, written, "group \(group)")
        }
    }

    /// Names compared as bytes order as `String`'s `<` orders them (ASCII names); used types compared as bytes
    /// are the same exactly when the summaries' are.
    func testNamesAndUsedTypesCompareAsTheSummariesDo() throws {
        var summaries = Self.summaries(200, seed: 7)
        // Some with the same used types as another, and names that are prefixes of others.
        for index in stride(from: 1, to: summaries.count, by: 3) {
            summaries[index].usedTypes = summaries[index - 1].usedTypes
            summaries[index].name = String(summaries[index - 1].name.prefix(1 + index % 5))
        }
        let lines = try XCTUnwrap(DefinitionLines(section: Self.section(summaries)[...]))
        for a in summaries.indices {
            for b in [0, a / 2, (a * 7) % summaries.count, max(a - 1, 0)] {
                let (left, right) = (summaries[a].name, summaries[b].name)
                let expected = left < right ? -1 : left == right ? 0 : 1
                XCTAssertEqual(lines.compareNames(at: a, b).signum(), expected, "\(left) \(right)")
                XCTAssertEqual(lines.compareName(at: a, with: right).signum(), expected, "\(left) \(right)")
                XCTAssertEqual(lines.compareName(at: a, with: right.dropFirst(0)).signum(), expected)
                XCTAssertEqual(
                    lines.sameUsedTypes(at: a, as: b), summaries[a].usedTypes == summaries[b].usedTypes,
                    "lines \(a) \(b)")
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
            "def query Fééd - - - - -\tF.graphql\n",  // a name outside ASCII
        ]
        for line in damaged {
            XCTAssertNil(DefinitionLines(section: Array((good + line).utf8)[...]), line)
        }
    }
}
