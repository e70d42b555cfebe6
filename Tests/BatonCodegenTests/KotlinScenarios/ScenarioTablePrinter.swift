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

    static func swift(_ set: ScenarioSet) throws -> String {
        let keys = try set.tableKeys()
        var out = header + "import Baton\n\n"
        out += "/// The scenario set's operations and reads, through the generated Swift.\n"
        out += "enum ScenarioTables {\n"
        out += "    static func operation(_ key: String) -> (any GraphQLOperation)? {\n"
        out += "        switch key {\n"
        for key in keys.operations {
            out += "        case \(literal(key)): return \(key)\n"
        }
        out += "        default: return nil\n        }\n    }\n\n"
        out += "    static func read(_ key: String, _ data: Any?) -> String? {\n"
        out += "        switch key {\n"
        for key in keys.reads {
            let (operation, path) = split(key)
            out += "        case \(literal(key)):\n"
            out += "            return ScenarioShow.text((data as? \(operation).Data)?.\(path))\n"
        }
        out += "        default: return nil\n        }\n    }\n}\n"
        return out
    }

    static func kotlin(_ set: ScenarioSet) throws -> String {
        let keys = try set.tableKeys()
        let package = KotlinBuild.scenarioPackage
        var out = header + "package baton.tests\n\nimport baton.runtime.Operation\n\n"
        out += "/** The scenario set's operations and reads, through the generated Kotlin. */\n"
        out += "object ScenarioTables {\n"
        out += "    fun operation(key: String): Operation<*>? = when (key) {\n"
        for key in keys.operations {
            out += "        \(literal(key, kotlin: true)) -> \(package).\(try kotlinCall(key))\n"
        }
        out += "        else -> null\n    }\n\n"
        out += "    fun read(key: String, data: Any?): String? = when (key) {\n"
        for key in keys.reads {
            let (operation, path) = split(key)
            out += "        \(literal(key, kotlin: true)) ->\n"
            out += "            ScenarioShow.text((data as? \(package).\(operation).Data)?.\(path))\n"
        }
        out += "        else -> null\n    }\n}\n"
        return out
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
