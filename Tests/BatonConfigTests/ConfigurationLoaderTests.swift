import BatonConfig
import BatonDiagnostics
import XCTest

final class ConfigurationLoaderTests: XCTestCase {
    /// Loads `text` as /project/baton.json and renders its diagnostics.
    private func diagnostics(_ text: String, knownRules: Set<String>? = nil) -> [String] {
        let loaded = ConfigurationLoader.load(
            text: text, path: "/project/baton.json", workingDirectory: "/project", knownRules: knownRules)
        return loaded.diagnostics.sorted(by: Diagnostic.sortKey).map {
            TextRenderer.render($0).trimmingCharacters(in: .newlines)
        }
    }

    private func load(_ text: String) -> Configuration? {
        let loaded = ConfigurationLoader.load(text: text, path: "/project/baton.json", workingDirectory: "/project")
        XCTAssertEqual(loaded.diagnostics.map { TextRenderer.render($0) }, [])
        return loaded.projects.first
    }

    func testFullConfiguration() throws {
        let text = """
            {
              "$schema": "./baton.schema.json",
              "schema": ["schema/a.graphqls", "schema/b.graphqls"],
              "documents": ["Sources/**/*.swift", "queries/*.graphql"],
              "exclude": "**/Generated",
              "customScalarTypes": {
                "DateTime": {"swift": "Foundation.Date", "kotlin": {"type": "java.time.Instant", "converter": "app.DateTimes"}},
                "URI": {"swift": "Foundation.URL"}
              },
              "onError": "NULL",
              "output": {
                "swift": {"path": "Generated/Swift"},
                "kotlin": {"path": "../android/generated", "package": "com.example.graphql"}
              },
              "rules": {"deprecated-usage": "off", "unmapped-custom-scalar": "error"}
            }
            """
        let config = try XCTUnwrap(load(text))
        XCTAssertEqual(config.schema.map(\.value.root), ["/project/schema/a.graphqls", "/project/schema/b.graphqls"])
        XCTAssertEqual(config.documents.map(\.value.text), ["Sources/**/*.swift", "queries/*.graphql"])
        XCTAssertEqual(config.exclude.map(\.value.text), ["**/Generated"])
        XCTAssertEqual(config.customScalarTypes.map(\.name), ["DateTime", "URI"])
        XCTAssertEqual(config.customScalarTypes.first?.swift?.value, "Foundation.Date")
        XCTAssertEqual(config.customScalarTypes.first?.kotlin?.type.value, "java.time.Instant")
        XCTAssertEqual(config.customScalarTypes.first?.kotlin?.converter.value, "app.DateTimes")
        XCTAssertNil(config.customScalarTypes.last?.kotlin)
        XCTAssertEqual(config.onError?.value, .null)
        XCTAssertEqual(config.output.swiftPath?.value, "/project/Generated/Swift")
        XCTAssertEqual(config.output.kotlinPath?.value, "/android/generated")
        XCTAssertEqual(config.output.kotlinPackage?.value, "com.example.graphql")
        XCTAssertEqual(config.ruleSetting(for: "deprecated-usage"), .off)
        XCTAssertEqual(config.ruleSetting(for: "unmapped-custom-scalar"), .error)
        XCTAssertNil(config.ruleSetting(for: "other"))
    }

