/// The definitions of an earlier plan that an edit does not reach, as one value (`LensModel.block`), instead of a
/// stand-in model each (`LensModel.summarized`): a plan with a block holds in `operations` and `fragments` only the
/// definitions it planned, and the steps that look at every definition (naming, used types, the layout's names and
/// files, the job lists, the names digest, the persisted-query manifest) take the block whole.
///
/// Decisions, made here once:
///
/// - **When a plan takes a block** (`LensModelBuilder.build(…, block:)`): only when the definitions it planned
///   have, as multisets, the kinds and names the earlier plan recorded for the documents planned again, and the
///   same union of used schema types (`namesAndTypesAgree`). The plan then holds exactly the earlier plan's
///   definitions and schema types, so every top-level name is the recorded one: names are claimed "ignoring case,
///   earlier in the plan's order first" over the same set in the same order. A definition added, removed or
///   renamed (an edited name that would push an untouched definition's, or take one back) fails the test, and the
///   plan is built with stand-ins and claimed in full as before (`DefinitionNaming.apply`); its names digest then
///   differs and the run reads every document. So no name of the block is ever claimed again: a collision
///   re-claims everything, which a changed name costs anyway.
/// - **Names**: a block definition's generated name is its summary's (`DefinitionSummary.typeName`, written in
///   the manifest only where it is not the GraphQL name); so is a planned one's (`plannedTypeName`).
/// - **Order**: operations and fragments each sorted by name, as the plan's are, so a printer merges the block with
///   the planned definitions in the plan's order without sorting them together. The summary section writes its
///   `def` lines in that order (format 5), so the block's lines, a filter over them, come in it: checked, not
///   sorted (`isSortedByName`; `sortByName` only for lines given in another order).
/// - **Never spelt**: a block definition's file is kept as it is on disk (every output folder must keep it:
///   `Compilation.summariesAreKept`), so nothing but its summary is needed.
package struct SummaryBlock: Sendable {
    /// The earlier plan's definitions, as its summary's lines (`DefinitionLines`): the block's are read there.
    package let lines: DefinitionLines
    /// The unreached operations, as indices of `lines`, sorted by name.
    package private(set) var operations: [Int] = []
    /// The unreached fragments, as indices of `lines`, sorted by name.
    package private(set) var fragments: [Int] = []
    /// What the earlier plan recorded of the definitions of the documents planned again (their summaries).
    package let recordedPlanned: [DefinitionSummary]
    /// Each operation's document text by name, when the run writes a persisted-query manifest (the last one's).
    package let operationTexts: [String: String]?
    /// The possible types of each block fragment's type condition, as a fragment built here has them (set by the
    /// builder, which has the schema; for the shared type conditions, `DeclarationLowering.sharedTypeConditions`).
    package var possibleTypes: [String: [String]] = [:]

    /// A block of `outside` (indices of the unreached definitions' lines in `lines`, in any order), with
    /// `recordedPlanned` and, when a persisted-query manifest is written, `operationTexts`.
    package init(
        lines: DefinitionLines, outside: [Int], recordedPlanned: [DefinitionSummary],
        operationTexts: [String: String]? = nil
    ) {
        self.lines = lines
        self.recordedPlanned = recordedPlanned
        self.operationTexts = operationTexts
        for line in outside {
            if lines.kind(at: line) == .fragment { fragments.append(line) } else { operations.append(line) }
        }
        // In the plan's order already when they are a filter over a section's lines (format 5): checked, one
        // comparison a line, and sorted only when not.
        if !Self.isSortedByName(operations, in: lines) { Self.sortByName(&operations, in: lines) }
        if !Self.isSortedByName(fragments, in: lines) { Self.sortByName(&fragments, in: lines) }
    }

    /// True when the names of `list` (indices of `lines`) are in increasing order, each after the one before.
    static func isSortedByName(_ list: [Int], in lines: DefinitionLines) -> Bool {
        var index = 1
        while index < list.count {
            if lines.compareNames(at: list[index - 1], list[index]) >= 0 { return false }
            index += 1
        }
        return true
    }

    /// A block of `outside` (the unreached definitions' summaries, in any order), with `recordedPlanned`: their
    /// lines written (`DefinitionSummary.writeFields`) and read as a summary's are (an empty block when one cannot
    /// be, as a summary section would be refused); an operation's document text, when it has one, among
    /// `operationTexts`.
    package init(outside: [DefinitionSummary], recordedPlanned: [DefinitionSummary]) {
        var bytes: [UInt8] = []
        var texts: [String: String] = [:]
        for summary in outside {
            summary.writeFields(to: &bytes)
            bytes.append(UInt8(ascii: "\t"))
            bytes.append(contentsOf: summary.path.utf8)
            bytes.append(0x0A)
            if !summary.documentText.isEmpty { texts[summary.name] = summary.documentText }
        }
        let lines = DefinitionLines(section: bytes[...]) ?? DefinitionLines(bytes: [])
        self.init(
            lines: lines, outside: Array(0..<lines.count), recordedPlanned: recordedPlanned,
            operationTexts: texts.isEmpty ? nil : texts)
    }

    /// `list` (indices of `lines`) sorted by name, as `String`'s `<` orders the names (they are ASCII,
    /// `DefinitionSummary.checkedKind`, ordered byte by byte): by the names' first sixteen bytes as two numbers,
    /// read where they lie, and by the whole names only where those are the same.
    static func sortByName(_ list: inout [Int], in lines: DefinitionLines) {
        var keys: [(high: UInt64, low: UInt64, line: Int)] = []
        keys.reserveCapacity(list.count)
        for line in list {
            let (high, low) = lines.withName(at: line) { name in
                var high: UInt64 = 0
                var low: UInt64 = 0
                var count = 0
                for byte in name {
                    if count < 8 {
                        high |= UInt64(byte) << (56 - 8 * count)
                    } else {
                        low |= UInt64(byte) << (56 - 8 * (count - 8))
                    }
                    count += 1
                    if count == 16 { break }
                }
                return (high, low)
            }
            keys.append((high, low, line))
        }
        keys.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return lines.compareNames(at: a.line, b.line) < 0
        }
        list = keys.map(\.line)
    }

    /// How many definitions the block holds.
    package var count: Int { operations.count + fragments.count }

    /// Every definition, as summaries (for a plan built with stand-ins after all), with their texts when known.
    package var all: [DefinitionSummary] {
        (operations + fragments).map { line in
            var summary = lines.summary(at: line)
            if let operationTexts, summary.kind != .fragment {
                summary.documentText = operationTexts[summary.name] ?? ""
            }
            return summary
        }
    }

    /// A definition's generated name: its recorded one.
    package static func typeName(_ summary: DefinitionSummary) -> String { summary.typeName ?? summary.name }

    /// The position of the line named `name` in `list` (sorted by name), found by halving.
    private func position(of name: some StringProtocol, in list: [Int]) -> Int? {
        let low = Self.insertion(of: name, in: list, from: 0, lines: lines)
        return low < list.count && lines.compareName(at: list[low], with: name) == 0 ? low : nil
    }

    /// Where `name` goes in `list[from...]` (indices of `lines`, sorted by name): the first position whose name
    /// is not before it, found by halving.
    @usableFromInline
    static func insertion(of name: some StringProtocol, in list: [Int], from: Int, lines: DefinitionLines) -> Int {
        var low = from
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if lines.compareName(at: list[middle], with: name) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// True when the block holds the definition keyed `key` (`DefinitionKey`).
    package func contains(key: String) -> Bool {
        if key.hasPrefix("o:") { return position(of: key.dropFirst(2), in: operations) != nil }
        if key.hasPrefix("f:") { return position(of: key.dropFirst(2), in: fragments) != nil }
        return false
    }

    /// The union of the schema types the block's definitions use.
    package var usedTypes: UsedTypeNames {
        var enums: Set<String> = []
        var inputs: Set<String> = []
        var scalars: Set<String> = []
        for list in [operations, fragments] {
            // Definitions next to each other in name order are often copies of one another (`Name_1`, `Name_2`):
            // used types written as the last definition's add nothing, and are compared as bytes, not read.
            var last: Int?
            for line in list {
                if let last, lines.sameUsedTypes(at: line, as: last) { continue }
                last = line
                let used = lines.usedTypes(at: line)
                if !used.enums.isEmpty { enums.formUnion(used.enums) }
                if !used.inputObjects.isEmpty { inputs.formUnion(used.inputObjects) }
                if !used.customScalars.isEmpty { scalars.formUnion(used.customScalars) }
            }
        }
        return UsedTypeNames(enums: enums.sorted(), inputObjects: inputs.sorted(), customScalars: scalars.sorted())
    }

    /// An empty block (no lines), for a step that merges a plan's definitions with a block's either way.
    package static let empty = SummaryBlock(lines: DefinitionLines(bytes: []), outside: [], recordedPlanned: [])

    /// The recorded generated names of the definitions planned again: operations' and fragments' by name.
    package var plannedTypeNames: (operations: [String: String], fragments: [String: String]) {
        var result: (operations: [String: String], fragments: [String: String]) = ([:], [:])
        for summary in recordedPlanned {
            if summary.kind == .fragment {
                result.fragments[summary.name] = Self.typeName(summary)
            } else {
                result.operations[summary.name] = Self.typeName(summary)
            }
        }
        return result
    }

    /// True when `after` (a plan's definitions, as summaries) has, as multisets, the kinds and names of `before`
    /// (what the earlier plan recorded for the same documents), and the same union of used schema types: with
    /// the same definitions elsewhere, the plan's top-level names are then the earlier plan's. Sufficient, not
    /// necessary (a used type moved between documents fails it).
    package static func namesAndTypesAgree(_ before: [DefinitionSummary], _ after: [DefinitionSummary]) -> Bool {
        guard before.count == after.count else { return false }
        func names(_ summaries: [DefinitionSummary]) -> [String] {
            summaries.map { $0.kind.rawValue + " " + $0.name }.sorted()
        }
        func used(_ summaries: [DefinitionSummary]) -> [Set<String>] {
            var result: [Set<String>] = [[], [], []]
            for summary in summaries {
                result[0].formUnion(summary.usedTypes.enums)
                result[1].formUnion(summary.usedTypes.inputObjects)
                result[2].formUnion(summary.usedTypes.customScalars)
            }
            return result
        }
        return names(before) == names(after) && used(before) == used(after)
    }

    /// `planned` and `block` (each sorted by name; `block` indices of `lines`) merged in name order: `visit` is
    /// called with each planned item's index, or each block position, in turn. The plan's order of one kind of
    /// definition. Each planned item's place in the block is found by halving (the planned ones are few, the
    /// block large).
    @inlinable
    package static func merge<Item>(
        _ planned: [Item], name: (Item) -> String, _ block: [Int], in lines: DefinitionLines,
        planned visitPlanned: (Int) -> Void, block visitBlock: (Int) -> Void
    ) {
        var next = 0
        for index in planned.indices {
            let low = insertion(of: name(planned[index]), in: block, from: next, lines: lines)
            while next < low {
                visitBlock(next)
                next += 1
            }
            visitPlanned(index)
        }
        while next < block.count {
            visitBlock(next)
            next += 1
        }
    }
}
