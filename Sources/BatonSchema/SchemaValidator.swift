import BatonDiagnostics
import BatonSyntax

/// A schema element schema validation can point at. graphql-js reports at AST nodes; a
/// `SchemaNodeLocator` maps these to source ranges (SDL) or JSON values (introspection).
package enum SchemaNode: Hashable, Sendable {
    /// The schema definition.
    case schema
    /// The type named for an operation in the schema definition or an extension.
    case operationType(OperationType)
    /// A type's definition (or, failing that, its first extension).
    case type(String)
    /// The interface named in a type's `implements` list.
    case implements(type: String, interface: String)
    /// A member named in a union's member list.
    case unionMember(union: String, member: String)
    case field(type: String, field: String)
    case fieldType(type: String, field: String)
    case argument(type: String, field: String, argument: String)
    case argumentType(type: String, field: String, argument: String)
    /// The `@deprecated` applied to an argument.
    case argumentDeprecation(type: String, field: String, argument: String)
    case inputField(type: String, field: String)
    case inputFieldType(type: String, field: String)
    case inputFieldDeprecation(type: String, field: String)
    case enumValue(type: String, value: String)
    case directive(String)
    case directiveArgument(directive: String, argument: String)
    case directiveArgumentType(directive: String, argument: String)
    case directiveArgumentDeprecation(directive: String, argument: String)
}

/// Finds where a schema element was written.
package protocol SchemaNodeLocator {
    /// The range of `node`, or nil when it has none (built-ins, or input without locations).
    func range(of node: SchemaNode) -> SourceRange?
    /// The path to name for problems with no range.
    var fallbackPath: String? { get }
}

