import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema
import BatonSyntax

/// An operation's file: a struct conforming to `Baton.GraphQLOperation` that carries the operation's
/// variables as typed properties (so the operation value is its variables), the document text with the
/// fragments it uses, the SHA-256 operation id for persisted queries, `onError` when baton.json sets it, and
/// the data lens as the nested `Data` type.
struct SwiftOperationTemplate {
    let generator: SwiftGenerator
    let operation: OperationModel
    let typeName: String

    private static let rules = IdentifierRules.swift
    private var names: SwiftNames { generator.names }

    private struct Variable {
        /// The tree's variable: its type, whether it may be left out, its default, its role.
        var declaration: VariableDeclaration
        /// Its Swift name, claimed in the operation's scope, and as written (`rules.quoted`).
        var name: String
        var quotedName: String
        /// Its property's type, and its init parameter (`after: String? = nil`).
        var type: String
        var parameter: String
    }

    /// Writes the operation's declaration into `text` (which is empty or ends with a line break), ending without a
    /// line break: what the template
    ///
    ///     \(opening)
    ///         \(access)static let document: String = \(document)
    ///         \(members)
    ///
    ///         \(data)
    ///     }
    ///     \(ifLet: entryPoints.mutationCall, { SwiftMutationCallTemplate(…).render() })
    ///
    /// writes, with the document's text and the `Data` lens, most of the file, written at their final indentation
    /// instead of re-indented line by line into the template (`opening` and `members` are the struct's members
    /// before and after `document`, `writeOpening` and `writeMembers`, written line by line too; a `@refetchable`
    /// fragment's query, rare, writes its own as templates).
    func write(into text: inout TextBuilder) {
        // The operation lowered here, in the file's job (its variables, lens, entry points, policies), and printed.
        let operation = generator.declarations.operation(self.operation)
        let refetched = operation.entryPoints.refetchedFragment
        let variables = refetched == nil ? claimVariables(operation) : []
        if let fragment = refetched {
            writeRefetchQueryOpening(operation, fragment: fragment, into: &text)
        } else {
            writeOpening(operation, into: &text)
        }
        text.add("\n    ")
        text.add(generator.access)
        text.add("static let document: String = ")
        writeDocument(operation, into: &text)
        text.add(UInt8(ascii: "\n"))
        if refetched != nil {
            refetchQueryMembers(operation).write(to: &text)
        } else {
            writeMembers(operation, variables: variables, into: &text)
        }
        text.add("\n\n")
        var written = SwiftLensTemplate.WrittenLenses()
        SwiftLensTemplate(
            generator: generator, lens: operation.lens, typeName: "Data", role: .operationData, enclosing: [typeName]
        ).write(into: &text, indent: "    ", written: &written)
        text.add("\n}")
        if refetched == nil, let call = operation.entryPoints.mutationCall {
            text.add(UInt8(ascii: "\n"))
            SwiftMutationCallTemplate(
                generator: generator, call: call, typeName: typeName, parameters: variables.map(\.parameter),
                arguments: variables.map(\.name)
            ).render().write(to: &text)
        }
    }

    /// Whether the operation's value is what a view's `@Query` gives it (a query): it carries the attached handle
    /// and reads through it.
    private static func isAttachable(_ operation: OperationDeclaration) -> Bool { operation.kind == .query }

    /// The operation's variables with their Swift names, claimed in the operation's scope, and their init
    /// parameters.
    private func claimVariables(_ operation: OperationDeclaration) -> [Variable] {
        var scope = NameScope(
            reserved: [
                "variables", "variableDefaults", "resolvedVariables", "operationName", "operationID", "document",
                "operationType",
                "throwOnFieldError", "onError", "clientVariables", "incrementalDelivery",
            ]
                + (Self.isAttachable(operation) ? Self.attachmentMembers : [])
                + SwiftNames.nestedReserved,
            shared: names.moduleTypeNames)
        return operation.variables.map { declaration in
            let name = scope.claim(Self.rules.declaredName(declaration.name, in: .member))
            let quoted = Self.rules.quoted(name)
            let type = declaration.mayBeLeftOut ? optionalType(declaration) : swiftType(declaration)
            return Variable(
                declaration: declaration, name: name, quotedName: quoted, type: type,
                parameter: declaration.mayBeLeftOut ? quoted + ": " + type + " = nil" : quoted + ": " + type)
        }
    }

