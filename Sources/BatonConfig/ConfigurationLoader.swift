import BatonDiagnostics
import BatonFiles

/// The projects a `baton.json` describes, and every problem found reading them.
///
/// A file is either one project (`schema`, `documents`, …) or a workspace listing other
/// files in `projects` (each a project with its own schema); `projects` holds the flattened
/// list in the order written.
package struct LoadedConfiguration: Sendable {
    package var projects: [Configuration]
    /// Diagnostics with rule id `config` (or `io` for a file that cannot be read). Any error
    /// here means the configuration is unusable: exit code 2.
    package var diagnostics: [Diagnostic]
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Finds and reads `baton.json`.
package enum ConfigurationLoader {
    /// The file name searched for.
    package static let fileName = "baton.json"

    /// The diagnostic rule id for configuration problems.
    package static let rule = "config"

    /// Rule ids that name no rule and so cannot be set in `rules`.
    package static let reservedRuleIDs: Set<String> = ["syntax", "schema", "config", "io", "internal"]

    /// Whether a key is a comment: any key beginning with `//` (`"//"`, `"// schema"`), in any
    /// object of the file. JSON has no comments; such keys are ignored by Baton and allowed by
    /// the JSON schema, and distinct keys keep the object free of duplicates.
    package static func isComment(_ key: String) -> Bool { key.hasPrefix("//") }

    /// The keys a project file may have, in the order suggestions prefer.
    package static let projectKeys = [
        "schema", "documents", "exclude", "customScalarTypes", "keyFields", "onError", "output", "rules", "projects",
        "$schema",
    ]

    /// The configuration file a command uses: `--config PATH` (a folder stands for the
    /// `baton.json` in it), or else the nearest `baton.json` walking up from `workingDirectory`.
    package static func locate(_ configPath: String?, workingDirectory: String) -> String? {
        guard let configPath else { return find(startingAt: workingDirectory) }
        let absolute = Path.absolute(configPath, relativeTo: workingDirectory)
        let inFolder = Path.join(absolute, fileName)
        let isFolder = FileSystem.kind(of: absolute) == .directory && FileSystem.kind(of: inFolder) == .file
        return isFolder ? inFolder : absolute
    }

    /// Walks up from `directory` (absolute) to the first folder holding `baton.json`.
    package static func find(startingAt directory: String) -> String? {
        var current = Path.normalize(directory)
        while true {
            let candidate = Path.join(current, fileName)
            if FileSystem.kind(of: candidate) == .file { return candidate }
            if current == "/" { return nil }
            current = Path.directory(of: current)
        }
    }

    /// Reads the file at `path` (absolute or relative to `workingDirectory`) and the project
    /// files it lists. `knownRules`, when given, is the set of rule ids `rules` may name.
    package static func load(
        path: String, workingDirectory: String, knownRules: Set<String>? = nil
    ) -> LoadedConfiguration {
        var loader = Reader(workingDirectory: workingDirectory, knownRules: knownRules)
        loader.loadFile(Path.absolute(path, relativeTo: workingDirectory), from: nil, inheritedRules: [], depth: 0)
        return LoadedConfiguration(projects: loader.projects, diagnostics: loader.diagnostics)
    }

    /// Reads a configuration from text (for tests and editors): `path` is where it lives.
    package static func load(
        text: String, path: String, workingDirectory: String, knownRules: Set<String>? = nil
    ) -> LoadedConfiguration {
        var loader = Reader(workingDirectory: workingDirectory, knownRules: knownRules)
        let absolute = Path.absolute(path, relativeTo: workingDirectory)
        let file = SourceFile(path: Path.display(absolute, from: workingDirectory), text: text)
        loader.parse(file, absolutePath: absolute, inheritedRules: [], depth: 0)
        return LoadedConfiguration(projects: loader.projects, diagnostics: loader.diagnostics)
    }
}

/// The state of one load: projects found so far, diagnostics, files already read.
private struct Reader {
    let workingDirectory: String
    let knownRules: Set<String>?
    var projects: [Configuration] = []
    var diagnostics: [Diagnostic] = []
    var seen: Set<String> = []

    /// Workspaces may nest, but not without bound.
    static let maximumDepth = 16

    init(workingDirectory: String, knownRules: Set<String>?) {
        self.workingDirectory = workingDirectory
        self.knownRules = knownRules
    }

    mutating func loadFile(
        _ absolutePath: String, from reference: SourceRange?, inheritedRules: [RuleSetting], depth: Int
    ) {
        let display = Path.display(absolutePath, from: workingDirectory)
        switch FileSystem.readFile(absolutePath) {
        case .failure(let failure):
            if let reference {
                diagnostics.append(
                    Diagnostic(
                        .error, "Cannot read \"\(display)\": \(failure.reason).", rule: ConfigurationLoader.rule,
                        range: reference))
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, "Cannot read \(display): \(failure.reason).", rule: "io", range: nil, path: display))
            }
        case .success(let bytes):
            parse(
                SourceFile(path: display, bytes: bytes), absolutePath: absolutePath, inheritedRules: inheritedRules,
                depth: depth)
        }
    }

    mutating func parse(_ file: SourceFile, absolutePath: String, inheritedRules: [RuleSetting], depth: Int) {
        seen.insert(absolutePath)
        let root: JSONValue
        switch JSONParser.parse(file) {
        case .failure(let failure):
            let end = min(failure.offset + 1, file.bytes.count)
            error(
                file, Span(start: failure.offset, end: max(failure.offset, end)), "malformed JSON: \(failure.message)")
            return
        case .success(let value):
            root = value
        }
        guard case .object(let members, _) = root else {
            error(file, root.span, "baton.json must hold a JSON object, found \(root.kindDescription)")
            return
        }
        let directory = Path.directory(of: absolutePath)
        checkKeys(members, allowed: ConfigurationLoader.projectKeys, in: file, context: nil)

        if let projectsMember = members.first(where: { $0.key == "projects" }) {
            for member in members
            where !["projects", "rules", "$schema"].contains(member.key)
                && ConfigurationLoader.projectKeys.contains(member.key)
            {
                error(
                    file, member.keySpan,
                    "\"\(member.key)\" cannot appear beside \"projects\": a workspace only lists project files; move it into a project's baton.json"
                )
            }
            let rules = inheritedRules + readRules(members, file: file)
            guard let entries = stringList(projectsMember.value, key: "projects", file: file) else { return }
            if depth >= Reader.maximumDepth {
                error(file, projectsMember.keySpan, "workspaces nest deeper than \(Reader.maximumDepth) levels")
                return
            }
            for entry in entries {
                var target = Path.absolute(entry.value, relativeTo: directory)
                if FileSystem.kind(of: target) == .directory {
                    target = Path.join(target, ConfigurationLoader.fileName)
                }
                if seen.contains(target) {
                    error(file, entry.span, "\"\(entry.value)\" is already part of this workspace")
                    continue
                }
                guard FileSystem.exists(target) else {
                    error(
                        file, entry.span,
                        "project \"\(entry.value)\" does not exist (expected a baton.json or a folder holding one)")
                    continue
                }
                loadFile(
                    target, from: SourceRange(file: file, span: entry.span), inheritedRules: rules, depth: depth + 1)
            }
            return
        }

        var configuration = Configuration(
            file: file, path: absolutePath, directory: directory, workingDirectory: workingDirectory, schema: [],
            documents: [], documentsSpan: nil,
            exclude: [], customScalarTypes: [], onError: nil, output: OutputSettings(), rules: inheritedRules)

        // schema: required.
        if let member = members.first(where: { $0.key == "schema" }) {
            if let paths = stringOrStringList(member.value, key: "schema", file: file) {
                if member.value.arrayValue?.isEmpty == true {
                    error(file, member.value.span, "\"schema\" must name at least one file")
                }
                configuration.schema = paths.map { Located(GlobPattern($0.value, base: directory), span: $0.span) }
            }
        } else {
            error(
                file, openingBrace(root),
                "missing required key \"schema\": the path of the schema (SDL .graphql/.graphqls or introspection .json)"
            )
        }

        if let member = members.first(where: { $0.key == "documents" }) {
            configuration.documentsSpan = member.value.span
            if let patterns = stringOrStringList(member.value, key: "documents", file: file) {
                if member.value.arrayValue?.isEmpty == true {
                    error(file, member.value.span, "\"documents\" must list at least one pattern")
                }
                configuration.documents = patterns.map {
                    Located(GlobPattern($0.value, base: directory), span: $0.span)
                }
            }
        } else {
            configuration.documents = Configuration.defaultDocumentPatterns.map {
                Located(GlobPattern($0, base: directory), span: openingBrace(root))
            }
        }

        if let member = members.first(where: { $0.key == "exclude" }),
            let patterns = stringOrStringList(member.value, key: "exclude", file: file)
        {
            configuration.exclude = patterns.map { Located(GlobPattern($0.value, base: directory), span: $0.span) }
        }

        if let member = members.first(where: { $0.key == "customScalarTypes" }) {
            configuration.customScalarTypes = readScalars(member.value, file: file)
        }

        if let member = members.first(where: { $0.key == "keyFields" }) {
            configuration.keyFields = readKeyFields(member.value, file: file)
        }

        if let member = members.first(where: { $0.key == "onError" }) {
            if case .string(let text, let span) = member.value {
                if let behavior = ErrorBehavior(rawValue: text) {
                    configuration.onError = Located(behavior, span: span)
                } else {
                    let choices = ErrorBehavior.allCases.map(\.rawValue)
                    error(
                        file, span,
                        "\"onError\" must be one of \(quotedList(choices)), found \"\(text)\"."
                            + Suggestion.didYouMean(text, in: choices))
                }
            } else {
                wrongType(
                    member.value, key: "onError", expected: "a string (\"PROPAGATE\", \"NULL\" or \"HALT\")", file: file
                )
            }
        }

        if let member = members.first(where: { $0.key == "output" }) {
            configuration.output = readOutput(member.value, directory: directory, file: file)
        }

        configuration.rules = inheritedRules + readRules(members, file: file)
        projects.append(configuration)
    }

    // MARK: Sections

    mutating func readRules(_ members: [JSONMember], file: SourceFile) -> [RuleSetting] {
        guard let member = members.first(where: { $0.key == "rules" }) else { return [] }
        guard case .object(let entries, _) = member.value else {
            wrongType(
                member.value, key: "rules", expected: "an object mapping rule ids to \"error\", \"warning\" or \"off\"",
                file: file)
            return []
        }
        reportDuplicates(entries, file: file)
        checkComments(entries, file: file)
        var settings: [RuleSetting] = []
        for entry in entries where !ConfigurationLoader.isComment(entry.key) {
            if ConfigurationLoader.reservedRuleIDs.contains(entry.key) {
                error(file, entry.keySpan, "\"\(entry.key)\" is not a rule and cannot be changed in \"rules\"")
                continue
            }
            if let knownRules, !knownRules.contains(entry.key) {
                error(
                    file, entry.keySpan,
                    "unknown rule \"\(entry.key)\"." + Suggestion.didYouMean(entry.key, in: knownRules.sorted()))
                continue
            }
            let choices = RuleSeverity.allCases.map(\.rawValue)
            guard case .string(let text, let span) = entry.value else {
                wrongType(entry.value, key: "rules.\(entry.key)", expected: "one of \(quotedList(choices))", file: file)
                continue
            }
            guard let severity = RuleSeverity(rawValue: text) else {
                error(
                    file, span,
                    "the severity of \"\(entry.key)\" must be one of \(quotedList(choices)), found \"\(text)\"."
                        + Suggestion.didYouMean(text, in: choices))
                continue
            }
            settings.append(RuleSetting(rule: entry.key, ruleSpan: entry.keySpan, severity: severity))
        }
        return settings
    }

    mutating func readScalars(_ value: JSONValue, file: SourceFile) -> [CustomScalarType] {
        guard case .object(let entries, _) = value else {
            wrongType(
                value, key: "customScalarTypes", expected: "an object mapping scalar names to their types", file: file)
            return []
        }
        reportDuplicates(entries, file: file)
        checkComments(entries, file: file)
        var scalars: [CustomScalarType] = []
        for entry in entries where !ConfigurationLoader.isComment(entry.key) {
            if !isGraphQLName(entry.key) {
                error(file, entry.keySpan, "\"\(entry.key)\" is not a GraphQL scalar name")
                continue
            }
            guard case .object(let languages, let span) = entry.value else {
                let hint =
                    entry.value.stringValue.map { "{\"swift\": \"\($0)\"}" }
                    ?? "{\"swift\": \"Foundation.Date\", \"kotlin\": {\"type\": \"java.time.Instant\", \"converter\": \"app.DateTimes\"}}"
                error(
                    file, entry.value.span,
                    "the mapping of \"\(entry.key)\" must be an object naming a type per language, such as \(hint); found \(entry.value.kindDescription)"
                )
                continue
            }
            checkKeys(languages, allowed: ["swift", "kotlin"], in: file, context: "customScalarTypes.\(entry.key)")
            var scalar = CustomScalarType(name: entry.key, nameSpan: entry.keySpan)
            if let swift = languages.first(where: { $0.key == "swift" }) {
                if case .string(let text, let textSpan) = swift.value, isQualifiedName(text) {
                    scalar.swift = Located(text, span: textSpan)
                } else if case .string(let text, let textSpan) = swift.value {
                    error(file, textSpan, "\"\(text)\" is not a Swift type name (such as \"Foundation.Date\")")
                } else {
                    wrongType(
                        swift.value, key: "customScalarTypes.\(entry.key).swift",
                        expected: "a string naming a Swift type", file: file)
                }
            }
            if let kotlin = languages.first(where: { $0.key == "kotlin" }) {
                scalar.kotlin = readKotlinScalar(kotlin.value, scalar: entry.key, file: file)
            }
            if !languages.contains(where: { $0.key == "swift" || $0.key == "kotlin" }) {
                error(file, span, "the mapping of \"\(entry.key)\" names no language: add \"swift\" or \"kotlin\"")
            }
            scalars.append(scalar)
        }
        return scalars
    }

    /// `keyFields`: type name → a non-empty list of field names (checked against the schema later,
    /// `key-fields`).
    mutating func readKeyFields(_ value: JSONValue, file: SourceFile) -> [KeyFieldsSetting] {
        let example = "{\"MediaList\": [\"id\", \"mediaId\"]}"
        guard case .object(let entries, _) = value else {
            wrongType(
                value, key: "keyFields",
                expected: "an object mapping type names to their key fields, such as \(example)",
                file: file)
            return []
        }
        reportDuplicates(entries, file: file)
        checkComments(entries, file: file)
        var settings: [KeyFieldsSetting] = []
        for entry in entries where !ConfigurationLoader.isComment(entry.key) {
            if !isGraphQLName(entry.key) {
                error(file, entry.keySpan, "\"\(entry.key)\" is not a GraphQL type name")
                continue
            }
            if case .array(let items, let span) = entry.value, items.isEmpty {
                error(
                    file, span,
                    "\"keyFields.\(entry.key)\" names no field: list the fields that key it, such as [\"id\"]")
                continue
            }
            guard case .array(let items, let span) = entry.value else {
                wrongType(
                    entry.value, key: "keyFields.\(entry.key)",
                    expected: "a non-empty list of field names, such as [\"id\"]", file: file)
                continue
            }
            var fields: [Located<String>] = []
            for item in items {
                guard case .string(let text, let itemSpan) = item, isGraphQLName(text) else {
                    error(
                        file, item.span,
                        "each key field of \"\(entry.key)\" must be a field name (a string such as \"id\"); a nested or aliased key is not supported"
                    )
                    continue
                }
                if fields.contains(where: { $0.value == text }) {
                    error(file, itemSpan, "\"\(entry.key)\" lists the key field \"\(text)\" twice")
                    continue
                }
                fields.append(Located(text, span: itemSpan))
            }
            guard fields.count == items.count else { continue }
            settings.append(KeyFieldsSetting(typeName: entry.key, typeSpan: entry.keySpan, fields: fields, span: span))
        }
        return settings
    }

    mutating func readKotlinScalar(_ value: JSONValue, scalar: String, file: SourceFile) -> KotlinScalarType? {
        let key = "customScalarTypes.\(scalar).kotlin"
        guard case .object(let members, let span) = value else {
            let example =
                "{\"type\": \"\(value.stringValue ?? "java.time.Instant")\", \"converter\": \"app.DateTimes\"}"
            error(
                file, value.span,
                "\"\(key)\" must be an object with the Kotlin type and its converter object, such as \(example); found \(value.kindDescription)"
            )
            return nil
        }
        checkKeys(members, allowed: ["type", "converter"], in: file, context: key)
        var type: Located<String>?
        var converter: Located<String>?
        for field in ["type", "converter"] {
            guard let member = members.first(where: { $0.key == field }) else {
                error(file, span, "\"\(key)\" is missing \"\(field)\"")
                continue
            }
            guard case .string(let text, let textSpan) = member.value else {
                wrongType(member.value, key: "\(key).\(field)", expected: "a string", file: file)
                continue
            }
            guard isQualifiedName(text) else {
                error(file, textSpan, "\"\(text)\" is not a qualified Kotlin name (such as \"java.time.Instant\")")
                continue
            }
            if field == "type" {
                type = Located(text, span: textSpan)
            } else {
                converter = Located(text, span: textSpan)
            }
        }
        guard let type, let converter else { return nil }
        return KotlinScalarType(type: type, converter: converter)
    }

    mutating func readOutput(_ value: JSONValue, directory: String, file: SourceFile) -> OutputSettings {
        var output = OutputSettings()
        guard case .object(let members, _) = value else {
            wrongType(value, key: "output", expected: "an object with \"swift\" and/or \"kotlin\"", file: file)
            return output
        }
        checkKeys(
            members, allowed: ["swift", "kotlin", "persistedQueries", "operationSuffix"], in: file, context: "output")
        if let suffix = members.first(where: { $0.key == "operationSuffix" }) {
            if case .bool(let value, let span) = suffix.value {
                output.operationSuffix = Located(value, span: span)
            } else {
                wrongType(suffix.value, key: "output.operationSuffix", expected: "true or false", file: file)
            }
        }
        if let manifest = members.first(where: { $0.key == "persistedQueries" }) {
            if case .object(let fields, let span) = manifest.value {
                checkKeys(fields, allowed: ["path"], in: file, context: "output.persistedQueries")
                output.persistedQueriesPath = readPath(
                    fields, key: "output.persistedQueries", directory: directory, file: file, span: span)
            } else {
                wrongType(
                    manifest.value, key: "output.persistedQueries",
                    expected: "an object such as {\"path\": \"persisted-queries.json\"}", file: file)
            }
        }
        if let swift = members.first(where: { $0.key == "swift" }) {
            if case .object(let fields, let span) = swift.value {
                checkKeys(
                    fields, allowed: ["path", "accessModifier", "namespace", "testBuilders"], in: file,
                    context: "output.swift",
                    moved: ["operationSuffix"])
                output.swiftPath = readPath(fields, key: "output.swift", directory: directory, file: file, span: span)
                output.swiftAccessModifier = readAccessModifier(fields, file: file)
                output.swiftNamespace = readNamespace(fields, file: file)
                output.swiftTestBuilders = readTestBuilders(
                    fields, key: "output.swift.testBuilders", directory: directory, file: file)
            } else {
                wrongType(
                    swift.value, key: "output.swift", expected: "an object such as {\"path\": \"Generated/Swift\"}",
                    file: file)
            }
        }
        if let kotlin = members.first(where: { $0.key == "kotlin" }) {
            if case .object(let fields, let span) = kotlin.value {
                checkKeys(
                    fields, allowed: ["path", "package", "runtime", "testBuilders"], in: file, context: "output.kotlin",
                    moved: ["operationSuffix"])
                output.kotlinPath = readPath(fields, key: "output.kotlin", directory: directory, file: file, span: span)
                output.kotlinRuntime = readKotlinRuntime(fields, directory: directory, file: file)
                output.kotlinTestBuilders = readTestBuilders(
                    fields, key: "output.kotlin.testBuilders", directory: directory, file: file)
                if let package = fields.first(where: { $0.key == "package" }) {
                    if case .string(let text, let textSpan) = package.value {
                        if isQualifiedName(text) {
                            output.kotlinPackage = Located(text, span: textSpan)
                        } else {
                            error(
                                file, textSpan,
                                "\"\(text)\" is not a Kotlin package name (such as \"com.example.graphql\")")
                        }
                    } else {
                        wrongType(package.value, key: "output.kotlin.package", expected: "a string", file: file)
                    }
                }
            } else {
                wrongType(
                    kotlin.value, key: "output.kotlin",
                    expected: "an object such as {\"path\": \"Generated/Kotlin\", \"package\": \"com.example\"}",
                    file: file)
            }
        }
        return output
    }

    mutating func readAccessModifier(_ fields: [JSONMember], file: SourceFile) -> Located<SwiftAccessModifier>? {
        guard let member = fields.first(where: { $0.key == "accessModifier" }) else { return nil }
        let choices = SwiftAccessModifier.allCases.map(\.rawValue)
        guard case .string(let text, let span) = member.value else {
            wrongType(
                member.value, key: "output.swift.accessModifier", expected: "one of \(quotedList(choices))", file: file)
            return nil
        }
        guard let modifier = SwiftAccessModifier(rawValue: text) else {
            error(
                file, span,
                "\"output.swift.accessModifier\" must be one of \(quotedList(choices)), found \"\(text)\"."
                    + Suggestion.didYouMean(text, in: choices))
            return nil
        }
        return Located(modifier, span: span)
    }

    /// `output.swift.namespace`: a Swift identifier (letters, digits, `_`), checked against Swift's
    /// reserved names by the Swift target.
    mutating func readNamespace(_ fields: [JSONMember], file: SourceFile) -> Located<String>? {
        guard let member = fields.first(where: { $0.key == "namespace" }) else { return nil }
        guard case .string(let text, let span) = member.value else {
            wrongType(member.value, key: "output.swift.namespace", expected: "a string", file: file)
            return nil
        }
        guard isGraphQLName(text) else {
            error(
                file, span, "\"output.swift.namespace\" must be a Swift type name (such as \"API\"), found \"\(text)\"")
            return nil
        }
        return Located(text, span: span)
    }

    /// `output.kotlin.runtime`: a folder, or `false`.
    mutating func readKotlinRuntime(_ fields: [JSONMember], directory: String, file: SourceFile)
        -> KotlinRuntimeSetting?
    {
        guard let member = fields.first(where: { $0.key == "runtime" }) else { return nil }
        switch member.value {
        case .string(let text, let span) where !text.isEmpty:
            return .folder(Located(Path.absolute(text, relativeTo: directory), span: span))
        case .bool(false, let span):
            return .omitted(span)
        default:
            wrongType(
                member.value, key: "output.kotlin.runtime",
                expected: "a folder (such as \"core/src/main/kotlin\") or false", file: file)
            return nil
        }
    }

    /// `output.<language>.testBuilders`: an object with the builders' folder, `{"path": "Tests/AppTests/Builders"}`.
    mutating func readTestBuilders(_ fields: [JSONMember], key: String, directory: String, file: SourceFile)
        -> Located<String>?
    {
        guard let member = fields.first(where: { $0.key == "testBuilders" }) else { return nil }
        guard case .object(let settings, let span) = member.value else {
            wrongType(
                member.value, key: key, expected: "an object such as {\"path\": \"Tests/AppTests/Builders\"}",
                file: file)
            return nil
        }
        checkKeys(settings, allowed: ["path"], in: file, context: key)
        return readPath(settings, key: key, directory: directory, file: file, span: span)
    }

    mutating func readPath(_ fields: [JSONMember], key: String, directory: String, file: SourceFile, span: Span)
        -> Located<String>?
    {
        guard let member = fields.first(where: { $0.key == "path" }) else {
            error(file, span, "\"\(key)\" is missing \"path\"")
            return nil
        }
        guard case .string(let text, let textSpan) = member.value, !text.isEmpty else {
            wrongType(member.value, key: "\(key).path", expected: "a non-empty string", file: file)
            return nil
        }
        return Located(Path.absolute(text, relativeTo: directory), span: textSpan)
    }

    // MARK: Helpers

    /// Reports unknown keys (with "Did you mean"); a key in `moved` belongs one level up, in `output`.
    mutating func checkKeys(
        _ members: [JSONMember], allowed: [String], in file: SourceFile, context: String?, moved: Set<String> = []
    ) {
        reportDuplicates(members, file: file)
        checkComments(members, file: file)
        for member in members where moved.contains(member.key) {
            error(
                file, member.keySpan,
                "\"\(member.key)\" belongs in \"output\", not in \"\(context ?? "")\": names are decided once for every language, so Swift and Kotlin agree"
            )
        }
        for member in members
        where !allowed.contains(member.key) && !moved.contains(member.key) && !ConfigurationLoader.isComment(member.key)
        {
            let place = context.map { " in \"\($0)\"" } ?? ""
            error(
                file, member.keySpan,
                "unknown key \"\(member.key)\"\(place)." + Suggestion.didYouMean(member.key, in: allowed))
        }
    }

    /// Comments (keys beginning with `//`) hold a string or a list of strings, and nothing else.
    mutating func checkComments(_ members: [JSONMember], file: SourceFile) {
        for member in members where ConfigurationLoader.isComment(member.key) {
            let isText: Bool
            switch member.value {
            case .string: isText = true
            case .array(let lines, _): isText = lines.allSatisfy { $0.stringValue != nil }
            default: isText = false
            }
            if !isText {
                wrongType(
                    member.value, key: member.key, expected: "a string or a list of strings (it is a comment)",
                    file: file)
            }
        }
    }

    mutating func reportDuplicates(_ members: [JSONMember], file: SourceFile) {
        var first: [String: Span] = [:]
        for member in members {
            if let earlier = first[member.key] {
                diagnostics.append(
                    Diagnostic(
                        .error, "Duplicate key \"\(member.key)\".", rule: ConfigurationLoader.rule,
                        range: SourceRange(file: file, span: member.keySpan),
                        notes: [
                            DiagnosticNote(message: "First given here.", range: SourceRange(file: file, span: earlier))
                        ]))
            } else {
                first[member.key] = member.keySpan
            }
        }
    }

    mutating func stringOrStringList(_ value: JSONValue, key: String, file: SourceFile) -> [Located<String>]? {
        if case .string(let text, let span) = value {
            if text.isEmpty {
                error(file, span, "\"\(key)\" must not be an empty string")
                return nil
            }
            return [Located(text, span: span)]
        }
        if case .array = value { return stringList(value, key: key, file: file) }
        wrongType(value, key: key, expected: "a string or an array of strings", file: file)
        return nil
    }

    mutating func stringList(_ value: JSONValue, key: String, file: SourceFile) -> [Located<String>]? {
        guard case .array(let elements, _) = value else {
            wrongType(value, key: key, expected: "an array of strings", file: file)
            return nil
        }
        var strings: [Located<String>] = []
        for element in elements {
            if case .string(let text, let span) = element, !text.isEmpty {
                strings.append(Located(text, span: span))
            } else {
                wrongType(
                    element, key: "an element of \"\(key)\"", expected: "a non-empty string", file: file, quoted: false)
            }
        }
        return strings
    }

    mutating func wrongType(_ value: JSONValue, key: String, expected: String, file: SourceFile, quoted: Bool = true) {
        let subject = quoted ? "\"\(key)\"" : key
        let found: String
        if case .string(let text, _) = value, text.isEmpty {
            found = "an empty string"
        } else {
            found = value.kindDescription
        }
        error(file, value.span, "\(subject) must be \(expected), found \(found)")
    }

    mutating func error(_ file: SourceFile, _ span: Span, _ message: String) {
        diagnostics.append(.error(sentence(message), rule: ConfigurationLoader.rule, file: file, span: span))
    }

    func openingBrace(_ value: JSONValue) -> Span { Span(start: value.span.start, end: value.span.start + 1) }

    func quotedList(_ words: [String]) -> String {
        let quoted = words.map { "\"\($0)\"" }
        guard quoted.count > 1, let last = quoted.last else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// `[_A-Za-z][_0-9A-Za-z]*`, GraphQL's Name.
func isGraphQLName(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard let first = bytes.first, isNameStart(first) else { return false }
    return bytes.dropFirst().allSatisfy { isNameStart($0) || ($0 >= 0x30 && $0 <= 0x39) }
}

/// Dot-separated identifiers, as Swift and Kotlin qualified type and package names are
/// (`Foundation.Date`, `java.time.Instant`). Swift generics and Kotlin backticks are beyond it
/// on purpose: a mapping names a plain type.
func isQualifiedName(_ text: String) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    return !parts.isEmpty && parts.allSatisfy { isGraphQLName(String($0)) }
}

private func isNameStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
}

/// A message as a sentence, in the style of graphql-js's messages: capitalised, ending with a
/// full stop (unless it ends with a question).
package func sentence(_ message: String) -> String {
    guard let first = message.first else { return message }
    var text = first.isLowercase ? first.uppercased() + message.dropFirst() : message
    if let last = text.last, last != "." && last != "?" && last != "!" { text += "." }
    return text
}