/// Validates a built schema as graphql-js's `validateSchema` does: root types are object
/// types; names do not begin with `__`; objects and interfaces have fields of output types and
/// arguments of input types and implement their interfaces with compatible fields; unions have
/// object members; enums have values; input objects have input-typed fields and no cycle of
/// non-null fields. Every problem is a diagnostic with rule id `schema`, graphql-js's message
/// and the location of graphql-js's first node.
package enum SchemaValidator {
    package static let ruleID = "schema"

    package static func validate(_ schema: GraphQLSchema, locator: any SchemaNodeLocator) -> [Diagnostic] {
        var run = Run(schema: schema, locator: locator)
        run.validateRootTypes()
        run.validateDirectives()
        run.validateTypes()
        return run.diagnostics
    }

    private struct Run {
        let schema: GraphQLSchema
        let locator: any SchemaNodeLocator
        var diagnostics: [Diagnostic] = []

        init(schema: GraphQLSchema, locator: any SchemaNodeLocator) {
            self.schema = schema
            self.locator = locator
        }

        /// Reports at the first of `nodes` that has a range; the others become notes.
        mutating func report(_ message: String, _ nodes: [SchemaNode], notes noteMessage: String? = nil) {
            let ranges = nodes.compactMap { locator.range(of: $0) }
            var notes: [DiagnosticNote] = []
            if let noteMessage {
                notes = ranges.dropFirst().map { DiagnosticNote(message: noteMessage, range: $0) }
            }
            diagnostics.append(
                Diagnostic(
                    .error, message, rule: SchemaValidator.ruleID, range: ranges.first,
                    path: ranges.first == nil ? locator.fallbackPath : nil, notes: notes))
        }

        // MARK: Root types

        mutating func validateRootTypes() {
            if let query = schema.rootType(for: .query) {
                if query.kind != .object {
                    report(
                        "Query root type must be Object type, it cannot be \(query.name).",
                        [.operationType(.query), .type(query.name)])
                }
            } else {
                report("Query root type must be provided.", [.schema])
            }
            for (operation, label) in [(OperationType.mutation, "Mutation"), (.subscription, "Subscription")] {
                if let root = schema.rootType(for: operation), root.kind != .object {
                    report(
                        "\(label) root type must be Object type if provided, it cannot be \(root.name).",
                        [.operationType(operation), .type(root.name)])
                }
            }
        }

        // MARK: Directives

        mutating func validateDirectives() {
            for name in schema.directiveNames {
                guard let directive = schema.directive(named: name) else { continue }
                validateName(directive.name, .directive(name))
                for argument in directive.arguments {
                    validateName(argument.name, .directiveArgument(directive: name, argument: argument.name))
                    if let type = schema.type(named: argument.type.namedType), !type.isInputType {
                        report(
                            "The type of @\(name)(\(argument.name):) must be Input Type but got: \(argument.type).",
                            [.directiveArgument(directive: name, argument: argument.name)])
                    }
                    if isRequired(argument) && argument.deprecationReason != nil {
                        report(
                            "Required argument @\(name)(\(argument.name):) cannot be deprecated.",
                            [
                                .directiveArgumentDeprecation(directive: name, argument: argument.name),
                                .directiveArgumentType(directive: name, argument: argument.name),
                            ])
                    }
                }
            }
        }

        func isRequired(_ value: InputValue) -> Bool { value.type.isNonNull && value.defaultValue == nil }

        /// The node is made only when there is something to report.
        mutating func validateName(_ name: String, _ node: @autoclosure () -> SchemaNode) {
            // The byte test first: `hasPrefix` (grapheme-aware) is much slower, and can only be
            // true when the first two bytes are underscores.
            var bytes = name.utf8.makeIterator()
            guard bytes.next() == 0x5F, bytes.next() == 0x5F else { return }
            if name.hasPrefix("__") {
                report(
                    "Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection.", [node()]
                )
            }
        }

        // MARK: Types

        mutating func validateTypes() {
            var cycles = InputCycleDetector()
            for name in schema.typeNames {
                guard let type = schema.type(named: name) else { continue }
                let isIntrospection = BuiltIns.isIntrospectionType(name) && type.location == nil
                if !isIntrospection { validateName(name, .type(name)) }
                switch type.kind {
                case .object, .interface:
                    validateFields(type)
                    validateInterfaces(type)
                case .union:
                    validateUnionMembers(type)
                case .enumType:
                    validateEnumValues(type)
                case .inputObject:
                    validateInputFields(type)
                    cycles.detect(from: type, in: schema) { message, path in
                        report(message, path.map { .inputField(type: $0.type, field: $0.field) })
                    }
                case .scalar:
                    break
                }
            }
        }

        mutating func validateFields(_ type: NamedTypeDef) {
            if type.fields.isEmpty {
                report("Type \(type.name) must define one or more fields.", [.type(type.name)])
            }
            // Element by element through the arrays: `for field in type.fields` would copy
            // (retain and release) every field's strings and arrays.
            let fields = type.fields
            for i in fields.indices {
                let fieldName = fields[i].name
                validateName(fieldName, .field(type: type.name, field: fieldName))
                if let fieldType = schema.type(named: fields[i].type.namedType), !fieldType.isOutputType {
                    report(
                        "The type of \(type.name).\(fieldName) must be Output Type but got: \(fields[i].type).",
                        [.fieldType(type: type.name, field: fieldName)])
                }
                let arguments = fields[i].arguments
                for j in arguments.indices {
                    let argumentName = arguments[j].name
                    validateName(argumentName, .argument(type: type.name, field: fieldName, argument: argumentName))
                    if let argumentType = schema.type(named: arguments[j].type.namedType), !argumentType.isInputType {
                        report(
                            "The type of \(type.name).\(fieldName)(\(argumentName):) must be Input Type but got: \(arguments[j].type).",
                            [.argumentType(type: type.name, field: fieldName, argument: argumentName)])
                    }
                    if arguments[j].type.isNonNull && arguments[j].defaultValue == nil
                        && arguments[j].deprecationReason != nil
                    {
                        report(
                            "Required argument \(type.name).\(fieldName)(\(argumentName):) cannot be deprecated.",
                            [
                                .argumentDeprecation(type: type.name, field: fieldName, argument: argumentName),
                                .argumentType(type: type.name, field: fieldName, argument: argumentName),
                            ])
                    }
                }
            }
        }

        mutating func validateInterfaces(_ type: NamedTypeDef) {
            var seen = Set<String>()
            for interfaceName in type.interfaces {
                guard let interface = schema.type(named: interfaceName) else { continue }
                let nodes: [SchemaNode] = [.implements(type: type.name, interface: interfaceName)]
                if interface.kind != .interface {
                    report(
                        "Type \(type.name) must only implement Interface types, it cannot implement \(interfaceName).",
                        nodes)
                    continue
                }
                if interfaceName == type.name {
                    report(
                        "Type \(type.name) cannot implement itself because it would create a circular reference.", nodes
                    )
                    continue
                }
                if !seen.insert(interfaceName).inserted {
                    report("Type \(type.name) can only implement \(interfaceName) once.", nodes)
                    continue
                }
                validateImplementsAncestors(type, interface)
                validateImplementsInterface(type, interface)
            }
        }

        mutating func validateImplementsAncestors(_ type: NamedTypeDef, _ interface: NamedTypeDef) {
            for transitive in interface.interfaces where !type.interfaces.contains(transitive) {
                let message =
                    transitive == type.name
                    ? "Type \(type.name) cannot implement \(interface.name) because it would create a circular reference."
                    : "Type \(type.name) must implement \(transitive) because it is implemented by \(interface.name)."
                report(
                    message,
                    [
                        .implements(type: interface.name, interface: transitive),
                        .implements(type: type.name, interface: interface.name),
                    ])
            }
        }

        mutating func validateImplementsInterface(_ type: NamedTypeDef, _ interface: NamedTypeDef) {
            for interfaceField in interface.fields {
                let name = interfaceField.name
                guard let typeField = type.field(named: name) else {
                    report(
                        "Interface field \(interface.name).\(name) expected but \(type.name) does not provide it.",
                        [.field(type: interface.name, field: name), .type(type.name)], notes: "Type defined here.")
                    continue
                }
                if !isTypeSubType(typeField.type, of: interfaceField.type) {
                    report(
                        "Interface field \(interface.name).\(name) expects type \(interfaceField.type) but \(type.name).\(name) is type \(typeField.type).",
                        [.fieldType(type: interface.name, field: name), .fieldType(type: type.name, field: name)],
                        notes: "Implementing field here.")
                }
                for interfaceArgument in interfaceField.arguments {
                    let argumentName = interfaceArgument.name
                    guard let typeArgument = typeField.argument(named: argumentName) else {
                        report(
                            "Interface field argument \(interface.name).\(name)(\(argumentName):) expected but \(type.name).\(name) does not provide it.",
                            [
                                .argument(type: interface.name, field: name, argument: argumentName),
                                .field(type: type.name, field: name),
                            ], notes: "Implementing field here.")
                        continue
                    }
                    if interfaceArgument.type != typeArgument.type {
                        report(
                            "Interface field argument \(interface.name).\(name)(\(argumentName):) expects type \(interfaceArgument.type) but \(type.name).\(name)(\(argumentName):) is type \(typeArgument.type).",
                            [
                                .argumentType(type: interface.name, field: name, argument: argumentName),
                                .argumentType(type: type.name, field: name, argument: argumentName),
                            ], notes: "Implementing argument here.")
                    }
                }
                for typeArgument in typeField.arguments
                where isRequired(typeArgument) && interfaceField.argument(named: typeArgument.name) == nil {
                    report(
                        "Object field \(type.name).\(name) includes required argument \(typeArgument.name) that is missing from the Interface field \(interface.name).\(name).",
                        [
                            .argument(type: type.name, field: name, argument: typeArgument.name),
                            .field(type: interface.name, field: name),
                        ], notes: "Interface field here.")
                }
            }
        }

        /// graphql-js's `isTypeSubTypeOf`: covariant field types.
        func isTypeSubType(_ maybeSubType: TypeRef, of superType: TypeRef) -> Bool {
            if maybeSubType == superType { return true }
            if case .nonNull(let superInner) = superType {
                if case .nonNull(let subInner) = maybeSubType { return isTypeSubType(subInner, of: superInner) }
                return false
            }
            if case .nonNull(let subInner) = maybeSubType { return isTypeSubType(subInner, of: superType) }
            if case .list(let superInner) = superType {
                if case .list(let subInner) = maybeSubType { return isTypeSubType(subInner, of: superInner) }
                return false
            }
            if case .list = maybeSubType { return false }
            guard let superNamed = schema.type(named: superType.namedType), superNamed.isAbstract,
                let subNamed = schema.type(named: maybeSubType.namedType),
                subNamed.kind == .object || subNamed.kind == .interface
            else { return false }
            return schema.isSubType(superNamed, subNamed)
        }

        mutating func validateUnionMembers(_ union: NamedTypeDef) {
            if union.unionMembers.isEmpty {
                report("Union type \(union.name) must define one or more member types.", [.type(union.name)])
            }
            var seen = Set<String>()
            for member in union.unionMembers {
                let nodes: [SchemaNode] = [.unionMember(union: union.name, member: member)]
                if !seen.insert(member).inserted {
                    report("Union type \(union.name) can only include type \(member) once.", nodes)
                    continue
                }
                if let memberType = schema.type(named: member), memberType.kind != .object {
                    report(
                        "Union type \(union.name) can only include Object types, it cannot include \(member).", nodes)
                }
            }
        }

        mutating func validateEnumValues(_ type: NamedTypeDef) {
            if type.enumValues.isEmpty {
                report("Enum type \(type.name) must define one or more values.", [.type(type.name)])
            }
            for value in type.enumValues {
                validateName(value.name, .enumValue(type: type.name, value: value.name))
            }
        }

        mutating func validateInputFields(_ type: NamedTypeDef) {
            if type.inputFields.isEmpty {
                report("Input Object type \(type.name) must define one or more fields.", [.type(type.name)])
            }
            for field in type.inputFields {
                validateName(field.name, .inputField(type: type.name, field: field.name))
                if let fieldType = schema.type(named: field.type.namedType), !fieldType.isInputType {
                    report(
                        "The type of \(type.name).\(field.name) must be Input Type but got: \(field.type).",
                        [.inputFieldType(type: type.name, field: field.name)])
                }
                if isRequired(field) && field.deprecationReason != nil {
                    report(
                        "Required input field \(type.name).\(field.name) cannot be deprecated.",
                        [
                            .inputFieldDeprecation(type: type.name, field: field.name),
                            .inputFieldType(type: type.name, field: field.name),
                        ])
                }
            }
        }
    }
}

