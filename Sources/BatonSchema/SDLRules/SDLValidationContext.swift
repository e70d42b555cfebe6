import BatonDiagnostics
import BatonSyntax

/// One rule of the SDL validation graphql-js runs before building a schema (`specifiedSDLRules`).
protocol SDLRule {
    /// The rule's id: kebab-case of graphql-js's rule name.
    static var id: String { get }
    /// Reports every violation in the context's definitions.
    static func check(_ context: SDLValidationContext)
}

/// The SDL rules in graphql-js's order (`specifiedSDLRules`).
enum SDLRules {
    static var all: [any SDLRule.Type] {
        [
            LoneSchemaDefinitionRule.self,
            UniqueOperationTypesRule.self,
            UniqueTypeNamesRule.self,
            UniqueEnumValueNamesRule.self,
            UniqueFieldDefinitionNamesRule.self,
            UniqueArgumentDefinitionNamesRule.self,
            UniqueDirectiveNamesRule.self,
            KnownTypeNamesRule.self,
            KnownDirectivesRule.self,
            UniqueDirectivesPerLocationRule.self,
            PossibleTypeExtensionsRule.self,
            KnownArgumentNamesOnDirectivesRule.self,
            UniqueArgumentNamesRule.self,
            UniqueInputFieldNamesRule.self,
            ProvidedRequiredArgumentsOnDirectivesRule.self,
        ]
    }

    /// Runs every rule over the type-system definitions of one schema (all its files).
    static func validate(_ definitions: [LocatedDefinition]) -> [Diagnostic] {
        validate(SDLNodeIndex(definitions, fallbackPath: nil))
    }

    /// Runs every rule over the definitions of an index already made for building.
    static func validate(_ index: SDLNodeIndex) -> [Diagnostic] {
        let context = SDLValidationContext(index)
        for rule in all { rule.check(context) }
        return context.diagnostics
    }
}

/// What the SDL rules know of a directive: the built-in and Baton directives, overridden by
/// the document's own definitions (the last definition of a name wins, as in graphql-js).
struct KnownDirective {
    var locations: [String]
    var isRepeatable: Bool
    var argumentNames: [String]
    /// Non-null arguments without a default, with their type as written.
    var requiredArguments: [(name: String, type: String)]
}

/// A directive applied somewhere in the SDL, with the location kind graphql-js's
/// `KnownDirectivesRule` computes for it and the scope `UniqueDirectivesPerLocationRule` uses.
struct DirectiveUse {
    enum Scope: Hashable {
        /// Schema definitions and extensions share one scope.
        case schema
        /// A type's definitions and extensions share one scope.
        case type(String)
        /// Any other node: its own scope (its uses are consecutive in `directiveUses`, added at once).
        case node(Int)
    }
    var directive: Directive
    var file: SourceFile
    var location: DirectiveLocation
    var scope: Scope
}

/// What the rules that look inside every definition need, gathered in one walk over the
/// definitions (`SDLValidationContext.scan`) instead of one walk per rule. On a valid schema
/// the candidate lists are empty and those rules do nothing more.
struct SDLScan {
    /// Every directive applied in the document, in document order.
    var directiveUses: [DirectiveUse] = []
    /// Default values of arguments and input fields, in document order.
    var defaultValues: [(value: Value, file: SourceFile)] = []
    /// Type references to names neither defined nor standard, in `KnownTypeNamesRule`'s order.
    var unknownTypeReferences: [(type: NamedType, file: SourceFile)] = []
    /// Positions of object, interface and input object definitions (and extensions) whose
    /// field names need `UniqueFieldDefinitionNamesRule`'s full check: those with a repeated
    /// name, and every definition of a type written more than once.
    var fieldNameCandidates: [Int] = []
    /// The same for enum values (`UniqueEnumValueNamesRule`).
    var enumValueCandidates: [Int] = []
    /// Argument lists with a repeated name, with their parent as messages name it
    /// (`UniqueArgumentDefinitionNamesRule`).
    var repeatedArguments: [(parent: String, arguments: [InputValueDefinition], file: SourceFile)] = []
}

/// The shared state of one SDL validation: the definitions, derived lookups, the report.
final class SDLValidationContext {
    let index: SDLNodeIndex
    var definitions: [LocatedDefinition] { index.definitions }
    private(set) var diagnostics: [Diagnostic] = []

