import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// What an accessor is made from, spelled in a conflict's message (only then).
enum AccessorOrigin {
    case field(String)
    case spread(String)
    case inlineFragment(String)

    var description: String {
        switch self {
        case .field(let responseKey): "the field \"\(responseKey)\""
        case .spread(let fragment): "the spread of \(fragment)"
        case .inlineFragment(let type): "the inline fragment on \(type)"
        }
    }
}

/// What a lens's conflict check reads of an accessor: its name, where it is reported, and what
/// it is made from.
struct AccessorHead {
    var name: String
    var location: SourceRange?
    var origin: AccessorOrigin
}

extension LensBuildContext {
    /// `__typename`, which every composite type has and no schema lists.
    static let typenameField = FieldDef(
        name: "__typename", description: nil, arguments: [], type: .nonNull(.named("String")),
        deprecationReason: nil, directives: [], location: nil)

    /// A lens from accessor groups: one accessor per group, names checked for conflicts.
    /// `enclosing` is the presence of the accessor producing this lens when its occurrences'
    /// conditions were handed down to the children (and so say nothing new where they match).
    /// `ancestors` holds the type names of the lenses enclosing this one, this one's last.
    ///
    /// With `checksOnly` the lens keeps no accessors: every decision that can refuse (names that
    /// conflict, nesting, list levels, argument values) is made as for `gen`, and nothing else.
    func buildLensOfAccessors(
        _ groups: OrderedGroups, parent: NamedTypeDef, typeName: String, ancestors: inout [String],
        scope: DefinitionScope, depth: Int, enclosing: Presence? = nil
    ) -> Lens {
        var accessors: [Accessor] = []
        if !options.checksOnly { accessors.reserveCapacity(groups.groups.count) }
        // Nested type names also avoid the lens's accessor names: in Swift a member and a nested
        // type of one name cannot share a scope.
        // Only accessors with a nested lens (a field with selections, an inline fragment) ask,
        // so a lens of leaves gathers no names; and `check` names no nested types.
        // The groups are read by index, not iterated: an iterator hands out a copy of each group (a retain of its
        // strings, nodes and occurrences, and their release).
        let count = groups.groups.count
        var siblingTypeNames = SmallIndex<String>()
        if !options.checksOnly, groups.groups.contains(where: \.nests) {
            // The accessors' names, then a nested type name per nesting accessor.
            siblingTypeNames.reserve(2 * count)
            for position in 0..<count {
                if let name = accessorName(of: groups.groups[position]), siblingTypeNames.position(of: name) == nil {
                    siblingTypeNames.append(name)
                }
            }
        }
        var heads: [AccessorHead] = []
        heads.reserveCapacity(count)
        var headNames = SmallIndex<String>()
        headNames.reserve(count)
        for position in 0..<count {
            guard
                let head = buildAccessor(
                    groups.groups[position], parent: parent, ancestors: &ancestors,
                    siblingTypeNames: &siblingTypeNames, scope: scope, depth: depth, enclosing: enclosing,
                    into: &accessors)
            else { continue }
            if let other = headNames.position(of: head.name) {
                reportConflict(head, with: heads[other])
            } else {
                headNames.append(head.name)
                heads.append(head)
            }
        }
        let keyNames = keyFields(of: parent)
        if let keyNames {
            reportTakenKeyFields(groups, keyNames: keyNames, parent: parent, scope: scope)
        }
        return lens(of: parent, typeName: typeName, accessors: accessors, keyNames: keyNames)
    }

    /// The lens `check` keeps of a definition whose walk it skips (`skipsWalk(of:)`): what
    /// `buildLens` makes with `checksOnly` of selections that refuse nothing.
    func lensWithoutAccessors(parent: NamedTypeDef, typeName: String) -> Lens {
        lens(of: parent, typeName: typeName, accessors: [], keyNames: keyFields(of: parent))
    }

