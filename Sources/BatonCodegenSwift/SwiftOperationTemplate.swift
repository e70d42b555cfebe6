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
        /// Its Swift name, claimed in the operation's scope.
        var name: String
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
    ///     \(tail)
    ///
    /// writes, with the document's text and the `Data` lens, most of the file, written at their final indentation
    /// instead of re-indented line by line into the template (`opening` and `members` are the struct's members
    /// before and after `document`, and `tail` is what follows the struct, each a template of its own).
    func write(into text: inout TextBuilder) {
        // The operation lowered here, in the file's job (its variables, lens, entry points, policies), and printed.
        let operation = generator.declarations.operation(self.operation)
        let (opening, members, tail) =
            operation.entryPoints.refetchedFragment.map { refetchQuery(operation, fragment: $0) } ?? parts(operation)
        opening.write(to: &text)
        text.add("\n    ")
        text.add(generator.access)
        text.add("static let document: String = ")
        writeDocument(operation, into: &text)
        text.add(UInt8(ascii: "\n"))
        members.write(to: &text)
        text.add("\n\n")
        var written = SwiftLensTemplate.WrittenLenses()
        SwiftLensTemplate(
            generator: generator, lens: operation.lens, typeName: "Data", role: .operationData, enclosing: [typeName]
        ).write(into: &text, indent: "    ", written: &written)
        text.add(UInt8(ascii: "\n"))
        tail.write(to: &text)
    }

    /// The operation's templates: the struct's members before `document` and after it (up to its `Data` lens), and
    /// what follows the lens (the struct's end, and a mutation's call).
    private func parts(_ operation: OperationDeclaration) -> (opening: Template, members: Template, tail: Template) {
        let entryPoints = operation.entryPoints
        let access = generator.access
        // A query's value is what a view's `@Query` gives it: it carries the attached handle and reads through it.
        let attachable = operation.kind == .query
        var scope = NameScope(
            reserved: [
                "variables", "variableDefaults", "resolvedVariables", "operationName", "operationID", "document",
                "operationType",
                "throwOnFieldError", "onError", "clientVariables", "incrementalDelivery",
            ]
                + (attachable ? Self.attachmentMembers : [])
                + SwiftNames.nestedReserved,
            shared: names.moduleTypeNames)
        let declarations = operation.variables
        let variables = declarations.map {
            Variable(declaration: $0, name: scope.claim(Self.rules.declaredName($0.name, in: .member)))
        }
        let parameters = variables.map { variable -> String in
            let name = Self.rules.quoted(variable.name)
            return variable.declaration.mayBeLeftOut
                ? "\(name): \(optionalType(variable.declaration)) = nil" : "\(name): \(swiftType(variable.declaration))"
        }
        let defaults = declarations.compactMap { variable in
            variable.defaultValue.map { "\(SwiftLiteral.string(variable.name)): \(SwiftInputEncoding.json($0))" }
        }
        // Every variable may be left out, so `init()` builds it: `@Query("…")` needs no variables passed.
        let defaultVariables = attachable && declarations.allSatisfy(\.mayBeLeftOut)
        let conformance =
            !attachable
            ? "Baton.GraphQLOperation"
            : defaultVariables ? "Baton.DefaultVariablesOperation" : "Baton.AttachableOperation"
        let unsetArguments = variables.map { Self.rules.argumentLabel($0.name) + ": nil" }.joined(separator: ", ")
        let sent = variables.filter { !$0.declaration.isClientOnly }
        let clientOnly = variables.filter(\.declaration.isClientOnly)
        let attachment = Template(
            "\n/// The handle a view's `@Query` attached; empty on a value the app made.\n"
                + "\(access)var attachment = Baton.Attachment<\(Self.rules.quoted(typeName))>()")
        let emptyInitializer = Template("\(access)init() { self.init(\(unsetArguments)) }")
        let opening: Template = """
            /// `\(operation.kind.rawValue) \(operation.name)`: reads a record of `\(operation.rootType)`.
            \(access)\(generator.isolation)struct \(Self.rules.quoted(typeName)): \(conformance) {
                \(access)static var operationName: String { \(SwiftLiteral.string(operation.name)) }
                /// SHA-256 of `document`, for persisted queries.
                \(access)static var operationID: String { \(SwiftLiteral.string(operation.operationID)) }
            """
        let members: Template = """
                \(if: operation.kind != .query, "\(access)static var operationType: Baton.OperationType { .\(operation.kind.rawValue) }")
                \(if: operation.throwOnFieldError, "\(access)static var throwOnFieldError: Bool { true }")
                \(if: operation.deliversIncrementally, "/// `@defer` or `@stream`: the request accepts an incremental (multipart) answer.")
                \(if: operation.deliversIncrementally, "\(access)static var incrementalDelivery: Bool { true }")
                \(ifLet: operation.onError, { "\(access)static var onError: String? { \(SwiftLiteral.string($0)) }" })
                \(if: !defaults.isEmpty, "/// The defaults the document declares: storage keys and conditions use them for an unset variable.")
                \(if: !defaults.isEmpty, "\(access)static let variableDefaults: [String: Baton.JSONValue] = [\(defaults.joined(separator: ", "))]")
                \(each: variables, { variable in
                    let type =
                        variable.declaration.mayBeLeftOut
                        ? optionalType(variable.declaration) : swiftType(variable.declaration)
                    return "\(access)var \(Self.rules.quoted(variable.name)): \(type)"
                })
                \(if: attachable, attachment)

                \(access)init(\(joined: parameters, separator: ", ")) {
                    \(each: variables, { "self.\(Self.rules.quoted($0.name)) = \(Self.rules.quoted($0.name))" })
                }
                \(if: defaultVariables && !variables.isEmpty, emptyInitializer)

                /// The variables as the request sends them: a nil optional variable is absent.
                \(access)var variables: [String: Baton.JSONValue] {
                    \(if: sent.isEmpty, "[:]", else: variablesBody(sent))
                }
                \(if: !clientOnly.isEmpty, clientVariablesMember(clientOnly))
            """
        let tail: Template = """
            }
            \(ifLet: entryPoints.mutationCall, { SwiftMutationCallTemplate(generator: generator, call: $0, typeName: typeName, parameters: parameters, arguments: variables.map(\.name)).render() })
            """
        return (opening, members, tail)
    }

    /// A `@refetchable` fragment's generated query: its variables as the pagination sets them.
    private func refetchQuery(_ operation: OperationDeclaration, fragment: String) -> (
        opening: Template, members: Template, tail: Template
    ) {
        let access = generator.access
        let declared = operation.variables.map { SwiftLiteral.string($0.name) }
        let opening: Template = """
            /// `query \(operation.name)`: generated for the `@refetchable` fragment `\(fragment)`;
            /// `Baton.Pagination` sends it with the fragment's variables and the page it asks for.
            \(access)\(generator.isolation)struct \(Self.rules.quoted(typeName)): Baton.RefetchQueryOperation {
                \(access)static var operationName: String { \(SwiftLiteral.string(operation.name)) }
                /// SHA-256 of `document`, for persisted queries.
                \(access)static var operationID: String { \(SwiftLiteral.string(operation.operationID)) }
            """
        let members: Template = """
                /// The variables the query declares.
                \(access)static let variableNames: Set<String> = [\(joined: declared, separator: ", ")]
                \(access)let variables: [String: Baton.JSONValue]

                \(access)init(variables: [String: Baton.JSONValue]) {
                    self.variables = variables.filter { Self.variableNames.contains($0.key) }
                }
            """
        return (opening, members, "}")
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
            return member.add(SwiftLiteral.multiline(operation.documentText).text, to: &text)
        }
        member.add("Baton.documentText([", to: &text)
        member.endLine(to: &text)
        var entry = SwiftLensTemplate.IndentedLines(indent: "        ")
        entry.add(SwiftLiteral.multiline(parts.operation).text, to: &text)
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

    /// The client-only variables (never sent): what the runtime applies declarative updates with.
    private func clientVariablesMember(_ variables: [Variable]) -> Template {
        """

        /// The variables only client-only directives use: never sent, read when the answer is applied.
        \(generator.access)var clientVariables: [String: Baton.JSONValue] {
            \(variablesBody(variables))
        }
        """
    }

    private func variablesBody(_ variables: [Variable]) -> Template {
        """
        var values: [String: Baton.JSONValue] = [:]
        \(each: variables, { variable in
            let name = Self.rules.quoted(variable.name)
            let key = SwiftLiteral.string(variable.declaration.name)
            let nonNull = variable.declaration.type.nonOptional.schemaType
            let named: ((String, String) -> String?)? =
                variable.declaration.holdsConnectionIDs ? { type, value in type == "ID" ? "\(value).jsonValue" : nil } : nil
            if variable.declaration.mayBeLeftOut {
                return "if let value = self.\(name) { values[\(key)] = \(SwiftInputEncoding.encode(nonNull, "value", names: names, named: named)) }"
            }
            return "values[\(key)] = \(SwiftInputEncoding.encode(variable.declaration.type.schemaType, "self.\(name)", names: names, named: named))"
        })
        return values
        """
    }
}