    /// Writes the struct's opening, its lines up to `document`, ending without a line break: what the template
    ///
    ///     /// `\(operation.kind.rawValue) \(operation.name)`: reads a record of `\(operation.rootType)`.
    ///     \(access)\(generator.isolation)struct \(Self.rules.quoted(typeName)): \(conformance) {
    ///         \(access)static var operationName: String { \(SwiftLiteral.string(operation.name)) }
    ///         /// SHA-256 of `document`, for persisted queries.
    ///         \(access)static var operationID: String { \(SwiftLiteral.string(operation.operationID)) }
    ///
    /// wrote (no piece holds a line break).
    private func writeOpening(_ operation: OperationDeclaration, into text: inout TextBuilder) {
        let conformance =
            !Self.isAttachable(operation)
            ? "Baton.GraphQLOperation"
            : Self.takesDefaultVariables(operation) ? "Baton.DefaultVariablesOperation" : "Baton.AttachableOperation"
        text.add("/// `")
        text.add(operation.kind.rawValue)
        text.add(UInt8(ascii: " "))
        text.add(operation.name)
        text.add("`: reads a record of `")
        text.add(operation.rootType)
        text.add("`.\n")
        writeStructOpening(operation, conformance: conformance, into: &text)
    }

    /// Writes the struct's line and its first members, `operationName` and `operationID`, ending without a line
    /// break: every operation's struct opens so, a `@refetchable` fragment's query too (after its own comment).
    private func writeStructOpening(
        _ operation: OperationDeclaration, conformance: String, into text: inout TextBuilder
    ) {
        let access = generator.access
        text.add(access)
        text.add(generator.isolation)
        text.add("struct ")
        text.add(Self.rules.quoted(typeName))
        text.add(": ")
        text.add(conformance)
        text.add(" {\n    ")
        text.add(access)
        text.add("static var operationName: String { ")
        SwiftLiteral.string(operation.name, into: &text)
        text.add(" }\n    /// SHA-256 of `document`, for persisted queries.\n    ")
        text.add(access)
        text.add("static var operationID: String { ")
        SwiftLiteral.string(operation.operationID, into: &text)
        text.add(" }")
    }

    /// Every variable may be left out, so `init()` builds it: `@Query("…")` needs no variables passed.
    private static func takesDefaultVariables(_ operation: OperationDeclaration) -> Bool {
        isAttachable(operation) && operation.variables.allSatisfy(\.mayBeLeftOut)
    }

