import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema
import BatonSyntax

/// Lens classes: a property per member of the tree's lens (`LensDeclaration`), read through the runtime's
/// `PlanTable.Lens` the class inherits (its file's plan and the reader), and a nested class per nested lens. Types, reads, conditions and runtime
/// details are the tree's; this spells them.
extension KotlinDefinitionWriter {
    /// Picks the plan object's name: free among nested classes and unequal to every member name in the file.
    func choosePlanName(_ root: LensDeclaration) {
        // Only a member named `Plan` followed by underscores can be in the way, and declaring a name
        // keeps its beginning (`declared` appends), so only names beginning with `Plan` are taken.
        var members = KotlinScope()
        func collect(_ lens: LensDeclaration, depth: Int) {
            guard depth < LensModelBuilder.maximumDepth else { return }
            for member in lens.members {
                if member.name.hasPrefix("Plan") { members.reserve(KotlinNames.declared(member.name, .member)) }
                if let nested = member.lens { collect(nested, depth: depth + 1) }
            }
        }
        collect(root, depth: 0)
        planName = nestedTypes.claim("Plan", ignoringCase: true, avoiding: [members])
    }

    /// A lens class: a property per accessor, reading through the private reader, and a nested class per
    /// nested lens. Records the lens's plan members; the root's go to `rootSelectionNames`.
    func lensClass(
        _ lens: LensDeclaration, className: String, qualified: String, doc: String,
        extra: (_ reader: String) -> [Template] = { _ in [] }, depth: Int = 0, indexPath: [Int] = []
    ) -> Template {
        // `Companion`: a lens class with a companion object (an operation's or a fragment's) cannot also have a
        // member of that name; every lens avoids it, so a field's name never depends on where its lens is.
        var members = KotlinScope(["Companion"])
        let names = lens.members.map { member in
            members.claim(KotlinNames.declared(member.name, .member), ignoringCase: false)
        }
        let connectionID = lens.connectionIDName.map { members.claim($0, ignoringCase: false) }
        let reader = members.claim("reader", ignoringCase: false)
        // The runtime's `PlanTable.Lens` holds the reader as `reader`, reads the file's plan by line number and
        // gives the lens its equality, once for every lens; a lens with a member named `reader` keeps a reader of
        // its own name, reads through `Plan` and writes its equality.
        let inheritsLens = reader == "reader"
        var properties: [Template] = []
        var nested: [Template] = []
        var selectionNames: [Int] = []
        var builderMembers: [KotlinOptimisticTemplate.Member] = []
        for (index, (declaration, name)) in zip(lens.members, names).enumerated() {
            var nestedClass: String?
            var nestedQualified: String?
            var childSelections: [Int] = []
            accessorPath.append(declaration.name)
            defer { accessorPath.removeLast() }
            if let child = declaration.lens, depth < LensModelBuilder.maximumDepth {
                // The name is claimed even for a shared lens, so the names after it are the same either way.
                let childName = nestedTypes.claim(KotlinNames.declared(child.typeName, .type), ignoringCase: true)
                if let shared = declaration.sharedLens.flatMap({ sharedLensClasses[$0] }) {
                    // The same type as an earlier nested lens of the declaration (`LensSharing`, issue 34): a
                    // nested class cannot be a typealias, so the property names the earlier class, and this path's
                    // plan member lists that lens's field descriptions (equal to what a copy would declare).
                    nestedClass = shared.qualified
                    nestedQualified = shared.qualified
                    childSelections = shared.selections
                    // Plan members below this path are the earlier lens's (a `@refetchable` connection path).
                    for (key, value) in planMemberByPath where key.starts(with: shared.accessorPath) {
                        planMemberByPath[accessorPath + key.dropFirst(shared.accessorPath.count)] = value
                    }
                } else {
                    nestedClass = KotlinNames.quoted(childName)
                    let childQualified = qualified + "." + KotlinNames.quoted(childName)
                    nestedQualified = childQualified
                    nested.append(
                        lensClass(
                            child, className: childName, qualified: childQualified,
                            doc: "A lens of `\(child.recordType)`.", depth: depth + 1, indexPath: indexPath + [index]))
                    childSelections = lastSelectionNames
                    sharedLensClasses[indexPath + [index]] = (childQualified, childSelections, accessorPath)
                }
            }
            let member = planMember(
                declaration, nestedQualified: nestedQualified, childSelections: childSelections)
            selectionNames.append(member)
            planMemberByPath[accessorPath] = member
            builderMembers.append(.init(name: name, nestedClass: nestedClass))
            properties.append(
                property(
                    declaration, name: name, reader: reader, member: member, nestedClass: nestedClass,
                    throughBase: inheritsLens))
        }
        if let connectionID {
            let annotation = lens.connectionIDJVMGetter.flatMap { KotlinNames.jvmName(connectionID, getter: $0) }
            properties.append(
                """
                /** The connection record this lens reads: what a mutation's `connections` names. */
                \(annotation.map { Template($0) } ?? .empty)
                val \(KotlinNames.quoted(connectionID)): ConnectionId get() = ConnectionId(\(KotlinNames.quoted(reader)).key.orEmpty())
                """)
        }
        if let builder = lens.optimisticBuilder {
            nested.append(
                KotlinOptimisticTemplate(context: context, builder: builder, members: builderMembers).render())
        }
        lastSelectionNames = selectionNames
        if depth == 0 { rootSelectionNames = selectionNames }
        let identity = inheritsLens ? [] : [Self.identity(qualified: qualified, reader: KotlinNames.quoted(reader))]
        let body = Template.joined(
            properties + nested + extra(KotlinNames.quoted(reader)) + identity, separator: "\n\n")
        let constructor =
            inheritsLens
            ? "internal constructor(reader: RecordReader) : PlanTable.Lens(reader, \(KotlinNames.quoted(planName)))"
            : "internal constructor(private val \(KotlinNames.quoted(reader)): RecordReader)"
        return """
            \(DocComment.block(doc))
            class \(KotlinNames.quoted(className)) \(constructor) {
                \(body)
            }
            """
    }

