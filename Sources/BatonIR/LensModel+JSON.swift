import BatonDiagnostics
import BatonSchema
import BatonSyntax

// The lens model as JSON (`baton plate --format json`): every accessor with its name, reads,
// base, list levels, optionality, directives and location. Keys print in a fixed order; the
// format is versioned by `LensModelJSON.version`.

package enum LensModelJSON {
    /// Bumped when a key changes meaning or disappears (adding keys does not bump it). Version 2:
    /// an accessor's `conditions` became `presence` (normalized alternatives), an operation's
    /// `normalization` went (no generator read it), `operationID` and `typeName` came.
    package static let version = 2

    package static func model(_ model: LensModel) -> JSONOutput {
        .object([
            ("version", .number(version)),
            ("operations", .array(model.operations.map(operation))),
            ("fragments", .array(model.fragments.map(fragment))),
            ("types", types(model.types)),
        ])
    }

    package static func operation(_ operation: OperationModel) -> JSONOutput {
        .object([
            ("kind", .string("operation")),
            ("name", .string(operation.name)),
            ("typeName", .string(operation.typeName)),
            ("operation", .string(operation.kind.rawValue)),
            ("rootType", .string(operation.rootType)),
            ("variables", .array(operation.variables.map(variable))),
            ("throwOnFieldError", .bool(operation.throwOnFieldError)),
            ("onError", .optional(operation.onError)),
            ("fragmentsUsed", .array(operation.fragmentsUsed.map { .string($0) })),
            ("usedTypes", usedTypeNames(operation.usedTypes)),
            ("documentText", .string(operation.documentText)),
            ("operationID", .string(operation.operationID)),
            ("location", location(operation.location)),
            ("lens", lens(operation.lens)),
        ])
    }

    package static func fragment(_ fragment: FragmentModel) -> JSONOutput {
        .object([
            ("kind", .string("fragment")),
            ("name", .string(fragment.name)),
            ("typeName", .string(fragment.typeName)),
            ("typeCondition", .string(fragment.typeCondition)),
            ("possibleTypes", .array(fragment.possibleTypes.map { .string($0) })),
            ("spreadAccessorName", .string(fragment.spreadAccessorName)),
            ("throwOnFieldError", .bool(fragment.throwOnFieldError)),
            ("rootCanBeNil", .bool(fragment.rootCanBeNil)),
            ("fragmentsSpread", .array(fragment.fragmentsSpread.map { .string($0) })),
            ("usedTypes", usedTypeNames(fragment.usedTypes)),
            ("location", location(fragment.location)),
            ("lens", lens(fragment.lens)),
        ])
    }

    package static func lens(_ lens: Lens) -> JSONOutput {
        .object([
            ("typeName", .string(lens.typeName)),
            ("recordType", .string(lens.recordType)),
            ("accessors", .array(lens.accessors.map(accessor))),
        ])
    }

    package static func accessor(_ accessor: Accessor) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("name", .string(accessor.name)),
            ("reads", reads(accessor.reads)),
            ("base", base(accessor.base)),
            ("listDepth", .number(accessor.listDepth)),
            (
                "levels",
                .array(
                    accessor.levels.map {
                        .object([
                            ("schemaNullable", .bool($0.schemaNullable)), ("optional", .bool($0.isOptional)),
                            ("nonNull", .bool($0.nonNull)),
                        ])
                    })
            ),
            ("optional", .bool(accessor.isOptional)),
            ("throws", .bool(accessor.isThrowing)),
            ("required", accessor.required.map(required) ?? .null),
            ("catch", .optional(accessor.catchMode?.rawValue)),
            ("semanticNonNull", accessor.semanticNonNull.map { .array($0.map { .number($0) }) } ?? .null),
            ("underThrowOnFieldError", .bool(accessor.underThrowOnFieldError)),
            ("receivesBubbledNull", .bool(accessor.receivesBubbledNull)),
            ("presence", presence(accessor.presence)),
            ("locations", .array(accessor.locations.map(location))),
        ]
        // Only a deferred or streamed accessor has the key, so the plans of every other document read as before.
        if let delivery = delivery(accessor.delivery) { members.append(("delivery", delivery)) }
        return .object(members)
    }

    /// `{"kind": "deferred", "label": …, "if": …}` or `{"kind": "streamed", …, "initialCount": 2 | "$n"}`.
    static func delivery(_ delivery: Delivery) -> JSONOutput? {
        switch delivery {
        case .immediate:
            return nil
        case .deferred(let fragment):
            return .object([
                ("kind", .string("deferred")), ("label", .optional(fragment.label)),
                ("if", .optional(fragment.variable)),
            ])
        case .streamed(let list):
            let count: JSONOutput
            switch list.initialCount {
            case .literal(let value): count = .number(value)
            case .variable(let name): count = .string("$" + name)
            }
            return .object([
                ("kind", .string("streamed")), ("label", .optional(list.label)), ("if", .optional(list.variable)),
                ("initialCount", count),
            ])
        }
    }

    static func reads(_ reads: Reads) -> JSONOutput {
        switch reads {
        case .field(let field):
            return .object([
                ("responseKey", .string(field.responseKey)),
                ("field", .string(field.fieldName)),
                ("arguments", .object(field.arguments.map { ($0.name, .string(ValueText.print($0.value))) })),
                ("schemaType", .string(field.schemaType.description)),
                ("parentType", .string(field.parentType)),
            ])
        case .parentRecord(let read):
            return .object([
                ("parentRecord", .bool(true)),
                ("typeCondition", .optional(read.typeCondition)),
                ("matchingTypes", read.matchingTypes.map { .array($0.map { .string($0) }) } ?? .null),
            ])
        }
    }

    static func base(_ base: AccessorBase) -> JSONOutput {
        switch base {
        case .scalar(let scalar):
            return .object([
                ("kind", .string("scalar")),
                ("name", .string(scalar.name)),
                ("builtIn", .bool(scalar.isBuiltIn)),
                ("mapping", scalar.mapping.map(mapping) ?? .null),
            ])
        case .enumeration(let name):
            return .object([("kind", .string("enum")), ("name", .string(name))])
        case .lens(let lens):
            return .object([("kind", .string("lens")), ("lens", self.lens(lens))])
        case .fragment(let fragment):
            return .object([
                ("kind", .string("fragment")),
                ("name", .string(fragment.name)),
                ("typeCondition", .string(fragment.typeCondition)),
            ])
        }
    }

    static func mapping(_ mapping: CustomScalarMapping) -> JSONOutput {
        .object([
            ("swift", .optional(mapping.swiftType)),
            ("kotlin", .optional(mapping.kotlinType)),
            ("kotlinConverter", .optional(mapping.kotlinConverter)),
        ])
    }

    static func required(_ required: RequiredEffect) -> JSONOutput {
        let target: JSONOutput
        switch required.bubblesTo {
        case nil: target = .null
        case .accessor(let path)?:
            target = .object([("accessor", .array(path.map { .string($0) }))])
        case .fragmentSpread(let fragment, let accessorName)?:
            target = .object([("fragmentSpread", .string(fragment)), ("accessor", .string(accessorName))])
        case .operationRoot?:
            target = .object([("operationRoot", .bool(true))])
        }
        return .object([("action", .string(required.action.rawValue)), ("bubblesTo", target)])
    }

    static func variable(_ variable: VariableModel) -> JSONOutput {
        .object([
            ("name", .string(variable.name)),
            ("type", .string(variable.type.description)),
            ("defaultValue", .optional(variable.defaultValue.map(ValueText.print))),
            ("location", location(variable.location)),
        ])
    }

    /// `[["@include(if: $a)"], ["@skip(if: $b)"]]`: alternatives of conditions; `[[]]` always.
    static func presence(_ presence: Presence) -> JSONOutput {
        let alternatives: [JSONOutput] = presence.alternatives.map { conjunction in
            .array(conjunction.map { .string($0.text) })
        }
        return .array(alternatives)
    }

    static func usedTypeNames(_ names: UsedTypeNames) -> JSONOutput {
        .object([
            ("enums", .array(names.enums.map { .string($0) })),
            ("inputObjects", .array(names.inputObjects.map { .string($0) })),
            ("customScalars", .array(names.customScalars.map { .string($0) })),
        ])
    }

    static func types(_ types: UsedTypes) -> JSONOutput {
        .object([
            (
                "enums",
                .array(
                    types.enums.map { model in
                        .object([
                            ("name", .string(model.name)),
                            ("values", .array(model.values.map { .string($0.name) })),
                        ])
                    })
            ),
            (
                "inputObjects",
                .array(
                    types.inputObjects.map { model in
                        .object([
                            ("name", .string(model.name)),
                            ("oneOf", .bool(model.isOneOf)),
                            (
                                "fields",
                                .object(model.fields.map { ($0.name, .string($0.type.description)) })
                            ),
                        ])
                    })
            ),
            (
                "customScalars",
                .array(
                    types.customScalars.map { model in
                        .object([
                            ("name", .string(model.name)),
                            ("mapping", model.mapping.map(mapping) ?? .null),
                        ])
                    })
            ),
        ])
    }

    /// `{"file": …, "line": …, "column": …}` (the host file's line and column for embedded text).
    package static func location(_ range: SourceRange) -> JSONOutput {
        let (file, position) = range.start
        return .object([
            ("file", .string(file.path)),
            ("line", .number(position.line)),
            ("column", .number(position.column)),
        ])
    }
}
