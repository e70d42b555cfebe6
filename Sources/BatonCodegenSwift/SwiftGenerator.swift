import BatonCodegen
import BatonIR
import BatonSchema

/// Settings of the Swift generator.
package struct SwiftGeneratorOptions: Sendable {
    /// Written before every generated declaration (`public ` or `package ` for generated code in a
    /// module of its own); empty for internal.
    package var accessModifier: String

    package init(accessModifier: String = "") {
        self.accessModifier =
            accessModifier.isEmpty || accessModifier.hasSuffix(" ") ? accessModifier : accessModifier + " "
    }
}

/// Writes the lens model as Swift source for the `Baton` runtime: one file per operation, per fragment, per
/// enum and input object the documents use, and per mapped custom scalar.
///
/// Everything it decides comes from the model (names, optionality, failure modes, which types are used); it
/// never reads the AST or the schema. Output is deterministic: the model is sorted, names are claimed in its
/// order, and files carry a header without timestamp or version.
package struct SwiftGenerator {
    /// Module-level names Swift reserves for generated definitions (see `SwiftNames`).
    package static var reservedTypeNames: Set<String> { SwiftNames.reservedTypeNames }

    package let model: LensModel
    package let options: SwiftGeneratorOptions
    let names: SwiftNames
    /// Operations' texts as one constant per fragment (declared on the fragment's type) joined per operation.
    let documents: DocumentParts

    package init(model: LensModel, options: SwiftGeneratorOptions = SwiftGeneratorOptions()) {
        self.model = model
        self.options = options
        self.names = SwiftNames(model: model)
        self.documents = DocumentParts(model: model)
    }

    /// Every file, with paths relative to the output folder (`RepositoryQuery.graphql.swift`).
    /// Definitions whose key (`GeneratedFile.definition`) is in `kept` are not rendered: their
    /// files come back as `GeneratedFile.kept` at the path a full run gives them.
    package func generate(keeping kept: Set<String> = []) -> [GeneratedFile] {
        var fileNames = FileNaming(fileExtension: "graphql.swift")
        var files: [GeneratedFile] = []
        func add(
            _ typeName: String, _ body: @autoclosure () -> Template, imports: @autoclosure () -> [String] = ["Baton"],
            origin: String? = nil, definition: String? = nil
        ) {
            let path = fileNames.name(for: typeName)
            if let definition, kept.contains(definition) {
                files.append(.kept(path: path, origin: origin, definition: definition))
                return
            }
            let importLines = imports().map { "import " + $0 }.joined(separator: "\n")
            let text =
                FileWriter.header + "\n\n" + importLines + "\n\n" + Self.trimmingTrailingWhitespace(body().text) + "\n"
            files.append(GeneratedFile(path: path, contents: text, origin: origin, definition: definition))
        }
        for operation in model.operations {
            let name = names.operations[operation.name] ?? operation.name
            add(
                name, SwiftOperationTemplate(generator: self, operation: operation, typeName: name).render(),
                imports: imports(using: operation.lens, variables: operation.variables.map(\.type)),
                origin: operation.location.file.path, definition: "o:" + operation.name)
        }
        for fragment in model.fragments {
            let name = names.fragments[fragment.name] ?? fragment.name
            add(
                name, SwiftFragmentTemplate(generator: self, fragment: fragment, typeName: name).render(),
                imports: imports(using: fragment.lens, variables: []), origin: fragment.location.file.path,
                definition: "f:" + fragment.name)
        }
        for item in model.types.enums {
            let name = names.enums[item.name] ?? item.name
            add(name, SwiftEnumTemplate(generator: self, model: item, typeName: name).render())
        }
        for item in model.types.inputObjects {
            let name = names.inputObjects[item.name] ?? item.name
            let usesFoundation = item.fields.contains { names.needsFoundation($0.type.namedType) }
            add(
                name, SwiftInputObjectTemplate(generator: self, model: item, typeName: name).render(),
                imports: usesFoundation ? ["Baton", "Foundation"] : ["Baton"])
        }
        if let namespace = names.namespace {
            add(namespace, SwiftNamespaceTemplate(generator: self, name: namespace).render())
        }
        for scalar in model.types.customScalars {
            guard let type = scalar.mapping?.swiftType else { continue }
            let body = SwiftCustomScalarTemplate(generator: self, model: scalar, swiftType: type).render()
            add(scalar.name, body, imports: type.hasPrefix("Foundation.") ? ["Baton", "Foundation"] : ["Baton"])
        }
        return files
    }

    /// `import Baton`, and Foundation when a mapped scalar or a variable needs it.
    private func imports(using lens: Lens, variables: [BatonSchema.TypeRef]) -> [String] {
        var foundation = variables.contains { names.needsFoundation($0.namedType) }
        if !foundation { foundation = usesFoundation(lens) }
        return foundation ? ["Baton", "Foundation"] : ["Baton"]
    }

    private func usesFoundation(_ lens: Lens) -> Bool {
        for accessor in lens.accessors {
            switch accessor.base {
            case .scalar(let scalar): if scalar.mapping?.swiftType?.hasPrefix("Foundation.") == true { return true }
            case .lens(let nested): if usesFoundation(nested) { return true }
            default: break
            }
        }
        return false
    }

    /// One file holding the definitions of `files` (as `generate()` writes them), in order: the header
    /// once, the imports they need once, then each file's declarations. An empty list makes a file
    /// of the header alone, which compiles to nothing (a build system's declared output for a
    /// document without definitions).
    package static func merged(_ files: [GeneratedFile], path: String) -> GeneratedFile {
        var imports: [String] = []
        var bodies: [Substring] = []
        for file in files {
            // `generate()`'s layout: the header, a blank line, the imports, a blank line, the body.
            var rest = Substring(file.contents)
            if rest.hasPrefix(FileWriter.header) { rest = rest.dropFirst(FileWriter.header.count) }
            rest = rest.drop { $0 == "\n" }
            while rest.hasPrefix("import ") {
                let line = rest.prefix { $0 != "\n" }
                if !imports.contains(String(line)) { imports.append(String(line)) }
                rest = rest.dropFirst(line.count).drop { $0 == "\n" }
            }
            bodies.append(rest)
        }
        var text = FileWriter.header + "\n"
        if !imports.isEmpty { text += "\n" + imports.sorted().joined(separator: "\n") + "\n" }
        for body in bodies { text += "\n" + body }
        return GeneratedFile(path: path, contents: text)
    }

    /// `text` without spaces at the ends of lines (left where an indented line received nothing).
    static func trimmingTrailingWhitespace(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: " ")) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var pendingSpaces = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: " ") {
                pendingSpaces += 1
                continue
            }
            if byte != UInt8(ascii: "\n") {
                output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pendingSpaces))
            }
            pendingSpaces = 0
            output.append(byte)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `public `, `package ` or nothing, before declarations: the one place generated Swift's access
    /// modifier (`output.swift.accessModifier`) is spelled.
    var access: String { options.accessModifier }

    /// A schema type's declaration, inside `extension Namespace { … }` when the schema's types have one.
    func inSchemaNamespace(_ declaration: Template) -> Template {
        guard let namespace = names.namespace else { return declaration }
        return """
            extension \(IdentifierRules.swift.quoted(namespace)) {
                \(declaration)
            }
            """
    }
}

extension SwiftNames {
    /// Whether values of the named input type are written with Foundation (mapped Foundation scalars).
    func needsFoundation(_ name: String) -> Bool {
        customScalars[name]?.hasPrefix("Foundation.") == true
    }
}
