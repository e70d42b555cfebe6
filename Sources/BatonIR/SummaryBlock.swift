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
///   the planned definitions in the plan's order without sorting them together.
/// - **Never spelt**: a block definition's file is kept as it is on disk (every output folder must keep it:
///   `Compilation.summariesAreKept`), so nothing but its summary is needed.
package struct SummaryBlock: Sendable {
    /// The unreached operations, sorted by name.
    package private(set) var operations: [DefinitionSummary] = []
    /// The unreached fragments, sorted by name.
    package private(set) var fragments: [DefinitionSummary] = []
    /// What the earlier plan recorded of the definitions of the documents planned again (their summaries).
    package let recordedPlanned: [DefinitionSummary]
    /// The possible types of each block fragment's type condition, as a fragment built here has them (set by the
    /// builder, which has the schema; for the shared type conditions, `DeclarationLowering.sharedTypeConditions`).
    package var possibleTypes: [String: [String]] = [:]

    /// A block of `outside` (the unreached definitions' summaries, in any order), with `recordedPlanned`.
    package init(outside: [DefinitionSummary], recordedPlanned: [DefinitionSummary]) {
        self.recordedPlanned = recordedPlanned
        for summary in outside {
            if summary.kind == .fragment { fragments.append(summary) } else { operations.append(summary) }
        }
        Self.sortByName(&operations)
        Self.sortByName(&fragments)
    }

    /// `list` sorted by name, as `String`'s `<` orders the names (GraphQL names are ASCII, ordered byte by
    /// byte): by the names' first sixteen bytes as two numbers, and by the whole names only where those are the
    /// same (a project's tens of thousands of names, sorted as `String`s, cost most of the block's making); each
    /// name's bytes read where they lie.
    static func sortByName(_ list: inout [DefinitionSummary]) {
        var keys: [(high: UInt64, low: UInt64, index: Int)] = []
        keys.reserveCapacity(list.count)
        /// The first sixteen of `bytes` as two big-endian numbers, zeros past their end.
        func key(_ bytes: some Collection<UInt8>) -> (high: UInt64, low: UInt64) {
            var high: UInt64 = 0
            var low: UInt64 = 0
            var count = 0
            for byte in bytes {
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
        for (index, summary) in list.enumerated() {
            // Read where the name's bytes lie (a `String`'s bytes one at a time cost most of the keys' making).
            let name = summary.name.utf8
            let (high, low) = name.withContiguousStorageIfAvailable { key($0) } ?? key(name)
            keys.append((high, low, index))
        }
        keys.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return list[a.index].name < list[b.index].name
        }
        list = keys.map { list[$0.index] }
    }

    /// How many definitions the block holds.
    package var count: Int { operations.count + fragments.count }

    /// Every definition, as summaries (for a plan built with stand-ins after all).
    package var all: [DefinitionSummary] { operations + fragments }

    /// A definition's generated name: its recorded one.
    package static func typeName(_ summary: DefinitionSummary) -> String { summary.typeName ?? summary.name }

    /// The position of the summary named `name` in `list` (sorted by name), found by halving.
    private static func position(of name: some StringProtocol, in list: [DefinitionSummary]) -> Int? {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].name < name { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low].name == name ? low : nil
    }

    /// True when the block holds the definition keyed `key` (`DefinitionKey`).
    package func contains(key: String) -> Bool {
        if key.hasPrefix("o:") { return Self.position(of: key.dropFirst(2), in: operations) != nil }
        if key.hasPrefix("f:") { return Self.position(of: key.dropFirst(2), in: fragments) != nil }
        return false
    }

    /// The union of the schema types the block's definitions use.
    package var usedTypes: UsedTypeNames {
        var enums: Set<String> = []
        var inputs: Set<String> = []
        var scalars: Set<String> = []
        for list in [operations, fragments] {
            // Definitions next to each other in name order are often copies of one another (`Name_1`, `Name_2`):
            // used types the same as the last definition's add nothing, and are compared rather than hashed.
            var last = UsedTypeNames()
            for summary in list {
                let used = summary.usedTypes
                if used == last { continue }
                if !used.enums.isEmpty { enums.formUnion(used.enums) }
                if !used.inputObjects.isEmpty { inputs.formUnion(used.inputObjects) }
                if !used.customScalars.isEmpty { scalars.formUnion(used.customScalars) }
                last = used
            }
        }
        return UsedTypeNames(enums: enums.sorted(), inputObjects: inputs.sorted(), customScalars: scalars.sorted())
    }

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

    /// `planned` and `block` (each sorted by name) merged in name order: `visit` is called with each planned
    /// item's index, or each block summary's index, in turn. The plan's order of one kind of definition. Each
    /// planned item's place in the block is found by halving (the planned ones are few, the block large).
    @inlinable
    package static func merge<Item>(
        _ planned: [Item], name: (Item) -> String, _ block: [DefinitionSummary],
        planned visitPlanned: (Int) -> Void, block visitBlock: (Int) -> Void
    ) {
        var next = 0
        for index in planned.indices {
            let itemName = name(planned[index])
            var low = next
            var high = block.count
            while low < high {
                let middle = (low + high) / 2
                if block[middle].name < itemName { low = middle + 1 } else { high = middle }
            }
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