    /// A lens's `equals` and `hashCode` when it cannot inherit `PlanTable.Lens`'s (a member takes the name
    /// `reader`): by record and snapshot (its reader's), so lenses work as Compose state and in a `StateFlow`.
    /// `qualified` names the class from the file's top level, so no nested class shadows it.
    static func identity(qualified: String, reader: String) -> Template {
        """
        /** Equal to a lens of this class reading the same record of the same store snapshot. */
        override fun equals(other: Any?): Boolean = other is \(qualified) && other.\(reader) == \(reader)

        override fun hashCode(): Int = \(reader).hashCode()
        """
    }

    /// One member as a Kotlin property.
    ///
    /// A getter makes one call where it can: of its `PlanTable.Lens` base when it inherits it (`throughBase`;
    /// `string(3)`, `readNonNull<List<Item>>(4)`: the plan's line 3 or 4, a built-in scalar through its typed
    /// reader, any other type spelt so nothing is inferred), else of the plan (`Plan.readNonNull(reader, 3)`);
    /// where the read wraps another call, the plan's selection is named with its type.
    func property(
        _ declaration: MemberDeclaration, name: String, reader: String, member: Int, nestedClass: String?,
        throughBase: Bool
    ) -> Template {
        let planObject = KotlinNames.quoted(planName)
        let reader = KotlinNames.quoted(reader)
        // The value without what the read mode makes of it; `optional0` its outermost optionality.
        let value = declaration.type.value
        let value0 = valueType(value.nonOptional, nestedClass: nestedClass)
        let optional0 = value.isOptional
        let isOptional = declaration.type.isOptional
        let isFragment: Bool = if case .fragment = declaration.type.named { true } else { false }
        let type: String
        let body: String
        // The selection with its type spelt, for a read inside another call.
        let field = "\(planObject).field<\(value0)>(\(member))"
        func inner(_ reader: String) -> String {
            "\(planObject).\(optional0 ? "read" : "readNonNull")<\(value0)>(\(reader), \(member))"
        }
        // One call of the base or of the plan: `call` is the reader's name, `value` its type argument.
        func read(_ call: String, _ value: String) -> String {
            throughBase ? "\(call)<\(value)>(\(member))" : "\(planObject).\(call)(\(reader), \(member))"
        }
        switch declaration.readMode {
        case .spread:
            let call = isFragment ? "fragment" : "inlineFragment"
            type = value0 + (isOptional ? "?" : "")
            body = read(call + (isOptional ? "" : "NonNull"), value0)
        case .deferred:
            // A deferred spread or inline fragment reads as its phase: pending, ready with its lens, failed.
            let selection = "\(planObject).\(isFragment ? "spread" : "inline")<\(value0)>(\(member))"
            let call =
                "\(reader).\(isFragment ? "deferred" : "deferredInline")(\(selection), \(Self.labelLiteral(declaration.delivery)))"
            type = "DeferredPhase<" + value0 + ">" + (isOptional ? "?" : "")
            body = isOptional ? call : call + " ?: DeferredPhase.Pending"
        case .streamed:
            // A streamed list reads the items so far, whether more are coming, and the initial count asked for.
            var count = "StreamCount.literal(0)"
            if case .streamed(let initialCount) = declaration.delivery {
                switch initialCount {
                case .literal(let value): count = "StreamCount.literal(\(value))"
                case .variable(let name): count = "StreamCount.variable(" + KotlinLiteral.string(name) + ")"
                }
            }
            type = "Streamed<" + value0 + (optional0 ? "?" : "") + ">"
            body = "\(reader).streamed(\(field), \(count), \(inner(reader)))"
        case .catchToResult:
            type = "FieldResult<\(value0 + (optional0 ? "?" : ""))>"
            body = "\(reader).catching(\(field)) { \(inner("it")) }"
        case .catchToNull:
            type = value0 + "?"
            body = "\(reader).catchingToNull(\(field)) { \(inner("it")) }"
        case .throwWhenNull:
            type = value0
            body = "\(reader).readOrThrow(\(field))"
        case .throwOnFieldError:
            // The Swift template's `lens.strict`: a field error, missing data or a null the type cannot hold throws.
            type = value0 + (optional0 ? "?" : "")
            body = "\(reader)." + (optional0 ? "readStrict(\(field))" : "readStrictNonNull(\(field))")
        case .typename, .plain:
            // `__typename` is a selection of the plan like any other.
            type = value0 + (optional0 ? "?" : "")
            if throughBase, let typed = Self.typedRead(value.nonOptional) {
                body = "\(typed)\(optional0 ? "OrNull" : "")(\(member))"
            } else {
                body = read(optional0 ? "read" : "readNonNull", value0)
            }
        }
        let annotation = KotlinNames.jvmName(name, getter: declaration.jvmGetter)
        let throwsDoc: Template =
            declaration.selection?.required == .throwError
            ? "/** Throws [baton.runtime.RequiredFieldException] when the field is null. */" : .empty
        return """
            \(throwsDoc)
            \(annotation.map { Template($0) } ?? .empty)
            val \(KotlinNames.quoted(name)): \(type) get() = \(body)
            """
    }