    /// A lens of `accessors` on `parent`, with its key fields (their enums and custom scalars
    /// counted as read).
    private func lens(of parent: NamedTypeDef, typeName: String, accessors: [Accessor], keyNames: [String]?) -> Lens {
        var lens = Lens(typeName: typeName, recordType: parent.name, accessors: accessors)
        lens.recordIsAbstract = parent.kind != .object
        lens.keyFields = keyNames.map { names in
            names.compactMap { name in
                parent.field(named: name).map { KeyFieldModel(name: name, schemaType: $0.type) }
            }
        }
        // An optimistic builder may take a key field the lens does not select: its enum or custom scalar is
        // generated as if it were read.
        for field in lens.keyFields ?? [] {
            guard let type = schema.types[field.schemaType.namedType], !type.isBuiltInScalar else { continue }
            if type.kind == .enumType { lensTypes.enums.insert(type.name) }
            if type.kind == .scalar { lensTypes.customScalars.insert(type.name) }
        }
        return lens
    }

    /// `lens-key-field-taken`: a selection on a type with a declared key uses a key field's name as the response
    /// key of something else (`mediaId: progress`), where the text sent adds the key field itself
    /// (`KeyFieldAdder`): the two would not merge, and the runtimes read the key by that name.
    func reportTakenKeyFields(_ groups: OrderedGroups, keyNames: [String], parent: NamedTypeDef, scope: DefinitionScope)
    {
        for group in groups.groups {
            guard let field = group.firstField({ $0 }), keyNames.contains(field.responseKey),
                field.name.value != field.responseKey || !field.arguments.isEmpty
            else { continue }
            diagnostics.append(
                Diagnostic(
                    .error,
                    "\"\(field.responseKey)\" is a key field of \(parent.name) (keyFields), which Baton asks for under its own name to key the record; alias this selection otherwise.",
                    rule: LensDiagnosticRule.keyFieldTaken, range: SourceRange(file: scope.source, span: field.span)))
        }
    }

    /// `lens-accessor-name-conflict`: `head`'s accessor repeats the name of `other`'s, built before it in the
    /// same lens.
    func reportConflict(_ head: AccessorHead, with other: AccessorHead) {
        let (description, otherDescription) = (head.origin.description, other.origin.description)
        var notes: [DiagnosticNote] = []
        if let location = other.location {
            notes.append(
                DiagnosticNote(
                    message: "\(otherDescription.prefix(1).uppercased())\(otherDescription.dropFirst()) is here.",
                    range: location))
        }
        diagnostics.append(
            Diagnostic(
                .error,
                "The accessor \"\(head.name)\" of \(description) conflicts with the accessor of \(otherDescription) in the same lens; rename one of them (an alias, or the fragment's name).",
                rule: LensDiagnosticRule.accessorNameConflict, range: head.location, notes: notes))
    }

    /// The name the accessor of `group` will have.
    func accessorName(of group: OccurrenceGroup) -> String? {
        switch group.occurrences.first?.node {
        case .field(let field, _)?: field.responseKey
        case .spread(let spread)?: LensNaming.spreadAccessorName(fragment: spread.name.value)
        case .inline(_, let condition)?: LensNaming.typeConditionAccessorName(type: condition.name)
        case nil: nil
        }
    }

    /// The children of a group's occurrences, collected into one lens. When the occurrences'
    /// conditions differ, each child inherits the conditions of the occurrence it is written in.
    private func children(
        of group: OccurrenceGroup, parent: NamedTypeDef, depth: Int, selections: (Occurrence) -> SelectionSet?
    ) -> (groups: OrderedGroups, inherits: Bool) {
        let first = group.occurrences.first?.presence
        let inherits = group.occurrences.dropFirst().contains { $0.presence != first }
        var children = OrderedGroups()
        for occurrence in group.occurrences {
            guard let set = selections(occurrence) else { continue }
            collect(
                set, parent: parent, inherited: inherits ? occurrence.presence : .always, into: &children,
                depth: depth + 1)
        }
        return (children, inherits)
    }