    /// Writes the struct's members after `document`, up to its `Data` lens, ending without a line break: what the
    /// template
    ///
    ///         \(if: operation.kind != .query, "\(access)static var operationType: Baton.OperationType { .\(kind) }")
    ///         \(if: operation.throwOnFieldError, "\(access)static var throwOnFieldError: Bool { true }")
    ///         \(if: operation.deliversIncrementally, "/// `@defer` or `@stream`: the request accepts …")
    ///         \(if: operation.deliversIncrementally, "\(access)static var incrementalDelivery: Bool { true }")
    ///         \(ifLet: operation.onError, { "\(access)static var onError: String? { \(SwiftLiteral.string($0)) }" })
    ///         \(if: !defaults.isEmpty, "/// The defaults the document declares: …")
    ///         \(if: !defaults.isEmpty, "\(access)static let variableDefaults: [String: Baton.JSONValue] = [\(…)]")
    ///         \(each: variables, { "\(access)var \(quotedName): \(type)" })
    ///         \(if: attachable, "\n/// The handle a view's `@Query` attached; …\n\(access)var attachment = …")
    ///
    ///         \(access)init(\(joined: parameters, separator: ", ")) {
    ///             \(each: variables, { "self.\(quotedName) = \(quotedName)" })
    ///         }
    ///         \(if: defaultVariables && !variables.isEmpty, "\(access)init() { self.init(\(unsetArguments)) }")
    ///
    ///         /// The variables as the request sends them: a nil optional variable is absent.
    ///         \(access)var variables: [String: Baton.JSONValue] {
    ///             \(if: sent.isEmpty, "[:]", else: variablesBody(sent))
    ///         }
    ///         \(if: !clientOnly.isEmpty, "\n/// The variables only client-only …\n\(access)var clientVariables: …")
    ///
    /// wrote, line by line: a part that is empty takes no line, and no piece holds a line break (names, types and
    /// encoded values are one line each) or ends a line in spaces.
    private func writeMembers(_ operation: OperationDeclaration, variables: [Variable], into text: inout TextBuilder) {
        let access = generator.access
        func memberLine(_ pieces: String...) {
            text.add("    ")
            for piece in pieces { text.add(piece) }
            text.add(UInt8(ascii: "\n"))
        }
        if operation.kind != .query {
            memberLine(access, "static var operationType: Baton.OperationType { .", operation.kind.rawValue, " }")
        }
        if operation.throwOnFieldError { memberLine(access, "static var throwOnFieldError: Bool { true }") }
        if operation.deliversIncrementally {
            memberLine("/// `@defer` or `@stream`: the request accepts an incremental (multipart) answer.")
            memberLine(access, "static var incrementalDelivery: Bool { true }")
        }
        if let onError = operation.onError {
            memberLine(access, "static var onError: String? { ", SwiftLiteral.string(onError), " }")
        }
        var defaults: [String] = []
        for variable in operation.variables {
            guard let value = variable.defaultValue else { continue }
            defaults.append(SwiftLiteral.string(variable.name) + ": " + SwiftInputEncoding.json(value))
        }
        if !defaults.isEmpty {
            memberLine(
                "/// The defaults the document declares: storage keys and conditions use them for an unset variable.")
            memberLine(
                access, "static let variableDefaults: [String: Baton.JSONValue] = [",
                defaults.joined(separator: ", "), "]")
        }
        for variable in variables { memberLine(access, "var ", variable.quotedName, ": ", variable.type) }
        if Self.isAttachable(operation) {
            text.add(UInt8(ascii: "\n"))
            memberLine("/// The handle a view's `@Query` attached; empty on a value the app made.")
            memberLine(access, "var attachment = Baton.Attachment<", Self.rules.quoted(typeName), ">()")
        }
        text.add("\n    ")
        text.add(access)
        text.add("init(")
        for (index, variable) in variables.enumerated() {
            if index > 0 { text.add(", ") }
            text.add(variable.parameter)
        }
        text.add(") {\n")
        for variable in variables { memberLine("    self.", variable.quotedName, " = ", variable.quotedName) }
        memberLine("}")
        if Self.takesDefaultVariables(operation), !variables.isEmpty {
            let unset = variables.map { Self.rules.argumentLabel($0.name) + ": nil" }.joined(separator: ", ")
            memberLine(access, "init() { self.init(", unset, ") }")
        }
        text.add(UInt8(ascii: "\n"))
        memberLine("/// The variables as the request sends them: a nil optional variable is absent.")
        memberLine(access, "var variables: [String: Baton.JSONValue] {")
        let sent = variables.filter { !$0.declaration.isClientOnly }
        if sent.isEmpty {
            memberLine("    [:]")
        } else {
            writeVariablesBody(sent, into: &text)
        }
        text.add("    }")
        let clientOnly = variables.filter(\.declaration.isClientOnly)
        guard !clientOnly.isEmpty else { return }
        text.add("\n\n")
        memberLine("/// The variables only client-only directives use: never sent, read when the answer is applied.")
        memberLine(access, "var clientVariables: [String: Baton.JSONValue] {")
        writeVariablesBody(clientOnly, into: &text)
        text.add("    }")
    }

    /// Writes the body of a `variables`-like member, each line at eight spaces and ending with a line break:
    ///
    ///     var values: [String: Baton.JSONValue] = [:]
    ///     if let value = self.after { values["after"] = … }     (one line per variable)
    ///     return values
    private func writeVariablesBody(_ variables: [Variable], into text: inout TextBuilder) {
        let indent = "        "
        text.add(indent)
        text.add("var values: [String: Baton.JSONValue] = [:]\n")
        for variable in variables {
            let named: SwiftInputEncoding.NamedValues = variable.declaration.holdsConnectionIDs ? .connectionIDs : .schema
            text.add(indent)
            if variable.declaration.mayBeLeftOut {
                text.add("if let value = self.")
                text.add(variable.quotedName)
                text.add(" { values[")
                SwiftLiteral.string(variable.declaration.name, into: &text)
                text.add("] = ")
                SwiftInputEncoding.encode(
                    variable.declaration.type.nonOptional.schemaType, .expression("value"), names: names, named: named,
                    into: &text)
                text.add(" }\n")
            } else {
                text.add("values[")
                SwiftLiteral.string(variable.declaration.name, into: &text)
                text.add("] = ")
                SwiftInputEncoding.encode(
                    variable.declaration.type.schemaType, .property(variable.quotedName), names: names, named: named,
                    into: &text)
                text.add(UInt8(ascii: "\n"))
            }
        }
        text.add(indent)
        text.add("return values\n")
    }