    /// The name of `PlanTable.Lens`'s typed reader of a built-in scalar (`string`, `int`, `double`, `boolean`;
    /// `OrNull` appended for an optional one), or nil for any other value.
    static func typedRead(_ value: DeclaredType) -> String? {
        guard case .named(.builtInScalar(let name)) = value else { return nil }
        switch KotlinContext.builtInScalar(name) {
        case "String": return "string"
        case "Int": return "int"
        case "Double": return "double"
        case "Boolean": return "boolean"
        default: return nil
        }
    }

    /// A deferred member's label as the runtime is handed it: a string literal, or `null`.
    static func labelLiteral(_ delivery: MemberDelivery) -> String {
        guard case .deferred(let label?) = delivery else { return "null" }
        return KotlinLiteral.string(label)
    }

    /// The Kotlin type of a value (`DeclaredType.value` without its outermost optionality): the named type's, in a
    /// `List` per list, with `?` on each item the tree makes optional.
    func valueType(_ type: DeclaredType, nestedClass: String?) -> String {
        switch type {
        case .list(let item):
            let items = item.value
            return "List<" + valueType(items.nonOptional, nestedClass: nestedClass) + (items.isOptional ? "?" : "")
                + ">"
        case .optional(let wrapped), .result(let wrapped), .deferred(let wrapped), .streamed(let wrapped):
            return valueType(wrapped, nestedClass: nestedClass)
        case .named(let named):
            switch named {
            case .builtInScalar(let name): return KotlinContext.builtInScalar(name) ?? "String"
            case .customScalar(let name), .enumeration(let name), .inputObject(let name):
                return context.namedType(name)
            case .lens: return nestedClass ?? "Any"
            case .fragment(let name): return KotlinNames.quoted(context.names.fragments[name] ?? name)
            case .optimisticBuilder(_, _, let builder): return builder
            }
        }
    }
}