    /// The type name of a nested lens for the accessor `name`, claimed among its siblings (none
    /// with `checksOnly`, which names no nested types).
    private func nestedTypeName(
        _ name: String, ancestors: [String], siblingTypeNames: inout SmallIndex<String>
    ) -> String {
        if options.checksOnly { return "" }
        let typeName = LensNaming.nestedTypeName(accessor: name) {
            ancestors.contains($0) || siblingTypeNames.position(of: $0) != nil
        }
        // Not taken among the siblings (`isTaken` asked): appended without looking again.
        siblingTypeNames.append(typeName)
        return typeName
    }

    /// Builds the accessor for one group into `accessors` (with `checksOnly`, only what can
    /// refuse), and returns what the lens's conflict check reads of it.
    func buildAccessor(
        _ group: OccurrenceGroup, parent: NamedTypeDef, ancestors: inout [String],
        siblingTypeNames: inout SmallIndex<String>, scope: DefinitionScope, depth: Int, enclosing: Presence?,
        into accessors: inout [Accessor]
    ) -> AccessorHead? {
        guard let first = group.occurrences.first else { return nil }
        let location = SourceRange(file: scope.source, span: first.span)
        switch first.node {
        case .field(let field, let scopeType):
            let responseKey = field.responseKey
            guard
                buildFieldAccessor(
                    group, field: field, responseKey: responseKey, scopeType: scopeType, location: location,
                    ancestors: &ancestors, siblingTypeNames: &siblingTypeNames, scope: scope, depth: depth,
                    enclosing: enclosing, into: &accessors)
            else { return nil }
            return AccessorHead(name: responseKey, location: location, origin: .field(responseKey))
        case .spread(let spread):
            // `check` reads only the accessor's name of a fragment built already (its type
            // condition is a known type: it was built).
            if options.checksOnly, let name = spreadAccessorNames[spread.name.value] {
                return AccessorHead(name: name, location: location, origin: .spread(spread.name.value))
            }
            guard let fragment = fragmentModel(named: spread.name.value),
                let condition = schema.type(named: fragment.typeCondition)
            else { return nil }
            let head = AccessorHead(
                name: fragment.spreadAccessorName, location: location, origin: .spread(fragment.name))
            if options.checksOnly { return head }
            let presence = self.presence(of: group, enclosing: enclosing)
            let narrower = !alwaysMatches(parent: parent, condition: condition)
            let delivery = Self.delivery(of: group)
            let optional = OptionalityPolicy.parentRecordIsOptional(
                narrower: narrower, conditional: !Self.conditions(presence, delivery).isAlways,
                rootCanBeNil: fragment.rootCanBeNil)
            var accessor =
                Accessor(
                    name: fragment.spreadAccessorName,
                    reads: .parentRecord(
                        ParentRecordRead(
                            typeCondition: fragment.typeCondition,
                            matchingTypes: narrower ? matchingTypes(parent: parent, condition: condition) : nil)),
                    base: .fragment(FragmentBase(name: fragment.name, typeCondition: fragment.typeCondition)),
                    levels: [ValueLevel(schemaNullable: false, isOptional: optional)], presence: presence,
                    receivesBubbledNull: fragment.rootCanBeNil, locations: locations(of: group, in: scope))
            accessor.delivery = delivery
            accessors.append(accessor)
            return head
        case .inline(_, let condition):
            guard !isTooDeep(depth) else {
                reportTooDeep(location)
                return nil
            }
            let name = LensNaming.typeConditionAccessorName(type: condition.name)
            let head = AccessorHead(name: name, location: location, origin: .inlineFragment(condition.name))
            let typeName = nestedTypeName(name, ancestors: ancestors, siblingTypeNames: &siblingTypeNames)
            let presence = options.checksOnly ? .always : self.presence(of: group, enclosing: enclosing)
            let (children, inherits) = children(of: group, parent: condition, depth: depth) { occurrence in
                if case .inline(let inline, _) = occurrence.node { return inline.selectionSet }
                return nil
            }
            // An inline fragment on a narrower type is a lens boundary: its nulls stop at it.
            bubbles.enter(name, passesNullOn: false)
            ancestors.append(typeName)
            let lens = buildLens(
                children, parent: condition, typeName: typeName, ancestors: &ancestors, scope: scope,
                depth: depth + 1, enclosing: inherits ? presence : nil)
            ancestors.removeLast()
            bubbles.leave()
            if options.checksOnly { return head }
            // Only a deferred inline fragment can be on a type every record matches (`collect` flattens the others).
            let narrower = !alwaysMatches(parent: parent, condition: condition)
            let delivery = Self.delivery(of: group)
            var accessor = Accessor(
                name: name,
                reads: .parentRecord(
                    ParentRecordRead(
                        typeCondition: condition.name,
                        matchingTypes: narrower ? matchingTypes(parent: parent, condition: condition) : nil)),
                base: .lens(lens),
                levels: [
                    ValueLevel(
                        schemaNullable: false,
                        isOptional: OptionalityPolicy.parentRecordIsOptional(
                            narrower: narrower, conditional: !Self.conditions(presence, delivery).isAlways,
                            rootCanBeNil: lens.bubblesOut))
                ],
                presence: presence, receivesBubbledNull: lens.bubblesOut, locations: locations(of: group, in: scope))
            accessor.delivery = delivery
            accessors.append(accessor)
            return head
        }
    }

