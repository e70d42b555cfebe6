import BatonDeclarations

/// A toy third printer of the declaration tree: TypeScript declarations (`.d.ts`) of what the plan declares.
///
/// It exists to prove the tree is enough: it imports the tree module and nothing else
/// (`DeclarationTreeTests.testToyPrinterImportsOnlyTheTree`), reads no plan, schema or AST, and decides nothing
/// but TypeScript spelling: property names quoted where they are not identifiers, `T | null` for an optional, a
/// `ReadonlyArray` per list, the runtime's shapes (`Result`, `Deferred`, `Streamed`) as declared in its preamble.
enum TypeScriptDeclarationPrinter {
    static let preamble = """
        export type Result<T> = { readonly value: T } | { readonly errors: ReadonlyArray<unknown> };
        export type Deferred<T> = "pending" | { readonly ready: T } | { readonly failed: ReadonlyArray<unknown> };
        export interface Streamed<T> { readonly items: ReadonlyArray<T>; readonly isComplete: boolean }

        """

    static func print(_ tree: DeclarationTree) -> String {
        var out = preamble
        for file in tree.files {
            out += "\n// \(file.file).d.ts\n"
            switch file.declaration {
            case .customScalar(let scalar):
                out += doc(scalar.documentation, "")
                out += "export type \(scalar.typeName) = string;\n"
            case .enumeration(let item):
                out += doc(item.documentation, "")
                out += "export enum \(item.typeName) {\n"
                for value in item.values {
                    out += doc(join(value.documentation, value.deprecation.map { "@deprecated " + $0.reason }), "  ")
                    out += "  \(literal(value.name)) = \(literal(value.name)),\n"
                }
                out += "}\n"
            case .inputObject(let item):
                out += doc(item.documentation, "")
                if item.isOneOf {
                    let cases = item.fields.map {
                        "{ readonly \(property($0.name)): \(type($0.type.nonOptional, [])) }"
                    }
                    out += "export type \(item.typeName) = \(cases.joined(separator: " | "));\n"
                    continue
                }
                out += "export interface \(item.typeName) {\n"
                for field in item.fields {
                    out += doc(join(field.documentation, field.deprecation.map { "@deprecated " + $0.reason }), "  ")
                    let mark = field.presence.mayBeLeftOut ? "?" : ""
                    let value = field.presence == .absentOrValue ? field.type.nonOptional : field.type
                    out += "  readonly \(property(field.name))\(mark): \(type(value, []));\n"
                }
                out += "}\n"
            case .fragment(let fragment):
                out += "/** on \(fragment.typeCondition.name)\(entryPoints(fragment.entryPoints)) */\n"
                out += lens(fragment.lens, path: [], indent: "")
            case .operation(let operation):
                out += "/** \(operation.kind) \(operation.name)\(entryPoints(operation.entryPoints)) */\n"
                out += lens(operation.lens, path: [], indent: "")
                out += "export interface \(operation.typeName)Variables {\n"
                for variable in operation.variables where !variable.isClientOnly {
                    out += "  readonly \(property(variable.name))\(variable.mayBeLeftOut ? "?" : ""): "
                    out += "\(type(variable.type, []));"
                    out += variable.defaultValue.map { " // = " + written($0) + "\n" } ?? "\n"
                }
                out += "}\n"
            }
        }
        return out
    }

    /// An interface for the lens, then a namespace of its nested lenses and its optimistic builder.
    private static func lens(_ lens: LensDeclaration, path: [String], indent: String) -> String {
        let here = path + [lens.typeName]
        var out = "\(indent)export interface \(lens.typeName) {\n"
        for member in lens.members {
            var notes = ["@read \(member.readMode)"]
            if case .field(_, let fieldName, let arguments) = member.source, !arguments.isEmpty {
                notes.append(
                    "@args \(fieldName)(" + arguments.map { "\($0.name): \(written($0.value))" }.joined(separator: ", ")
                        + ")")
            }
            if member.condition != [[]] { notes.append("@present " + condition(member.condition)) }
            out += doc(notes.joined(separator: " "), indent + "  ")
            out += "\(indent)  readonly \(property(member.name)): \(type(member.type, here));\n"
        }
        out += "\(indent)}\n"
        let nested = lens.members.compactMap(\.lens)
        guard !nested.isEmpty || lens.optimisticBuilder != nil else { return out }
        out += "\(indent)export namespace \(lens.typeName) {\n"
        for child in nested { out += self.lens(child, path: here, indent: indent + "  ") }
        if let builder = lens.optimisticBuilder {
            out += "\(indent)  export interface \(builder.typeName) {\n"
            if builder.takesTypename { out += "\(indent)    readonly __typename: string;\n" }
            for property in builder.properties {
                let mark = property.hasDefault ? "?" : ""
                let value =
                    property.mayBeLeftOut && !property.type.isOptional ? .optional(property.type) : property.type
                out += "\(indent)    readonly \(self.property(property.name))\(mark): \(type(value, here));\n"
            }
            out += "\(indent)  }\n"
        }
        return out + "\(indent)}\n"
    }

