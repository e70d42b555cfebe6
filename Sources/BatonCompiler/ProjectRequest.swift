import BatonConfig
import BatonDiagnostics
import BatonFiles

/// Where a run's projects are and which files it reports on, as the command line gives them.
package struct ProjectRequest: Sendable {
    /// How a command takes PATHS when there is a baton.json.
    package enum PathsWithConfiguration: Sendable {
        /// PATHS limit what is reported (`check`): fragments still resolve across the project.
        case reportFilter
        /// PATHS are not allowed: the documents are baton.json's (`plate`).
        case rejected
    }

    /// The absolute working directory: relative paths resolve against it, shown paths are
    /// relative to it.
    package var workingDirectory: String
    /// `--config`.
    package var configPath: String?
    /// `--schema`, repeatable.
    package var schemaPaths: [String]
    /// PATHS.
    package var paths: [String]
    package var pathsWithConfiguration: PathsWithConfiguration
    /// Whether `--schema` without `--config` may stand in for a baton.json (`check`, `plate`;
    /// not `gen`, which needs baton.json's output settings).
    package var allowsSchemaWithoutConfiguration: Bool
    /// A build system's documents (absolute; `gen --build-map`): a target's sources, read instead
    /// of baton.json's `documents` (its `exclude` still applies).
    package var buildDocuments: [String]?
    /// `gen --swift-out` (absolute): where Swift goes instead of `output.swift.path`.
    package var swiftOutputPath: String?

    package init(
        workingDirectory: String, configPath: String? = nil, schemaPaths: [String] = [], paths: [String] = [],
        pathsWithConfiguration: PathsWithConfiguration = .reportFilter, allowsSchemaWithoutConfiguration: Bool = true
    ) {
        self.workingDirectory = workingDirectory
        self.configPath = configPath
        self.schemaPaths = schemaPaths
        self.paths = paths
        self.pathsWithConfiguration = pathsWithConfiguration
        self.allowsSchemaWithoutConfiguration = allowsSchemaWithoutConfiguration
    }

    /// True for a run without baton.json: the schema from `--schema`, the documents from PATHS.
    package var isStandalone: Bool { allowsSchemaWithoutConfiguration && !schemaPaths.isEmpty && configPath == nil }
}

/// One project to compile: its schema files, its document files, its configuration if any, and
/// which of its documents' diagnostics are reported.
package struct ProjectInput: Sendable {
    package var configuration: Configuration?
    /// Absolute paths.
    package var schemaFiles: [String]
    /// Absolute paths, sorted.
    package var documentFiles: [String]
    /// Files and folders whose document diagnostics are reported; nil reports every document.
    /// (Schema and baton.json diagnostics are always reported.)
    package var reportedPaths: [String]?
    /// Without a baton.json naming the schema, a `.graphql` file holding only type-system
    /// definitions is a schema, not a document: it is left out of the documents.
    package var skipsSchemaOnlyFiles: Bool
    /// Texts read instead of the files at their absolute paths (see `ProjectLoader.overlays`).
    package var overlays: [String: [UInt8]]
    /// A streamed check's schema of `schemaFiles`, built while the documents were looked for (`Driver.compile`);
    /// nil, or empty, when the compilation builds its own.
    package var builtSchema: BuiltSchema?

    package init(
        configuration: Configuration?, schemaFiles: [String], documentFiles: [String], reportedPaths: [String]? = nil,
        skipsSchemaOnlyFiles: Bool = false, overlays: [String: [UInt8]] = [:], builtSchema: BuiltSchema? = nil
    ) {
        self.configuration = configuration
        self.schemaFiles = schemaFiles
        self.documentFiles = documentFiles
        self.reportedPaths = reportedPaths
        self.skipsSchemaOnlyFiles = skipsSchemaOnlyFiles
        self.overlays = overlays
        self.builtSchema = builtSchema
    }

    /// Whether a diagnostic at `displayPath` (relative to `workingDirectory`) is reported; the path is not
    /// asked for when every document is.
    package func reports(_ displayPath: @autoclosure () -> String?, workingDirectory: String) -> Bool {
        guard let reportedPaths, let displayPath = displayPath() else { return true }
        let absolute = Path.absolute(displayPath, relativeTo: workingDirectory)
        return reportedPaths.contains { Path.isInside(absolute, directory: $0) }
    }
}

