import BatonDiagnostics

@testable import BatonSyntax

/// A span-free rendering of an AST, one node per line, so two ASTs can be compared
/// structurally (`ASTDump.of(a) == ASTDump.of(b)`) and a difference reads as a line diff.
/// With `spans`, each node also shows its `[start,end)` byte span.
struct ASTDump {
    var lines: [String] = []
    var spans = false
    var depth = 0

    static func of(_ document: Document, spans: Bool = false) -> String {
        var dump = ASTDump(spans: spans)
        for definition in document.definitions { dump.definition(definition) }
        return dump.lines.joined(separator: "\n")
    }

    static func of(_ value: Value, spans: Bool = false) -> String {
        var dump = ASTDump(spans: spans)
        dump.value(value)
        return dump.lines.joined(separator: "\n")
    }

    static func of(_ type: TypeReference, spans: Bool = false) -> String {
        var dump = ASTDump(spans: spans)
        dump.type(type)
        return dump.lines.joined(separator: "\n")
    }

    mutating func line(_ text: String, _ span: BatonDiagnosticsSpan? = nil) {
        let suffix = spans && span != nil ? " [\(span!.start),\(span!.end))" : ""
        lines.append(String(repeating: "  ", count: depth) + text + suffix)
    }

    mutating func nested(_ body: (inout ASTDump) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }

    mutating func name(_ label: String, _ name: Name?) {
        guard let name else { return }
        line("\(label): \(name.value)", name.span)
    }

    mutating func description(_ description: StringValue?) {
        guard let description else { return }
        line(
            "description\(description.isBlock ? " block" : ""): \(description.value.debugDescription)", description.span
        )
    }

    mutating func definition(_ definition: Definition) {
        switch definition {
        case .operation(let node):
            // `isShorthand` is left out: graphql-js prints `query { a }` as `{ a }`.
            line("operation \(node.operation.rawValue)", node.span)
            nested {
                $0.name("name", node.name)
                for variable in node.variableDefinitions {
                    $0.line("variable $\(variable.variable.name.value)", variable.span)
                    $0.nested {
                        $0.line("variable", variable.variable.span)
                        $0.name("name", variable.variable.name)
                        $0.type(variable.type)
                        if let value = variable.defaultValue {
                            $0.line("default")
                            $0.nested { $0.value(value) }
                        }
                        $0.directives(variable.directives)
                    }
                }
                $0.directives(node.directives)
                $0.selectionSet(node.selectionSet)
            }
        case .fragment(let node):
            line("fragment", node.span)
            nested {
                $0.name("name", node.name)
                $0.name("on", node.typeCondition.name)
                $0.directives(node.directives)
                $0.selectionSet(node.selectionSet)
            }
        case .schema(let node):
            line("schema\(node.isExtension ? " extension" : "")", node.span)
            nested {
                $0.description(node.description)
                $0.directives(node.directives)
                for operationType in node.operationTypes {
                    $0.line("\(operationType.operation.rawValue): \(operationType.type.name.value)", operationType.span)
                    $0.nested { $0.name("type", operationType.type.name) }
                }
            }
        case .scalar(let node):
            line("scalar\(node.isExtension ? " extension" : "")", node.span)
            nested {
                $0.description(node.description)
                $0.name("name", node.name)
                $0.directives(node.directives)
            }
        case .object(let node):
            line("type\(node.isExtension ? " extension" : "")", node.span)
            nested {
                $0.description(node.description)
                $0.name("name", node.name)
                for interface in node.interfaces { $0.name("implements", interface.name) }
                $0.directives(node.directives)
                for field in node.fields { $0.fieldDefinition(field) }
            }
        case .interface(let node):
            line("interface\(node.isExtension ? " extension" : "")", node.span)
            nested {
                $0.description(node.description)
                $0.name("name", node.name)
                for interface in node.interfaces { $0.name("implements", interface.name) }
                $0.directives(node.directives)
                for field in node.fields { $0.fieldDefinition(field) }
            }
        case .union(let node):
            line("union\(node.isExtension ? " extension" : "")", node.span)
            nested {
                $0.description(node.description)
                $0.name("name", node.name)
                $0.directives(node.directives)
                for member in node.types { $0.name("member", member.name) }
            }
        case .enumType(let node):
            line("enum\(node.isExtension ? " extension" : "")", node.span)
            nested {
                $0.description(node.description)
                $0.name("name", node.name)
                $0.directives(node.directives)
                for value in node.values {
                    $0.line("value", value.span)
                    $0.nested {
                        $0.description(value.description)
                        $0.name("name", value.name)
                        $0.directives(value.directives)
                    }
                }
            }
        case .inputObject(let node):
            line("input\(node.isExtension ? " extension" : "")", node.span)
            nested {
                $0.description(node.description)
                $0.name("name", node.name)
                $0.directives(node.directives)
                for field in node.fields { $0.inputValue(field) }
            }
        case .directive(let node):
            line("directive\(node.isRepeatable ? " repeatable" : "")", node.span)
            nested {
                $0.description(node.description)
                $0.name("name", node.name)
                for argument in node.arguments { $0.inputValue(argument) }
                for location in node.locations { $0.name("location", location) }
            }
        }
    }

