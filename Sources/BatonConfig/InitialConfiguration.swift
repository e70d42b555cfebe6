import BatonDiagnostics
import BatonFiles

/// The `baton.json` that `baton init` writes for a folder: what it found there (the schema, the
/// Swift sources, GraphQL files) or was told, and the commented text.
///
/// Comments are keys beginning with `//` (JSON has no comments; the loader and the JSON schema
/// ignore such keys), so the file explains itself and stays valid JSON every tool can read.
package struct InitialConfiguration: Sendable, Equatable {
    /// The schema, relative to the folder: a file, or a pattern for a schema split over files.
    package var schema: String
    /// Document patterns, relative to the folder.
    package var documents: [String]
    /// `output.swift.path`, if Swift is generated.
    package var swiftOutput: String?
    /// `output.kotlin.path` and `output.kotlin.package`, if Kotlin is generated.
    package var kotlinOutput: String?
    package var kotlinPackage: String?
    /// True when no document exists yet (the patterns are the defaults).
    package var foundNoDocuments = false

    /// What the user chose on the command line.
    package struct Choices: Sendable {
        package var schema: String?
        package var swiftOutput: String?
        package var kotlinOutput: String?
        package var kotlinPackage: String?
        package init(
            schema: String? = nil, swiftOutput: String? = nil, kotlinOutput: String? = nil,
            kotlinPackage: String? = nil
        ) {
            self.schema = schema
            self.swiftOutput = swiftOutput
            self.kotlinOutput = kotlinOutput
            self.kotlinPackage = kotlinPackage
        }
    }

    /// Looks through `directory` (absolute) for a schema and documents, filling in what `choices`
    /// leaves open; a message saying what to do when there is no schema, or several to choose from.
    ///
    /// The schema: `--schema`, or else the `.graphqls` files (all of them, when they share one
    /// folder), else a `schema.graphql`, else a `schema.json`, found anywhere below the folder
    /// (build and VCS folders skipped). Documents: `Sources/**/*.swift` when a `Sources` folder
    /// holds Swift (a SwiftPM package), else `**/*.swift` when there is Swift anywhere; and
    /// `**/*.graphql` (`**/*.gql`) when there are GraphQL files besides the schema. Swift output:
    /// `--swift-out`, or else `Sources/<Target>/Generated` in a package with one target, else
    /// `Generated`; none when only Kotlin is asked for and there is no Swift.
    package static func discover(in directory: String, choices: Choices) -> Result<InitialConfiguration, InitProblem> {
        let files = DirectoryWalker().files(under: directory).files.map { Path.relative($0, to: directory) }
        let schema: String
        if let chosen = choices.schema {
            let absolute = Path.absolute(chosen, relativeTo: directory)
            guard FileSystem.kind(of: absolute) == .file else {
                return .failure(
                    InitProblem("The schema \"\(chosen)\" is not a file; pass the path of the schema file."))
            }
            schema = Path.relative(absolute, to: directory)
        } else {
            switch findSchema(files) {
            case .success(let found): schema = found
            case .failure(let problem): return .failure(problem)
            }
        }
        let schemaPattern = GlobPattern(schema, base: directory)
        let isSchema = { (file: String) in schemaPattern.matches(Path.join(directory, file)) }
        let swift = files.filter { Path.pathExtension($0) == "swift" && Path.lastComponent($0) != "Package.swift" }
        let graphQL = files.filter { ["graphql", "gql"].contains(Path.pathExtension($0)) && !isSchema($0) }

        var documents: [String] = []
        let packageSources = swift.filter { $0.hasPrefix("Sources/") }
        if !packageSources.isEmpty {
            documents.append("Sources/**/*.swift")
        } else if !swift.isEmpty {
            documents.append("**/*.swift")
        }
        if graphQL.contains(where: { $0.hasSuffix(".graphql") }) { documents.append("**/*.graphql") }
        if graphQL.contains(where: { $0.hasSuffix(".gql") }) { documents.append("**/*.gql") }
        var configuration = InitialConfiguration(schema: schema, documents: documents)
        if documents.isEmpty {
            configuration.documents = ["**/*.graphql", "**/*.swift"]
            configuration.foundNoDocuments = true
        }

        if choices.kotlinPackage != nil, choices.kotlinOutput == nil {
            return .failure(InitProblem("--kotlin-package needs --kotlin-out: the folder the Kotlin code goes to."))
        }
        if let kotlin = choices.kotlinOutput {
            guard let package = choices.kotlinPackage else {
                return .failure(
                    InitProblem(
                        "--kotlin-out needs --kotlin-package: the Kotlin package of the generated code (such as com.example.app.graphql)."
                    ))
            }
            guard isQualifiedName(package) else {
                return .failure(
                    InitProblem("\"\(package)\" is not a Kotlin package name (such as com.example.app.graphql)."))
            }
            configuration.kotlinOutput = kotlin
            configuration.kotlinPackage = package
        }
        if let chosen = choices.swiftOutput {
            configuration.swiftOutput = chosen
        } else if !swift.isEmpty || choices.kotlinOutput == nil {
            let targets = Set(packageSources.compactMap { $0.split(separator: "/").dropFirst().first.map(String.init) })
                .filter { !$0.hasSuffix(".swift") }
            configuration.swiftOutput = targets.count == 1 ? "Sources/\(targets.first ?? "")/Generated" : "Generated"
        }
        return .success(configuration)
    }

    /// The schema among `files` (relative, sorted): the `.graphqls` files, a `schema.graphql` or a
    /// `schema.json`, in that order of preference.
    static func findSchema(_ files: [String]) -> Result<String, InitProblem> {
        let sdl = files.filter { $0.hasSuffix(".graphqls") }
        if !sdl.isEmpty {
            let folders = Set(sdl.map(Path.directory(of:)))
            if sdl.count == 1 { return .success(sdl[0]) }
            if folders.count == 1, let folder = folders.first {
                return .success(folder == "." || folder.isEmpty ? "*.graphqls" : folder + "/*.graphqls")
            }
            return .failure(several(sdl))
        }
        for name in ["schema.graphql", "schema.json"] {
            let found = files.filter { Path.lastComponent($0) == name }
            if found.count == 1 { return .success(found[0]) }
            if found.count > 1 { return .failure(several(found)) }
        }
        return .failure(
            InitProblem(
                "No schema found here (no *.graphqls, schema.graphql or schema.json). Pass --schema PATH, or download one first: baton fetch-schema --endpoint URL --output schema.graphqls"
            ))
    }

    private static func several(_ files: [String]) -> InitProblem {
        InitProblem(
            "Found several schemas (\(files.prefix(5).joined(separator: ", "))\(files.count > 5 ? ", …" : "")); pass --schema PATH to choose one."
        )
    }

    /// The commented `baton.json`.
    package var text: String {
        func quote(_ text: String) -> String { JSONText.quote(text) }
        func list(_ items: [String]) -> String { "[" + items.map(quote).joined(separator: ", ") + "]" }
        var lines: [String] = [
            "{",
            "  \"//\": \(quote("Baton's configuration (Docs/Configuration.md). Keys beginning with // are comments.")),",
            "  \"// schema\": \(quote("The schema documents are checked against: SDL files (.graphqls, .graphql; a pattern joins several) or an introspection result (.json).")),",
            "  \"schema\": \(quote(schema)),",
            "  \"// documents\": \(quote("Where the GraphQL is: .graphql files, and the @Query, @Fragment, @Mutation and @Subscription literals of Swift sources.")),",
            "  \"documents\": \(list(documents)),",
            "  \"output\": {",
            "    \"// operationSuffix\": \(quote("query Feed generates FeedQuery: Query, Mutation or Subscription is appended unless the name ends with it.")),",
            "    \"operationSuffix\": true\(swiftOutput == nil && kotlinOutput == nil ? "" : ",")",
        ]
        if let swiftOutput {
            lines += [
                "    \"swift\": {",
                "      \"// swift\": \(quote("baton gen writes Swift here. accessModifier: internal, or public or package for generated code in a module of its own; namespace (such as \"API\") nests the schema's enums and input objects.")),",
                "      \"path\": \(quote(swiftOutput)),",
                "      \"accessModifier\": \"internal\"",
                "    }\(kotlinOutput == nil ? "" : ",")",
            ]
        }
        if let kotlinOutput, let kotlinPackage {
            lines += [
                "    \"kotlin\": {",
                "      \"// kotlin\": \(quote("baton gen --lang kotlin writes Kotlin here, and the Kotlin runtime under baton/runtime (runtime: another folder, or false).")),",
                "      \"path\": \(quote(kotlinOutput)),",
                "      \"package\": \(quote(kotlinPackage))",
                "    }",
            ]
        }
        lines += ["  }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Why `baton init` cannot write a configuration, and what to do.
package struct InitProblem: Error, Sendable, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
