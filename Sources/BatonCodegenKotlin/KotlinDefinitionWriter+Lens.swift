import BatonCodegen
import BatonIR
import BatonSchema
import BatonSyntax

/// Lens classes: a property per accessor, read through the private reader, and a nested class per nested lens.
extension KotlinDefinitionWriter {
    /// Picks the plan object's name: free among nested classes and unequal to every member name in the file.
    func choosePlanName(_ root: Lens) {
        // Only a member named `Plan` followed by underscores can be in the way, and declaring a name
        // keeps its beginning (`declared` appends), so only names beginning with `Plan` are taken.
        var members = KotlinScope()
        func collect(_ lens: Lens, depth: Int) {
            guard depth < LensModelBuilder.maximumDepth else { return }
            for accessor in lens.accessors {
                if accessor.name.hasPrefix("Plan") { members.reserve(KotlinNames.declared(accessor.name, .member)) }
                if let nested = accessor.lens { collect(nested, depth: depth + 1) }
            }
        }
        collect(root, depth: 0)
        planName = nestedTypes.claim("Plan", ignoringCase: true, avoiding: [members])
    }

    /// A lens class: a property per accessor, reading through the private reader, and a nested class per
    /// nested lens. Records the lens's plan members; the root's go to `rootSelectionNames`.
    func lensClass(
        _ lens: Lens, className: String, qualified: String, path: String, doc: String,
        extra: (_ reader: String) -> [Template] = { _ in [] }, depth: Int = 0
    ) -> Template {
        // `Companion`: a lens class with a companion object (an operation's or a fragment's) cannot also have a
        // member of that name; every lens avoids it, so a field's name never depends on where its lens is.
        var members = KotlinScope(["Companion"])
        var getters = JVMGetterNames()
        let names = lens.accessors.map { accessor in
            members.claim(KotlinNames.declared(accessor.name, .member), ignoringCase: false)
        }
        let connectionID = lens.connectionIDName.map { members.claim($0, ignoringCase: false) }
        let reader = members.claim("reader", ignoringCase: false)
        var properties: [Template] = []
        var nested: [Template] = []
        var selectionNames: [String] = []
        var builderMembers: [KotlinOptimisticTemplate.Member] = []
        for (accessor, name) in zip(lens.accessors, names) {
            var nestedClass: String?
            var childSelections: [String] = []
            accessorPath.append(accessor.name)
            defer { accessorPath.removeLast() }
            if let child = accessor.lens, depth < LensModelBuilder.maximumDepth {
                let childName = nestedTypes.claim(KotlinNames.declared(child.typeName, .type), ignoringCase: true)
                nestedClass = KotlinNames.quoted(childName)
                let childQualified = qualified + "." + KotlinNames.quoted(childName)
                nested.append(
                    lensClass(
                        child, className: childName, qualified: childQualified,
                        path: path.isEmpty ? accessor.name : path + "_" + accessor.name,
                        doc: "A lens of `\(child.recordType)`.", depth: depth + 1))
                childSelections = lastSelectionNames
            }
            let member = planMember(
                accessor, path: path, nestedQualified: nestedClass.map { qualified + "." + $0 },
                childSelections: childSelections)
            selectionNames.append(member)
            planMemberByPath[accessorPath] = member
            builderMembers.append(.init(name: name, nestedClass: nestedClass))
            properties.append(
                property(
                    accessor, name: name, reader: reader, member: member, nestedClass: nestedClass, getters: &getters))
        }
        if let connectionID {
            properties.append(
                """
                /** The connection record this lens reads: what a mutation's `connections` names. */
                val \(KotlinNames.quoted(connectionID)): ConnectionId get() = ConnectionId(\(KotlinNames.quoted(reader)).key.orEmpty())
                """)
        }
        if let builder = lens.optimisticTypeName {
            nested.append(
                KotlinOptimisticTemplate(
                    context: context, builder: context.declarations.optimisticBuilder(lens, typeName: builder),
                    members: builderMembers
                ).render())
        }
        lastSelectionNames = selectionNames
        if depth == 0 { rootSelectionNames = selectionNames }
        let body = Template.joined(
            properties + nested + extra(KotlinNames.quoted(reader)) + [
                Self.identity(qualified: qualified, reader: KotlinNames.quoted(reader))
            ],
            separator: "\n\n")
        return """
            \(DocComment.block(doc))
            class \(KotlinNames.quoted(className)) internal constructor(private val \(KotlinNames.quoted(reader)): RecordReader) {
                \(body)
            }
            """
    }

    /// A lens's `equals` and `hashCode`: by record and snapshot (its reader's), so lenses work as Compose state
    /// and in a `StateFlow`. `qualified` names the class from the file's top level, so no nested class shadows it.
    static func identity(qualified: String, reader: String) -> Template {
        """
        /** Equal to a lens of this class reading the same record of the same store snapshot. */
        override fun equals(other: Any?): Boolean = other is \(qualified) && other.\(reader) == \(reader)

        override fun hashCode(): Int = \(reader).hashCode()
        """
    }

