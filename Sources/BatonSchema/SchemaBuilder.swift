import BatonDiagnostics
import BatonSyntax

/// Builds a schema from SDL, as graphql-js's `buildASTSchema` does, from one file or several
/// (their definitions merge as if they were one document).
///
/// 1. Every source is parsed; a syntax error is reported and that file left out.
/// 2. The SDL rules (`SDLRules`, graphql-js's `specifiedSDLRules`) check the definitions,
///    unless a file failed to parse (its missing definitions would only cause noise).
/// 3. The schema is built: type definitions with their `extend`s applied, root types from
///    `schema { … }` or the names Query / Mutation / Subscription, the built-ins added
///    (`SchemaAssembler`). Where the SDL is wrong the first definition of a name wins and
///    references to unknown types stay unresolved, so a broken schema still builds.
/// 4. Only when the SDL rules found nothing (as in graphql-js, whose `buildASTSchema` throws
///    first) is the built schema validated (`SchemaValidator`).
///
/// The schema is nil only when no source could be parsed.
package enum SchemaBuilder {
    /// Without `descriptions`, every description of the built schema is empty (`Parser.parse(_:decodingDescriptions:)`;
    /// for `check`, which never shows them).
    ///
    /// The syntax tree is let go as the schema is built: the SDL rules run first (their tables freed with them), each
    /// type's definitions are released once its `NamedTypeDef` is made, and schema validation, which needs the tree
    /// only to place a problem, parses the sources again when it reports one (`ReparsingLocator`). So the tree and the
    /// built schema are never both whole in memory (saleor's schema: 2.9 MB of tree, 2.1 MB of definitions).
    package static func build(sources: [SourceFile], descriptions: Bool = true) -> (GraphQLSchema?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var allParsed = true
        var parsedAny = false
        var definitions: [LocatedDefinition] = []
        for source in sources {
            let result = Parser.parse(source, decodingDescriptions: descriptions)
            diagnostics += result.diagnostics
            if result.document == nil || result.diagnostics.contains(where: { $0.severity == .error }) {
                allParsed = false
            }
            guard let document = result.document else { continue }
            parsedAny = true
            if definitions.isEmpty {
                // One file, the usual case: the list sized exactly.
                definitions = document.definitions.map { LocatedDefinition($0, file: document.source) }
            } else {
                for definition in document.definitions {
                    definitions.append(LocatedDefinition(definition, file: document.source))
                }
            }
        }
        if !parsedAny && !sources.isEmpty { return (nil, diagnostics) }
        let fallbackPath = sources.first?.path
        let index = SDLNodeIndex(definitions, fallbackPath: fallbackPath)
        definitions = []  // the index holds the tree's only copy, released as the types are built
        let (schema, more) = build(
            index, validate: allParsed,
            locator: ReparsingLocator(sources: sources, descriptions: descriptions, fallbackPath: fallbackPath))
        return (schema, diagnostics + more)
    }

    /// Builds from parsed documents. `validate: false` skips the SDL rules and schema validation.
    package static func build(
        documents: [Document], validate: Bool = true, fallbackPath: String? = nil
    ) -> (GraphQLSchema, [Diagnostic]) {
        var definitions: [LocatedDefinition] = []
        definitions.reserveCapacity(documents.reduce(0) { $0 + $1.definitions.count })
        for document in documents {
            for definition in document.definitions {
                definitions.append(LocatedDefinition(definition, file: document.source))
            }
        }
        let index = SDLNodeIndex(definitions, fallbackPath: fallbackPath ?? documents.first?.source.path)
        return build(index, validate: validate, locator: nil)
    }

    /// The SDL rules, the schema, schema validation. With a `locator`, the index's type definitions are
    /// released as they are built and the locator places schema validation's problems; without, the index does.
    private static func build(
        _ index: SDLNodeIndex, validate: Bool, locator: (any SchemaNodeLocator)?
    ) -> (GraphQLSchema, [Diagnostic]) {
        // The SDL rules read only the tree: run before the build, their tables are gone before it starts.
        var diagnostics = validate ? SDLRules.validate(index) : []
        let schema = assemble(index, releasing: locator != nil)
        // Warnings (identical duplicate fields) leave a schema worth validating.
        if validate && !diagnostics.contains(where: { $0.severity == .error }) {
            diagnostics += SchemaValidator.validate(schema, locator: locator ?? index)
        }
        diagnostics.sort(by: Diagnostic.sortKey)
        return (schema, diagnostics)
    }

    /// With `releasing`, each type's definitions are let go once it is built (`SDLNodeIndex.release`).
    private static func assemble(_ index: SDLNodeIndex, releasing: Bool) -> GraphQLSchema {
        let converter = SDLConverter(keepLocations: true)
        var types: [NamedTypeDef] = []
        types.reserveCapacity(index.typeNames.count)
        // A definition of a built-in scalar or introspection type is replaced by the built-in
        // one (as in graphql-js), which is then part of the schema even when unreferenced.
        var declaredStandard = Set<String>()
        for (position, name) in index.typeNames.names.enumerated() {
            if BuiltIns.isStandardType(name) {
                declaredStandard.insert(name)
                continue
            }
            let first = index.firstTypeDefinition[position]
            let definition = index.definitions[first]
            let extensions = index.extensions(ofType: name)
            if let type = converter.namedType(definition.definition, extensions: extensions, file: definition.file) {
                types.append(type)
            }
            if releasing { index.release(typeNamed: name, at: first) }
        }
        var directives: [DirectiveDef] = []
        directives.reserveCapacity(index.directiveNames.count)
        for position in index.firstDirectiveDefinition {
            guard case .directive(let node) = index.definitions[position].definition else { continue }
            directives.append(converter.directive(node, file: index.definitions[position].file))
        }

        // Root operation types: the schema definition, then its extensions (later wins);
        // with no schema definition, types named Query / Mutation / Subscription.
        var roots: [OperationType: String] = [:]
        var schemaDirectives: [AppliedDirective] = []
        var description: String?
        for (node, file) in index.schemaNodes {
            for operationType in node.operationTypes { roots[operationType.operation] = operationType.type.name.value }
            schemaDirectives += converter.applied(node.directives, file)
            if !node.isExtension && description == nil { description = node.description?.value }
        }
        if !index.hasSchemaDefinition {
            for (operation, name) in [
                (OperationType.query, "Query"), (.mutation, "Mutation"), (.subscription, "Subscription"),
            ]
            where index.typeNames.contains(name) {
                roots[operation] = name
            }
        }
        return SchemaAssembler.assemble(
            SchemaAssembler.Input(
                description: description, types: types, directives: directives, queryTypeName: roots[.query],
                mutationTypeName: roots[.mutation], subscriptionTypeName: roots[.subscription],
                schemaDirectives: schemaDirectives, listedStandardTypes: declaredStandard))
    }
}