/// graphql-js's input-object cycle check: a depth-first walk over non-null input-object
/// fields, remembering visited types so each cycle is reported once and the walk stays linear.
/// Iterative, so a long chain of input types cannot overflow the stack.
private struct InputCycleDetector {
    private var visited = Set<String>()

    mutating func detect(
        from start: NamedTypeDef, in schema: GraphQLSchema,
        report: (String, [(type: String, field: String)]) -> Void
    ) {
        if !visited.insert(start.name).inserted { return }
        struct Frame {
            var type: NamedTypeDef
            var next: Int
        }
        var frames = [Frame(type: start, next: 0)]
        var fieldPath: [(type: String, field: String)] = []
        var pathIndexByType: [String: Int] = [start.name: 0]
        while let top = frames.last {
            let fields = top.type.inputFields
            if top.next >= fields.count {
                frames.removeLast()
                pathIndexByType[top.type.name] = nil
                if !frames.isEmpty { fieldPath.removeLast() }
                continue
            }
            frames[frames.count - 1].next += 1
            let field = fields[top.next]
            guard case .nonNull(.named(let name)) = field.type, let fieldType = schema.type(named: name),
                fieldType.kind == .inputObject
            else { continue }
            if let cycleIndex = pathIndexByType[name] {
                let cycle = Array(fieldPath[cycleIndex...]) + [(top.type.name, field.name)]
                let pathText = cycle.map(\.field).joined(separator: ".")
                report(
                    "Cannot reference Input Object \"\(name)\" within itself through a series of non-null fields: \"\(pathText)\".",
                    cycle)
            } else if visited.insert(name).inserted {
                fieldPath.append((top.type.name, field.name))
                pathIndexByType[name] = fieldPath.count
                frames.append(Frame(type: fieldType, next: 0))
            }
        }
    }
}