    /// How the accessor of `group` is delivered (`Delivery.merged` of its occurrences' own directives).
    static func delivery(of group: OccurrenceGroup) -> Delivery {
        Delivery.merged(
            group.occurrences.lazy.map { occurrence in
                switch occurrence.node {
                case .field(let field, _):
                    Delivery.of(field.directives, isList: true)
                case .spread(let spread): Delivery.of(spread.directives, isList: false)
                case .inline(let inline, _): Delivery.of(inline.directives, isList: false)
                }
            })
    }

    /// The conditions that make an accessor optional: a deferred one reads its phase, so `@defer` makes it
    /// pending, never absent, and only the runtime's conditions remain (`Presence.atRuntime`).
    static func conditions(_ presence: Presence, _ delivery: Delivery) -> Presence {
        if case .deferred = delivery { return presence.atRuntime }
        return presence
    }

    /// The selections an accessor is merged from, in document order.
    private func locations(of group: OccurrenceGroup, in scope: DefinitionScope) -> [SourceRange] {
        // Most accessors are one selection: an array literal, not a map through the collection's iterator.
        if group.occurrences.count == 1 { return [SourceRange(file: scope.source, span: group.occurrences[0].span)] }
        return group.occurrences.map { SourceRange(file: scope.source, span: $0.span) }
    }

    /// When the accessor of `group` is present: when any of its occurrences is. Conditions inherited from an
    /// enclosing accessor's occurrences say nothing new when they are exactly that accessor's own.
    private func presence(of group: OccurrenceGroup, enclosing: Presence?) -> Presence {
        var presence: Presence
        if group.occurrences.count == 1 || group.occurrences.allSatisfy({ $0.presence.isAlways }) {
            presence = group.occurrences.first?.presence ?? .always
        } else {
            presence = Presence.any(group.occurrences.map(\.presence))
        }
        if let enclosing, presence.isEquivalent(to: enclosing) { presence = .always }
        return presence
    }