/// The SDL definitions of one schema grouped by name, in order; also the locator schema
/// validation uses to point at the AST nodes graphql-js would report.
final class SDLNodeIndex: SchemaNodeLocator {
    /// Every definition of the schema's files, in order (a type's, once released, an empty placeholder).
    private(set) var definitions: [LocatedDefinition]
    /// Names of the types defined (not only extended), in first-definition order.
    private(set) var typeNames = NameSet()
    /// The position in `definitions` of the first definition of each of `typeNames`.
    private(set) var firstTypeDefinition: [Int] = []
    /// Positions of the `extend` definitions of each extended type name, in order.
    private(set) var typeExtensions: [String: [Int]] = [:]
    /// Type names defined more than once (usually none).
    private(set) var multiplyDefinedTypes = Set<String>()
    /// Names of the directives defined, in first-definition order.
    private(set) var directiveNames = NameSet()
    /// The position of the first definition of each of `directiveNames`.
    private(set) var firstDirectiveDefinition: [Int] = []
    /// Positions of every directive definition, in order.
    private(set) var directivePositions: [Int] = []
    /// Positions of every schema definition and extension, in order.
    private(set) var schemaPositions: [Int] = []
    /// Positions of every type definition and extension, in order.
    private(set) var typePositions: [Int] = []
    /// The first schema definition, then every schema extension, in order.
    private(set) var schemaNodes: [(SchemaDefinition, SourceFile)] = []
    private(set) var hasSchemaDefinition = false
    let fallbackPath: String?

    init(_ definitions: [LocatedDefinition], fallbackPath: String?) {
        self.definitions = definitions
        self.fallbackPath = fallbackPath
        typeNames = NameSet(minimumCapacity: definitions.count)
        firstTypeDefinition.reserveCapacity(definitions.count)
        typePositions.reserveCapacity(definitions.count)
        var extensionNodes: [(SchemaDefinition, SourceFile)] = []
        for position in definitions.indices {
            switch definitions[position].definition {
            case .schema(let node):
                schemaPositions.append(position)
                if node.isExtension {
                    extensionNodes.append((node, definitions[position].file))
                } else if !hasSchemaDefinition {
                    hasSchemaDefinition = true
                    schemaNodes.append((node, definitions[position].file))
                }
            case .directive(let node):
                directivePositions.append(position)
                if directiveNames.insert(node.name.value).inserted { firstDirectiveDefinition.append(position) }
            case .operation, .fragment:
                break
            case .scalar(let node): addType(node.name.value, node.isExtension, position)
            case .object(let node): addType(node.name.value, node.isExtension, position)
            case .interface(let node): addType(node.name.value, node.isExtension, position)
            case .union(let node): addType(node.name.value, node.isExtension, position)
            case .enumType(let node): addType(node.name.value, node.isExtension, position)
            case .inputObject(let node): addType(node.name.value, node.isExtension, position)
            }
        }
        schemaNodes += extensionNodes
    }

