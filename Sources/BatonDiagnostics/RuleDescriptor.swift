/// What a rule is, said once: its id, its title and what it requires, the severity it reports
/// with unless baton.json's `rules` changes it, and whether `rules` may change it.
///
/// Every rule (and every category of problem that is not a rule) has one descriptor, declared
/// beside it; the rule catalog, `baton help rules`, SARIF's rule metadata and the test that
/// Docs/Rules.md lists every rule all read these.
package struct RuleDescriptor: Sendable, Hashable {
    /// Where the rule comes from.
    package enum Origin: String, Sendable, Hashable {
        /// The GraphQL specification (graphql-js's rules and messages).
        case specification
        /// Baton's own.
        case baton
        /// A category of problem rather than a rule (`syntax`, `schema`, `config`, `io`).
        case category
    }

    /// The stable kebab-case id diagnostics carry.
    package var id: String
    /// What must hold, in a few words: `Fragment name uniqueness.`
    package var title: String
    /// One sentence of what the rule requires.
    package var summary: String
    /// The severity it reports with by default.
    package var severity: Severity
    /// Whether baton.json's `rules` may turn it off or change its severity.
    package var configurable: Bool
    package var origin: Origin

    package init(
        id: String, title: String, summary: String, severity: Severity = .error, configurable: Bool = true,
        origin: Origin
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.severity = severity
        self.configurable = configurable
        self.origin = origin
    }

    /// The title and the sentence: SARIF's `shortDescription`.
    package var description: String { summary.isEmpty ? title : title + " " + summary }
}
