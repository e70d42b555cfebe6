import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonDeclarations
import BatonIR
import Foundation

/// Checks that generated Swift and Kotlin come from one plan: every definition is declared under
/// the plan's name in both languages, every operation carries the plan's id, every accessor has
/// the plan's optionality at every level, and the conditions both runtimes evaluate are the plan's
/// `presence.atRuntime`, no more and no fewer.
///
/// It reads generated text the way a reviewer would, not the generators' code: so a generator that
/// decided something on its own shows up here as a disagreement.
package enum PlanAgreement {
    /// The disagreements between `model` and the generated files (paths relative to each output
    /// folder; Kotlin's runtime support may be included, it is ignored).
    package static func problems(_ model: LensModel, swift: [GeneratedFile], kotlin: [GeneratedFile]) -> [String] {
        var problems: [String] = []
        let swiftFiles = Dictionary(swift.map { ($0.path, $0.contents) }, uniquingKeysWith: { first, _ in first })
        let kotlinFiles = Dictionary(kotlin.map { ($0.path, $0.contents) }, uniquingKeysWith: { first, _ in first })
        // An operation and a fragment of one name are an error of the model: nothing is generated.
        let shared = Set(model.operations.map(\.name)).intersection(model.fragments.map(\.name))
        // Each declaration's file is the layout's (`TopLevelLayout`), by kind and GraphQL name.
        var files: [String: String] = [:]
        for entry in TopLevelLayout(model).declarations {
            files["\(entry.kind.group) \(entry.graphQLName)"] = entry.file
        }

        let lowering = DeclarationLowering(model)
        func check(
            _ name: String, typeName: String, kind: TopLevelDeclaration.Kind.Group, lens: Lens?, operationID: String?,
            swiftType: String?, declaration: LensDeclaration? = nil
        ) {
            let label = "\(name) (\(typeName))"
            let file = files["\(kind) \(name)"] ?? typeName
            let swiftText = swiftType.map { _ in swiftFiles[file + ".graphql.swift"] } ?? nil
            let kotlinText = kotlinFiles[file + ".kt"]
            if let swiftType {
                if let swiftText {
                    let quoted = IdentifierRules.swift.quoted(typeName)
                    if !swiftText.contains("\(swiftType) \(quoted)") {
                        problems.append("\(label): Swift does not declare \(swiftType) \(quoted)")
                    }
                } else {
                    problems.append("\(label): no Swift file \(file).graphql.swift")
                }
            }
            guard let kotlinText else {
                problems.append("\(label): no Kotlin file \(file).kt")
                return
            }
            let kotlinName = IdentifierRules.kotlin.quoted(typeName)
            if !kotlinText.contains("class \(kotlinName)") && !kotlinText.contains("typealias \(kotlinName) ") {
                problems.append("\(label): Kotlin does not declare \(kotlinName)")
            }
            if let operationID {
                if let swiftText, !swiftText.contains("static var operationID: String { \"\(operationID)\" }") {
                    problems.append("\(label): Swift's operationID is not the plan's \(operationID)")
                }
                if !kotlinText.contains("const val OPERATION_ID: String = \"\(operationID)\"") {
                    problems.append("\(label): Kotlin's OPERATION_ID is not the plan's \(operationID)")
                }
            }
            guard let lens, let swiftText else { return }
            // Both languages declare a nested lens the tree shares with an equal earlier one as that one
            // (`LensSharing`): Swift as a typealias, Kotlin as a property typed with the earlier class; its accessors
            // (and their plan entries) are the earlier one's, written once.
            let declared = declaration.map { unshared(lens, $0) } ?? lens
            let expected = shapes(declared).sorted()
            let swiftShapes = GeneratedText.swiftShapes(swiftText).sorted()
            let kotlinShapes = GeneratedText.kotlinShapes(kotlinText).sorted()
            if swiftShapes != expected {
                problems.append("\(label): Swift optionality \(swiftShapes) ≠ \(expected)")
            }
            if kotlinShapes != expected {
                problems.append("\(label): Kotlin optionality \(kotlinShapes) ≠ \(expected)")
            }
            let conditions = presences(declared).sorted()
            let swiftConditions = GeneratedText.swiftConditions(swiftText).sorted()
            let kotlinConditions = GeneratedText.kotlinConditions(kotlinText).sorted()
            if swiftConditions != conditions {
                problems.append("\(label): Swift conditions \(swiftConditions) ≠ the plan's \(conditions)")
            }
            if kotlinConditions != conditions {
                problems.append("\(label): Kotlin conditions \(kotlinConditions) ≠ the plan's \(conditions)")
            }
            let keys = recordKeys(declared).sorted()
            let swiftKeys = GeneratedText.swiftRecordKeys(swiftText).sorted()
            let kotlinKeys = GeneratedText.kotlinRecordKeys(kotlinText).sorted()
            if swiftKeys != keys { problems.append("\(label): Swift record keys \(swiftKeys) ≠ the plan's \(keys)") }
            if kotlinKeys != keys { problems.append("\(label): Kotlin record keys \(kotlinKeys) ≠ the plan's \(keys)") }
            let phases = deliveries(declared).sorted()
            let swiftPhases = GeneratedText.swiftDeliveries(swiftText).sorted()
            let kotlinPhases = GeneratedText.kotlinDeliveries(kotlinText).sorted()
            if swiftPhases != phases {
                problems.append("\(label): Swift deliveries \(swiftPhases) ≠ the plan's \(phases)")
            }
            if kotlinPhases != phases {
                problems.append("\(label): Kotlin deliveries \(kotlinPhases) ≠ the plan's \(phases)")
            }
        }

        for operation in model.operations where !shared.contains(operation.name) {
            // Incremental delivery is the plan's to decide: both say it exactly when the plan does.
            let incremental = model.deliversIncrementally(operation, fragment: model.fragment(named:))
            let label = "\(operation.name) (\(operation.typeName))"
            let file = files["\(TopLevelDeclaration.Kind.Group.operation) \(operation.name)"] ?? operation.typeName
            if let swiftText = swiftFiles[file + ".graphql.swift"],
                swiftText.contains("static var incrementalDelivery: Bool { true }") != incremental
            {
                problems.append("\(label): Swift's incrementalDelivery is not the plan's \(incremental)")
            }
            if let kotlinText = kotlinFiles[file + ".kt"],
                kotlinText.contains("override val incrementalDelivery: Boolean get() = true") != incremental
            {
                problems.append("\(label): Kotlin's incrementalDelivery is not the plan's \(incremental)")
            }
            check(
                operation.name, typeName: operation.typeName, kind: .operation, lens: operation.lens,
                operationID: operation.operationID,
                swiftType: "struct", declaration: lowering.operation(operation).lens)
        }
        for fragment in model.fragments where !shared.contains(fragment.name) {
            check(
                fragment.name, typeName: fragment.typeName, kind: .fragment, lens: fragment.lens, operationID: nil,
                swiftType: "struct", declaration: lowering.fragment(fragment).lens)
        }
        for item in model.types.enums {
            check(
                item.name, typeName: item.typeName, kind: .enumeration, lens: nil, operationID: nil, swiftType: "enum")
        }
        for item in model.types.inputObjects {
            check(
                item.name, typeName: item.typeName, kind: .inputObject, lens: nil, operationID: nil,
                swiftType: item.isOneOf ? "enum" : "struct")
        }
        for item in model.types.customScalars {
            check(
                item.name, typeName: item.typeName, kind: .customScalar, lens: nil, operationID: nil, swiftType: nil)
        }
        return problems
    }

    /// `lens` without the accessors of the nested lenses `declaration` (its lowering) shares with an earlier equal one
    /// (`MemberDeclaration.sharedLens`): what Swift and Kotlin declare once.
    package static func unshared(_ lens: Lens, _ declaration: LensDeclaration) -> Lens {
        var lens = lens
        for (index, member) in zip(lens.accessors.indices, declaration.members) {
            guard case .lens(var nested) = lens.accessors[index].base, let nestedDeclaration = member.lens else {
                continue
            }
            if member.sharedLens != nil {
                nested.accessors = []
                nested.connectionIDName = nil
            } else {
                nested = unshared(nested, nestedDeclaration)
            }
            lens.accessors[index].base = .lens(nested)
        }
        return lens
    }

    /// `name: shape` of every accessor of a lens and its nested lenses: the type with every name
    /// replaced by `T` (`[T?]?`, `Result<T?>`).
    package static func shapes(_ lens: Lens) -> [String] {
        var result: [String] = []
        // A connection's lens reads its ConnectionID, never nil.
        if let name = lens.connectionIDName { result.append(name + ": T") }
        for accessor in lens.accessors {
            var shape = "T"
            for index in accessor.levels.indices.reversed() {
                if index < accessor.levels.count - 1 { shape = "[" + shape + "]" }
                if accessor.levels[index].isOptional { shape += "?" }
            }
            if case .parentRecord = accessor.reads { shape = accessor.isOptional ? "T?" : "T" }
            if accessor.catchMode == .result { shape = "Result<" + shape + ">" }
            if accessor.readMode == .deferred { shape = accessor.isOptional ? "Deferred<T>?" : "Deferred<T>" }
            if accessor.readMode == .streamed { shape = "Streamed<" + shape + ">" }
            result.append(accessor.name + ": " + shape)
            if let child = accessor.lens { result += shapes(child) }
        }
        return result
    }

    /// How every deferred or streamed accessor is delivered, in a neutral form: `name: deferred "label"` (or
    /// `deferred nil`), `name: streamed 2` (or `streamed $count`).
    package static func deliveries(_ lens: Lens) -> [String] {
        var result: [String] = []
        for accessor in lens.accessors {
            switch (accessor.readMode, accessor.delivery) {
            case (.deferred, .deferred(let fragment)):
                result.append(accessor.name + ": deferred " + (fragment.label.map { "\"" + $0 + "\"" } ?? "nil"))
            case (.streamed, .streamed(let list)):
                switch list.initialCount {
                case .literal(let count): result.append(accessor.name + ": streamed \(count)")
                case .variable(let name): result.append(accessor.name + ": streamed $" + name)
                }
            default: break
            }
            if let child = accessor.lens { result += deliveries(child) }
        }
        return result
    }

    /// The runtime conditions of every accessor that has some, in the neutral form of
    /// `GeneratedText.neutral`.
    package static func presences(_ lens: Lens) -> [String] {
        var result: [String] = []
        for accessor in lens.accessors {
            let runtime = accessor.presence.atRuntime
            if !runtime.isAlways { result.append(neutral(runtime)) }
            if let child = accessor.lens { result += presences(child) }
        }
        return result
    }

    /// The declared record keys every field accessor's plan carries, as `Type: a b; Other: c`.
    package static func recordKeys(_ lens: Lens) -> [String] {
        var result: [String] = []
        for accessor in lens.accessors {
            if !accessor.recordKeys.isEmpty {
                result.append(
                    accessor.recordKeys.map { $0.typeName + ": " + $0.fields.joined(separator: " ") }.joined(
                        separator: "; "))
            }
            if let child = accessor.lens { result += recordKeys(child) }
        }
        return result
    }

    /// `+a -b | +c` (alternatives sorted), `never` for a selection never present.
    package static func neutral(_ presence: Presence) -> String {
        if presence.isNever { return "never" }
        return presence.alternatives.map { conjunction in
            conjunction.compactMap { atom -> String? in
                switch atom {
                case .include(let variable): "+" + variable
                case .skip(let variable): "-" + variable
                case .deferred: nil
                }
            }.joined(separator: " ")
        }.sorted().joined(separator: " | ")
    }
}

