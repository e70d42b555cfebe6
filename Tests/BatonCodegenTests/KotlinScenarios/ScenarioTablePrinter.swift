import BatonIR
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
        var valueFunction: String
        var mutateFunction: String
        var operationCase: (_ key: String) throws -> String
        /// A `mutate` step's call, with its optimistic value (`(field: value, …)`) if any.
        var mutateCase: (_ call: String, _ optimistic: String?) throws -> String
        var mutateDefault: String
        /// The case's first line, then its value (an expression of `ScenarioShow`).
        var readCase: (_ key: String, _ value: String) -> String
        /// `data` cast to `Data` (a qualified type name), then the path.
        var cast: (_ data: String) -> String
        /// `ScenarioShow.attempt` or `ScenarioShow.tryRead` (`function`) of an expression that may throw.
        var attempt: (_ function: String, _ expression: String) -> String
        /// A path `list[]element` (an optional list, then a path into each item) in the language.
        var each: (_ list: String, _ element: String) -> String
        /// A path `list[?]element`, the list's items nullable (Swift's `NullableItem` reads through).
        var eachNullable: (_ list: String, _ element: String) -> String
        /// A path's `spread@`: the data of a fragment spread (Swift's `Fragment` wraps it: `.wrappedValue`).
        var spreadData: String
        /// A path in the language: Kotlin's safe call does not short-circuit the rest of a chain, so every member
        /// access after the first `?.` is a safe call too.
        var chain: (_ path: String) -> String
        /// `chain` for the path after the data's cast (itself optional).
        var chainAfterCast: (_ path: String) -> String
        var paginationFunction: String
        /// The pagination of a fragment spread (`expression`) of fragment `fragment`, as a `ScenarioPages`.
        var paginationCase: (_ key: String, _ expression: String, _ fragment: String) -> String
        var defaultCase: String
    }

    /// The scenario project's operations, by name, from its model: what an argument is in Kotlin (an optional
    /// variable takes `Optional.of(value)`, a kept connection ID is typed) and the names of a mutation's optimistic
    /// builders.
    static func operations() throws -> [String: OperationModel] {
        let project = try KotlinProjectSupport.project(at: KotlinBuild.scenarios)
        return Dictionary(project.model.operations.map { ($0.name, $0) }) { first, _ in first }
    }

    static func swift(_ set: ScenarioSet, operations: [String: OperationModel]) throws -> String {
        try table(
            set, operations: operations,
            Spelling(
                prelude: "import Baton\n\n/// The scenario set's operations and reads, through the generated Swift.\n"
                    + "enum ScenarioTables {\n",
                operationFunction: "    static func operation(_ key: String, _ values: [String: Any]) throws\n"
                    + "        -> (any GraphQLOperation)?\n    {\n"
                    + "        switch key {\n",
                readFunction: "    static func read(_ key: String, _ data: Any?) -> String? {\n        switch key {\n",
                valueFunction:
                    "    static func value(_ key: String, _ data: Any?) -> ScenarioKept? {\n        switch key {\n",
                mutateFunction:
                    "    static func mutate(_ key: String, _ values: [String: Any], _ environment: BatonEnvironment)\n"
                    + "        async throws -> Any?\n    {\n        switch key {\n",
                operationCase: { key in
                    let call = try swiftCall(key)
                    return
                        "        case \(literal(key)): return \(call.contains("ScenarioKept") ? "try " : "")\(call)\n"
                },
                mutateCase: { key, optimistic in
                    let name = ScenarioSet.operationName(key)
                    var arguments = String(try swiftCall(key).dropFirst(name.count + 1).dropLast())
                    if let optimistic {
                        let value = try optimisticValue(optimistic, operations[name]?.lens, type: name + ".Data")
                        arguments += (arguments.isEmpty ? "" : ", ") + "optimisticResponse: " + value
                    }
                    return "        case \(literal(key)):\n            return try await MutationCall<\(name)>"
                        + "(environment: environment)(\(arguments))\n"
                },
                mutateDefault: "        default:\n            throw ScenarioInterpreter.Failure(\n"
                    + "                description: \"\\(key) is not in ScenarioTables: regenerate the tables\")\n"
                    + "        }\n    }\n",
                readCase: { key, value in "        case \(literal(key)):\n            return \(value)\n" },
                cast: { data in "(data as? \(data))?." },
                attempt: { function, expression in "ScenarioShow.\(function) { try \(expression) }" },
                each: { list, element in list + ".map { $0.map { $0." + element + " } }" },
                eachNullable: { list, element in list + ".map { $0.map { $0." + element + " } }" },
                spreadData: ".wrappedValue", chain: { $0 }, chainAfterCast: { $0 },
                paginationFunction:
                    "    static func pagination(_ key: String, _ data: Any?, _ environment: BatonEnvironment)"
                    + " -> ScenarioPages? {\n        switch key {\n",
                paginationCase: { key, expression, _ in
                    "        case \(literal(key)):\n            return (\(expression)).map { "
                        + "ScenarioPages(environment.pagination(of: $0)) }\n"
                },
                defaultCase: "        default: return nil\n        }\n    }\n"))
    }

    static func kotlin(_ set: ScenarioSet, operations: [String: OperationModel]) throws -> String {
        let package = KotlinBuild.scenarioPackage
        return try table(
            set, operations: operations,
            Spelling(
                prelude: "package baton.tests\n\nimport baton.runtime.Operation\nimport \(package).invoke\n\n"
                    + "/** The scenario set's operations and reads, through the generated Kotlin. */\n"
                    + "object ScenarioTables {\n",
                operationFunction:
                    "    fun operation(key: String, values: Map<String, Any?>): Operation<*>? = when (key) {\n",
                readFunction: "    fun read(key: String, data: Any?): String? = when (key) {\n",
                valueFunction: "    fun value(key: String, data: Any?): ScenarioKept? = when (key) {\n",
                mutateFunction:
                    "    fun mutate(key: String, values: Map<String, Any?>, environment: baton.runtime.BatonEnvironment)"
                    + ": Any? = when (key) {\n",
                operationCase: { key in
                    "        \(literal(key, kotlin: true)) -> \(package).\(try kotlinCall(key, operations))\n"
                },
                mutateCase: { key, optimistic in
                    let name = ScenarioSet.operationName(key)
                    var arguments = String(try kotlinCall(key, operations).dropFirst(name.count + 1).dropLast())
                    if let optimistic {
                        let value = try optimisticValue(
                            optimistic, operations[name]?.lens, type: package + "." + name + ".Data", kotlin: true)
                        arguments += (arguments.isEmpty ? "" : ", ") + "optimisticResponse = " + value
                    }
                    return "        \(literal(key, kotlin: true)) ->\n            \(package).\(name).call(environment)"
                        + "(\(arguments))\n"
                },
                mutateDefault:
                    "        else -> throw IllegalStateException(\"$key is not in ScenarioTables: regenerate the tables\")\n"
                    + "    }\n",
                readCase: { key, value in "        \(literal(key, kotlin: true)) ->\n            \(value)\n" },
                cast: { data in "(data as? \(package).\(data))?." },
                attempt: { function, expression in "ScenarioShow.\(function) { \(expression) }" },
                each: { list, element in list + "?.map { it." + element + " }" },
                eachNullable: { list, element in list + "?.map { it?." + element + " }" },
                spreadData: "", chain: safeCalls, chainAfterCast: { safeCalls("?." + $0).dropFirst(2).description },
                paginationFunction:
                    "    fun pagination(key: String, data: Any?, environment: baton.runtime.BatonEnvironment)"
                    + ": ScenarioPages<*>? = when (key) {\n",
                paginationCase: { key, expression, fragment in
                    let type = package + "." + fragment
                    return "        \(literal(key, kotlin: true)) ->\n            \(expression)?.let { "
                        + "ScenarioPages(\(type).pagination(environment, it)) { f: \(type) -> "
                        + "\(type).pagination(environment, f) } }\n"
                },
                defaultCase: "        else -> null\n    }\n"))
    }

    private static func table(
        _ set: ScenarioSet, operations: [String: OperationModel], _ spelling: Spelling
    ) throws -> String {
        let keys = try set.tableKeys()
        var out = header + spelling.prelude + spelling.operationFunction
        for key in keys.operations { out += try spelling.operationCase(key) }
        out += spelling.defaultCase + "\n" + spelling.readFunction
        var values = ""
        var paginations = ""
        for key in keys.reads {
            var (operation, read) = split(key)
            // `pagination Fragment path`: the pagination of the fragment spread at `path` (`{"paginate": …}`).
            var fragment: String?
            if read.hasPrefix("pagination ") {
                let words = read.split(separator: " ", maxSplits: 2).map(String.init)
                guard words.count == 3 else { throw ScenarioSet.FormatError(description: "read \(key): no path") }
                fragment = words[1]
                read = words[2]
            }
            // `outcome path`, `attempt path`, `try path`, `present path`, `value path` or a bare path (`read`, `items`).
            let words = read.split(separator: " ", maxSplits: 1).map(String.init)
            let kind = words.count == 2 ? words[0] : "text"
            // `a!.b`: `b` of `@catch` field `a`'s value (nil when it failed), spelled alike in both languages.
            // `s@.b`: `b` of fragment spread `s`'s data.
            let path = (words.last ?? "").replacingOccurrences(of: "!.", with: ".caught()?.")
                .replacingOccurrences(of: "@.", with: spelling.spreadData + ".")
            let nullableItems = path.contains("[?]")
            var parts = path.components(separatedBy: nullableItems ? "[?]" : "[]")
            parts = parts.enumerated().map {
                $0.offset == 0 ? spelling.chainAfterCast($0.element) : spelling.chain($0.element)
            }
            guard parts.count <= 2, !(nullableItems && path.contains("[]")) else {
                throw ScenarioSet.FormatError(description: "read \(key): at most one [] or [?] in a path")
            }
            let expression =
                // An operation's data is its `Data`; a fragment's (read through a pagination) is the fragment.
                spelling.cast(operations[operation] == nil ? operation : operation + ".Data")
                + (parts.count < 2
                    ? parts[0]
                    : nullableItems ? spelling.eachNullable(parts[0], parts[1]) : spelling.each(parts[0], parts[1]))
            if let fragment {
                paginations += spelling.paginationCase(key, expression, fragment)
                continue
            }
            let value: String
            switch kind {
            case "text", "outcome", "present": value = "ScenarioShow.\(kind)(\(expression))"
            case "attempt": value = spelling.attempt("attempt", expression)
            case "try": value = spelling.attempt("tryRead", expression)
            case "value":
                // `{"keep": …}`: the value itself, for an operation's argument.
                values += spelling.readCase(key, "ScenarioKept(\(expression))")
                continue
            default: throw ScenarioSet.FormatError(description: "read \(key): unknown kind \(kind)")
            }
            out += spelling.readCase(key, value)
        }
        out += spelling.defaultCase + "\n" + spelling.valueFunction + values + spelling.defaultCase
        out += "\n" + spelling.paginationFunction + paginations + spelling.defaultCase
        out += "\n" + spelling.mutateFunction
        for (call, optimistic) in keys.mutations { out += try spelling.mutateCase(call, optimistic) }
        return out + spelling.mutateDefault + "}\n"
    }

    /// Kotlin's spelling of a path: after the first `?.`, each `.` a safe call too (`a?.b.c` → `a?.b?.c`).
    static func safeCalls(_ path: String) -> String {
        guard let first = path.range(of: "?.") else { return path }
        var out = String(path[..<first.upperBound])
        var previous: Character = "."
        for character in path[first.upperBound...] {
            if character == "." && previous != "?" { out += "?" }
            out.append(character)
            previous = character
        }
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

    /// Swift's spelling of an operation key: the key itself, a kept value `$name` read from `values`.
    static func swiftCall(_ key: String) throws -> String {
        try arguments(key).reduce(into: key) { call, argument in
            for name in argument.kept {
                call = call.replacingOccurrences(of: "$" + name, with: "ScenarioKept.get(values, \(literal(name)))")
            }
        }
    }

    /// A mutation's optimistic value, `(field: value, …)` with nested builders alike, as the generated builders
    /// take it: Swift's `Type.Optimistic(field: .init(…))`; Kotlin names each nested builder's class, after the
    /// model's lens names (`Data.AddFriend2.FriendEdge.Optimistic`) and `Lens.optimisticTypeName`.
    static func optimisticValue(_ text: String, _ lens: Lens?, type: String?, kotlin: Bool = false) throws -> String {
        guard let lens, let builder = lens.optimisticTypeName else {
            throw ScenarioSet.FormatError(description: "optimistic \(text): no optimistic builder here")
        }
        let fields = try arguments(text).map { argument -> String in
            var value = argument.value
            if value.hasPrefix("(") {
                let nested = lens.accessors.first { $0.name == argument.label }?.lens
                let nestedType = kotlin ? type.map { $0 + "." + (nested?.typeName ?? "") } : nil
                value = try optimisticValue(value, nested, type: nestedType, kotlin: kotlin)
            }
            return argument.label + (kotlin ? " = " : ": ") + value
        }
        return (type.map { $0 + "." + builder } ?? ".init") + "(" + fields.joined(separator: ", ") + ")"
    }

    /// An operation key's arguments: each label, its literal as written, and the names of the kept values
    /// (`$name`) it passes.
    struct Argument {
        var label: String
        var value: String
        var kept: [String]
    }

    /// The arguments of `Name(a: x, b: "y", c: [$kept])`: literals are spelled alike in both languages (strings,
    /// numbers, booleans, lists in brackets), `$name` is a value kept by a `{"keep": name}` step.
    static func arguments(_ call: String) throws -> [Argument] {
        guard let open = call.firstIndex(of: "("), call.hasSuffix(")") else {
            throw ScenarioSet.FormatError(description: "operation \(call): expected Name(argument: literal, …)")
        }
        var arguments: [String] = []
        var current = ""
        var inString = false
        var escaped = false
        var depth = 0
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
            } else if character == "[" || character == "(" {
                depth += 1
            } else if character == "]" || character == ")" {
                depth -= 1
            } else if character == "," && depth == 0 {
                arguments.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { arguments.append(current) }
        return try arguments.map { argument in
            let parts = argument.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else {
                throw ScenarioSet.FormatError(description: "operation \(call): argument \(argument) has no label")
            }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            let kept =
                value.hasPrefix("\"")
                ? []
                : value.split(separator: "$").dropFirst().map { name in
                    String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                }
            return Argument(label: parts[0].trimmingCharacters(in: .whitespaces), value: value, kept: kept)
        }
    }

    /// Swift's call `Name(a: x, b: "y")` in Kotlin's syntax, `Name(a = x, b = "y")`: a list `[x]` is `listOf(x)`,
    /// an optional variable's value `Optional.of(x)` and a kept value `$name` `kept<Type>(values, "name")` (a
    /// connection's ID: the only kind of value kept so far), as the model's `variables` say.
    static func kotlinCall(_ call: String, _ operations: [String: OperationModel]) throws -> String {
        let name = ScenarioSet.operationName(call)
        let converted = try arguments(call).map { argument -> String in
            guard let variable = operations[name]?.variables.first(where: { $0.name == argument.label }) else {
                throw ScenarioSet.FormatError(description: "operation \(call): no variable \(argument.label)")
            }
            var value = argument.value
            if !value.hasPrefix("\"") && !value.hasPrefix("(") {
                value = value.replacingOccurrences(of: "[", with: "listOf(").replacingOccurrences(of: "]", with: ")")
            }
            for kept in argument.kept {
                guard variable.holdsConnectionIDs else {
                    throw ScenarioSet.FormatError(
                        description: "operation \(call): $\(kept) passed to \(argument.label), not a connection's ID")
                }
                value = value.replacingOccurrences(
                    of: "$" + kept, with: "kept<baton.runtime.ConnectionId>(values, \(literal(kept, kotlin: true)))")
            }
            if variable.isOptional { value = "baton.runtime.Optional.of(\(value))" }
            return argument.label + " = " + value
        }
        return name + "(" + converted.joined(separator: ", ") + ")"
    }
}