    mutating func fieldDefinition(_ field: FieldDefinition) {
        line("field", field.span)
        nested {
            $0.description(field.description)
            $0.name("name", field.name)
            for argument in field.arguments { $0.inputValue(argument) }
            $0.type(field.type)
            $0.directives(field.directives)
        }
    }

    mutating func inputValue(_ input: InputValueDefinition) {
        line("input value", input.span)
        nested {
            $0.description(input.description)
            $0.name("name", input.name)
            $0.type(input.type)
            if let value = input.defaultValue {
                $0.line("default")
                $0.nested { $0.value(value) }
            }
            $0.directives(input.directives)
        }
    }

    mutating func selectionSet(_ selectionSet: SelectionSet) {
        line("selections", selectionSet.span)
        nested {
            for selection in selectionSet.selections {
                switch selection {
                case .field(let field):
                    $0.line("field", field.span)
                    $0.nested {
                        $0.name("alias", field.alias)
                        $0.name("name", field.name)
                        $0.arguments(field.arguments)
                        $0.directives(field.directives)
                        if let selectionSet = field.selectionSet { $0.selectionSet(selectionSet) }
                    }
                case .fragmentSpread(let spread):
                    $0.line("spread", spread.span)
                    $0.nested {
                        $0.name("name", spread.name)
                        $0.directives(spread.directives)
                    }
                case .inlineFragment(let fragment):
                    $0.line("inline fragment", fragment.span)
                    $0.nested {
                        $0.name("on", fragment.typeCondition?.name)
                        $0.directives(fragment.directives)
                        $0.selectionSet(fragment.selectionSet)
                    }
                }
            }
        }
    }

    mutating func arguments(_ arguments: [Argument]) {
        for argument in arguments {
            line("argument", argument.span)
            nested {
                $0.name("name", argument.name)
                $0.value(argument.value)
            }
        }
    }

    mutating func directives(_ directives: [Directive]) {
        for directive in directives {
            line("@", directive.span)
            nested {
                $0.name("name", directive.name)
                $0.arguments(directive.arguments)
            }
        }
    }

    mutating func value(_ value: Value) {
        switch value {
        case .variable(let variable):
            line("variable", variable.span)
            nested { $0.name("name", variable.name) }
        case .int(let text, let span): line("int \(text)", span)
        case .float(let text, let span): line("float \(text)", span)
        case .string(let string):
            line("string\(string.isBlock ? " block" : "") \(string.value.debugDescription)", string.span)
        case .boolean(let flag, let span): line("boolean \(flag)", span)
        case .null(let span): line("null", span)
        case .enumValue(let name): line("enum \(name.value)", name.span)
        case .list(let values, let span):
            line("list", span)
            nested { for element in values { $0.value(element) } }
        case .object(let fields, let span):
            line("object", span)
            nested {
                for field in fields {
                    $0.line("field", field.span)
                    $0.nested {
                        $0.name("name", field.name)
                        $0.value(field.value)
                    }
                }
            }
        }
    }

    mutating func type(_ type: TypeReference) {
        switch type {
        case .named(let named): name("type", named.name)
        case .list(let inner, let span):
            line("list type", span)
            nested { $0.type(inner) }
        case .nonNull(let inner, let span):
            line("non-null type", span)
            nested { $0.type(inner) }
        }
    }
}

typealias BatonDiagnosticsSpan = BatonDiagnostics.Span