    init(_ index: SDLNodeIndex) {
        self.index = index
    }

    func report(
        _ message: String, rule: String, file: SourceFile, span: Span, notes: [(String, SourceFile, Span)] = [],
        severity: Severity = .error
    ) {
        diagnostics.append(
            Diagnostic(
                severity, message, rule: rule, range: SourceRange(file: file, span: span),
                notes: notes.map { DiagnosticNote(message: $0.0, range: SourceRange(file: $0.1, span: $0.2)) }))
    }

    /// Reports a definition repeated under `rule`: at the first, with the repeat as a note. A repeat
    /// identical to the first (descriptions aside) changes nothing Baton builds, which keeps the first:
    /// a warning naming the setting, as published schemas have them (GitHub's). Any other repeat
    /// leaves the meaning open: an error.
    func reportRepeat(
        _ message: String, rule: String, first: (Span, SourceFile), again: (Span, SourceFile), identical: Bool
    ) {
        report(
            message, rule: rule, file: first.1, span: first.0,
            notes: [
                (
                    identical
                        ? "Also defined here, identically (descriptions aside): Baton keeps the first, so generated code is the same. A warning; \"rules\": {\"\(rule)\": \"error\"} in baton.json makes it an error, \"off\" hides it."
                        : "Also defined here.", again.1, again.0
                )
            ],
            severity: identical ? .warning : .error)
    }

    /// Directive names to what the rules know of them.
    private(set) lazy var knownDirectives: [String: KnownDirective] = {
        var known: [String: KnownDirective] = [:]
        let builtIns = BuiltIns.definitions.directives
        for name in BuiltIns.knownDirectiveNames {
            guard let directive = builtIns[name] else { continue }
            known[name] = KnownDirective(
                locations: directive.locations.map(\.rawValue), isRepeatable: directive.isRepeatable,
                argumentNames: directive.arguments.map(\.name),
                requiredArguments: directive.arguments.filter { $0.type.isNonNull && $0.defaultValue == nil }
                    .map { ($0.name, $0.type.description) })
        }
        for position in index.directivePositions {
            guard case .directive(let node) = definitions[position].definition else { continue }
            known[node.name.value] = KnownDirective(
                locations: node.locations.map(\.value), isRepeatable: node.isRepeatable,
                argumentNames: node.arguments.map(\.name.value),
                requiredArguments: node.arguments.filter {
                    if case .nonNull = $0.type { return $0.defaultValue == nil }
                    return false
                }.map { ($0.name.value, TypeRef($0.type).description) })
        }
        return known
    }()

    /// Names of the types the document defines, in first-definition order.
    var definedTypeNames: [String] { index.typeNames.names }

    /// True when some type is extended.
    var hasTypeExtensions: Bool { !index.typeExtensions.isEmpty }

    /// Every directive applied in the document, in document order.
    var directiveUses: [DirectiveUse] { scan.directiveUses }

    /// Calls `body` with every input value literal in the document (applied directive arguments, then default
    /// values), each with its file, for the rules that look inside values: read in place, not gathered into a
    /// list (three copies of every value, 0.6 MB at the schema build's peak for saleor's schema).
    func forEachValue(_ body: (Value, SourceFile) -> Void) {
        let scan = self.scan
        for use in scan.directiveUses {
            for argument in use.directive.arguments { body(argument.value, use.file) }
        }
        for (value, file) in scan.defaultValues { body(value, file) }
    }