    func testDefaultsForDocuments() throws {
        let config = try XCTUnwrap(load(#"{"schema": "schema.json"}"#))
        XCTAssertEqual(config.documents.map(\.value.text), Configuration.defaultDocumentPatterns)
        XCTAssertNil(config.onError)
    }

    func testMalformedJSON() {
        XCTAssertEqual(
            diagnostics("{\n  \"schema\": \"s.graphql\",\n}\n"),
            [#"baton.json:3:1: error: Malformed JSON: Expected a string key, found character "}". [config]"#])
        XCTAssertEqual(
            diagnostics(""),
            ["baton.json:1:1: error: Malformed JSON: Expected a JSON value, found end of file. [config]"])
        XCTAssertEqual(
            diagnostics("[1]"), ["baton.json:1:1: error: Baton.json must hold a JSON object, found an array. [config]"])
    }

    func testUnknownKeysSuggestTheClosest() {
        XCTAssertEqual(
            diagnostics("{\n  \"scheme\": \"s.graphql\"\n}"),
            [
                #"baton.json:1:1: error: Missing required key "schema": the path of the schema (SDL .graphql/.graphqls or introspection .json). [config]"#,
                #"baton.json:2:3: error: Unknown key "scheme". Did you mean "schema"? [config]"#,
            ])
        XCTAssertEqual(
            diagnostics(#"{"schema": "s", "output": {"swift": {"pth": "x"}}, "banana": 1}"#),
            [
                #"baton.json:1:37: error: "output.swift" is missing "path". [config]"#,
                #"baton.json:1:38: error: Unknown key "pth" in "output.swift". Did you mean "path"? [config]"#,
                #"baton.json:1:52: error: Unknown key "banana". [config]"#,
            ])
        XCTAssertEqual(
            diagnostics(#"{"schema": "s", "schema": "t"}"#),
            [
                #"baton.json:1:17: error: Duplicate key "schema". [config]"#
                    + "\n  baton.json:1:2: note: First given here."
            ])
    }

    func testWrongTypes() {
        XCTAssertEqual(
            diagnostics(#"{"schema": 3, "documents": [true], "exclude": {}, "onError": "Null", "rules": []}"#),
            [
                #"baton.json:1:12: error: "schema" must be a string or an array of strings, found a number. [config]"#,
                #"baton.json:1:29: error: An element of "documents" must be a non-empty string, found a boolean. [config]"#,
                #"baton.json:1:47: error: "exclude" must be a string or an array of strings, found an object. [config]"#,
                #"baton.json:1:62: error: "onError" must be one of "PROPAGATE", "NULL" or "HALT", found "Null". Did you mean "NULL"? [config]"#,
                #"baton.json:1:79: error: "rules" must be an object mapping rule ids to "error", "warning" or "off", found an array. [config]"#,
            ])
        XCTAssertEqual(
            diagnostics(#"{"schema": "", "documents": []}"#),
            [
                #"baton.json:1:12: error: "schema" must not be an empty string. [config]"#,
                #"baton.json:1:29: error: "documents" must list at least one pattern. [config]"#,
            ])
    }

    func testCustomScalarTypes() {
        XCTAssertEqual(
            diagnostics(
                #"{"schema": "s", "customScalarTypes": {"DateTime": "Foundation.Date", "URL": {"kotlin": "java.net.URI"}, "9x": {}, "Y": {}, "Z": {"swift": "[Int]", "kotlin": {"type": "a.B"}}}}"#
            ),
            [
                #"baton.json:1:51: error: The mapping of "DateTime" must be an object naming a type per language, such as {"swift": "Foundation.Date"}; found a string. [config]"#,
                #"baton.json:1:88: error: "customScalarTypes.URL.kotlin" must be an object with the Kotlin type and its converter object, such as {"type": "java.net.URI", "converter": "app.DateTimes"}; found a string. [config]"#,
                #"baton.json:1:105: error: "9x" is not a GraphQL scalar name. [config]"#,
                #"baton.json:1:120: error: The mapping of "Y" names no language: add "swift" or "kotlin". [config]"#,
                #"baton.json:1:139: error: "[Int]" is not a Swift type name (such as "Foundation.Date"). [config]"#,
                #"baton.json:1:158: error: "customScalarTypes.Z.kotlin" is missing "converter". [config]"#,
            ])
    }

    /// `keyFields`: type names to non-empty lists of field names, each problem at its place.
    func testKeyFields() throws {
        let configuration = try XCTUnwrap(
            load(#"{"schema": "s", "keyFields": {"// why": "Apollo's keys", "MediaList": ["id", "mediaId"], "User": ["login"]}}"#))
        XCTAssertEqual(configuration.keyFields.map(\.typeName), ["MediaList", "User"])
        XCTAssertEqual(configuration.keyFields.map { $0.fields.map(\.value) }, [["id", "mediaId"], ["login"]])
        XCTAssertEqual(
            diagnostics(
                #"{"schema": "s", "keyFields": {"9x": ["id"], "A": "id", "B": [], "C": ["id", "id"], "D": ["a b", 3]}}"#
            ),
            [
                #"baton.json:1:31: error: "9x" is not a GraphQL type name. [config]"#,
                #"baton.json:1:50: error: "keyFields.A" must be a non-empty list of field names, such as ["id"], found a string. [config]"#,
                #"baton.json:1:61: error: "keyFields.B" names no field: list the fields that key it, such as ["id"]. [config]"#,
                #"baton.json:1:77: error: "C" lists the key field "id" twice. [config]"#,
                #"baton.json:1:90: error: Each key field of "D" must be a field name (a string such as "id"); a nested or aliased key is not supported. [config]"#,
                #"baton.json:1:97: error: Each key field of "D" must be a field name (a string such as "id"); a nested or aliased key is not supported. [config]"#,
            ])
        XCTAssertEqual(
            diagnostics(#"{"schema": "s", "keyFields": ["id"]}"#),
            [
                #"baton.json:1:30: error: "keyFields" must be an object mapping type names to their key fields, such as {"MediaList": ["id", "mediaId"]}, found an array. [config]"#
            ])
    }

    func testRules() {
        XCTAssertEqual(
            diagnostics(
                #"{"schema": "s", "rules": {"syntax": "off", "deprecated-usge": "warning", "known-type-names": "warn", "no-unused-fragments": 1}}"#,
                knownRules: ["deprecated-usage", "known-type-names", "no-unused-fragments"]),
            [
                #"baton.json:1:27: error: "syntax" is not a rule and cannot be changed in "rules". [config]"#,
                #"baton.json:1:44: error: Unknown rule "deprecated-usge". Did you mean "deprecated-usage"? [config]"#,
                #"baton.json:1:94: error: The severity of "known-type-names" must be one of "error", "warning" or "off", found "warn". Did you mean "warning"? [config]"#,
                #"baton.json:1:125: error: "rules.no-unused-fragments" must be one of "error", "warning" or "off", found a number. [config]"#,
            ])
    }

    func testOutputValidation() {
        XCTAssertEqual(
            diagnostics(
                #"{"schema": "s", "output": {"kotlin": {"path": "k", "package": "com.example-app"}, "swift": "Generated"}}"#
            ),
            [
                #"baton.json:1:63: error: "com.example-app" is not a Kotlin package name (such as "com.example.graphql"). [config]"#,
                #"baton.json:1:92: error: "output.swift" must be an object such as {"path": "Generated/Swift"}, found a string. [config]"#,
            ])
    }

    func testRuleSettingsApply() throws {
        let config = try XCTUnwrap(load(#"{"schema": "s", "rules": {"a": "off", "b": "warning", "c": "error"}}"#))
        let file = SourceFile(path: "q.graphql", text: "query { a }")
        let input = ["a", "b", "c", "d"].map {
            Diagnostic(.warning, "m", rule: $0, range: SourceRange(file: file, span: .zero))
        }
        let output = config.applyingRuleSettings(to: input)
        XCTAssertEqual(output.map(\.rule), ["b", "c", "d"])
        XCTAssertEqual(output.map(\.severity), [.warning, .error, .warning])
    }

    func testMissingSchemaFileIsLocated() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("q.graphql", "")
        try scratch.write("dir/x", "")
        let config = try scratch.write(
            "baton.json", "{\n  \"schema\": [\"missing.graphql\", \"dir\", \"*.graphqls\"]\n}\n")
        let loaded = ConfigurationLoader.load(path: config, workingDirectory: scratch.path)
        guard let project = loaded.projects.first else { return XCTFail("no project") }
        let result = DocumentDiscovery.schemaFiles(of: project)
        XCTAssertEqual(
            result.diagnostics.map { TextRenderer.render($0) },
            [
                "baton.json:2:14: error: Schema file \"missing.graphql\" does not exist. [config]\n",
                "baton.json:2:33: error: Schema path \"dir\" is a directory; name the schema file. [config]\n",
                "baton.json:2:40: error: Schema pattern \"*.graphqls\" matches no file. [config]\n",
            ])
    }

    func testFindWalksUp() throws {
        let scratch = try ScratchDirectory()
        let config = try scratch.write("baton.json", "{}")
        try scratch.write("a/b/c/file", "")
        XCTAssertEqual(ConfigurationLoader.find(startingAt: scratch.path + "/a/b/c"), config)
        XCTAssertEqual(ConfigurationLoader.find(startingAt: scratch.path), config)
    }

    func testUnreadableConfiguration() throws {
        let loaded = ConfigurationLoader.load(path: "/nonexistent/baton.json", workingDirectory: "/")
        XCTAssertEqual(
            loaded.diagnostics.map { TextRenderer.render($0) },
            ["/nonexistent/baton.json: error: Cannot read /nonexistent/baton.json: No such file or directory. [io]\n"])
    }

    func testWorkspaceOfProjects() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("A/baton.json", #"{"schema": "s.graphql", "rules": {"x": "warning"}}"#)
        try scratch.write("B/custom.json", #"{"schema": "t.graphql"}"#)
        let root = try scratch.write(
            "baton.json",
            #"{"projects": ["A", "B/custom.json", "C", "A/baton.json"], "rules": {"x": "off", "y": "off"}, "schema": "s"}"#
        )
        let loaded = ConfigurationLoader.load(path: root, workingDirectory: scratch.path)
        XCTAssertEqual(loaded.projects.map(\.file.path), ["A/baton.json", "B/custom.json"])
        XCTAssertEqual(loaded.projects.first?.ruleSetting(for: "x"), .warning)
        XCTAssertEqual(loaded.projects.first?.ruleSetting(for: "y"), .off)
        XCTAssertEqual(loaded.projects.last?.ruleSetting(for: "x"), .off)
        XCTAssertEqual(
            loaded.diagnostics.sorted(by: Diagnostic.sortKey).map { TextRenderer.render($0) },
            [
                "baton.json:1:37: error: Project \"C\" does not exist (expected a baton.json or a folder holding one). [config]\n",
                "baton.json:1:42: error: \"A/baton.json\" is already part of this workspace. [config]\n",
                "baton.json:1:94: error: \"schema\" cannot appear beside \"projects\": a workspace only lists project files; move it into a project's baton.json. [config]\n",
            ])
    }

    // MARK: Issue 18: generated code that fits an app, the Kotlin runtime's place, comments

    func testAppSettings() throws {
        let config = try XCTUnwrap(
            load(
                """
                {
                  "schema": "s.graphql",
                  "output": {
                    "operationSuffix": true,
                    "swift": { "path": "Generated", "accessModifier": "public", "namespace": "API" },
                    "kotlin": { "path": "android/gen", "package": "app.graphql", "runtime": "core/src" }
                  }
                }
                """))
        XCTAssertEqual(config.output.operationSuffix?.value, true)
        XCTAssertEqual(config.output.swiftAccessModifier?.value, .public)
        XCTAssertEqual(config.output.swiftNamespace?.value, "API")
        guard case .folder(let folder) = config.output.kotlinRuntime else { return XCTFail("runtime: a folder") }
        XCTAssertEqual(folder.value, "/project/core/src")
        let omitted = try XCTUnwrap(
            load(#"{"schema": "s.graphql", "output": {"kotlin": {"path": "k", "package": "a", "runtime": false}}}"#))
        guard case .omitted = omitted.output.kotlinRuntime else { return XCTFail("runtime: false") }
        let defaults = try XCTUnwrap(load(#"{"schema": "s.graphql", "output": {"swift": {"path": "g"}}}"#))
        XCTAssertNil(defaults.output.operationSuffix)
        XCTAssertNil(defaults.output.swiftAccessModifier)
        XCTAssertNil(defaults.output.swiftNamespace)
        XCTAssertNil(defaults.output.kotlinRuntime)
    }

    func testBadAppSettingsAreLocated() {
        XCTAssertEqual(
            diagnostics(
                """
                {"schema": "s.graphql", "output": {
                  "operationSuffix": "Query",
                  "swift": {"path": "g", "accessModifier": "publik", "namespace": "My-API", "operationSuffix": true},
                  "kotlin": {"path": "k", "package": "a", "runtime": true}
                }}
                """),
            [
                #"baton.json:2:22: error: "output.operationSuffix" must be true or false, found a string. [config]"#,
                #"baton.json:3:44: error: "output.swift.accessModifier" must be one of "internal", "public" or "package", found "publik". Did you mean "public"? [config]"#,
                #"baton.json:3:67: error: "output.swift.namespace" must be a Swift type name (such as "API"), found "My-API". [config]"#,
                #"baton.json:3:77: error: "operationSuffix" belongs in "output", not in "output.swift": names are decided once for every language, so Swift and Kotlin agree. [config]"#,
                #"baton.json:4:54: error: "output.kotlin.runtime" must be a folder (such as "core/src/main/kotlin") or false, found a boolean. [config]"#,
            ])
    }

    func testCommentKeysAreIgnoredEverywhere() throws {
        let config = try XCTUnwrap(
            load(
                """
                {
                  "//": "Baton's configuration.",
                  "// schema": ["Where the schema is,", "in two lines."],
                  "schema": "s.graphql",
                  "customScalarTypes": { "//": "none yet", "DateTime": { "//": "ISO 8601", "swift": "Foundation.Date" } },
                  "output": { "//": "x", "swift": { "//": "y", "path": "g" } },
                  "rules": { "// why": "vendor schema", "deprecated-usage": "off" }
                }
                """))
        XCTAssertEqual(config.customScalarTypes.map(\.name), ["DateTime"])
        XCTAssertEqual(config.rules.map(\.rule), ["deprecated-usage"])
        XCTAssertEqual(config.output.swiftPath?.value, "/project/g")
        XCTAssertEqual(
            diagnostics(#"{"schema": "s.graphql", "//": 3, "// b": ["a", 1]}"#),
            [
                #"baton.json:1:31: error: "//" must be a string or a list of strings (it is a comment), found a number. [config]"#,
                #"baton.json:1:42: error: "// b" must be a string or a list of strings (it is a comment), found an array. [config]"#,
            ])
    }

    /// `output.<language>.testBuilders`: a folder of their own, read as an absolute path; a wrong shape is reported
    /// where it is written.
    func testTestBuildersFolders() throws {
        let config = try XCTUnwrap(
            load(
                #"{"schema": "s.graphql", "output": {"swift": {"path": "Gen", "testBuilders": {"path": "Tests/Builders"}}, "kotlin": {"path": "k", "package": "app", "testBuilders": {"path": "src/test/kotlin"}}}}"#
            ))
        XCTAssertEqual(config.output.swiftTestBuilders?.value, "/project/Tests/Builders")
        XCTAssertEqual(config.output.kotlinTestBuilders?.value, "/project/src/test/kotlin")
        XCTAssertEqual(
            diagnostics(#"{"schema": "s.graphql", "output": {"swift": {"path": "Gen", "testBuilders": "Tests"}}}"#),
            [
                #"baton.json:1:77: error: "output.swift.testBuilders" must be an object such as {"path": "Tests/AppTests/Builders"}, found a string. [config]"#
            ])
        XCTAssertEqual(
            diagnostics(#"{"schema": "s.graphql", "output": {"swift": {"path": "Gen", "testBuilders": {"folder": "T"}}}}"#),
            [
                #"baton.json:1:77: error: "output.swift.testBuilders" is missing "path". [config]"#,
                #"baton.json:1:78: error: Unknown key "folder" in "output.swift.testBuilders". [config]"#,
            ])
    }
}
