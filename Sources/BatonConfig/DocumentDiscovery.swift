import BatonDiagnostics
import BatonFiles

/// Turns a configuration's patterns into files: the schema files and the documents, sorted,
/// with a diagnostic in `baton.json` for each pattern that matches nothing.
package enum DocumentDiscovery {
    /// Extensions of GraphQL document files.
    package static let graphQLExtensions: Set<String> = ["graphql", "gql"]
    /// Extensions of schema files: SDL and introspection results.
    package static let schemaExtensions: Set<String> = ["graphql", "graphqls", "gql", "json"]
    /// Extensions of files searched for documents: GraphQL files and Swift sources.
    package static let documentExtensions: Set<String> = ["graphql", "gql", "swift"]

    /// The schema files of a project in the order written (a pattern's matches sorted); a
    /// missing file or a pattern matching nothing is an error in `baton.json`.
    package static func schemaFiles(of configuration: Configuration) -> (files: [String], diagnostics: [Diagnostic]) {
        var files: [String] = []
        var diagnostics: [Diagnostic] = []
        var seen = Set<String>()
        for pattern in configuration.schema {
            // A schema is named file by file (or by a wildcard pattern), never by a folder.
            let isFolder = !pattern.value.hasWildcards && FileSystem.kind(of: pattern.value.root) == .directory
            let matches: (files: [String], failures: [FileSystem.Failure]) =
                isFolder ? ([], []) : expand(pattern.value, exclude: [], extensions: schemaExtensions)
            if matches.files.isEmpty {
                let text = pattern.value.text
                let message =
                    pattern.value.hasWildcards
                    ? "Schema pattern \"\(text)\" matches no file."
                    : (FileSystem.kind(of: pattern.value.root) == .directory
                        ? "Schema path \"\(text)\" is a directory; name the schema file."
                        : "Schema file \"\(text)\" does not exist.")
                diagnostics.append(
                    .error(message, rule: ConfigurationLoader.rule, file: configuration.file, span: pattern.span))
            }
            for file in matches.files where seen.insert(file).inserted { files.append(file) }
            diagnostics += failures(matches.failures, configuration: configuration, span: pattern.span)
        }
        return (files, diagnostics)
    }

    /// The document files of a project: every `.graphql`, `.gql` and `.swift` file matched by
    /// `documents` and not by `exclude` (nor a schema file, nor under an output folder), sorted. A written pattern matching nothing is a
    /// warning; no documents at all is an error.
    package static func documentFiles(of configuration: Configuration) -> (files: [String], diagnostics: [Diagnostic]) {
        var lists: [[String]] = []
        var diagnostics: [Diagnostic] = []
        let exclude = neverDocuments(configuration)
        for pattern in configuration.documents {
            let matches = expand(pattern.value, exclude: exclude, extensions: documentExtensions)
            if matches.files.isEmpty && configuration.documentsSpan != nil {
                diagnostics.append(
                    Diagnostic(
                        .warning, "Documents pattern \"\(pattern.value.text)\" matches no file.",
                        rule: ConfigurationLoader.rule,
                        range: configuration.range(pattern.span)))
            }
            if !matches.files.isEmpty { lists.append(matches.files) }
            diagnostics += failures(matches.failures, configuration: configuration, span: pattern.span)
        }
        if lists.isEmpty {
            // One error says it all: drop the warnings about each pattern.
            diagnostics.removeAll { $0.severity == .warning }
            let span = configuration.documentsSpan ?? configuration.documents.first?.span ?? .zero
            let patterns = configuration.documents.map { "\"\($0.value.text)\"" }.joined(separator: ", ")
            diagnostics.append(
                .error(
                    "No documents found: no .graphql, .gql or .swift file matches \(patterns).",
                    rule: ConfigurationLoader.rule,
                    file: configuration.file, span: span))
        }
        // One pattern's walk is sorted already when its folders hold files or folders, not both
        // (`DirectoryWalker` lists a folder's files before its subfolders); a sorted list with no
        // two paths equal needs neither the set nor the sort.
        if lists.count == 1, zip(lists[0], lists[0].dropFirst()).allSatisfy({ Path.precedes($0, $1) }) {
            return (lists[0], diagnostics)
        }
        return (Set(lists.joined()).sorted(by: Path.precedes), diagnostics)
    }

    /// What is never a document, whatever the patterns say: `exclude`, the schema and the output folders.
    static func neverDocuments(_ configuration: Configuration) -> [GlobPattern] {
        var exclude = configuration.exclude.map(\.value) + configuration.schema.map(\.value)
        for output in [configuration.output.swiftPath, configuration.output.kotlinPath].compactMap({ $0 }) {
            exclude.append(GlobPattern(output.value, base: configuration.directory))
        }
        return exclude
    }

    /// The documents among `files` (absolute) a build system names (a target's sources) instead of
    /// `documents`: those with a document extension that exist and that `exclude`, the schema and
    /// the output folders leave, sorted.
    package static func documentFiles(of configuration: Configuration, among files: [String]) -> [String] {
        let exclude = neverDocuments(configuration)
        return Set(files).filter { file in
            documentExtensions.contains(Path.pathExtension(file)) && FileSystem.kind(of: file) == .file
                && !isExcluded(file, by: exclude)
        }.sorted(by: Path.precedes)
    }

    /// Every file a pattern matches, not excluded, sorted. With `extensions`, files found by
    /// walking must have one of them; a file named exactly by a plain pattern is always kept.
    package static func expand(
        _ pattern: GlobPattern, exclude: [GlobPattern], extensions: Set<String>?
    ) -> (files: [String], failures: [FileSystem.Failure]) {
        switch FileSystem.kind(of: pattern.root) {
        case .file:
            if pattern.hasWildcards || isExcluded(pattern.root, by: exclude) { return ([], []) }
            return ([pattern.root], [])
        case .directory:
            // Everything the walk finds lies under `root`: an exclude pattern can only match there when its own root
            // is above `root` or under it (`isExcluded` looks for it among a path's folders), so the others are not
            // asked of each file (the schema's and the output folders', beside a documents folder, most often).
            let exclude = exclude.filter {
                Path.isInside(pattern.root, directory: $0.root) || Path.isInside($0.root, directory: pattern.root)
            }
            let walker = DirectoryWalker { directory in
                !isExcluded(directory, by: exclude) && pattern.couldMatchInside(directory)
            }
            let found = walker.files(under: pattern.root)
            let files = found.files.filter { file in
                if let extensions, !extensions.contains(Path.pathExtension(file)) { return false }
                return pattern.matches(file) && (exclude.isEmpty || !isExcluded(file, by: exclude))
            }
            return (files, found.failures)
        case .other, nil:
            return ([], [])
        }
    }

    /// Whether a path, or a folder above it, matches an `exclude` pattern.
    package static func isExcluded(_ path: String, by exclude: [GlobPattern]) -> Bool {
        for pattern in exclude {
            var current = path
            while Path.isInside(current, directory: pattern.root) {
                if pattern.matches(current) { return true }
                if current == pattern.root || current == "/" { break }
                current = Path.directory(of: current)
            }
        }
        return false
    }

    private static func failures(_ failures: [FileSystem.Failure], configuration: Configuration, span: Span)
        -> [Diagnostic]
    {
        failures.map { failure in
            Diagnostic(
                .error,
                "Cannot read folder \"\(Path.display(failure.path, from: configuration.workingDirectory))\": \(failure.reason).",
                rule: "io",
                range: configuration.range(span))
        }
    }
}
