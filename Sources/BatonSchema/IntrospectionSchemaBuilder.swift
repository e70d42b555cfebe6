import BatonDiagnostics
import BatonSyntax

/// Builds a schema from an introspection result, as graphql-js's `buildClientSchema` does:
/// `{"data": {"__schema": …}}` or `{"__schema": …}`, default values parsed from their GraphQL
/// text. Where graphql-js throws on incomplete input, Baton reports the same message as a
/// diagnostic at the JSON value and keeps building without the broken part; the result is
/// then checked by `SchemaValidator` like an SDL schema.
///
/// Differences from graphql-js, on purpose: the spec's directives (`@include`, `@skip`,
/// `@deprecated`, `@specifiedBy`, `@oneOf`) and Baton's own are known even when the result
/// lists no directives; `specifiedByURL` and `isOneOf` become `@specifiedBy` / `@oneOf`
/// applied to the type.
package enum IntrospectionSchemaBuilder {
    package static let ruleID = "schema"

    package static func build(source: SourceFile) -> (GraphQLSchema?, [Diagnostic]) {
        let json: JSONValue
        switch JSONParser.parse(source) {
        case .success(let value): json = value
        case .failure(let error):
            let span = Span(start: error.offset, end: min(error.offset + 1, source.bytes.count))
            return (nil, [.error(error.message, rule: "syntax", file: source, span: span)])
        }
        return build(json: json, source: source)
    }

    /// Builds from an already parsed JSON document of `source`.
    package static func build(json: JSONValue, source: SourceFile) -> (GraphQLSchema?, [Diagnostic]) {
        var builder = Builder(source: source)
        guard let schema = builder.build(json) else { return (nil, builder.diagnostics) }
        var diagnostics = builder.diagnostics
        diagnostics += SchemaValidator.validate(schema, locator: builder.locator)
        diagnostics.sort(by: Diagnostic.sortKey)
        return (schema, diagnostics)
    }

    /// Where the introspection result put each schema element, for diagnostics. Building
    /// records every element in order; the lookup table is made only when a diagnostic asks
    /// (a valid schema never does), replaying the records so later ones win unless marked
    /// `keepFirst`.
    final class Locator: SchemaNodeLocator {
        let source: SourceFile
        private var records: [(node: SchemaNode, span: Span, keepFirst: Bool)] = []
        private var table: [SchemaNode: Span]?
        init(source: SourceFile) { self.source = source }
        var fallbackPath: String? { source.path }

        func record(_ node: SchemaNode, _ span: Span, keepFirst: Bool = false) {
            records.append((node, span, keepFirst))
            table = nil
        }

        func range(of node: SchemaNode) -> SourceRange? {
            if table == nil {
                var spans: [SchemaNode: Span] = [:]
                spans.reserveCapacity(records.count)
                for record in records where !(record.keepFirst && spans[record.node] != nil) {
                    spans[record.node] = record.span
                }
                table = spans
            }
            return table?[node].map { SourceRange(file: source, span: $0) }
        }
    }

    private struct Builder {
        let source: SourceFile
        let locator: Locator
        var diagnostics: [Diagnostic] = []
        /// Every type the result lists, by name, with its kind (`kindList[kindNames.position(of: name)]`).
        var kindNames = NameSet(minimumCapacity: 1024)
        var kindList: [TypeKind] = []

        func listedKind(of name: String) -> TypeKind? { kindNames.position(of: name).map { kindList[$0] } }

        init(source: SourceFile) {
            self.source = source
            self.locator = Locator(source: source)
        }

        mutating func report(_ message: String, at value: JSONValue?) {
            if let value {
                diagnostics.append(
                    .error(message, rule: IntrospectionSchemaBuilder.ruleID, file: source, span: value.span))
            } else {
                diagnostics.append(
                    Diagnostic(.error, message, rule: IntrospectionSchemaBuilder.ruleID, range: nil, path: source.path))
            }
        }

        mutating func build(_ root: JSONValue) -> GraphQLSchema? {
            guard let schemaJSON = root["__schema"] ?? root["data"]?["__schema"], schemaJSON.objectMembers != nil else {
                report(
                    "Invalid or incomplete introspection result. Ensure that you are passing \"data\" property of introspection response and no \"errors\" was returned alongside.",
                    at: root)
                return nil
            }
            locator.record(.schema, schemaJSON.span)
            let typeList = schemaJSON["types"]?.arrayValue ?? []
            if schemaJSON["types"]?.arrayValue == nil {
                report("Introspection result missing types: \(brief(schemaJSON)).", at: schemaJSON)
            }
            // First pass: names and kinds, so references resolve in any order.
            var typeJSONs: [(String, TypeKind, JSONValue)] = []
            for typeJSON in typeList {
                guard let name = typeJSON["name"]?.stringValue, let kindText = typeJSON["kind"]?.stringValue,
                    let kind = TypeKind(rawValue: kindText)
                else {
                    report(
                        "Invalid or incomplete introspection result. Ensure that a full introspection query is used in order to build a client schema: \(brief(typeJSON)).",
                        at: typeJSON)
                    continue
                }
                guard kindNames.insert(name).inserted else { continue }
                kindList.append(kind)
                typeJSONs.append((name, kind, typeJSON))
            }

            var types: [NamedTypeDef] = []
            var listedStandard = Set<String>()
            for (name, kind, typeJSON) in typeJSONs {
                if BuiltIns.isStandardType(name) {
                    listedStandard.insert(name)
                    continue
                }
                validateName(name, at: typeJSON["name"])
                locator.record(.type(name), typeJSON.span)
                types.append(buildType(name, kind, typeJSON))
            }

            var roots: [OperationType: String] = [:]
            for operation in OperationType.allCases {
                let key = "\(operation.rawValue)Type"
                guard let rootJSON = schemaJSON[key], !rootJSON.isNull else { continue }
                guard let name = rootJSON["name"]?.stringValue, let rootKind = listedKind(of: name) else {
                    report(unknownType(rootJSON["name"]?.stringValue ?? brief(rootJSON)), at: rootJSON)
                    continue
                }
                locator.record(.operationType(operation), rootJSON.span)
                if rootKind != .object {
                    report("Expected \(name) to be a GraphQL Object type.", at: rootJSON)
                    continue
                }
                roots[operation] = name
            }

            var directives: [DirectiveDef] = []
            if let directiveList = schemaJSON["directives"]?.arrayValue {
                for directiveJSON in directiveList {
                    if let directive = buildDirective(directiveJSON) { directives.append(directive) }
                }
            }

            return SchemaAssembler.assemble(
                SchemaAssembler.Input(
                    description: schemaJSON["description"]?.stringValue, types: types, directives: directives,
                    queryTypeName: roots[.query], mutationTypeName: roots[.mutation],
                    subscriptionTypeName: roots[.subscription], listedStandardTypes: listedStandard))
        }

        // MARK: Types

        mutating func buildType(_ name: String, _ kind: TypeKind, _ json: JSONValue) -> NamedTypeDef {
            let description = json["description"]?.stringValue
            switch kind {
            case .scalar:
                var directives: [AppliedDirective] = []
                if let url = json["specifiedByURL"]?.stringValue {
                    directives.append(
                        synthesized(
                            "specifiedBy", [("url", .string(StringValue(value: url, isBlock: false, span: .zero)))]))
                }
                return NamedTypeDef(kind: .scalar, name: name, description: description, directives: directives)
            case .object, .interface:
                var interfaces: [String] = []
                if let list = json["interfaces"]?.arrayValue {
                    for reference in list {
                        guard let interfaceName = reference["name"]?.stringValue, listedKind(of: interfaceName) != nil
                        else {
                            report(unknownType(reference["name"]?.stringValue ?? brief(reference)), at: reference)
                            continue
                        }
                        if listedKind(of: interfaceName) != .interface {
                            report("Expected \(interfaceName) to be a GraphQL Interface type.", at: reference)
                            continue
                        }
                        locator.record(
                            .implements(type: name, interface: interfaceName), reference.span, keepFirst: true)
                        interfaces.append(interfaceName)
                    }
                } else if !(kind == .interface && json["interfaces"]?.isNull == true) {
                    report("Introspection result missing interfaces: \(brief(json)).", at: json)
                }
                var fields: [FieldDef] = []
                var seen = NameSet()
                if let list = json["fields"]?.arrayValue {
                    for fieldJSON in list {
                        if let field = buildField(fieldJSON, typeName: name), seen.insert(field.name).inserted {
                            fields.append(field)
                        }
                    }
                } else {
                    report("Introspection result missing fields: \(brief(json)).", at: json)
                }
                return NamedTypeDef(
                    kind: kind, name: name, description: description, fields: fields, interfaces: interfaces)
            case .union:
                var members: [String] = []
                if let list = json["possibleTypes"]?.arrayValue {
                    for reference in list {
                        guard let memberName = reference["name"]?.stringValue, listedKind(of: memberName) != nil else {
                            report(unknownType(reference["name"]?.stringValue ?? brief(reference)), at: reference)
                            continue
                        }
                        if listedKind(of: memberName) != .object {
                            report("Expected \(memberName) to be a GraphQL Object type.", at: reference)
                            continue
                        }
                        locator.record(.unionMember(union: name, member: memberName), reference.span, keepFirst: true)
                        members.append(memberName)
                    }
                } else {
                    report("Introspection result missing possibleTypes: \(brief(json)).", at: json)
                }
                return NamedTypeDef(kind: .union, name: name, description: description, unionMembers: members)
            case .enumType:
                var values: [EnumValueDef] = []
                var seen = NameSet()
                if let list = json["enumValues"]?.arrayValue {
                    for valueJSON in list {
                        guard let valueName = valueJSON["name"]?.stringValue else {
                            report("Expected name to be a non-empty string.", at: valueJSON)
                            continue
                        }
                        if ["true", "false", "null"].contains(valueName) {
                            report("Enum values cannot be named: \(valueName)", at: valueJSON["name"])
                            continue
                        }
                        validateName(valueName, at: valueJSON["name"])
                        guard seen.insert(valueName).inserted else { continue }
                        locator.record(.enumValue(type: name, value: valueName), valueJSON.span)
                        values.append(
                            EnumValueDef(
                                name: valueName, description: valueJSON["description"]?.stringValue,
                                deprecationReason: valueJSON["deprecationReason"]?.stringValue, directives: [],
                                location: nil))
                    }
                } else {
                    report("Introspection result missing enumValues: \(brief(json)).", at: json)
                }
                return NamedTypeDef(kind: .enumType, name: name, description: description, enumValues: values)
            case .inputObject:
                var fields: [InputValue] = []
                if let list = json["inputFields"]?.arrayValue {
                    let locator = self.locator
                    fields = buildInputValues(list) { field, value in
                        locator.record(.inputField(type: name, field: field), value.span)
                        locator.record(.inputFieldType(type: name, field: field), value["type"]?.span ?? value.span)
                    }
                } else {
                    report("Introspection result missing inputFields: \(brief(json)).", at: json)
                }
                var directives: [AppliedDirective] = []
                if json["isOneOf"]?.boolValue == true { directives.append(synthesized("oneOf", [])) }
                return NamedTypeDef(
                    kind: .inputObject, name: name, description: description, inputFields: fields,
                    directives: directives)
            }
        }

        mutating func buildField(_ json: JSONValue, typeName: String) -> FieldDef? {
            guard let name = json["name"]?.stringValue else {
                report("Expected name to be a non-empty string.", at: json)
                return nil
            }
            validateName(name, at: json["name"])
            guard let typeJSON = json["type"], let type = typeReference(typeJSON) else { return nil }
            if let named = listedKind(of: type.namedType), named == .inputObject {
                report("Introspection must provide output type for fields, but received: \(type).", at: typeJSON)
            }
            locator.record(.field(type: typeName, field: name), json.span)
            locator.record(.fieldType(type: typeName, field: name), typeJSON.span)
            var arguments: [InputValue] = []
            if let list = json["args"]?.arrayValue {
                let locator = self.locator
                arguments = buildInputValues(list) { argument, value in
                    locator.record(.argument(type: typeName, field: name, argument: argument), value.span)
                    locator.record(
                        .argumentType(type: typeName, field: name, argument: argument),
                        value["type"]?.span ?? value.span)
                }
            } else {
                report("Introspection result missing field args: \(brief(json)).", at: json)
            }
            return FieldDef(
                name: name, description: json["description"]?.stringValue, arguments: arguments, type: type,
                deprecationReason: json["deprecationReason"]?.stringValue, directives: [], location: nil)
        }

        mutating func buildInputValues(_ list: [JSONValue], record: (String, JSONValue) -> Void) -> [InputValue] {
            var values: [InputValue] = []
            var seen = NameSet()
            for json in list {
                guard let name = json["name"]?.stringValue else {
                    report("Expected name to be a non-empty string.", at: json)
                    continue
                }
                validateName(name, at: json["name"])
                guard let typeJSON = json["type"], let type = typeReference(typeJSON) else { continue }
                if let named = listedKind(of: type.namedType),
                    !(named == .scalar || named == .enumType || named == .inputObject)
                {
                    report("Introspection must provide input type for arguments, but received: \(type).", at: typeJSON)
                }
                var defaultValue: Value?
                if let defaultJSON = json["defaultValue"], let text = defaultJSON.stringValue {
                    let parsed = Parser.parseValue(SourceFile(path: source.path, text: text))
                    defaultValue = parsed.value
                    if parsed.value == nil {
                        let message = parsed.diagnostics.first?.message ?? "Syntax Error: Unexpected default value."
                        report(message, at: defaultJSON)
                    }
                }
                guard seen.insert(name).inserted else { continue }
                record(name, json)
                values.append(
                    InputValue(
                        name: name, description: json["description"]?.stringValue, type: type,
                        defaultValue: defaultValue, deprecationReason: json["deprecationReason"]?.stringValue,
                        directives: [], location: nil))
            }
            return values
        }

        mutating func buildDirective(_ json: JSONValue) -> DirectiveDef? {
            guard let name = json["name"]?.stringValue else {
                report("Expected name to be a non-empty string.", at: json)
                return nil
            }
            validateName(name, at: json["name"])
            guard let argumentList = json["args"]?.arrayValue else {
                report("Introspection result missing directive args: \(brief(json)).", at: json)
                return nil
            }
            guard let locationList = json["locations"]?.arrayValue else {
                report("Introspection result missing directive locations: \(brief(json)).", at: json)
                return nil
            }
            let locator = self.locator
            locator.record(.directive(name), json.span)
            let arguments = buildInputValues(argumentList) { argument, value in
                locator.record(.directiveArgument(directive: name, argument: argument), value.span)
                locator.record(
                    .directiveArgumentType(directive: name, argument: argument), value["type"]?.span ?? value.span)
            }
            return DirectiveDef(
                name: name, description: json["description"]?.stringValue, arguments: arguments,
                isRepeatable: json["isRepeatable"]?.boolValue ?? false,
                locations: locationList.compactMap { $0.stringValue.flatMap(DirectiveLocation.init(rawValue:)) },
                location: nil)
        }

        /// `{"kind": "NON_NULL", "ofType": {"kind": "LIST", …}}` as a `TypeRef`; nil (reported)
        /// when incomplete or naming a type the result does not list.
        mutating func typeReference(_ json: JSONValue) -> TypeRef? {
            let kind = json["kind"]?.stringValue
            if kind == "LIST" || kind == "NON_NULL" {
                guard let inner = json["ofType"], inner.objectMembers != nil else {
                    report("Decorated type deeper than introspection query.", at: json)
                    return nil
                }
                guard let innerType = typeReference(inner) else { return nil }
                if kind == "LIST" { return .list(innerType) }
                if innerType.isNonNull {
                    report("Expected \(innerType) to be a GraphQL nullable type.", at: json)
                    return innerType
                }
                return .nonNull(innerType)
            }
            guard let name = json["name"]?.stringValue else {
                report("Unknown type reference: \(brief(json)).", at: json)
                return nil
            }
            if listedKind(of: name) == nil {
                report(unknownType(name), at: json)
                return nil
            }
            return .named(name)
        }

        func unknownType(_ name: String) -> String {
            "Invalid or incomplete schema, unknown type: \(name). Ensure that a full introspection query is used in order to build a client schema."
        }

        /// graphql-js's `assertName`.
        mutating func validateName(_ name: String, at value: JSONValue?) {
            guard let first = name.utf8.first else {
                report("Expected name to be a non-empty string.", at: value)
                return
            }
            func isLetter(_ byte: UInt8) -> Bool {
                (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
            }
            if !isLetter(first) {
                report("Names must start with [_a-zA-Z] but \"\(name)\" does not.", at: value)
                return
            }
            var valid = true
            for byte in name.utf8 where !isLetter(byte) && !(byte >= 48 && byte <= 57) {
                valid = false
                break
            }
            if !valid {
                report("Names must only contain [_a-zA-Z0-9] but \"\(name)\" does not.", at: value)
            }
        }

        func synthesized(_ name: String, _ arguments: [(String, Value)]) -> AppliedDirective {
            AppliedDirective(
                node: Directive(
                    name: Name(name, span: .zero),
                    arguments: arguments.map { Argument(name: Name($0.0, span: .zero), value: $0.1, span: .zero) },
                    span: .zero),
                location: nil)
        }

        /// A short rendering of a JSON value for messages (graphql-js prints the whole object).
        func brief(_ json: JSONValue) -> String {
            if let name = json["name"]?.stringValue { return "{ name: \"\(name)\", … }" }
            return json.kindDescription
        }
    }
}