/// The projects of a run, found from a `ProjectRequest`, with the problems met finding them.
package struct ResolvedProjects: Sendable {
    /// The baton.json used (absolute), if any.
    package var configurationPath: String?
    package var projects: [ProjectInput] = []
    /// baton.json, `--schema` and PATHS problems.
    package var diagnostics: [Diagnostic] = []
    /// Nothing can be compiled (no baton.json, a baton.json with errors, a missing file).
    package var isFatal: Bool { diagnostics.contains(where: Diagnostic.isFatal) }
}

/// A run's projects up to their schema files (`ProjectResolver.schemasFound`), the documents not yet looked for.
package struct FoundSchemas: Sendable {
    /// The configuration used and the problems met so far; no project yet.
    package var resolved = ResolvedProjects()
    /// Each project's configuration (nil without a baton.json) and schema files, with the problems its schema
    /// patterns gave (reported with its documents' problems, in the project's turn), and where a streamed check
    /// puts the schema it builds of them (`buildSchemas`), carried into the project's `ProjectInput`.
    package var projects:
        [(configuration: Configuration?, schemaFiles: [String], diagnostics: [Diagnostic], schema: BuiltSchema)] = []
    /// True when nothing is left to look for (a problem stopped the run before any project).
    package var isComplete = false

    /// Whether there are schemas to build: none when some problem so far stops the run anyway.
    package var buildsSchemas: Bool {
        !projects.isEmpty && !resolved.isFatal
            && !projects.contains(where: { $0.diagnostics.contains(where: Diagnostic.isFatal) })
    }

    /// Builds each project's schema with `build` (given its schema files) into the project's `schema`.
    package func buildSchemas(_ build: ([String]) -> ProjectLoader.LoadedSchema) {
        for project in projects { project.schema.set(build(project.schemaFiles)) }
    }

    /// Marks every project's schema as being built (`BuiltSchema.willBuild`): `buildSchemas` must follow.
    package func willBuildSchemas() {
        for project in projects { project.schema.willBuild() }
    }
}

extension Diagnostic {
    /// A configuration or I/O error: the command could not do its job (exit status 2).
    package static func isFatal(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.severity == .error && (diagnostic.rule == ConfigurationLoader.rule || diagnostic.rule == "io")
    }
}

