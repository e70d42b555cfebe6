import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// The fields that key a type's records, declared in `baton.json` (`keyFields`) or by Apollo's
/// `@typePolicy(keyFields:)` in the schema.
package struct KeyFieldsDeclaration: Sendable, Hashable {
    /// Where a declaration comes from: `baton.json`'s replaces the schema's for the same type.
    package enum Origin: Sendable, Hashable {
        case configuration
        case schema
    }
    package var typeName: String
    /// The field names, in the order written; each with its place, when known.
    package var fields: [String]
    package var origin: Origin
    /// Where the declaration is (the `keyFields` argument's string, or the `baton.json` entry).
    package var range: SourceRange?
    /// Where the type's name is written in `baton.json` (the entry's key), for an unknown type.
    package var typeRange: SourceRange?

    package init(
        typeName: String, fields: [String], origin: Origin, range: SourceRange?, typeRange: SourceRange? = nil
    ) {
        self.typeName = typeName
        self.fields = fields
        self.origin = origin
        self.range = range
        self.typeRange = typeRange
    }
}

/// The key of every record type, decided once: what both runtimes key records by (`Type:id`
/// unless a type declares other fields), what plates show and what optimistic builders require.
package struct RecordKeys: Sendable, Hashable {
    /// Per object type with declared key fields (its own, or inherited from an interface it
    /// implements or a union it belongs to), the fields in the order declared.
    package var objects: [String: [String]] = [:]
    /// Per interface or union with declared key fields, the fields (every object type of it has
    /// the same key).
    package var abstracts: [String: [String]] = [:]

    package init(objects: [String: [String]] = [:], abstracts: [String: [String]] = [:]) {
        self.objects = objects
        self.abstracts = abstracts
    }

    /// The key fields of a type (object, interface or union), when declared.
    package func fields(of typeName: String) -> [String]? { objects[typeName] ?? abstracts[typeName] }

    /// Whether an object type's key differs from the default (`id`): what the normalization plan
    /// must spell, since a record keyed by `["id"]` is keyed as every other.
    package func isCustom(_ typeName: String) -> Bool {
        guard let fields = objects[typeName] else { return false }
        return fields != ["id"]
    }

    package var isEmpty: Bool { objects.isEmpty && abstracts.isEmpty }
}