    /// A declared type in TypeScript; `lens` names a nested lens of the lens at `path`.
    private static func type(_ type: DeclaredType, _ path: [String]) -> String {
        switch type {
        case .optional(let wrapped): return self.type(wrapped, path) + " | null"
        case .list(let item): return "ReadonlyArray<\(self.type(item, path))>"
        case .result(let value): return "Result<\(self.type(value, path))>"
        case .deferred(let value): return "Deferred<\(self.type(value, path))>"
        case .streamed(let item): return "Streamed<\(self.type(item, path))>"
        case .named(let named):
            switch named {
            case .builtInScalar("Int"), .builtInScalar("Float"): return "number"
            case .builtInScalar("Boolean"): return "boolean"
            case .builtInScalar: return "string"
            case .customScalar(let name), .enumeration(let name), .inputObject(let name), .fragment(let name):
                return name
            case .lens(let name): return (path + [name]).joined(separator: ".")
            case .optimisticBuilder(let lens, let fragment, let builder):
                return (lens.map { path + [$0] } ?? [fragment ?? ""]).joined(separator: ".") + "." + builder
            }
        }
    }

    /// A written value as TypeScript would write it (a variable as `$name`).
    private static func written(_ value: WrittenValue) -> String {
        switch value {
        case .variable(let name): "$" + name
        case .int(let text), .float(let text): text
        case .string(let text), .enumValue(let text): literal(text)
        case .boolean(let flag): flag ? "true" : "false"
        case .null: "null"
        case .list(let items): "[" + items.map(written).joined(separator: ", ") + "]"
        case .object(let fields):
            "{ " + fields.map { property($0.name) + ": " + written($0.value) }.joined(separator: ", ") + " }"
        }
    }

    private static func entryPoints(_ points: [EntryPoint]) -> String {
        points.map { point -> String in
            switch point {
            case .fetch: " @fetch"
            case .subscribe: " @subscribe"
            case .mutationCall(let call): " @call" + (call.optimisticBuilder.map { " optimistic: \($0)" } ?? "")
            case .refetchQuery(let fragment): " @refetches \(fragment)"
            case .refetch(let refetch):
                " @refetch \(refetch.query)\(refetch.throughNode ? " by node" : "")"
                    + (refetch.connectionPath.isEmpty
                        ? "" : " @paginate \(refetch.connectionPath.joined(separator: "."))")
                    + (refetch.forward.map { " forward(\($0.count ?? "-"), \($0.cursor ?? "-"))" } ?? "")
                    + (refetch.backward.map { " backward(\($0.count ?? "-"), \($0.cursor ?? "-"))" } ?? "")
            }
        }.joined()
    }

    private static func condition(_ alternatives: [[ConditionAtom]]) -> String {
        if alternatives.isEmpty { return "never" }
        return alternatives.map { atoms in
            atoms.map { atom -> String in
                switch atom {
                case .include(let variable): "$\(variable)"
                case .skip(let variable): "!$\(variable)"
                case .deferred(let label, _): "deferred(\(label ?? ""))"
                }
            }.joined(separator: " && ")
        }.joined(separator: " || ")
    }

    /// TypeScript's spelling of a property name: as it is when it is an identifier (keywords are valid property
    /// names), else a string literal.
    private static func property(_ name: String) -> String {
        let isIdentifier =
            name.first.map { $0.isLetter || $0 == "_" || $0 == "$" } == true
            && name.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") && $0.isASCII }
        return isIdentifier ? name : literal(name)
    }

    private static func literal(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            if character == "\\" || character == "\"" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    private static func join(_ first: String?, _ second: String?) -> String? {
        let parts = [first, second].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }

    private static func doc(_ text: String?, _ indent: String) -> String {
        guard let text, !text.isEmpty else { return "" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count == 1 { return "\(indent)/** \(text) */\n" }
        return "\(indent)/**\n" + lines.map { "\(indent) * \($0)".trimmingTrailingSpaces + "\n" }.joined()
            + "\(indent) */\n"
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