    /// One accessor as a Kotlin property.
    func property(
        _ accessor: Accessor, name: String, reader: String, member: String, nestedClass: String?,
        getters: inout JVMGetterNames
    ) -> Template {
        let plan = KotlinNames.quoted(planName) + "." + KotlinNames.quoted(member)
        let reader = KotlinNames.quoted(reader)
        let value0 = valueType(accessor, nestedClass: nestedClass)
        let optional0 = accessor.levels.first?.isOptional ?? true
        let type: String
        let body: String
        let inner = optional0 ? "read(\(plan))" : "readNonNull(\(plan))"
        switch accessor.readMode {
        case .spread:
            let isFragment: Bool = if case .fragment = accessor.base { true } else { false }
            let call = isFragment ? "fragment" : "inlineFragment"
            type = value0 + (accessor.isOptional ? "?" : "")
            body = accessor.isOptional ? "\(reader).\(call)(\(plan))" : "\(reader).\(call)NonNull(\(plan))"
        case .deferred:
            // A deferred spread or inline fragment reads as its phase: pending, ready with its lens, failed.
            let isFragment: Bool = if case .fragment = accessor.base { true } else { false }
            let call =
                "\(reader).\(isFragment ? "deferred" : "deferredInline")(\(plan), \(Self.labelLiteral(accessor.delivery)))"
            type = "DeferredPhase<" + value0 + ">" + (accessor.isOptional ? "?" : "")
            body = accessor.isOptional ? call : call + " ?: DeferredPhase.Pending"
        case .streamed:
            // A streamed list reads the items so far, whether more are coming, and the initial count asked for.
            var count = "StreamCount.literal(0)"
            if case .streamed(let list) = accessor.delivery {
                switch list.initialCount {
                case .literal(let value): count = "StreamCount.literal(\(value))"
                case .variable(let name): count = "StreamCount.variable(" + KotlinLiteral.string(name) + ")"
                }
            }
            type = "Streamed<" + value0 + (optional0 ? "?" : "") + ">"
            body = "\(reader).streamed(\(plan), \(count), \(reader).\(inner))"
        case .catchToResult:
            type = "FieldResult<\(value0 + (optional0 ? "?" : ""))>"
            body = "\(reader).catching(\(plan)) { it.\(inner) }"
        case .catchToNull:
            type = value0 + "?"
            body = "\(reader).catchingToNull(\(plan)) { it.\(inner) }"
        case .throwWhenNull:
            type = value0
            body = "\(reader).readOrThrow(\(plan))"
        case .throwOnFieldError:
            // The Swift template's `lens.strict`: a field error, missing data or a null the type cannot hold throws.
            type = value0 + (optional0 ? "?" : "")
            body = "\(reader)." + (optional0 ? "readStrict(\(plan))" : "readStrictNonNull(\(plan))")
        case .typename, .plain:
            // `__typename` is a selection of the plan like any other.
            type = value0 + (optional0 ? "?" : "")
            body = "\(reader).\(inner)"
        }
        let annotation = getters.annotation(for: name)
        let throwsDoc: Template =
            accessor.isThrowing
            ? "/** Throws [baton.runtime.RequiredFieldException] when the field is null. */" : .empty
        return """
            \(throwsDoc)
            \(annotation.map { Template($0) } ?? .empty)
            val \(KotlinNames.quoted(name)): \(type) get() = \(body)
            """
    }

    /// A deferred accessor's label as the runtime is handed it: a string literal, or `null`.
    static func labelLiteral(_ delivery: Delivery) -> String {
        guard case .deferred(let fragment) = delivery, let label = fragment.label else { return "null" }
        return KotlinLiteral.string(label)
    }

    /// The Kotlin type of the accessor's value without its outermost optionality: the base wrapped in a
    /// `List` per list level, with `?` on each level the model makes optional.
    func valueType(_ accessor: Accessor, nestedClass: String?) -> String {
        let base: String
        switch accessor.base {
        case .scalar(let scalar):
            base =
                scalar.isBuiltIn
                ? (KotlinContext.builtInScalar(scalar.name) ?? "String") : context.namedType(scalar.name)
        case .enumeration(let name): base = context.namedType(name)
        case .lens: base = nestedClass ?? "Any"
        case .fragment(let fragment): base = KotlinNames.quoted(context.names.fragments[fragment.name] ?? fragment.name)
        }
        let levels = accessor.levels
        func type(at level: Int) -> String {
            if level >= levels.count - 1 { return base }
            return "List<" + type(at: level + 1) + (levels[level + 1].isOptional ? "?" : "") + ">"
        }
        return type(at: 0)
    }
}