/// The record key policy: which fields key which type, from the declarations, as one pure
/// function (`decide`), with a diagnostic (`key-fields`) for every declaration it cannot honour.
///
/// 1. `baton.json`'s `keyFields` entry for a type replaces the schema's `@typePolicy(keyFields:)`.
/// 2. `keyFields` is Apollo's selection-set syntax: field names separated by spaces or commas.
///    A nested selection (`author { id }`), an alias or an argument is refused: a key is made of
///    the type's own leaf fields. An empty `keyFields` (the directive's default) declares nothing.
/// 3. Each key field exists on the type (on a union, on every member), is a leaf (a scalar or an
///    enum) and not a list, and takes no required argument (the text sent asks for it without any).
///    A root type is not keyed: its record is keyed by its name.
/// 4. As in Apollo Kotlin, an interface's or a union's key is the key of every object type of it;
///    an object type with a key of its own that differs from one it inherits, or inheriting two
///    different keys, is an error (its records could not be found by either).
package enum RecordKeyPolicy {
    package static let rule = "key-fields"

    /// The `@typePolicy(keyFields:)` declarations of the schema's types, parsed; and what cannot
    /// be parsed.
    package static func schemaDeclarations(_ schema: GraphQLSchema) -> ([KeyFieldsDeclaration], [Diagnostic]) {
        var declarations: [KeyFieldsDeclaration] = []
        var diagnostics: [Diagnostic] = []
        for name in schema.typeNames {
            guard let type = schema.types[name], type.isComposite else { continue }
            for directive in type.directives where directive.name == "typePolicy" {
                guard case .string(let text)? = directive.argument("keyFields") else { continue }
                let range = directive.location.map { SourceRange(file: $0.file, span: text.span) }
                switch parse(text.value) {
                case .success(let fields):
                    if fields.isEmpty { continue }
                    declarations.append(
                        KeyFieldsDeclaration(typeName: name, fields: fields, origin: .schema, range: range))
                case .failure(let problem):
                    diagnostics.append(
                        Diagnostic(.error, problem.message(typeName: name), rule: rule, range: range))
                }
            }
        }
        return (declarations, diagnostics)
    }

    /// Why a `keyFields` text is refused.
    package enum ParseProblem: Error, Hashable {
        case nested(String)
        case unexpected(String)

        func message(typeName: String) -> String {
            switch self {
            case .nested(let field):
                "keyFields of \"\(typeName)\" selects into \"\(field)\": Baton keys a record by leaf fields of its own type only; list them (\"id\"), or key \(typeName) by fields it has itself."
            case .unexpected(let text):
                "keyFields of \"\(typeName)\" must be field names separated by spaces (\"id mediaId\"); \"\(text)\" is not a field name."
            }
        }
    }

    /// Apollo's `keyFields` text as field names: names separated by white space or commas.
    package static func parse(_ text: String) -> Result<[String], ParseProblem> {
        var fields: [String] = []
        var current = ""
        func isNameStart(_ c: Character) -> Bool { c == "_" || (c.isASCII && c.isLetter) }
        func isNamePart(_ c: Character) -> Bool { isNameStart(c) || (c.isASCII && c.isNumber) }
        for character in text {
            if character == " " || character == "," || character == "\n" || character == "\t" || character == "\r" {
                if !current.isEmpty { fields.append(current) }
                current = ""
            } else if character == "{" {
                return .failure(.nested(current.isEmpty ? (fields.last ?? "{") : current))
            } else if current.isEmpty ? isNameStart(character) : isNamePart(character) {
                current.append(character)
            } else {
                return .failure(.unexpected(current + String(character)))
            }
        }
        if !current.isEmpty { fields.append(current) }
        return .success(fields)
    }

    /// The key of every type, from the schema's declarations and `baton.json`'s (`configured`),
    /// with an error for every declaration it cannot honour (which then keys nothing).
    package static func decide(schema: GraphQLSchema, configured: [KeyFieldsDeclaration]) -> (RecordKeys, [Diagnostic])
    {
        var (declarations, diagnostics) = schemaDeclarations(schema)
        let configuredTypes = Set(configured.map(\.typeName))
        declarations.removeAll { configuredTypes.contains($0.typeName) }
        declarations += configured
        var declared: [String: KeyFieldsDeclaration] = [:]
        for declaration in declarations {
            guard let type = schema.types[declaration.typeName], type.isComposite else {
                let kind = schema.types[declaration.typeName].map { _ in " is not an object type, interface or union" }
                diagnostics.append(
                    Diagnostic(
                        .error,
                        "keyFields names \"\(declaration.typeName)\", which\(kind ?? " the schema does not define"): only records of object types, interfaces and unions have keys.",
                        rule: rule, range: declaration.typeRange ?? declaration.range))
                continue
            }
            if [schema.queryTypeName, schema.mutationTypeName, schema.subscriptionTypeName].contains(type.name) {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        "keyFields names \"\(type.name)\", a root type: its record is keyed by its name (\"\(type.name)\").",
                        rule: rule, range: declaration.typeRange ?? declaration.range))
                continue
            }
            if let problem = problem(declaration.fields, of: type, schema: schema) {
                diagnostics.append(Diagnostic(.error, problem, rule: rule, range: declaration.range))
                continue
            }
            if let earlier = declared[type.name], earlier.fields != declaration.fields {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        "\"\(type.name)\" is given two keys, \(quoted(earlier.fields)) and \(quoted(declaration.fields)): declare one.",
                        rule: rule, range: declaration.range))
                continue
            }
            declared[type.name] = declaration
        }
        var keys = RecordKeys()
        for (name, declaration) in declared {
            if schema.types[name]?.kind != .object { keys.abstracts[name] = declaration.fields }
        }
        // Objects: their own key, or the one they inherit from their interfaces and unions.
        var inherited: [String: [(from: String, fields: [String])]] = [:]
        for name in keys.abstracts.keys.sorted() {
            guard let type = schema.types[name], let fields = keys.abstracts[name] else { continue }
            for object in schema.possibleTypes(of: type) { inherited[object.name, default: []].append((name, fields)) }
        }
        for name in schema.typeNames where schema.types[name]?.kind == .object {
            let own = declared[name]
            let from = inherited[name] ?? []
            var fields = own?.fields
            for source in from {
                if let current = fields, current != source.fields {
                    let range = own?.range ?? declared[source.from]?.range
                    let other =
                        own == nil
                        ? "the key \(quoted(current)) of another of its supertypes" : "its own key \(quoted(current))"
                    diagnostics.append(
                        Diagnostic(
                            .error,
                            "\"\(name)\" inherits the key \(quoted(source.fields)) from \"\(source.from)\" and has \(other): an object type has one key.",
                            rule: rule, range: range))
                    fields = nil
                    break
                }
                fields = source.fields
            }
            if let fields { keys.objects[name] = fields }
        }
        return (keys, diagnostics)
    }

    /// Why `fields` cannot key `type`, or nil.
    static func problem(_ fields: [String], of type: NamedTypeDef, schema: GraphQLSchema) -> String? {
        var seen = Set<String>()
        for field in fields where !seen.insert(field).inserted {
            return "keyFields of \"\(type.name)\" names \"\(field)\" twice."
        }
        let holders = type.kind == .union ? schema.possibleTypes(of: type) : [type]
        for holder in holders {
            for field in fields {
                guard let definition = holder.field(named: field) else {
                    let suggestion = Suggestions.didYouMean(Suggestions.list(field, holder.fields.map(\.name)))
                    return "keyFields of \"\(type.name)\": \"\(holder.name)\" has no field \"\(field)\".\(suggestion)"
                }
                let named = definition.type.namedType
                guard !definition.type.isList, schema.types[named]?.isLeaf == true else {
                    return
                        "keyFields of \"\(type.name)\": \"\(holder.name).\(field)\" is \(definition.type), not a scalar or an enum; a key is made of leaf values."
                }
                if let argument = definition.arguments.first(where: { $0.type.isNonNull && $0.defaultValue == nil }) {
                    return
                        "keyFields of \"\(type.name)\": \"\(holder.name).\(field)\" takes the required argument \"\(argument.name)\"; a key field is asked for without arguments."
                }
            }
        }
        return nil
    }

    static func quoted(_ fields: [String]) -> String { "\"" + fields.joined(separator: " ") + "\"" }
}