    /// Builds the accessor of a field's group at the end of `accessors`, in place (not returned and appended: a copy
    /// of the value and of its optional); false when the field cannot have one (an unknown field, or one refused and
    /// reported). With `checksOnly`, true when it could and nothing was refused, without building it.
    func buildFieldAccessor(
        _ group: OccurrenceGroup, field: Field, responseKey: String, scopeType: NamedTypeDef, location: SourceRange,
        ancestors: inout [String], siblingTypeNames: inout SmallIndex<String>, scope: DefinitionScope, depth: Int,
        enclosing: Presence?, into accessors: inout [Accessor]
    ) -> Bool {
        let fieldName = field.name.value
        let definition: FieldDef
        if fieldName == "__typename" {
            definition = Self.typenameField
        } else {
            guard let found = scopeType.field(named: fieldName) else { return false }
            definition = found
        }
        guard let named = schema.type(named: definition.type.namedType), named.isOutputType else { return false }

        // Generated code nests a type, a decoder and a plan per list level; real schemas use a
        // few, and a hostile one could use as many as the parser allows.
        let listDepth = LensModelBuilder.listDepth(definition.type)
        guard listDepth < LensModelBuilder.maximumListLevels else {
            diagnostics.append(
                Diagnostic(
                    .error,
                    "The type of \(responseKey) nests lists more than "
                        + "\(LensModelBuilder.maximumListLevels) levels deep; "
                        + "Baton cannot generate a lens for it.",
                    rule: LensDiagnosticRule.nestingTooDeep, range: location))
            return false
        }
        let checksOnly = options.checksOnly
        // Most fields are written without directives: then none of the directive reads below
        // (`@required`, `@catch`, `@connection`, an update, `@stream`) can find anything, and none is asked.
        let directed = group.hasFieldDirectives
        // Validation made every selection of the key agree; the first says it for all.
        let required =
            checksOnly || !directed
            ? nil
            : group.firstField { BatonDirectives.required(in: $0.directives) }.map {
                $0.action ?? .silent
            }
        let catchMode =
            checksOnly || !directed
            ? nil
            : group.firstField { BatonDirectives.catch(in: $0.directives) }.map {
                $0.target ?? .result
            }
        let presence = checksOnly ? .always : self.presence(of: group, enclosing: enclosing)
        // Assigned once on every path (nil for a scalar under `checksOnly`), so it is moved, not copied, below.
        let base: AccessorBase?
        var childBubbles = false
        switch named.kind {
        case .scalar:
            base = checksOnly ? nil : .scalar(scalarBase(of: named))
        case .enumType:
            base = .enumeration(named.name)
        case .object, .interface, .union:
            guard !isTooDeep(depth) else {
                reportTooDeep(location)
                return false
            }
            let typeName = nestedTypeName(responseKey, ancestors: ancestors, siblingTypeNames: &siblingTypeNames)
            let (children, inherits) = children(of: group, parent: named, depth: depth) { occurrence in
                if case .field(let occurrenceField, _) = occurrence.node { return occurrenceField.selectionSet }
                return nil
            }
            bubbles.enter(
                responseKey, passesNullOn: Bubbling.passesNullOn(required: required, type: definition.type))
            ancestors.append(typeName)
            let lens = buildLens(
                children, parent: named, typeName: typeName, ancestors: &ancestors, scope: scope,
                depth: depth + 1, enclosing: inherits ? presence : nil)
            ancestors.removeLast()
            bubbles.leave()
            childBubbles = lens.bubblesOut
            base = .lens(lens)
        case .inputObject:
            return false
        }
        checkArguments(field, file: scope.source)
        guard !checksOnly, let base else { return true }
        lensTypes.add(base)

        let mapped: Bool
        let nests: Bool
        switch base {
        case .scalar(let scalar): (mapped, nests) = (scalar.mapping != nil, false)
        case .lens: (mapped, nests) = (false, true)
        case .enumeration, .fragment: (mapped, nests) = (false, false)
        }
        let (levels, semanticNonNull) = OptionalityPolicy.levels(
            OptionalityPolicy.Field(
                schemaType: definition.type,
                semanticNonNullLevels: BatonDirectives.semanticNonNullLevels(of: definition)?.map(\.level),
                underThrowOnFieldError: scope.throwOnFieldError, mappedCustomScalar: mapped, required: required,
                childrenBubble: childBubbles, catchTarget: catchMode, conditional: !presence.isAlways))

        accessors.append(
            Accessor(
                name: responseKey,
                reads: .field(
                    FieldRead(
                        responseKey: responseKey, fieldName: fieldName,
                        arguments: field.arguments.isEmpty
                            ? []
                            : field.arguments.map { ArgumentModel(name: $0.name.value, value: $0.value) }.sorted {
                                $0.name < $1.name
                            }, schemaType: definition.type, parentType: scopeType.name)),
                base: base, levels: levels,
                required: required.map {
                    RequiredEffect(action: $0, bubblesTo: $0.bubbles ? bubbles.target(in: scope) : nil)
                },
                catchMode: catchMode,
                presence: presence, semanticNonNull: semanticNonNull, underThrowOnFieldError: scope.throwOnFieldError,
                receivesBubbledNull: childBubbles, locations: locations(of: group, in: scope)))
        let index = accessors.count - 1
        if directed { connectionAndUpdate(of: group, into: &accessors[index]) }
        if nests { accessors[index].recordKeys = customRecordKeys(of: named.name) }
        // Without directives a list is delivered `.immediate`, as the accessor starts.
        if directed, listDepth > 0 {
            accessors[index].delivery = Self.delivery(of: group)
        }
        return true
    }

