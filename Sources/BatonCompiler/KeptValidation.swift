import BatonConfig
import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonValidation

/// What a kept compilation (a watch session's) remembers of its last validation, so the next one
/// validates again only the documents a change can reach (`DocumentValidation.validate(schema:
/// documents:links:changed:)`) and keeps every other document's diagnostics.
///
/// Decisions, made here once:
/// - A document is known by its source (`SourceFile`, by identity): a unit read again has new
///   sources, so its documents count as changed; a unit kept keeps them. The memo holds the
///   sources it knew, so no identity is reused while it compares.
/// - For each known document: its links (`DocumentLinks`) and the validation diagnostics placed in
///   it (unsettled, by the file of their first range, in the whole unit's order).
/// - The documents gone since (a file deleted, a literal removed, a document read again) join the
///   change with their old links, merged into one more entry: whatever they reached (a fragment
///   they defined, a name they duplicated, a cycle they closed) is reached again.
/// - A full validation instead, whenever the last one cannot be split by document: the first run,
///   a schema built again (the memo is dropped then), a diagnostic without a document to place it
///   in, a `validation-depth` report (made once per unit, wherever the walk first ran out), or one
///   source given twice.
///
/// - The groups of the last validation's documents (`DocumentGroups.groups`), kept while a change
///   leaves every document in its place with the links it had (most keystrokes): the documents a
///   change reaches are then found without hashing every document's names again.
///
/// The diagnostics are then exactly a full validation's, in its order (`WatchColdTests` compare
/// every step of a session with a cold run).
struct KeptValidation {
    private struct Entry {
        var source: SourceFile
        var links: DocumentLinks
        var diagnostics: [Diagnostic]
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// False when the next validation must be full (see above).
    private var splits = false
    /// How many documents the last validation validated (all of them for a full one).
    private(set) var validated = 0
    /// The last validation's documents, in order.
    private var order: [ObjectIdentifier] = []
    /// The groups of `order`'s links (`DocumentGroups.groups`), once made; nil when not known. An edit
    /// that leaves every document in its place with the links it had (most keystrokes: a field typed,
    /// an argument changed) leaves the groups as they were, so they are made again only when links change.
    private var groups: [[Int]]?

    /// The validation diagnostics of `documents` (unsettled, in the whole unit's order), validating
    /// again only what changed since the last call reaches.
    mutating func validate(schema: GraphQLSchema, documents: [Document], configuration: Configuration?)
        -> [Diagnostic]
    {
        let sources = documents.map(\.source)
        let identities = sources.map(ObjectIdentifier.init)
        let present = Set(identities)
        if splits, present.count == identities.count {
            var links: [DocumentLinks] = []
            links.reserveCapacity(documents.count + 1)
            var changed: Set<Int> = []
            // True while every document keeps its place and every changed one the links it had.
            var sameLinks = identities.count == order.count
            for (index, document) in documents.enumerated() {
                if let entry = entries[identities[index]] {
                    links.append(entry.links)
                    if sameLinks, order[index] != identities[index] { sameLinks = false }
                } else {
                    let link = DocumentLinks.of(document)
                    links.append(link)
                    changed.insert(index)
                    if sameLinks {
                        let before = order[index]
                        sameLinks = !present.contains(before) && entries[before]?.links == link
                    }
                }
            }
            let gone = entries.keys.filter { !present.contains($0) }
            let reached: [Int]
            if sameLinks, gone.count == changed.count {
                // The documents gone are the changed ones' last versions, with the same links: the groups stand.
                let known = groups ?? DocumentGroups.groups(links)
                groups = known
                reached = known.filter { group in group.contains(where: changed.contains) }.flatMap { $0 }.sorted()
            } else {
                if !gone.isEmpty {
                    links.append(gone.reduce(DocumentLinks()) { $0.merging(entries[$1]?.links ?? DocumentLinks()) })
                    changed.insert(documents.count)
                }
                reached = DocumentGroups.reaching(changed, links: links).filter(documents.indices.contains)
                groups = nil
            }
            let fresh = DocumentValidation.validate(
                schema: schema, documents: reached.map { documents[$0] }, configuration: configuration)
            for key in gone { entries[key] = nil }
            for index in reached {
                entries[identities[index]] = Entry(source: sources[index], links: links[index], diagnostics: [])
            }
            order = identities
            if Self.remember(fresh, in: &entries) {
                validated = reached.count
                // Each document's diagnostics are in the unit's order and the documents are in order: together,
                // the whole unit's order (`Validator.merged` of the kept and the fresh, without sorting them again).
                var all: [Diagnostic] = []
                for identity in identities { all += entries[identity]?.diagnostics ?? [] }
                return all
            }
        }
        // A full validation.
        let diagnostics = DocumentValidation.validate(
            schema: schema, documents: documents, configuration: configuration)
        var all: [ObjectIdentifier: Entry] = [:]
        all.reserveCapacity(documents.count)
        for (index, document) in documents.enumerated() {
            all[identities[index]] = Entry(source: sources[index], links: DocumentLinks.of(document), diagnostics: [])
        }
        splits = present.count == identities.count && Self.remember(diagnostics, in: &all)
        entries = all
        order = identities
        groups = nil
        validated = documents.count
        return diagnostics
    }

    /// Places each of `diagnostics` in the entry of its first range's file; false (nothing to rely
    /// on) when one has no such entry or is a once-per-unit report.
    private static func remember(_ diagnostics: [Diagnostic], in entries: inout [ObjectIdentifier: Entry]) -> Bool {
        for diagnostic in diagnostics {
            guard diagnostic.rule != "validation-depth", let file = diagnostic.range?.file,
                entries[ObjectIdentifier(file)] != nil
            else { return false }
            entries[ObjectIdentifier(file)]?.diagnostics.append(diagnostic)
        }
        return true
    }
}