/// Finds a run's projects: baton.json's, or one from `--schema` and PATHS.
///
/// PATHS with a baton.json limit what is reported, except a PATH that is the project's baton.json
/// or one of its schema files: a schema or configuration change can break any document, so such a
/// PATH reports every document of the projects it belongs to (all of them for the root baton.json).
///
/// Without a baton.json (`--schema`), PATHS are the documents: files, folders searched for
/// documents, or glob patterns. Without PATHS the working directory is searched, and finding no
/// document there is no error: the schema is checked alone. The schema files are never documents,
/// and neither is a `.graphql` file of type-system definitions only.
package enum ProjectResolver {
    package static func resolve(_ request: ProjectRequest) -> ResolvedProjects {
        documentsFound(schemasFound(request), request)
    }

    /// The projects found up to their schema files (what a schema's build needs): the configuration read and
    /// each project's schema patterns expanded, the documents not yet looked for (`documentsFound`). A
    /// streamed `check` builds the schemas while the documents are looked for (`Driver.compile`).
    package static func schemasFound(_ request: ProjectRequest) -> FoundSchemas {
        let loader = ProjectLoader(workingDirectory: request.workingDirectory)
        var found = FoundSchemas()
        if request.isStandalone {
            let schemaFiles = schemaPaths(request, loader: loader, into: &found.resolved.diagnostics)
            found.projects = [(nil, schemaFiles, [], BuiltSchema())]
            return found
        }
        found.isComplete = true
        if request.pathsWithConfiguration == .rejected, !request.paths.isEmpty {
            found.resolved.diagnostics.append(
                Diagnostic(
                    .error,
                    "Documents are given as PATHS only with --schema and no baton.json; "
                        + "with a baton.json, its documents are read.", rule: "config", range: nil))
            return found
        }
        guard let path = ConfigurationLoader.locate(request.configPath, workingDirectory: request.workingDirectory)
        else {
            let hint =
                request.allowsSchemaWithoutConfiguration
                ? "pass --config PATH, or --schema PATH with the documents to check." : "pass --config PATH."
            found.resolved.diagnostics.append(
                Diagnostic(
                    .error,
                    "No baton.json found in \(loader.display(request.workingDirectory)) or any folder above it; \(hint)",
                    rule: "config", range: nil))
            return found
        }
        found.resolved.configurationPath = path
        let loaded = ConfigurationLoader.load(
            path: path, workingDirectory: request.workingDirectory, knownRules: RuleCatalog.ruleIDs)
        found.resolved.diagnostics += loaded.diagnostics
        if loaded.hasErrors { return found }
        if request.buildDocuments != nil || request.swiftOutputPath != nil, loaded.projects.count != 1 {
            found.resolved.diagnostics.append(
                Diagnostic(
                    .error,
                    "--swift-out and --build-map need one project's baton.json, not a workspace of \(loaded.projects.count); pass --config with the project's file.",
                    rule: "config", range: nil))
            return found
        }
        found.isComplete = false
        let overrideSchema =
            request.schemaPaths.isEmpty ? nil : schemaPaths(request, loader: loader, into: &found.resolved.diagnostics)
        for var configuration in loaded.projects {
            if let swiftOutputPath = request.swiftOutputPath {
                configuration.output.swiftPath = Located(
                    swiftOutputPath, span: configuration.output.swiftPath?.span ?? Span(start: 0, end: 1))
            }
            if let overrideSchema {
                found.projects.append((configuration, overrideSchema, [], BuiltSchema()))
            } else {
                let schema = DocumentDiscovery.schemaFiles(of: configuration)
                found.projects.append((configuration, schema.files, schema.diagnostics, BuiltSchema()))
            }
        }
        return found
    }

    /// The projects of `found` with their documents: each project's document patterns expanded (or, without
    /// a baton.json, PATHS), and PATHS applied to what is reported.
    package static func documentsFound(_ found: FoundSchemas, _ request: ProjectRequest) -> ResolvedProjects {
        var resolved = found.resolved
        if found.isComplete { return resolved }
        if request.isStandalone {
            let loader = ProjectLoader(workingDirectory: request.workingDirectory)
            let schemaFiles = found.projects.first?.schemaFiles ?? []
            var documents = documentArguments(
                request.paths.isEmpty ? ["."] : request.paths, request: request, loader: loader,
                emptyIsError: !request.paths.isEmpty, into: &resolved.diagnostics)
            let schemaSet = Set(schemaFiles)
            documents.removeAll { schemaSet.contains($0) }
            resolved.projects = [
                ProjectInput(
                    configuration: nil, schemaFiles: schemaFiles, documentFiles: documents, skipsSchemaOnlyFiles: true,
                    builtSchema: found.projects.first?.schema)
            ]
            return resolved
        }
        var projects: [ProjectInput] = []
        for project in found.projects {
            guard let configuration = project.configuration else { continue }
            resolved.diagnostics += project.diagnostics
            var documents = (files: [String](), diagnostics: [Diagnostic]())
            if let buildDocuments = request.buildDocuments {
                documents.files = DocumentDiscovery.documentFiles(of: configuration, among: buildDocuments)
            } else {
                documents = DocumentDiscovery.documentFiles(of: configuration)
            }
            resolved.diagnostics += documents.diagnostics
            projects.append(
                ProjectInput(
                    configuration: configuration, schemaFiles: project.schemaFiles, documentFiles: documents.files,
                    builtSchema: project.schema))
        }
        if !request.paths.isEmpty, let path = resolved.configurationPath {
            applyReportedPaths(request, rootConfiguration: path, to: &projects, into: &resolved.diagnostics)
        }
        resolved.projects = projects
        return resolved
    }

    /// Limits what each project reports to PATHS, except for projects a PATH names as a whole.
    static func applyReportedPaths(
        _ request: ProjectRequest, rootConfiguration: String, to projects: inout [ProjectInput],
        into diagnostics: inout [Diagnostic]
    ) {
        let loader = ProjectLoader(workingDirectory: request.workingDirectory)
        var filter: [String] = []
        var whole = Set<Int>()
        for path in request.paths {
            let pattern = GlobPattern(path, base: request.workingDirectory)
            if pattern.hasWildcards {
                filter += expand(pattern, extensions: DocumentDiscovery.documentExtensions, into: &diagnostics)
                continue
            }
            let absolute = pattern.root
            guard FileSystem.exists(absolute) else {
                diagnostics.append(loader.unreadable(absolute, "No such file or directory"))
                continue
            }
            var namesProjects = false
            for (index, project) in projects.enumerated() {
                let isConfiguration = absolute == rootConfiguration || absolute == project.configuration?.path
                if isConfiguration || project.schemaFiles.contains(absolute) {
                    whole.insert(index)
                    namesProjects = true
                }
            }
            if !namesProjects { filter.append(absolute) }
        }
        for index in projects.indices where !whole.contains(index) {
            projects[index].reportedPaths = filter
        }
    }

    /// `--schema` paths, absolute; a missing one is an I/O error.
    static func schemaPaths(_ request: ProjectRequest, loader: ProjectLoader, into diagnostics: inout [Diagnostic])
        -> [String]
    {
        var files: [String] = []
        for path in request.schemaPaths {
            let pattern = GlobPattern(path, base: request.workingDirectory)
            if pattern.hasWildcards {
                files += expand(pattern, extensions: DocumentDiscovery.schemaExtensions, into: &diagnostics)
                continue
            }
            let absolute = Path.absolute(path, relativeTo: request.workingDirectory)
            switch FileSystem.kind(of: absolute) {
            case .file: files.append(absolute)
            case .directory: diagnostics.append(loader.unreadable(absolute, "Is a directory; name the schema file"))
            case .other, nil: diagnostics.append(loader.unreadable(absolute, "No such file or directory"))
            }
        }
        return files
    }

    /// Document arguments without a configuration: files as given, folders searched for
    /// documents, glob patterns expanded. A named argument that matches nothing is an I/O error;
    /// the default search of the working directory (`emptyIsError` false) may find nothing.
    static func documentArguments(
        _ arguments: [String], request: ProjectRequest, loader: ProjectLoader, emptyIsError: Bool,
        into diagnostics: inout [Diagnostic]
    ) -> [String] {
        var files = Set<String>()
        for argument in arguments {
            let pattern = GlobPattern(argument, base: request.workingDirectory)
            if !pattern.hasWildcards {
                switch FileSystem.kind(of: pattern.root) {
                case .file:
                    files.insert(pattern.root)
                    continue
                case .other, nil:
                    diagnostics.append(loader.unreadable(pattern.root, "No such file or directory"))
                    continue
                case .directory:
                    break
                }
            }
            let matches = DocumentDiscovery.expand(
                pattern, exclude: [], extensions: DocumentDiscovery.documentExtensions)
            for failure in matches.failures {
                diagnostics.append(loader.unreadable(failure.path, failure.reason))
            }
            if matches.files.isEmpty && emptyIsError { diagnostics.append(noMatch(argument)) }
            files.formUnion(matches.files)
        }
        return files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The files a wildcard PATH matches; matching none is an I/O error.
    static func expand(_ pattern: GlobPattern, extensions: Set<String>, into diagnostics: inout [Diagnostic])
        -> [String]
    {
        let matches = DocumentDiscovery.expand(pattern, exclude: [], extensions: extensions)
        if matches.files.isEmpty { diagnostics.append(noMatch(pattern.text)) }
        return matches.files
    }

    static func noMatch(_ pattern: String) -> Diagnostic {
        Diagnostic(.error, "No document matches \"\(pattern)\".", rule: "io", range: nil, path: nil)
    }
}