/// What generated text says, read back: accessor types and conditions.
package enum GeneratedText {
    /// Accessor declarations of generated Swift: `var name: Type {` reading through the lens.
    package static func swiftShapes(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var result: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let range = trimmed.range(of: "var "), trimmed.hasSuffix("{") || trimmed.hasSuffix("}") else {
                continue
            }
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            guard trimmed.contains("lens") || trimmed.contains("throws") || next.contains("get throws") else {
                continue
            }
            let declaration = trimmed[range.upperBound...]
            guard let colon = declaration.range(of: ": "), let brace = declaration.range(of: " {") else { continue }
            let name = generatedName(declaration[..<colon.lowerBound])
            var type = String(declaration[colon.upperBound..<brace.lowerBound])
            var wrapped = false
            if type.hasPrefix("Swift.Result<"), type.hasSuffix(", Baton.FieldErrors>") {
                type = String(type.dropFirst("Swift.Result<".count).dropLast(", Baton.FieldErrors>".count))
                wrapped = true
            }
            if type.hasPrefix("Baton.DeferredPhase<") {
                result.append(name + ": " + (type.hasSuffix("?") ? "Deferred<T>?" : "Deferred<T>"))
                continue
            }
            if type.hasPrefix("Baton.Streamed<"), type.hasSuffix(">") {
                let items = String(type.dropFirst("Baton.Streamed<".count).dropLast())
                result.append(name + ": Streamed<" + shapeOf(SwiftTypeSpelling.bracketed(items)) + ">")
                continue
            }
            // Lists of lenses and spreads are spelt `Baton.LensList<…>` and `Baton.Fragment<…>`.
            let shape = shapeOf(SwiftTypeSpelling.bracketed(type))
            result.append(name + ": " + (wrapped ? "Result<" + shape + ">" : shape))
        }
        return result
    }

    /// Accessor declarations of generated Kotlin: `val name: Type get() =`.
    package static func kotlinShapes(_ text: String) -> [String] {
        var result: [String] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("val "), let getter = trimmed.range(of: " get() ") else { continue }
            let declaration = trimmed.dropFirst(4)[..<getter.lowerBound]
            guard let colon = declaration.range(of: ": ") else { continue }
            let name = generatedName(declaration[..<colon.lowerBound])
            var type = String(declaration[colon.upperBound...])
            if name == "SELECTIONS" && type == "List<Selection>" { continue }
            var wrapped = false
            if type.hasPrefix("FieldResult<"), type.hasSuffix(">") {
                type = String(type.dropFirst("FieldResult<".count).dropLast())
                wrapped = true
            }
            if type.hasPrefix("DeferredPhase<") {
                result.append(name + ": " + (type.hasSuffix("?") ? "Deferred<T>?" : "Deferred<T>"))
                continue
            }
            var streamed = false
            if type.hasPrefix("Streamed<"), type.hasSuffix(">") {
                type = String(type.dropFirst("Streamed<".count).dropLast())
                streamed = true
            }
            let converted = type.replacingOccurrences(of: "List<", with: "[").replacingOccurrences(of: ">", with: "]")
            let shape = shapeOf(converted)
            if streamed {
                result.append(name + ": Streamed<" + shape + ">")
                continue
            }
            result.append(name + ": " + (wrapped ? "Result<" + shape + ">" : shape))
        }
        return result
    }

    /// What generated Swift hands the runtime for each deferred or streamed accessor, in `deliveries`' form: the
    /// label of `lens.deferred(…, label:)` and `lens.deferredAs(…, label:)`, the count of `lens.streamed(…,
    /// initialCount:)`.
    package static func swiftDeliveries(_ text: String) -> [String] {
        var result: [String] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let range = trimmed.range(of: "var "),
                let colon = trimmed.range(of: ": ", range: range.upperBound..<trimmed.endIndex)
            else { continue }
            let name = generatedName(trimmed[range.upperBound..<colon.lowerBound])
            if trimmed.contains("lens.deferred"), let label = bracketed(after: "label: ", closing: ")", in: trimmed) {
                result.append(name + ": deferred " + unescaped(label))
            } else if trimmed.contains("lens.streamed("),
                let count = streamCount(
                    trimmed, literal: "initialCount: .literal(", variable: "initialCount: .variable(")
            {
                result.append(name + ": streamed " + count)
            }
        }
        return result
    }

    /// What generated Kotlin hands the runtime for each deferred or streamed accessor, in `deliveries`' form.
    package static func kotlinDeliveries(_ text: String) -> [String] {
        var result: [String] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("val "), let colon = trimmed.range(of: ": ") else { continue }
            let name = generatedName(trimmed.dropFirst(4)[..<colon.lowerBound])
            if let call = trimmed.range(of: ".deferred(") ?? trimmed.range(of: ".deferredInline("),
                let label = bracketed(after: ", ", closing: ")", in: String(trimmed[call.upperBound...]))
            {
                result.append(name + ": deferred " + unescaped(label))
            } else if trimmed.contains(".streamed("),
                let count = streamCount(trimmed, literal: "StreamCount.literal(", variable: "StreamCount.variable(")
            {
                result.append(name + ": streamed " + count)
            }
        }
        return result
    }

    /// The text after `opening` up to the first `closing` outside a string literal.
    static func bracketed(after opening: String, closing: Character, in text: String) -> String? {
        guard let start = text.range(of: opening)?.upperBound else { return nil }
        var inString = false
        var escaped = false
        var index = start
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                inString.toggle()
            } else if !inString, character == closing {
                return String(text[start..<index])
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// A string literal with its escapes removed (`nil` and `null` read as `nil`).
    static func unescaped(_ literal: String) -> String {
        if literal == "nil" || literal == "null" { return "nil" }
        var result = ""
        var escaped = false
        for character in literal {
            if !escaped, character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }

    /// `2` for `literal2)`, `$n` for `variable"n")`.
    static func streamCount(_ text: String, literal: String, variable: String) -> String? {
        if let count = bracketed(after: literal, closing: ")", in: text) { return count }
        if let name = bracketed(after: variable, closing: ")", in: text) {
            return "$" + unescaped(name).replacingOccurrences(of: "\"", with: "")
        }
        return nil
    }

    /// Every condition list generated Swift hands the runtime (`conditions: [...]` of a field or a
    /// selection), in the neutral form; empty lists left out.
    package static func swiftConditions(_ text: String) -> [String] {
        bracketed(after: "conditions: [", in: text).compactMap { list in
            list.isEmpty ? nil : neutralSwift(list)
        }
    }

    /// Every condition list generated Kotlin hands the runtime: each plan line's `c=` part (`PlanTable`'s text).
    package static func kotlinConditions(_ text: String) -> [String] {
        kotlinPlanParts(text, tag: "c=").map(neutralPlan)
    }

    /// The plan's conditions `+a,-b`, alternatives separated by `;`, never `F` → `+a -b`, `… | …`, `never`.
    static func neutralPlan(_ conditions: String) -> String {
        if conditions == "F" { return "never" }
        let alternatives = planSplit(conditions, ";").map { alternative in
            planSplit(alternative, ",").map(planUnescaped).joined(separator: " ")
        }
        return alternatives.count == 1 ? alternatives[0] : alternatives.sorted().joined(separator: " | ")
    }

    /// The value of every tagged part starting with `tag` (`c=`) in generated Kotlin's `PlanTable` texts.
    package static func kotlinPlanParts(_ text: String, tag: String) -> [String] {
        kotlinPlanTags(text).filter { $0.hasPrefix(tag) }.map { String($0.dropFirst(tag.count)) }
    }

    /// The tagged parts of every plan line in generated Kotlin's `PlanTable` texts (`c=+a`, `x`, `r=T` …): the parts
    /// after a field's 7, an inline fragment's 5 and a spread's 6, escapes kept.
    package static func kotlinPlanTags(_ text: String) -> [String] {
        kotlinPlanTexts(text).flatMap { plan in
            planSplit(plan, "\n").flatMap { line -> [String] in
                let parts = planSplit(line, "|")
                let fixed = ["F": 7, "I": 5, "S": 6][parts[0]] ?? parts.count
                return Array(parts.dropFirst(fixed))
            }
        }
    }

    /// Each `PlanTable(…)` text of generated Kotlin: its string literals unescaped and joined.
    package static func kotlinPlanTexts(_ text: String) -> [String] {
        bracketed(after: ": PlanTable(", in: text).map { arguments in
            var plan = ""
            var inString = false
            var characters = arguments.makeIterator()
            while let character = characters.next() {
                if !inString {
                    if character == "\"" { inString = true }
                    continue
                }
                switch character {
                case "\"": inString = false
                case "\\":
                    switch characters.next() {
                    case "n": plan.append("\n")
                    case "r": plan.append("\r")
                    case "t": plan.append("\t")
                    case "u":
                        let hex = String((0..<4).compactMap { _ in characters.next() })
                        if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                            plan.unicodeScalars.append(scalar)
                        }
                    case let escaped?: plan.append(escaped)
                    case nil: break
                    }
                default: plan.append(character)
                }
            }
            return plan
        }
    }

    /// A plan text's pieces between each `separator` that no `\` makes plain, escapes kept.
    static func planSplit(_ text: String, _ separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                current.append(character)
                escaped = true
            } else if character == separator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    /// A plan text's piece without its escapes (`\n` a line break).
    static func planUnescaped(_ text: String) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                result.append(character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `.include("a"), .skip("b")` → `+a -b`; `.anyOf([.allOf([…]), …])` → alternatives; `.literal(false)`.
    static func neutralSwift(_ list: String) -> String {
        if list == ".literal(false)" { return "never" }
        if list.hasPrefix(".anyOf([") {
            return bracketed(after: ".allOf([", in: list).map { atoms($0) }.sorted().joined(separator: " | ")
        }
        return atoms(list)
    }

    /// The include/skip atoms of a list, as `+a -b`.
    static func atoms(_ list: String) -> String {
        var result: [String] = []
        var rest = Substring(list)
        while let range = rest.range(of: "include(\"") ?? rest.range(of: "skip(\"") {
            let isInclude = rest[range].hasPrefix("include")
            let after = rest[range.upperBound...]
            guard let end = after.firstIndex(of: "\"") else { break }
            result.append((isInclude ? "+" : "-") + after[..<end])
            rest = after[end...]
        }
        return result.joined(separator: " ")
    }

    /// Every record-key table generated Swift hands the runtime (`keyFields: ["T": ["a", "b"]]`), as
    /// `T: a b; U: c`.
    package static func swiftRecordKeys(_ text: String) -> [String] {
        bracketed(after: "keyFields: [", in: text).map { neutralKeys($0, typeMarker: ":") }
    }

    /// Every record-key table generated Kotlin hands the runtime (a plan line's `K=T:a,b;U:c`).
    package static func kotlinRecordKeys(_ text: String) -> [String] {
        kotlinPlanParts(text, tag: "K=").map { table in
            planSplit(table, ";").map { entry in
                let typeAndFields = planSplit(entry, ":")
                let fields = planSplit(typeAndFields.last ?? "", ",").map(planUnescaped)
                return planUnescaped(typeAndFields[0]) + ": " + fields.joined(separator: " ")
            }.joined(separator: "; ")
        }
    }

    /// The quoted names of a key table: a name followed by `typeMarker` starts a type's entry.
    static func neutralKeys(_ list: String, typeMarker: String) -> String {
        var entries: [(String, [String])] = []
        var rest = Substring(list)
        while let open = rest.firstIndex(of: "\"") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "\"") else { break }
            let name = String(after[..<close])
            rest = after[after.index(after: close)...]
            if rest.hasPrefix(typeMarker) {
                entries.append((name, []))
            } else if !entries.isEmpty {
                entries[entries.count - 1].1.append(name)
            }
        }
        return entries.map { $0.0 + ": " + $0.1.joined(separator: " ") }.joined(separator: "; ")
    }

    /// The texts inside the bracket opened by each occurrence of `opening` (which ends with `[` or
    /// `(`), up to its matching close, nesting counted.
    static func bracketed(after opening: String, in text: String) -> [String] {
        var results: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: opening) {
            var depth = 1
            var index = range.upperBound
            var inString = false
            while index < rest.endIndex {
                let character = rest[index]
                if character == "\"" { inString.toggle() }
                if !inString {
                    if character == "[" || character == "(" { depth += 1 }
                    if character == "]" || character == ")" { depth -= 1 }
                    if depth == 0 { break }
                }
                index = rest.index(after: index)
            }
            results.append(String(rest[range.upperBound..<index]))
            rest = rest[index...]
        }
        return results
    }

    /// A declared name back to the model's: without backticks, and without the `_` a generator
    /// appends when the name would clash with a type in scope.
    static func generatedName(_ declared: Substring) -> String {
        var name = declared.replacingOccurrences(of: "`", with: "")
        while name.count > 1 && name.hasSuffix("_") { name.removeLast() }
        return name
    }

    /// The type with every run of name characters replaced by `T`.
    static func shapeOf(_ type: String) -> String {
        var shape = ""
        var inName = false
        for character in type {
            if character == "[" || character == "]" || character == "?" {
                shape.append(character)
                inName = false
            } else if !inName {
                shape.append("T")
                inName = true
            }
        }
        return shape
    }
}