    private func addType(_ name: String, _ isExtension: Bool, _ position: Int) {
        typePositions.append(position)
        if isExtension {
            typeExtensions[name, default: []].append(position)
        } else if typeNames.insert(name).inserted {
            firstTypeDefinition.append(position)
        } else {
            multiplyDefinedTypes.insert(name)
        }
    }

    /// Lets go of the definition of the type `name` at `position` and of its extensions, once the schema's
    /// `NamedTypeDef` is built from them (`SchemaBuilder.assemble`): each becomes an empty scalar of the same name
    /// and place, so what the index says of names and positions stays true. Only the build reads the index
    /// afterwards (its locator is then `ReparsingLocator`).
    func release(typeNamed name: String, at position: Int) {
        releaseDefinition(at: position)
        for extensionPosition in typeExtensions[name] ?? [] { releaseDefinition(at: extensionPosition) }
    }

    private func releaseDefinition(at position: Int) {
        let definition = definitions[position].definition
        guard let typeName = SDLConverter.typeName(definition) else { return }
        definitions[position].definition = .scalar(
            ScalarTypeDefinition(
                description: nil, name: typeName, directives: [], isExtension: SDLConverter.isTypeExtension(definition),
                span: definition.span))
    }

    /// True when more than one directive definition shares a name.
    var hasDuplicateDirectives: Bool { directivePositions.count != directiveNames.count }

    /// The first definition of the type named `name`, if it is defined.
    func firstDefinition(ofType name: String) -> LocatedDefinition? {
        typeNames.position(of: name).map { definitions[firstTypeDefinition[$0]] }
    }

    /// The `extend` definitions of the type named `name`, in order.
    func extensions(ofType name: String) -> [LocatedDefinition] {
        if typeExtensions.isEmpty { return [] }
        return typeExtensions[name]?.map { definitions[$0] } ?? []
    }

    /// True when the type named `name` has exactly one definition or extension in the files:
    /// the usual case, where rules that merge a type's definitions take a fast path.
    func isWrittenOnce(_ name: String) -> Bool {
        (multiplyDefinedTypes.isEmpty || !multiplyDefinedTypes.contains(name))
            && (typeExtensions.isEmpty || typeExtensions[name] == nil)
    }

    /// The first definition of the directive named `name`.
    func firstDirective(_ name: String) -> (DirectiveDefinition, SourceFile)? {
        guard let position = directiveNames.position(of: name) else { return nil }
        let located = definitions[firstDirectiveDefinition[position]]
        guard case .directive(let node) = located.definition else { return nil }
        return (node, located.file)
    }

    // MARK: SchemaNodeLocator

    func range(of node: SchemaNode) -> SourceRange? {
        switch node {
        case .schema:
            guard hasSchemaDefinition, let (definition, file) = schemaNodes.first else { return nil }
            return SourceRange(file: file, span: definition.span)
        case .operationType(let operation):
            for (definition, file) in schemaNodes {
                if let found = definition.operationTypes.first(where: { $0.operation == operation }) {
                    return SourceRange(file: file, span: found.type.span)
                }
            }
            return nil
        case .type(let name):
            guard let located = typeNodes(name).first, let typeName = SDLConverter.typeName(located.definition)
            else { return nil }
            return SourceRange(
                file: located.file, span: Span(start: located.definition.span.start, end: typeName.span.end))
        case .implements(let type, let interface):
            for located in typeNodes(type) {
                let interfaces: [NamedType]
                switch located.definition {
                case .object(let node): interfaces = node.interfaces
                case .interface(let node): interfaces = node.interfaces
                default: continue
                }
                if let found = interfaces.first(where: { $0.name.value == interface }) {
                    return SourceRange(file: located.file, span: found.span)
                }
            }
            return nil
        case .unionMember(let union, let member):
            for located in typeNodes(union) {
                guard case .union(let node) = located.definition else { continue }
                if let found = node.types.first(where: { $0.name.value == member }) {
                    return SourceRange(file: located.file, span: found.span)
                }
            }
            return nil
        case .field(let type, let field):
            return fieldNode(type, field).map { SourceRange(file: $1, span: headSpan($0.span, $0.name)) }
        case .fieldType(let type, let field):
            return fieldNode(type, field).map { SourceRange(file: $1, span: $0.type.span) }
        case .argument(let type, let field, let argument):
            return argumentNode(type, field, argument).map { SourceRange(file: $1, span: headSpan($0.span, $0.name)) }
        case .argumentType(let type, let field, let argument):
            return argumentNode(type, field, argument).map { SourceRange(file: $1, span: $0.type.span) }
        case .argumentDeprecation(let type, let field, let argument):
            return argumentNode(type, field, argument).flatMap { deprecation($0, $1) }
        case .inputField(let type, let field):
            return inputFieldNode(type, field).map { SourceRange(file: $1, span: headSpan($0.span, $0.name)) }
        case .inputFieldType(let type, let field):
            return inputFieldNode(type, field).map { SourceRange(file: $1, span: $0.type.span) }
        case .inputFieldDeprecation(let type, let field):
            return inputFieldNode(type, field).flatMap { deprecation($0, $1) }
        case .enumValue(let type, let value):
            for located in typeNodes(type) {
                guard case .enumType(let node) = located.definition else { continue }
                if let found = node.values.first(where: { $0.name.value == value }) {
                    return SourceRange(file: located.file, span: headSpan(found.span, found.name))
                }
            }
            return nil
        case .directive(let name):
            guard let (node, file) = firstDirective(name) else { return nil }
            return SourceRange(file: file, span: headSpan(node.span, node.name))
        case .directiveArgument(let directive, let argument):
            return directiveArgumentNode(directive, argument).map {
                SourceRange(file: $1, span: headSpan($0.span, $0.name))
            }
        case .directiveArgumentType(let directive, let argument):
            return directiveArgumentNode(directive, argument).map { SourceRange(file: $1, span: $0.type.span) }
        case .directiveArgumentDeprecation(let directive, let argument):
            return directiveArgumentNode(directive, argument).flatMap { deprecation($0, $1) }
        }
    }

