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

    /// The validation diagnostics of `documents` (unsettled, in the whole unit's order), validating
    /// again only what changed since the last call reaches.
    mutating func validate(schema: GraphQLSchema, documents: [Document], configuration: Configuration?)
        -> [Diagnostic]
    {
        let sources = documents.map(\.source)
        let identities = sources.map(ObjectIdentifier.init)
        if splits, Set(identities).count == identities.count {
            var links: [DocumentLinks] = []
            links.reserveCapacity(documents.count + 1)
            var changed: Set<Int> = []
            for (index, document) in documents.enumerated() {
                if let entry = entries[identities[index]] {
                    links.append(entry.links)
                } else {
                    links.append(DocumentLinks.of(document))
                    changed.insert(index)
                }
            }
            let present = Set(identities)
            let gone = entries.filter { !present.contains($0.key) }.values
            if !gone.isEmpty {
                links.append(gone.reduce(DocumentLinks()) { $0.merging($1.links) })
                changed.insert(documents.count)
            }
            let (reached, fresh) = DocumentValidation.validate(
                schema: schema, documents: documents, links: links, changed: changed, configuration: configuration)
            let reachedSet = Set(reached)
            var kept: [Diagnostic] = []
            for (index, identity) in identities.enumerated() where !reachedSet.contains(index) {
                kept += entries[identity]?.diagnostics ?? []
            }
            var updated: [ObjectIdentifier: Entry] = [:]
            updated.reserveCapacity(documents.count)
            for (index, identity) in identities.enumerated() {
                updated[identity] =
                    reachedSet.contains(index)
                    ? Entry(source: sources[index], links: links[index], diagnostics: [])
                    : entries[identity]
            }
            if remember(fresh, in: &updated) {
                entries = updated
                validated = reached.count
                return Validator.merged([kept, fresh], sources: sources)
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
        splits = Set(identities).count == identities.count && remember(diagnostics, in: &all)
        entries = all
        validated = documents.count
        return diagnostics
    }

    /// Places each of `diagnostics` in the entry of its first range's file; false (nothing to rely
    /// on) when one has no such entry or is a once-per-unit report.
    private func remember(_ diagnostics: [Diagnostic], in entries: inout [ObjectIdentifier: Entry]) -> Bool {
        for diagnostic in diagnostics {
            guard diagnostic.rule != "validation-depth", let file = diagnostic.range?.file,
                entries[ObjectIdentifier(file)] != nil
            else { return false }
            entries[ObjectIdentifier(file)]?.diagnostics.append(diagnostic)
        }
        return true
    }
}
