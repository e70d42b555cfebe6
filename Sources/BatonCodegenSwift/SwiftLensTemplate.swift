import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSyntax

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lens type: a struct over the runtime's `Baton.Lens` with one accessor per accessor of the model, the static
/// field descriptions it reads by, its selections, and its nested lens types.
///
/// Shape:
///
///     struct Repository: Baton.LensType {
///         let lens: Baton.Lens
///         init(lens: Baton.Lens) { self.lens = lens }
///         enum Fields {
///             static let nameWithOwner: Baton.Field = Baton.Field.leaf("nameWithOwner", "String!")
///         }
///         static let selections: [Baton.Selection] = [.field(Fields.nameWithOwner)]
///         var nameWithOwner: String { lens.read(Fields.nameWithOwner) }
///     }
struct SwiftLensTemplate {
    /// What the lens is the root of, which decides its static members.
    enum Role {
        /// An operation's data (`Data`).
        case operationData
        /// A named fragment's lens.
        case fragment(FragmentModel)
        /// A field's nested lens.
        case nested
        /// An inline fragment's lens (`asUser`), with its type condition.
        case inlineFragment(ParentRecordRead)
    }

    let generator: SwiftGenerator
    let lens: Lens
    let typeName: String
    let role: Role
    /// Names of the enclosing types, which nested ones must not repeat.
    let enclosing: [String]

    private var names: SwiftNames { generator.names }
    private var access: String { generator.access }
    private static let rules = IdentifierRules.swift

    /// One accessor with the names it is declared by.
    struct Member {
        var accessor: Accessor
        /// The property's name as declared (escaped where written with `rules.quoted`).
        var name: String
        /// The nested lens type's name, for `.lens` accessors.
        var nestedTypeName: String?
    }

    func render() -> Template {
        var text = TextBuilder(capacity: 4096)
        write(into: &text, indent: "")
        return text.template
    }

    /// Writes the lens's declaration, its nested lenses inside it, as the template
    ///
    ///     \(documentation)
    ///     \(access)struct \(typeName): \(conformance) {
    ///         \(access)let lens: Baton.Lens
    ///         \(access)init(lens: Baton.Lens) { self.lens = lens }
    ///         \(staticMembers)
    ///         \(if: !fields.isEmpty, fieldsEnum(fields))
    ///         \(access)static let selections: [Baton.Selection] = \(selections(members))
    ///         \(accessorDeclarations(members))
    ///         \(ifLet: connectionID, { $0 })
    ///         \(if: !nested.isEmpty, "\n\(lines: nested, separator: "\n\n")")
    ///         \(ifLet: optimistic, { "\n\($0)" })
    ///     }
    ///
    /// would write it, straight into `text`: each line that is not empty begins with `indent` (and
    /// a nested lens's with one level more), a part that is empty takes no line, and no line ends
    /// in spaces (no part writes one). A lens is most of a file, so no tree of templates is built,
    /// walked and released for it. Ends without a line break.
    func write(into text: inout TextBuilder, indent: String) {
        let members = declareMembers()
        // A lens reading its record's `id` is `Identifiable` by it (the model decides; the member keeps its name).
        let identifiable = lens.isIdentifiable && members.contains { $0.accessor.name == "id" && $0.name == "id" }
        var conformance = identifiable ? "Baton.LensType, Swift.Identifiable" : "Baton.LensType"
        if case .fragment(let fragment) = role, generator.declarations.entryPoints(of: fragment).refetch != nil {
            conformance += ", Baton.RefetchableFragment"
        }
        let fields = members.filter { if case .field = $0.accessor.reads { return true } else { return false } }
        let inner = indent + "    "
        text.add(indent)
        text.add(documentation)
        text.add(UInt8(ascii: "\n"))
        text.add(indent)
        text.add(access)
        if enclosing.isEmpty { text.add(generator.isolation) }
        text.add("struct ")
        text.add(Self.rules.quoted(typeName))
        text.add(": ")
        text.add(conformance)
        text.add(" {\n")
        text.add(inner)
        text.add(access)
        text.add("let lens: Baton.Lens\n")
        text.add(inner)
        text.add(access)
        text.add("init(lens: Baton.Lens) { self.lens = lens }\n")
        Self.addLines(staticMembers.text, indent: inner, to: &text)
        if !fields.isEmpty { Self.addLines(fieldsEnum(fields), indent: inner, to: &text) }
        Self.addLines(
            access + "static let selections: [Baton.Selection] = " + selections(members), indent: inner, to: &text)
        Self.addLines(accessorDeclarations(members), indent: inner, to: &text)
        if let name = lens.connectionIDName {
            Self.addLines(
                "/// The connection record this lens reads: what a mutation's `connections:` names.\n"
                    + "\(access)var \(Self.rules.quoted(name)): Baton.ConnectionID { Baton.ConnectionID(lens.key) }",
                indent: inner, to: &text)
        }
        for member in members {
            guard let lens = member.accessor.lens, let nestedName = member.nestedTypeName else { continue }
            let role: Role
            if case .parentRecord(let read) = member.accessor.reads {
                role = .inlineFragment(read)
            } else {
                role = .nested
            }
            // A blank line before each nested lens.
            text.add(UInt8(ascii: "\n"))
            SwiftLensTemplate(
                generator: generator, lens: lens, typeName: nestedName, role: role, enclosing: enclosing + [typeName]
            ).write(into: &text, indent: inner)
            text.add(UInt8(ascii: "\n"))
        }
        if let name = lens.optimisticTypeName {
            text.add(UInt8(ascii: "\n"))
            let optimistic = SwiftOptimisticTemplate(
                generator: generator, builder: generator.declarations.optimisticBuilder(lens, typeName: name),
                members: members)
            Self.addLines(optimistic.render().text, indent: inner, to: &text)
        }
        text.add(indent)
        text.add(UInt8(ascii: "}"))
    }