    /// From the start of a node (its description, if any) to the end of its name: where
    /// graphql-js points, without underlining the whole body.
    private func headSpan(_ span: Span, _ name: Name) -> Span {
        Span(start: span.start, end: max(span.start, name.span.end))
    }

    private func typeNodes(_ name: String) -> [LocatedDefinition] {
        (firstDefinition(ofType: name).map { [$0] } ?? []) + extensions(ofType: name)
    }

    private func fieldNode(_ type: String, _ field: String) -> (FieldDefinition, SourceFile)? {
        for located in typeNodes(type) {
            let fields: [FieldDefinition]
            switch located.definition {
            case .object(let node): fields = node.fields
            case .interface(let node): fields = node.fields
            default: continue
            }
            if let found = fields.first(where: { $0.name.value == field }) { return (found, located.file) }
        }
        return nil
    }

    private func argumentNode(_ type: String, _ field: String, _ argument: String) -> (
        InputValueDefinition, SourceFile
    )? {
        guard let (node, file) = fieldNode(type, field),
            let found = node.arguments.first(where: { $0.name.value == argument })
        else { return nil }
        return (found, file)
    }

    private func inputFieldNode(_ type: String, _ field: String) -> (InputValueDefinition, SourceFile)? {
        for located in typeNodes(type) {
            guard case .inputObject(let node) = located.definition else { continue }
            if let found = node.fields.first(where: { $0.name.value == field }) { return (found, located.file) }
        }
        return nil
    }

    private func directiveArgumentNode(_ directive: String, _ argument: String) -> (InputValueDefinition, SourceFile)? {
        guard let (node, file) = firstDirective(directive),
            let found = node.arguments.first(where: { $0.name.value == argument })
        else { return nil }
        return (found, file)
    }

    private func deprecation(_ node: InputValueDefinition, _ file: SourceFile) -> SourceRange? {
        node.directives.first { $0.name.value == "deprecated" }.map { SourceRange(file: file, span: $0.span) }
    }
}

/// Places schema validation's problems in sources whose syntax tree was let go while the schema was built
/// (`SchemaBuilder.build(sources:descriptions:)`): the first question parses them again and indexes the
/// definitions as the build did (the same bytes give the same tree), so a valid schema, which asks nothing,
/// is parsed once.
final class ReparsingLocator: SchemaNodeLocator {
    let sources: [SourceFile]
    let descriptions: Bool
    let fallbackPath: String?
    private lazy var index: SDLNodeIndex = {
        var definitions: [LocatedDefinition] = []
        for source in sources {
            guard let document = Parser.parse(source, decodingDescriptions: descriptions).document else { continue }
            for definition in document.definitions {
                definitions.append(LocatedDefinition(definition, file: document.source))
            }
        }
        return SDLNodeIndex(definitions, fallbackPath: fallbackPath)
    }()

    init(sources: [SourceFile], descriptions: Bool, fallbackPath: String?) {
        self.sources = sources
        self.descriptions = descriptions
        self.fallbackPath = fallbackPath
    }

    func range(of node: SchemaNode) -> SourceRange? { index.range(of: node) }
}
