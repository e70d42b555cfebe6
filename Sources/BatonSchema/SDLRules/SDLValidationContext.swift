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
        let context = SDLValidationContext(definitions)
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
        /// Any other node: its own scope.
        case node(Int)
    }
    var directive: Directive
    var file: SourceFile
    var location: DirectiveLocation
    var scope: Scope
}

/// The shared state of one SDL validation: the definitions, derived lookups, the report.
final class SDLValidationContext {
    let definitions: [LocatedDefinition]
    private(set) var diagnostics: [Diagnostic] = []

    init(_ definitions: [LocatedDefinition]) {
        self.definitions = definitions
    }

    func report(
        _ message: String, rule: String, file: SourceFile, span: Span, notes: [(String, SourceFile, Span)] = []
    ) {
        diagnostics.append(
            .error(
                message, rule: rule, file: file, span: span,
                notes: notes.map { DiagnosticNote(message: $0.0, range: SourceRange(file: $0.1, span: $0.2)) }))
    }

    /// Directive names to what the rules know of them.
    private(set) lazy var knownDirectives: [String: KnownDirective] = {
        var known: [String: KnownDirective] = [:]
        let builtIns = BuiltIns.definitions.directives
        for name in BuiltIns.specifiedDirectiveNames + BuiltIns.batonDirectiveNames {
            guard let directive = builtIns[name] else { continue }
            known[name] = KnownDirective(
                locations: directive.locations.map(\.rawValue), isRepeatable: directive.isRepeatable,
                argumentNames: directive.arguments.map(\.name),
                requiredArguments: directive.arguments.filter { $0.type.isNonNull && $0.defaultValue == nil }
                    .map { ($0.name, $0.type.description) })
        }
        for located in definitions {
            guard case .directive(let node) = located.definition else { continue }
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
    private(set) lazy var definedTypeNames: [String] = {
        var seen = Set<String>()
        var names: [String] = []
        for located in definitions {
            guard !SDLConverter.isTypeExtension(located.definition),
                let name = SDLConverter.typeName(located.definition)
            else { continue }
            if seen.insert(name.value).inserted { names.append(name.value) }
        }
        return names
    }()

    private(set) lazy var definedTypeNameSet: Set<String> = Set(definedTypeNames)

    /// How many definitions and extensions each type name has; rules that merge a type's
    /// definitions take a fast path for the (usual) names written once.
    private(set) lazy var typeNameOccurrences: [String: Int] = {
        var counts: [String: Int] = [:]
        counts.reserveCapacity(definitions.count)
        for located in definitions {
            if let name = SDLConverter.typeName(located.definition) { counts[name.value, default: 0] += 1 }
        }
        return counts
    }()

    /// True when some type is extended.
    private(set) lazy var hasTypeExtensions: Bool = definitions.contains { SDLConverter.isTypeExtension($0.definition) }

    /// Every directive applied in the document, in document order.
    private(set) lazy var directiveUses: [DirectiveUse] = {
        var uses: [DirectiveUse] = []
        var nodeCounter = 0
        func add(_ directives: [Directive], _ file: SourceFile, _ location: DirectiveLocation, _ scope: DirectiveUse.Scope?) {
            if directives.isEmpty { return }
            let resolved: DirectiveUse.Scope
            if let scope {
                resolved = scope
            } else {
                nodeCounter += 1
                resolved = .node(nodeCounter)
            }
            for directive in directives {
                uses.append(DirectiveUse(directive: directive, file: file, location: location, scope: resolved))
            }
        }
        func addArguments(_ arguments: [InputValueDefinition], _ file: SourceFile, _ location: DirectiveLocation) {
            for argument in arguments { add(argument.directives, file, location, nil) }
        }
        func addFields(_ fields: [FieldDefinition], _ file: SourceFile) {
            for field in fields {
                add(field.directives, file, .fieldDefinition, nil)
                addArguments(field.arguments, file, .argumentDefinition)
            }
        }
        for located in definitions {
            let file = located.file
            switch located.definition {
            case .schema(let node):
                add(node.directives, file, .schema, .schema)
            case .scalar(let node):
                add(node.directives, file, .scalar, .type(node.name.value))
            case .object(let node):
                add(node.directives, file, .object, .type(node.name.value))
                addFields(node.fields, file)
            case .interface(let node):
                add(node.directives, file, .interface, .type(node.name.value))
                addFields(node.fields, file)
            case .union(let node):
                add(node.directives, file, .union, .type(node.name.value))
            case .enumType(let node):
                add(node.directives, file, .enumType, .type(node.name.value))
                for value in node.values { add(value.directives, file, .enumValue, nil) }
            case .inputObject(let node):
                add(node.directives, file, .inputObject, .type(node.name.value))
                // graphql-js decides by the parent's kind, and an `extend input` is not an
                // INPUT_OBJECT_TYPE_DEFINITION, so its fields count as argument definitions.
                addArguments(node.fields, file, node.isExtension ? .argumentDefinition : .inputFieldDefinition)
            case .directive(let node):
                addArguments(node.arguments, file, .argumentDefinition)
            case .operation, .fragment:
                break
            }
        }
        return uses
    }()

    /// Every input value literal in the document (applied directive arguments and default
    /// values), each with its file, for the rules that look inside values.
    private(set) lazy var values: [(value: Value, file: SourceFile)] = {
        var values: [(Value, SourceFile)] = []
        for use in directiveUses {
            for argument in use.directive.arguments { values.append((argument.value, use.file)) }
        }
        func addDefaults(_ arguments: [InputValueDefinition], _ file: SourceFile) {
            for argument in arguments {
                if let value = argument.defaultValue { values.append((value, file)) }
            }
        }
        for located in definitions {
            switch located.definition {
            case .object(let node): for field in node.fields { addDefaults(field.arguments, located.file) }
            case .interface(let node): for field in node.fields { addDefaults(field.arguments, located.file) }
            case .inputObject(let node): addDefaults(node.fields, located.file)
            case .directive(let node): addDefaults(node.arguments, located.file)
            default: break
            }
        }
        return values
    }()
}