    /// Writes the opening of a `@refetchable` fragment's generated query (its variables as the pagination sets
    /// them): its comment, then the struct's opening every operation shares, ending without a line break.
    private func writeRefetchQueryOpening(
        _ operation: OperationDeclaration, fragment: String, into text: inout TextBuilder
    ) {
        text.add("/// `query ")
        text.add(operation.name)
        text.add("`: generated for the `@refetchable` fragment `")
        text.add(fragment)
        text.add("`;\n/// `Baton.Pagination` sends it with the fragment's variables and the page it asks for.\n")
        writeStructOpening(operation, conformance: "Baton.RefetchQueryOperation", into: &text)
    }

    /// The members of a `@refetchable` fragment's generated query after `document`.
    private func refetchQueryMembers(_ operation: OperationDeclaration) -> Template {
        let access = generator.access
        let declared = operation.variables.map { SwiftLiteral.string($0.name) }
        return """
                /// The variables the query declares.
                \(access)static let variableNames: Set<String> = [\(joined: declared, separator: ", ")]
                \(access)let variables: [String: Baton.JSONValue]

                \(access)init(variables: [String: Baton.JSONValue]) {
                    self.variables = variables.filter { Self.variableNames.contains($0.key) }
                }
            """
    }
    /// The members `Baton.AttachableOperation` gives a query value, which its variables must not take.
    static let attachmentMembers = ["attachment", "phase", "isStale", "isFetching", "lastFetchError", "retry"]

    /// Writes the document text at a member's indentation (four spaces), continuing the current line: the
    /// operation's own definition joined with each fragment's `fragmentDocument`, or the whole text when it does not
    /// split into those (see `DocumentParts`), as the template
    ///
    ///     Baton.documentText([
    ///         \(SwiftLiteral.multiline(parts.operation)),
    ///         \(lines: fragments.map { "\(names.fragmentReference($0)).fragmentDocument," })
    ///     ])
    ///
    /// interpolated there wrote it, without re-indenting the text through a template (the literal writes no line
    /// ending in spaces).
    private func writeDocument(_ operation: OperationDeclaration, into text: inout TextBuilder) {
        var member = SwiftLensTemplate.IndentedLines(indent: "    ", atLineStart: false)
        guard let parts = operation.documentParts, !parts.fragments.isEmpty else {
            return member.addMultilineLiteral(operation.documentText, to: &text)
        }
        member.add("Baton.documentText([", to: &text)
        member.endLine(to: &text)
        var entry = SwiftLensTemplate.IndentedLines(indent: "        ")
        entry.addMultilineLiteral(parts.operation, to: &text)
        entry.add(",", to: &text)
        for fragment in parts.fragments {
            entry.endLine(to: &text)
            entry.add(names.fragmentReference(fragment), to: &text)
            entry.add(".fragmentDocument,", to: &text)
        }
        entry.endLine(to: &text)
        member.add("])", to: &text)
    }

    private func optionalType(_ variable: VariableDeclaration) -> String {
        let plain = swiftType(variable.type.nonOptional.schemaType.nullable, connectionIDs: variable.holdsConnectionIDs)
        return plain.hasSuffix("?") ? plain : plain + "?"
    }

    /// A variable's Swift type: its input type, with `Baton.ConnectionID` for the IDs a `connections:` takes.
    private func swiftType(_ variable: VariableDeclaration) -> String {
        swiftType(variable.type.schemaType, connectionIDs: variable.holdsConnectionIDs)
    }

    private func swiftType(_ type: TypeRef, connectionIDs: Bool) -> String {
        let spelled = names.inputType(type)
        guard connectionIDs, type.namedType == "ID" else { return spelled }
        return spelled.replacing("String", with: "Baton.ConnectionID")
    }
}
