import BatonDiagnostics

@testable import BatonSyntax

/// Every node of a document as graphql-js's `visit` sees it: `Kind start end value?`, with
/// offsets in UTF-16 code units (graphql-js's `loc`) and values as `JSON.stringify` prints
/// them. Compared, sorted, with `Peers/graphqljs-syntax.mjs`'s "nodes" mode.
struct NodeList {
    var entries: [String] = []
    /// UTF-16 offset of each byte offset.
    let utf16Offsets: [Int]

    static func of(_ document: Document) -> [String] {
        var list = NodeList(bytes: document.source.bytes)
        list.add("Document", document.span)
        for definition in document.definitions { list.definition(definition) }
        return list.entries.sorted()
    }

    init(bytes: [UInt8]) {
        var offsets = [Int](repeating: 0, count: bytes.count + 1)
        var units = 0
        for (index, byte) in bytes.enumerated() {
            offsets[index] = units
            if byte < 0x80 || (byte >= 0xC0 && byte < 0xF0) { units += 1 } else if byte >= 0xF0 { units += 2 }
        }
        offsets[bytes.count] = units
        utf16Offsets = offsets
    }

    mutating func add(_ kind: String, _ span: Span, value: String? = nil) {
        let suffix = value.map { " " + $0 } ?? ""
        entries.append("\(kind) \(utf16Offsets[span.start]) \(utf16Offsets[span.end])\(suffix)")
    }

    mutating func name(_ name: Name?) {
        guard let name else { return }
        add("Name", name.span, value: json(name.value))
    }

    mutating func namedType(_ type: NamedType?) {
        guard let type else { return }
        add("NamedType", type.span)
        name(type.name)
    }

    mutating func string(_ string: StringValue?) {
        guard let string else { return }
        add("StringValue", string.span, value: json(string.value))
    }

    mutating func directives(_ directives: [Directive]) {
        for directive in directives {
            add("Directive", directive.span)
            name(directive.name)
            arguments(directive.arguments)
        }
    }

    mutating func arguments(_ arguments: [Argument]) {
        for argument in arguments {
            add("Argument", argument.span)
            name(argument.name)
            value(argument.value)
        }
    }

    mutating func definition(_ definition: Definition) {
        switch definition {
        case .operation(let node):
            add("OperationDefinition", node.span)
            name(node.name)
            for variable in node.variableDefinitions {
                add("VariableDefinition", variable.span)
                add("Variable", variable.variable.span)
                name(variable.variable.name)
                type(variable.type)
                if let value = variable.defaultValue { self.value(value) }
                directives(variable.directives)
            }
            directives(node.directives)
            selectionSet(node.selectionSet)
        case .fragment(let node):
            add("FragmentDefinition", node.span)
            name(node.name)
            namedType(node.typeCondition)
            directives(node.directives)
            selectionSet(node.selectionSet)
        case .schema(let node):
            add(node.isExtension ? "SchemaExtension" : "SchemaDefinition", node.span)
            string(node.description)
            directives(node.directives)
            for operationType in node.operationTypes {
                add("OperationTypeDefinition", operationType.span)
                namedType(operationType.type)
            }
        case .scalar(let node):
            add(node.isExtension ? "ScalarTypeExtension" : "ScalarTypeDefinition", node.span)
            string(node.description)
            name(node.name)
            directives(node.directives)
        case .object(let node):
            add(node.isExtension ? "ObjectTypeExtension" : "ObjectTypeDefinition", node.span)
            string(node.description)
            name(node.name)
            for interface in node.interfaces { namedType(interface) }
            directives(node.directives)
            for field in node.fields { fieldDefinition(field) }
        case .interface(let node):
            add(node.isExtension ? "InterfaceTypeExtension" : "InterfaceTypeDefinition", node.span)
            string(node.description)
            name(node.name)
            for interface in node.interfaces { namedType(interface) }
            directives(node.directives)
            for field in node.fields { fieldDefinition(field) }
        case .union(let node):
            add(node.isExtension ? "UnionTypeExtension" : "UnionTypeDefinition", node.span)
            string(node.description)
            name(node.name)
            directives(node.directives)
            for member in node.types { namedType(member) }
        case .enumType(let node):
            add(node.isExtension ? "EnumTypeExtension" : "EnumTypeDefinition", node.span)
            string(node.description)
            name(node.name)
            directives(node.directives)
            for value in node.values {
                add("EnumValueDefinition", value.span)
                string(value.description)
                name(value.name)
                directives(value.directives)
            }
        case .inputObject(let node):
            add(node.isExtension ? "InputObjectTypeExtension" : "InputObjectTypeDefinition", node.span)
            string(node.description)
            name(node.name)
            directives(node.directives)
            for field in node.fields { inputValue(field) }
        case .directive(let node):
            add("DirectiveDefinition", node.span)
            string(node.description)
            name(node.name)
            for argument in node.arguments { inputValue(argument) }
            for location in node.locations { name(location) }
        }
    }

    mutating func fieldDefinition(_ field: FieldDefinition) {
        add("FieldDefinition", field.span)
        string(field.description)
        name(field.name)
        for argument in field.arguments { inputValue(argument) }
        type(field.type)
        directives(field.directives)
    }

    mutating func inputValue(_ input: InputValueDefinition) {
        add("InputValueDefinition", input.span)
        string(input.description)
        name(input.name)
        type(input.type)
        if let value = input.defaultValue { self.value(value) }
        directives(input.directives)
    }

    mutating func selectionSet(_ selectionSet: SelectionSet?) {
        guard let selectionSet else { return }
        add("SelectionSet", selectionSet.span)
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                add("Field", field.span)
                name(field.alias)
                name(field.name)
                arguments(field.arguments)
                directives(field.directives)
                self.selectionSet(field.selectionSet)
            case .fragmentSpread(let spread):
                add("FragmentSpread", spread.span)
                name(spread.name)
                directives(spread.directives)
            case .inlineFragment(let fragment):
                add("InlineFragment", fragment.span)
                namedType(fragment.typeCondition)
                directives(fragment.directives)
                self.selectionSet(fragment.selectionSet)
            }
        }
    }

    mutating func value(_ value: Value) {
        switch value {
        case .variable(let variable):
            add("Variable", variable.span)
            name(variable.name)
        case .int(let text, let span): add("IntValue", span, value: json(text))
        case .float(let text, let span): add("FloatValue", span, value: json(text))
        case .string(let string): add("StringValue", string.span, value: json(string.value))
        case .boolean(let flag, let span): add("BooleanValue", span, value: flag ? "true" : "false")
        case .null(let span): add("NullValue", span)
        case .enumValue(let name): add("EnumValue", name.span, value: json(name.value))
        case .list(let values, let span):
            add("ListValue", span)
            for element in values { self.value(element) }
        case .object(let fields, let span):
            add("ObjectValue", span)
            for field in fields {
                add("ObjectField", field.span)
                name(field.name)
                self.value(field.value)
            }
        }
    }

    mutating func type(_ type: TypeReference) {
        switch type {
        case .named(let named): namedType(named)
        case .list(let inner, let span):
            add("ListType", span)
            self.type(inner)
        case .nonNull(let inner, let span):
            add("NonNullType", span)
            self.type(inner)
        }
    }

    /// `JSON.stringify` of a string.
    func json(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x08: result += "\\b"
            case 0x0C: result += "\\f"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0..<0x20:
                let digits = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