    /// The base of a scalar's accessors, made once per scalar type (a built-in's name is looked up in a set, a
    /// custom one's mapping in the options).
    func scalarBase(of type: NamedTypeDef) -> ScalarBase {
        if let known = scalarBases[ObjectIdentifier(type)] { return known }
        let builtIn = type.isBuiltInScalar
        let base = ScalarBase(
            name: type.name, isBuiltIn: builtIn, mapping: builtIn ? nil : options.customScalars[type.name])
        scalarBases[ObjectIdentifier(type)] = base
        return base
    }

    /// `@connection` and a declarative update, as the first selection of the accessor writes them (validation
    /// made the selections of one response key agree on their directives).
    func connectionAndUpdate(of group: OccurrenceGroup, into accessor: inout Accessor) {
        if let use = group.firstField({ BatonDirectives.connection(in: $0.directives) }), let key = use.key,
            let field = group.firstField({ $0 })
        {
            accessor.connection = ConnectionModel(key: key, filters: use.filterNames(of: field))
            if case .lens(var lens) = accessor.base {
                let taken = Set(lens.accessors.map(\.name))
                var name = "connectionID"
                while taken.contains(name) { name += "_" }
                lens.connectionIDName = name
                accessor.base = .lens(lens)
            }
        }
        if let use = group.firstField({ BatonDirectives.recordUpdate(in: $0.directives) }) {
            accessor.recordUpdate = RecordUpdateModel(
                kind: use.kind, connections: use.connections, edgeTypeName: use.edgeTypeName, typeName: use.typeName)
        }
    }

    /// A value or a type too deeply nested for the generators, reported at `range` (or the
    /// definition being built).
    func reportDeepValue(_ what: String, at range: SourceRange?) {
        reportNesting(
            "\(what) nests lists and objects more than \(LensModelBuilder.maximumValueDepth) levels deep "
                + "(or its type more than \(LensModelBuilder.maximumListLevels) lists); Baton cannot generate code for it.",
            at: range ?? currentDefinition)
    }

    /// Reports arguments of `field` whose values nest too deeply.
    func checkArguments(_ field: Field, file: SourceFile?) {
        if file == nil && reportedTooDeepInDefinition { return }
        for argument in field.arguments
        where LensModelBuilder.valueDepth(argument.value) > LensModelBuilder.maximumValueDepth {
            reportDeepValue(
                "The argument \(argument.name.value)", at: file.map { SourceRange(file: $0, span: argument.span) })
        }
    }
}