    /// Appends `lines` (nothing when it is empty) and a line break: each line that is not empty
    /// begins with `indent`, as an interpolated template's lines do.
    private static func addLines(_ lines: String, indent: String, to text: inout TextBuilder) {
        guard !lines.isEmpty else { return }
        var lines = lines
        lines.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start <= bytes.count {
                let end =
                    memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start).map {
                        UnsafeRawPointer($0) - UnsafeRawPointer(base)
                    } ?? bytes.count
                if end > start {
                    text.add(indent)
                    text.bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                }
                text.add(UInt8(ascii: "\n"))
                start = end + 1
            }
        }
    }

    private var documentation: String {
        switch role {
        case .operationData: return "/// The data of the operation: a lens of `\(lens.recordType)`."
        case .fragment(let fragment):
            return "/// The lens of fragment `\(fragment.name)`, reading a record of `\(fragment.typeCondition)`."
        case .nested: return "/// A lens of `\(lens.recordType)`."
        case .inlineFragment(let read):
            return "/// The parent's record as `\(read.typeCondition ?? lens.recordType)`."
        }
    }

    private var staticMembers: Template {
        switch role {
        case .operationData, .nested: return .empty
        case .fragment(let fragment):
            let condition =
                SwiftTypeConditionsTemplate.reference(
                    TypeCondition(name: fragment.typeCondition, possibleTypes: fragment.possibleTypes))
                ?? Self.typeConditionLiteral(fragment.typeCondition, possibleTypes: fragment.possibleTypes)
            let text = generator.documents.fragmentTexts[fragment.name]
            return """
                \(access)static let fragmentName: String? = \(SwiftLiteral.string(fragment.name))
                \(access)static let typeCondition: Baton.TypeCondition? = \(condition)
                \(ifLet: generator.declarations.entryPoints(of: fragment).refetch, { refetchableMembers($0) })
                \(ifLet: text, { text in
                    """
                    /// The fragment's definition as operations send it (their `document` joins it).
                    \(access)static let fragmentDocument: String = \(SwiftLiteral.multiline(text))
                    """
                })
                """
        case .inlineFragment(let read):
            guard let condition = read.typeCondition, let matching = read.matchingTypes else { return .empty }
            return
                "\(access)static let typeCondition: Baton.TypeCondition? = \(Self.typeConditionLiteral(condition, possibleTypes: matching))"
        }
    }

    /// A `@refetchable` fragment's query, the fields down to its connection, and the variables that page it.
    private func refetchableMembers(_ refetch: RefetchEntryPoint) -> Template {
        let query =
            generator.model.operation(named: refetch.query).map {
                generator.names.operations[$0.name] ?? $0.typeName
            }
            ?? refetch.query
        var path: [String] = []
        var current = self
        var prefix = ""
        for name in refetch.connectionPath {
            guard let member = current.declareMembers().first(where: { $0.accessor.name == name }) else { break }
            path.append(prefix + "Fields." + Self.rules.quoted(member.name))
            guard let nested = member.accessor.lens, let nestedName = member.nestedTypeName else { break }
            prefix += Self.rules.quoted(nestedName) + "."
            current = SwiftLensTemplate(
                generator: generator, lens: nested, typeName: nestedName, role: .nested,
                enclosing: current.enclosing + [current.typeName])
        }
        let paging = [
            ("forwardCount", refetch.forward?.count), ("forwardCursor", refetch.forward?.cursor),
            ("backwardCount", refetch.backward?.count), ("backwardCursor", refetch.backward?.cursor),
        ].compactMap { label, value in value.map { "\(label): \(SwiftLiteral.string($0))" } }
        return """
            /// The query that fetches this fragment's record again (`@refetchable`), and how it pages.
            \(access)typealias RefetchQuery = \(Self.rules.quoted(query))
            \(access)static let connectionPath: [Baton.Field] = [\(joined: path, separator: ", ")]
            \(access)static let paging: Baton.PagingVariables = Baton.PagingVariables(\(joined: paging, separator: ", "))
            \(access)static let refetchesThroughNode: Bool = \(refetch.throughNode ? "true" : "false")
            """
    }

    static func typeConditionLiteral(_ name: String, possibleTypes: [String]) -> String {
        let types = possibleTypes.filter { $0 != name }
        if types.isEmpty { return "Baton.TypeCondition(\(SwiftLiteral.string(name)))" }
        return
            "Baton.TypeCondition(\(SwiftLiteral.string(name)), possibleTypes: [\(types.map(SwiftLiteral.string).joined(separator: ", "))])"
    }

    /// Claims member names (properties) and nested type names, in the model's order.
    func declareMembers() -> [Member] {
        // Members shadow module-level types inside this type and the types nested in it, so they avoid those names.
        var memberScope = NameScope(reserved: ["lens"] + SwiftNames.nestedReserved, shared: names.moduleTypeNames)
        var members = lens.accessors.map { accessor in
            Member(accessor: accessor, name: memberScope.claim(Self.rules.declaredName(accessor.name, in: .member)))
        }
        var typeScope = NameScope(
            reserved: SwiftNames.nestedReserved + enclosing + [typeName]
                + members.map { (member: Member) in member.name },
            shared: names.moduleTypeNames)
        for index in members.indices where members[index].accessor.lens != nil {
            let preferred = members[index].accessor.lens?.typeName ?? Casing.upperFirst(members[index].accessor.name)
            members[index].nestedTypeName = typeScope.claim(Self.rules.declaredName(preferred, in: .type))
        }
        return members
    }

    // MARK: Static data

    /// The `Fields` enum, written as one text: each member is one line (a field description holds
    /// no line break), so it needs none of a template's re-indenting.
    private func fieldsEnum(_ members: [Member]) -> String {
        var text = TextBuilder(capacity: 64 + members.count * 96)
        text.add(access)
        text.add("enum Fields {")
        for member in members {
            text.add("\n    ")
            text.add(access)
            text.add("static let ")
            text.add(Self.rules.quoted(member.name))
            text.add(": Baton.Field = ")
            fieldDescription(member, into: &text)
        }
        text.add("\n}")
        return text.text
    }

    /// Appends the field's `Baton.Field` description: `Baton.Field.leaf(name, "Type!")` or
    /// `.composite(name, "Type", Nested.selections)` in the common case, a call the type checker
    /// resolves cheaply (no overloads, no defaulted parameters); `Baton.Field(...)` with only the
    /// arguments it needs otherwise.
    private func fieldDescription(_ member: Member, into text: inout TextBuilder) {
        guard case .field(let read) = member.accessor.reads else { return }
        let accessor = member.accessor
        let conditions = runtimeConditions(accessor)
        let scalar: String? = {
            guard case .scalar(let scalar) = accessor.base, !scalar.isBuiltIn, let mapped = scalar.mapping?.swiftType,
                accessor.required != nil
            else { return nil }
            return mapped
        }()
        if read.fieldName == accessor.name, read.arguments.isEmpty, conditions == nil, accessor.required == nil,
            accessor.catchMode == nil, scalar == nil, accessor.connection == nil, accessor.recordUpdate == nil,
            accessor.recordKeys.isEmpty
        {
            text.add(member.nestedTypeName == nil ? "Baton.Field.leaf(" : "Baton.Field.composite(")
            SwiftLiteral.string(read.fieldName, into: &text)
            text.add(", ")
            SwiftLiteral.string(SwiftNames.notation(read.schemaType), into: &text)
            if let nested = member.nestedTypeName {
                text.add(", ")
                text.add(Self.rules.quoted(nested))
                text.add(".selections")
            }
            text.add(UInt8(ascii: ")"))
            return
        }
        text.add("Baton.Field(")
        SwiftLiteral.string(read.fieldName, into: &text)
        if read.fieldName != accessor.name {
            text.add(", alias: ")
            SwiftLiteral.string(accessor.name, into: &text)
        }
        if !read.arguments.isEmpty {
            text.add(", arguments: [")
            for (index, argument) in read.arguments.enumerated() {
                text.add(index == 0 ? "(" : ", (")
                SwiftLiteral.string(argument.name, into: &text)
                text.add(", ")
                text.add(SwiftInputEncoding.inputValue(WrittenValue(argument.value)))
                text.add(UInt8(ascii: ")"))
            }
            text.add(UInt8(ascii: "]"))
        }
        text.add(", type: ")
        text.add(SwiftNames.graphQLType(read.schemaType))
        if let nested = member.nestedTypeName {
            text.add(", selections: ")
            text.add(Self.rules.quoted(nested))
            text.add(".selections")
        }
        if let conditions {
            text.add(", conditions: ")
            text.add(conditions)
        }
        if let required = accessor.required {
            switch required.action {
            case .log: text.add(", required: .log")
            case .throwError: text.add(", required: .throw")
            default: text.add(", required: Baton.RequiredAction.none")
            }
        }
        switch accessor.catchMode {
        case .result?: text.add(", catchTo: .result")
        case .null?: text.add(", catchTo: .null")
        case nil: break
        }
        if let scalar { text.add(", scalar: \(scalar).self") }
        if let connection = accessor.connection {
            let filters = connection.filters.map(SwiftLiteral.string).joined(separator: ", ")
            text.add(
                ", connection: Baton.ConnectionSpec(key: \(SwiftLiteral.string(connection.key)), filters: [\(filters)])"
            )
        }
        if let update = accessor.recordUpdate {
            var parts = [".\(update.kind.rawValue)"]
            if let connections = update.connections {
                parts.append("connections: " + SwiftInputEncoding.inputValue(WrittenValue(connections)))
            }
            if let edge = update.edgeTypeName { parts.append("edgeTypename: " + SwiftLiteral.string(edge)) }
            if let type = update.typeName { parts.append("typename: " + SwiftLiteral.string(type)) }
            text.add(", update: Baton.RecordUpdate(" + parts.joined(separator: ", ") + ")")
        }
        if !accessor.recordKeys.isEmpty {
            let entries = accessor.recordKeys.map { key in
                SwiftLiteral.string(key.typeName) + ": [" + key.fields.map(SwiftLiteral.string).joined(separator: ", ")
                    + "]"
            }
            text.add(", keyFields: [" + entries.joined(separator: ", ") + "]")
        }
        text.add(UInt8(ascii: ")"))
    }

    /// The runtime's conditions for an accessor that can be absent, spelling the plan's `presence.atRuntime` as the
    /// Kotlin generator does: one alternative as its list of conditions, several as one `anyOf` of `allOf`s, never
    /// present as `literal(false)`; nil when it is always present.
    private func runtimeConditions(_ accessor: Accessor) -> String? {
        let presence = accessor.presence.atRuntime
        if presence.isAlways { return nil }
        if presence.isNever { return "[.literal(false)]" }
        func conjunction(_ atoms: [PresenceAtom]) -> String {
            "[" + atoms.compactMap(conditionLiteral).joined(separator: ", ") + "]"
        }
        if presence.alternatives.count == 1, let only = presence.alternatives.first { return conjunction(only) }
        let alternatives = presence.alternatives.map { ".allOf(" + conjunction($0) + ")" }
        return "[.anyOf([" + alternatives.joined(separator: ", ") + "])]"
    }

    /// A deferred accessor's label as the runtime is handed it: a string literal, or `nil`.
    private static func labelLiteral(_ delivery: Delivery) -> String {
        guard case .deferred(let fragment) = delivery, let label = fragment.label else { return "nil" }
        return SwiftLiteral.string(label)
    }

    private func conditionLiteral(_ atom: PresenceAtom) -> String? {
        switch atom {
        case .include(let variable): return ".include(" + SwiftLiteral.string(variable) + ")"
        case .skip(let variable): return ".skip(" + SwiftLiteral.string(variable) + ")"
        case .deferred: return nil  // not in `atRuntime`
        }
    }

    private func selections(_ members: [Member]) -> String {
        if members.isEmpty { return "[]" }
        var text = TextBuilder(capacity: 16 + members.count * 48)
        text.add(members.count == 1 ? "[" : "[\n    ")
        for (index, member) in members.enumerated() {
            if index > 0 { text.add(",\n    ") }
            guard case .parentRecord(let read) = member.accessor.reads else {
                text.add(".field(Fields.")
                text.add(Self.rules.quoted(member.name))
                text.add(UInt8(ascii: ")"))
                continue
            }
            let conditions = runtimeConditions(member.accessor) ?? "[]"
            switch member.accessor.base {
            case .fragment(let fragment):
                let type = names.fragmentReference(fragment.name)
                text.add(
                    conditions == "[]"
                        ? ".fragment(\(type).self)" : ".fragment(\(type).self, conditions: \(conditions))")
            default:
                let nested = Self.rules.quoted(member.nestedTypeName ?? "")
                let condition =
                    read.matchingTypes == nil || read.typeCondition == nil ? "nil" : "\(nested).typeCondition"
                text.add(
                    ".inlineFragment(typeCondition: \(condition), conditions: \(conditions), selections: \(nested).selections)"
                )
            }
        }
        text.add(members.count == 1 ? "]" : ",\n]")
        return text.text
    }

    // MARK: Accessors

    /// Every accessor's declaration, one after another, as one text (none is empty, none ends a line in
    /// spaces: what the list of templates it replaces would write, without a template per accessor).
    private func accessorDeclarations(_ members: [Member]) -> String {
        var text = TextBuilder(capacity: members.count * 80)
        for member in members {
            if !text.isEmpty { text.add(UInt8(ascii: "\n")) }
            let accessor = member.accessor
            // The common case, `var name: T { lens.read(Fields.name) }`, without its pieces as strings.
            guard accessor.readMode == .plain, accessor.presence.atRuntime.isAlways else {
                text.add(accessorDeclaration(member))
                continue
            }
            let name = Self.rules.quoted(member.name)
            let baseType = names.baseType(accessor.base, nestedName: member.nestedTypeName.map(Self.rules.quoted))
            let isLens: Bool
            if case .lens = accessor.base { isLens = true } else { isLens = false }
            text.add(access)
            text.add("var ")
            text.add(name)
            text.add(": ")
            text.add(SwiftNames.wrap(baseType, levels: accessor.levels, lens: isLens))
            text.add(" { lens.read(Fields.")
            text.add(name)
            text.add(") }")
        }
        return text.text
    }

    private func accessorDeclaration(_ member: Member) -> String {
        let accessor = member.accessor
        let name = Self.rules.quoted(member.name)
        let baseType = names.baseType(accessor.base, nestedName: member.nestedTypeName.map(Self.rules.quoted))
        let isLens: Bool
        if case .lens = accessor.base { isLens = true } else { isLens = false }
        let valueType = SwiftNames.wrap(baseType, levels: accessor.levels, lens: isLens)
        let field = "Fields.\(name)"
        // A selection under @include/@skip reads nil, without a missing-data report, when it was not asked for.
        let conditions = runtimeConditions(accessor)
        let conditionCheck: String? =
            conditions.map { _ in
                if case .field = accessor.reads { return "lens.includes(\(field).conditions)" }
                return "lens.includes(\(conditions ?? "[]"))"
            }
        let declared = access + "var " + name + ": "
        func plain(_ type: String, _ call: String, excluded: String = "nil") -> String {
            guard let conditionCheck else { return declared + type + " { " + call + " }" }
            return declared + type + " { " + conditionCheck + " ? " + call + " : " + excluded + " }"
        }
        func throwing(_ type: String, _ call: String) -> String {
            guard let conditionCheck else {
                return declared + type + " { get throws(Baton.ReadError) { try " + call + " } }"
            }
            return declared + type + " {\n    get throws(Baton.ReadError) {\n        guard " + conditionCheck
                + " else { return nil }\n        return try " + call + "\n    }\n}"
        }
        switch accessor.readMode {
        case .spread:
            // A named fragment's spread reads as the `Baton.Fragment` a parent passes to the fragment's view.
            if case .fragment = accessor.base {
                let reference = "Baton.Fragment<" + baseType + ">"
                if accessor.isOptional { return plain(reference + "?", "lens.spread(\(baseType).self)") }
                return plain(reference, "Baton.Fragment(lens: lens)")
            }
            if accessor.isOptional { return plain(baseType + "?", "lens.as(\(baseType).self)") }
            return plain(baseType, "\(baseType)(lens: lens)")
        case .deferred:
            // A deferred spread or inline fragment reads as its phase: pending, ready with its lens, failed.
            let label = Self.labelLiteral(accessor.delivery)
            let (phase, call): (String, String)
            if case .fragment = accessor.base {
                phase = "Baton.DeferredPhase<Baton.Fragment<" + baseType + ">>"
                call = "lens.deferred(\(baseType).self, label: \(label))"
            } else {
                phase = "Baton.DeferredPhase<" + baseType + ">"
                call = "lens.deferredAs(\(baseType).self, label: \(label))"
            }
            if accessor.isOptional { return plain(phase + "?", call) }
            return plain(phase, call + " ?? .pending")
        case .streamed:
            // A streamed list reads the items so far, whether more are coming, and the initial count asked for.
            guard case .streamed(let list) = accessor.delivery else { return plain(valueType, "lens.read(\(field))") }
            let count =
                switch list.initialCount {
                case .literal(let value): ".literal(\(value))"
                case .variable(let name): ".variable(" + SwiftLiteral.string(name) + ")"
                }
            return plain(
                "Baton.Streamed<" + valueType + ">", "lens.streamed(\(field), initialCount: \(count))",
                excluded: ".absent")
        case .typename:
            return plain(valueType, accessor.isOptional ? "lens.typename" : "lens.typename ?? \"\"")
        case .catchToResult:
            return plain(
                "Swift.Result<\(valueType), Baton.FieldErrors>", "lens.caught(\(field))", excluded: ".success(nil)")
        case .catchToNull:
            return plain(valueType, "lens.caughtToNull(\(field))")
        case .throwWhenNull:
            return throwing(valueType, "lens.requiredOrThrow(\(field))")
        case .throwOnFieldError:
            return throwing(valueType, "lens.strict(\(field))")
        case .plain:
            return plain(valueType, "lens.read(\(field))")
        }
    }
}
