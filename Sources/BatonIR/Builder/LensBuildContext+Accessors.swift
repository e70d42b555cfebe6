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

extension LensBuildContext {
    /// `__typename`, which every composite type has and no schema lists.
    static let typenameField = FieldDef(
        name: "__typename", description: nil, arguments: [], type: .nonNull(.named("String")),
        deprecationReason: nil, directives: [], location: nil)

    /// A lens from accessor groups: one accessor per group, names checked for conflicts.
    /// `enclosing` is the presence of the accessor producing this lens when its occurrences'
    /// conditions were handed down to the children (and so say nothing new where they match).
    func buildLens(
        _ groups: OrderedGroups, parent: NamedTypeDef, typeName: String, ancestors: [String],
        scope: DefinitionScope, depth: Int, enclosing: Presence? = nil
    ) -> Lens {
        var accessors: [Accessor] = []
        // Nested type names also avoid the lens's accessor names: in Swift a member and a nested
        // type of one name cannot share a scope.
        // Only accessors with a nested lens (a field with selections, an inline fragment) ask,
        // so a lens of leaves makes no set.
        let nests = groups.groups.contains { group in
            switch group.occurrences.first?.node {
            case .field(let field, _)?: field.selectionSet != nil
            case .inline?: true
            case .spread?, nil: false
            }
        }
        var siblingTypeNames = nests ? Set(groups.groups.compactMap { accessorName(of: $0) }) : []
        var firstByName: [String: (SourceRange?, AccessorOrigin)] = [:]
        for group in groups.groups {
            guard
                let (accessor, description) = buildAccessor(
                    group, parent: parent, ancestors: ancestors, siblingTypeNames: &siblingTypeNames, scope: scope,
                    depth: depth, enclosing: enclosing)
            else { continue }
            if let (otherLocation, otherOrigin) = firstByName[accessor.name] {
                let (description, otherDescription) = (description.description, otherOrigin.description)
                var notes: [DiagnosticNote] = []
                if let location = otherLocation {
                    notes.append(
                        DiagnosticNote(
                            message:
                                "\(otherDescription.prefix(1).uppercased())\(otherDescription.dropFirst()) is here.",
                            range: location))
                }
                diagnostics.append(
                    Diagnostic(
                        .error,
                        "The accessor \"\(accessor.name)\" of \(description) conflicts with the accessor of \(otherDescription) in the same lens; rename one of them (an alias, or the fragment's name).",
                        rule: LensDiagnosticRule.accessorNameConflict, range: accessor.location, notes: notes))
            } else {
                firstByName[accessor.name] = (accessor.location, description)
            }
            accessors.append(accessor)
        }
        var lens = Lens(typeName: typeName, recordType: parent.name, accessors: accessors)
        lens.recordIsAbstract = parent.kind != .object
        return lens
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

    /// The accessor for one group, and a description of it for messages.
    func buildAccessor(
        _ group: OccurrenceGroup, parent: NamedTypeDef, ancestors: [String], siblingTypeNames: inout Set<String>,
        scope: DefinitionScope, depth: Int, enclosing: Presence?
    ) -> (Accessor, AccessorOrigin)? {
        guard let first = group.occurrences.first else { return nil }
        let locations = group.occurrences.map { SourceRange(file: scope.source, span: $0.span) }
        var presence = Presence.any(group.occurrences.map(\.presence))
        // Conditions inherited from an enclosing accessor's occurrences say nothing new when they
        // are exactly that accessor's own.
        if let enclosing, presence.isEquivalent(to: enclosing) { presence = .always }
        switch first.node {
        case .field(let field, let scopeType):
            return buildFieldAccessor(
                group, field: field, scopeType: scopeType, presence: presence, locations: locations,
                ancestors: ancestors, siblingTypeNames: &siblingTypeNames, scope: scope, depth: depth
            ).map { ($0, .field(field.responseKey)) }
        case .spread(let spread):
            guard let fragment = fragmentModel(named: spread.name.value),
                let condition = schema.type(named: fragment.typeCondition)
            else { return nil }
            let narrower = !alwaysMatches(parent: parent, condition: condition)
            let optional = OptionalityPolicy.parentRecordIsOptional(
                narrower: narrower, conditional: !presence.isAlways, rootCanBeNil: fragment.rootCanBeNil)
            let accessor = Accessor(
                name: fragment.spreadAccessorName,
                reads: .parentRecord(
                    ParentRecordRead(
                        typeCondition: fragment.typeCondition,
                        matchingTypes: narrower ? matchingTypes(parent: parent, condition: condition) : nil)),
                base: .fragment(FragmentBase(name: fragment.name, typeCondition: fragment.typeCondition)),
                levels: [ValueLevel(schemaNullable: false, isOptional: optional)], presence: presence,
                receivesBubbledNull: fragment.rootCanBeNil, locations: locations)
            return (accessor, .spread(fragment.name))
        case .inline(_, let condition):
            guard !isTooDeep(depth) else {
                reportTooDeep(locations.first)
                return nil
            }
            let name = LensNaming.typeConditionAccessorName(type: condition.name)
            let typeName = LensNaming.nestedTypeName(accessor: name) {
                ancestors.contains($0) || siblingTypeNames.contains($0)
            }
            siblingTypeNames.insert(typeName)
            let (children, inherits) = children(of: group, parent: condition, depth: depth) { occurrence in
                if case .inline(let inline, _) = occurrence.node { return inline.selectionSet }
                return nil
            }
            // An inline fragment on a narrower type is a lens boundary: its nulls stop at it.
            bubbles.enter(name, passesNullOn: false)
            let lens = buildLens(
                children, parent: condition, typeName: typeName, ancestors: ancestors + [typeName], scope: scope,
                depth: depth + 1, enclosing: inherits ? presence : nil)
            bubbles.leave()
            let accessor = Accessor(
                name: name,
                reads: .parentRecord(
                    ParentRecordRead(
                        typeCondition: condition.name,
                        matchingTypes: matchingTypes(parent: parent, condition: condition))),
                base: .lens(lens),
                levels: [
                    ValueLevel(
                        schemaNullable: false,
                        isOptional: OptionalityPolicy.parentRecordIsOptional(
                            narrower: true, conditional: !presence.isAlways, rootCanBeNil: lens.bubblesOut))
                ],
                presence: presence, receivesBubbledNull: lens.bubblesOut, locations: locations)
            return (accessor, .inlineFragment(condition.name))
        }
    }

    func buildFieldAccessor(
        _ group: OccurrenceGroup, field: Field, scopeType: NamedTypeDef, presence: Presence,
        locations: [SourceRange], ancestors: [String], siblingTypeNames: inout Set<String>, scope: DefinitionScope,
        depth: Int
    ) -> Accessor? {
        let fieldName = field.name.value
        let definition: FieldDef
        if fieldName == "__typename" {
            definition = Self.typenameField
        } else {
            guard let found = scopeType.field(named: fieldName) else { return nil }
            definition = found
        }
        guard let named = schema.type(named: definition.type.namedType), named.isOutputType else { return nil }

        let fields: [Field] = group.occurrences.compactMap {
            if case .field(let field, _) = $0.node { return field }
            return nil
        }
        // Validation made every selection of the key agree; the first says it for all.
        let required = fields.lazy.compactMap { BatonDirectives.required(in: $0.directives) }.first.map {
            $0.action ?? .silent
        }
        let catchMode = fields.lazy.compactMap { BatonDirectives.catch(in: $0.directives) }.first.map {
            $0.target ?? .result
        }

        // Generated code nests a type, a decoder and a plan per list level; real schemas use a
        // few, and a hostile one could use as many as the parser allows.
        guard LensModelBuilder.listDepth(definition.type) < LensModelBuilder.maximumListLevels else {
            diagnostics.append(
                Diagnostic(
                    .error,
                    "The type of \(field.responseKey) nests lists more than "
                        + "\(LensModelBuilder.maximumListLevels) levels deep; "
                        + "Baton cannot generate a lens for it.",
                    rule: LensDiagnosticRule.nestingTooDeep, range: locations.first))
            return nil
        }
        let base: AccessorBase
        var childBubbles = false
        switch named.kind {
        case .scalar:
            let mapping = named.isBuiltInScalar ? nil : options.customScalars[named.name]
            base = .scalar(ScalarBase(name: named.name, isBuiltIn: named.isBuiltInScalar, mapping: mapping))
        case .enumType:
            base = .enumeration(named.name)
        case .object, .interface, .union:
            guard !isTooDeep(depth) else {
                reportTooDeep(locations.first)
                return nil
            }
            let typeName = LensNaming.nestedTypeName(accessor: field.responseKey) {
                ancestors.contains($0) || siblingTypeNames.contains($0)
            }
            siblingTypeNames.insert(typeName)
            let (children, inherits) = children(of: group, parent: named, depth: depth) { occurrence in
                if case .field(let occurrenceField, _) = occurrence.node { return occurrenceField.selectionSet }
                return nil
            }
            bubbles.enter(
                field.responseKey, passesNullOn: Bubbling.passesNullOn(required: required, type: definition.type))
            let lens = buildLens(
                children, parent: named, typeName: typeName, ancestors: ancestors + [typeName], scope: scope,
                depth: depth + 1, enclosing: inherits ? presence : nil)
            bubbles.leave()
            childBubbles = lens.bubblesOut
            base = .lens(lens)
        case .inputObject:
            return nil
        }

        let mapped: Bool = if case .scalar(let scalar) = base { scalar.mapping != nil } else { false }
        let (levels, semanticNonNull) = OptionalityPolicy.levels(
            OptionalityPolicy.Field(
                schemaType: definition.type,
                semanticNonNullLevels: BatonDirectives.semanticNonNullLevels(of: definition)?.map(\.level),
                underThrowOnFieldError: scope.throwOnFieldError, mappedCustomScalar: mapped, required: required,
                childrenBubble: childBubbles, catchTarget: catchMode, conditional: !presence.isAlways))

        checkArguments(field, file: scope.source)
        var accessor = Accessor(
            name: field.responseKey,
            reads: .field(
                FieldRead(
                    responseKey: field.responseKey, fieldName: fieldName,
                    arguments: field.arguments.map { ArgumentModel(name: $0.name.value, value: $0.value) }.sorted {
                        $0.name < $1.name
                    }, schemaType: definition.type, parentType: scopeType.name)),
            base: base, levels: levels,
            required: required.map {
                RequiredEffect(action: $0, bubblesTo: $0.bubbles ? bubbles.target(in: scope) : nil)
            },
            catchMode: catchMode,
            presence: presence, semanticNonNull: semanticNonNull, underThrowOnFieldError: scope.throwOnFieldError,
            receivesBubbledNull: childBubbles, locations: locations)
        connectionAndUpdate(of: fields, into: &accessor)
        return accessor
    }

    /// `@connection` and a declarative update, as the first selection of the accessor writes them (validation
    /// made the selections of one response key agree on their directives).
    func connectionAndUpdate(of fields: [Field], into accessor: inout Accessor) {
        if let use = fields.lazy.compactMap({ BatonDirectives.connection(in: $0.directives) }).first,
            let key = use.key, let field = fields.first
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
        if let use = fields.lazy.compactMap({ BatonDirectives.recordUpdate(in: $0.directives) }).first {
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
