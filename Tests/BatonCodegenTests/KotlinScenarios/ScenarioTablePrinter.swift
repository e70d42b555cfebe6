import Foundation

/// Writes the scenario set's tables, one Swift file (compiled into this target) and one Kotlin file (compiled into the
/// Kotlin test program): each operation key to the generated operation, each read (`Operation: path`) to the path
/// applied to the generated data. The interpreters are ordinary code; only these tables name generated types, so
/// what a scenario reads goes through each language's generated accessors. `KotlinScenarioTests` checks the
/// checked-in tables are what this writes (`BATON_UPDATE_FIXTURES=1` rewrites them).
enum ScenarioTablePrinter {
    static let swiftFile = KotlinBuild.scenarios.appendingPathComponent("ScenarioTables.swift")
    static let kotlinFile = KotlinProjectSupport.repositoryRoot.appendingPathComponent(
        "Kotlin/tests/baton/tests/ScenarioTables.kt")

    static let header =
        "// Written by ScenarioTablePrinter from Tests/BatonCodegenTests/KotlinScenarios/Scenarios.json: do not edit.\n"
        + "// Refresh: BATON_UPDATE_FIXTURES=1 swift test --filter KotlinScenarioTests/testTheScenarioTablesAreUpToDate\n"

    /// What differs between the two tables: each language's spelling of the same file.
    private struct Spelling {
        var prelude: String
        var operationFunction: String
        var readFunction: String
        var operationCase: (_ key: String) throws -> String
        /// The case's first line, then its value (an expression of `ScenarioShow`).
        var readCase: (_ key: String, _ value: String) -> String
        /// `data` cast to `Data` (a qualified type name), then the path.
        var cast: (_ data: String) -> String
        /// `ScenarioShow.attempt` of an expression that may throw.
        var attempt: (_ expression: String) -> String
        /// A path `list[]element` (an optional list, then a path into each item) in the language.
        var each: (_ list: String, _ element: String) -> String
        /// A path `list[?]element`, the list's items nullable (Swift's `NullableItem` reads through).
        var eachNullable: (_ list: String, _ element: String) -> String
        var defaultCase: String
    }

    static func swift(_ set: ScenarioSet) throws -> String {
        try table(
            set,
            Spelling(
                prelude: "import Baton\n\n/// The scenario set's operations and reads, through the generated Swift.\n"
                    + "enum ScenarioTables {\n",
                operationFunction: "    static func operation(_ key: String) -> (any GraphQLOperation)? {\n"
                    + "        switch key {\n",
                readFunction: "    static func read(_ key: String, _ data: Any?) -> String? {\n        switch key {\n",
                operationCase: { key in "        case \(literal(key)): return \(key)\n" },
                readCase: { key, value in "        case \(literal(key)):\n            return \(value)\n" },
                cast: { data in "(data as? \(data))?." },
                attempt: { expression in "ScenarioShow.attempt { try \(expression) }" },
                each: { list, element in list + ".map { $0.map { $0." + element + " } }" },
                eachNullable: { list, element in list + ".map { $0.map { $0." + element + " } }" },
                defaultCase: "        default: return nil\n        }\n    }\n"))
    }

    static func kotlin(_ set: ScenarioSet) throws -> String {
        let package = KotlinBuild.scenarioPackage
        return try table(
            set,
            Spelling(
                prelude: "package baton.tests\n\nimport baton.runtime.Operation\n\n"
                    + "/** The scenario set's operations and reads, through the generated Kotlin. */\n"
                    + "object ScenarioTables {\n",
                operationFunction: "    fun operation(key: String): Operation<*>? = when (key) {\n",
                readFunction: "    fun read(key: String, data: Any?): String? = when (key) {\n",
                operationCase: { key in
                    "        \(literal(key, kotlin: true)) -> \(package).\(try kotlinCall(key))\n"
                },
                readCase: { key, value in "        \(literal(key, kotlin: true)) ->\n            \(value)\n" },
                cast: { data in "(data as? \(package).\(data))?." },
                attempt: { expression in "ScenarioShow.attempt { \(expression) }" },
                each: { list, element in list + "?.map { it." + element + " }" },
                eachNullable: { list, element in list + "?.map { it?." + element + " }" },
                defaultCase: "        else -> null\n    }\n"))
    }

    private static func table(_ set: ScenarioSet, _ spelling: Spelling) throws -> String {
        let keys = try set.tableKeys()
        var out = header + spelling.prelude + spelling.operationFunction
        for key in keys.operations { out += try spelling.operationCase(key) }
        out += spelling.defaultCase + "\n" + spelling.readFunction
        for key in keys.reads {
            let (operation, read) = split(key)
            // `outcome path`, `attempt path`, `present path` or a bare path (`read`, `items`).
            let words = read.split(separator: " ", maxSplits: 1).map(String.init)
            let kind = words.count == 2 ? words[0] : "text"
            // `a!.b`: `b` of `@catch` field `a`'s value (nil when it failed), spelled alike in both languages.
            let path = (words.last ?? "").replacingOccurrences(of: "!.", with: ".caught()?.")
            let nullableItems = path.contains("[?]")
            let parts = path.components(separatedBy: nullableItems ? "[?]" : "[]")
            guard parts.count <= 2, !(nullableItems && path.contains("[]")) else {
                throw ScenarioSet.FormatError(description: "read \(key): at most one [] or [?] in a path")
            }
            let expression =
                spelling.cast(operation + ".Data")
                + (parts.count < 2
                    ? path
                    : nullableItems ? spelling.eachNullable(parts[0], parts[1]) : spelling.each(parts[0], parts[1]))
            let value: String
            switch kind {
            case "text", "outcome", "present": value = "ScenarioShow.\(kind)(\(expression))"
            case "attempt": value = spelling.attempt(expression)
            default: throw ScenarioSet.FormatError(description: "read \(key): unknown kind \(kind)")
            }
            out += spelling.readCase(key, value)
        }
        return out + spelling.defaultCase + "}\n"
    }

    private static func split(_ read: String) -> (operation: String, path: String) {
        let parts = read.split(separator: ":", maxSplits: 1)
        return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces))
    }

    /// A string literal both languages read alike (Kotlin's also escapes `$`).
    static func literal(_ text: String, kotlin: Bool = false) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "$" where kotlin: out += "\\$"
            default: out.append(character)
            }
        }
        return out + "\""
    }

    /// Swift's call `Name(a: x, b: "y")` in Kotlin's syntax, `Name(a = x, b = "y")`: literals are spelled alike.
    static func kotlinCall(_ call: String) throws -> String {
        guard let open = call.firstIndex(of: "("), call.hasSuffix(")") else {
            throw ScenarioSet.FormatError(description: "operation \(call): expected Name(argument: literal, …)")
        }
        var arguments: [String] = []
        var current = ""
        var inString = false
        var escaped = false
        for character in call[call.index(after: open)..<call.index(before: call.endIndex)] {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "," {
                arguments.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { arguments.append(current) }
        let converted = try arguments.map { argument -> String in
            let parts = argument.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else {
                throw ScenarioSet.FormatError(description: "operation \(call): argument \(argument) has no label")
            }
            return parts[0].trimmingCharacters(in: .whitespaces) + " = "
                + parts[1].trimmingCharacters(in: .whitespaces)
        }
        return call[..<open] + "(" + converted.joined(separator: ", ") + ")"
    }
}