    /// The one walk over every definition, its fields, arguments and values.
    private(set) lazy var scan: SDLScan = {
        var scan = SDLScan()
        let index = self.index
        // Names a type reference may use: the defined types and the standard ones.
        var known = index.typeNames
        for name in BuiltIns.standardTypeNames { known.insert(name) }
        var nodeCounter = 0

        func addDirectives(
            _ directives: [Directive], _ file: SourceFile, _ location: DirectiveLocation, _ scope: DirectiveUse.Scope?
        ) {
            if directives.isEmpty { return }
            let resolved: DirectiveUse.Scope
            if let scope {
                resolved = scope
            } else {
                nodeCounter += 1
                resolved = .node(nodeCounter)
            }
            for directive in directives {
                scan.directiveUses.append(
                    DirectiveUse(directive: directive, file: file, location: location, scope: resolved))
            }
        }
        func checkType(_ named: NamedType, _ file: SourceFile) {
            if !known.contains(named.name.value) { scan.unknownTypeReferences.append((named, file)) }
        }
        func checkType(_ reference: TypeReference, _ file: SourceFile) {
            switch reference {
            case .named(let named): checkType(named, file)
            default: checkType(reference.namedType, file)
            }
        }
        /// Arguments (or input fields) of one parent: directives, type, default value.
        // Element by element through the arrays: `for field in fields` would copy (retain and
        // release) every field's strings and arrays.
        func addArguments(_ arguments: [InputValueDefinition], _ file: SourceFile, _ location: DirectiveLocation) {
            for i in arguments.indices {
                if !arguments[i].directives.isEmpty { addDirectives(arguments[i].directives, file, location, nil) }
                checkType(arguments[i].type, file)
                if let value = arguments[i].defaultValue { scan.defaultValues.append((value, file)) }
            }
        }
        func addFields(_ typeName: Name, _ fields: [FieldDefinition], _ file: SourceFile) {
            for i in fields.indices {
                if !fields[i].directives.isEmpty { addDirectives(fields[i].directives, file, .fieldDefinition, nil) }
                let arguments = fields[i].arguments
                if !arguments.isEmpty { addArguments(arguments, file, .argumentDefinition) }
                checkType(fields[i].type, file)
                if arguments.count > 1
                    && NameIndex(count: arguments.count, name: { arguments[$0].name.value }).hasDuplicates
                {
                    scan.repeatedArguments.append(("\(typeName.value).\(fields[i].name.value)", arguments, file))
                }
            }
        }
        func needsFieldCheck(_ name: Name, _ count: Int, _ fieldName: (Int) -> String) -> Bool {
            !index.isWrittenOnce(name.value) || NameIndex(count: count, name: fieldName).hasDuplicates
        }

        for position in definitions.indices {
            let file = definitions[position].file
            switch definitions[position].definition {
            case .schema(let node):
                addDirectives(node.directives, file, .schema, .schema)
                for operationType in node.operationTypes { checkType(operationType.type, file) }
            case .scalar(let node):
                addDirectives(node.directives, file, .scalar, .type(node.name.value))
            case .object(let node):
                addDirectives(node.directives, file, .object, .type(node.name.value))
                for interface in node.interfaces { checkType(interface, file) }
                addFields(node.name, node.fields, file)
                if needsFieldCheck(node.name, node.fields.count, { node.fields[$0].name.value }) {
                    scan.fieldNameCandidates.append(position)
                }
            case .interface(let node):
                addDirectives(node.directives, file, .interface, .type(node.name.value))
                for interface in node.interfaces { checkType(interface, file) }
                addFields(node.name, node.fields, file)
                if needsFieldCheck(node.name, node.fields.count, { node.fields[$0].name.value }) {
                    scan.fieldNameCandidates.append(position)
                }
            case .union(let node):
                addDirectives(node.directives, file, .union, .type(node.name.value))
                for member in node.types { checkType(member, file) }
            case .enumType(let node):
                addDirectives(node.directives, file, .enumType, .type(node.name.value))
                for i in node.values.indices where !node.values[i].directives.isEmpty {
                    addDirectives(node.values[i].directives, file, .enumValue, nil)
                }
                if needsFieldCheck(node.name, node.values.count, { node.values[$0].name.value }) {
                    scan.enumValueCandidates.append(position)
                }
            case .inputObject(let node):
                addDirectives(node.directives, file, .inputObject, .type(node.name.value))
                // graphql-js decides by the parent's kind, and an `extend input` is not an
                // INPUT_OBJECT_TYPE_DEFINITION, so its fields count as argument definitions.
                addArguments(node.fields, file, node.isExtension ? .argumentDefinition : .inputFieldDefinition)
                if needsFieldCheck(node.name, node.fields.count, { node.fields[$0].name.value }) {
                    scan.fieldNameCandidates.append(position)
                }
            case .directive(let node):
                addArguments(node.arguments, file, .argumentDefinition)
                if node.arguments.count > 1
                    && NameIndex(count: node.arguments.count, name: { node.arguments[$0].name.value }).hasDuplicates
                {
                    scan.repeatedArguments.append(("@\(node.name.value)", node.arguments, file))
                }
            case .operation, .fragment:
                break
            }
        }
        return scan
    }()
}
