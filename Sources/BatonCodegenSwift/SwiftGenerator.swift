import BatonCodegen
import BatonDeclarations
import BatonDiagnostics
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
package struct SwiftGenerator: Sendable {
    /// Module-level names Swift reserves for generated definitions (see `SwiftNames`).
    package static var reservedTypeNames: Set<String> { SwiftNames.reservedTypeNames }

    package let options: SwiftGeneratorOptions
    /// What every template reads and none changes, behind one reference: each template holds the generator, and a
    /// nested lens's template is made per nested lens, so a copy of the generator is one retain, not one per
    /// collection of the model, the names and the lowering.
    private let shared: Shared

    private final class Shared: Sendable {
        let model: LensModel
        let names: SwiftNames
        let layout: TopLevelLayout
        let sharedTypeConditions: [TypeCondition]
        let declarations: DeclarationLowering

        init(model: LensModel) {
            self.model = model
            let layout = TopLevelLayout(model)
            self.layout = layout
            self.names = SwiftNames(model: model, layout: layout)
            // Swift reads no JVM getter and no case twin (`DeclarationLowering.init`).
            let declarations = DeclarationLowering(model, jvmNames: false)
            self.declarations = declarations
            self.sharedTypeConditions = declarations.sharedTypeConditions()
        }
    }

    package var model: LensModel { shared.model }
    var names: SwiftNames { shared.names }
    /// Every module-level declaration's name and file (`TopLevelLayout`): the tree's decision, spelt here.
    var layout: TopLevelLayout { shared.layout }
    /// The type conditions of fragments on abstract types, declared once (`SwiftTypeConditionsTemplate`), sorted
    /// by name: the tree's decision (`DeclarationLowering.sharedTypeConditions`).
    var sharedTypeConditions: [TypeCondition] { shared.sharedTypeConditions }
    /// The plan lowered into declarations (`DeclarationTree`), one construct at a time where it is printed.
    var declarations: DeclarationLowering { shared.declarations }

    package init(model: LensModel, options: SwiftGeneratorOptions = SwiftGeneratorOptions()) {
        self.options = options
        self.shared = Shared(model: model)
    }

    /// The fragment named `name`, found in constant time.
    func fragment(named name: String) -> FragmentModel? {
        declarations.fragment(named: name)
    }

    /// One file to write: where it goes and what it spells.
    private struct Job: Sendable {
        enum Part: Sendable {
            case operation(Int)
            case fragment(Int)
            case enumeration(Int)
            case inputObject(Int)
            case namespace(String)
            case scalar(Int, swiftType: String)
            case typeConditions
        }
        var path: String
        var part: Part
        var typeName: String
        var origin: String?
        var definition: String?
    }

    /// The extension of every generated file.
    static let fileExtension = ".graphql.swift"

    /// The order Swift lists its files in (each file is independent: the order decides no name or path).
    static let listingOrder: [TopLevelDeclaration.Kind.Group] = [
        .operation, .fragment, .enumeration, .inputObject, .schemaNamespace, .customScalar, .sharedTypeConditions,
    ]

    /// Whether Swift declares something for a layout's declaration: everything but an unmapped custom scalar,
    /// which reads as `String` and needs no file (`TopLevelDeclaration.Kind`).
    package static func declares(_ kind: TopLevelDeclaration.Kind) -> Bool {
        if case .customScalar(let mapped) = kind { return mapped }
        return true
    }

    /// Every file, with paths relative to the output folder (`RepositoryQuery.graphql.swift`).
    /// Definitions whose key (`GeneratedFile.definition`) is in `kept` are not rendered: their
    /// files come back as `GeneratedFile.kept` at the path a full run gives them.
    ///
    /// Paths are claimed first, in the model's order (so names never depend on scheduling); the
    /// files are then rendered on `workers` threads (`ParallelWork`, results in that order), or,
    /// when `deferred`, each when its text is asked for (`GeneratedFile.bytes`: the writer renders
    /// and writes them one at a time, so no run holds every file's text).
    package func generate(
        keeping kept: Set<String> = [], workers: Int = ParallelWork.processorCount, deferred: Bool = false
    ) -> [GeneratedFile] {
        // The layout's files (names and files in its claim order), listed as Swift always has: operations,
        // fragments, schema types, the namespace, custom scalars, the shared type conditions. A kept definition's
        // file is its path and key alone (a large project keeps tens of thousands after an edit): it is listed as
        // it is found, and only the files to render become jobs.
        var files: [GeneratedFile?] = []
        files.reserveCapacity(layout.declarations.count)
        var jobs: [(at: Int, job: Job)] = []
        // Taken once (an optional bound in the loop is copied for each of a large project's tens of thousands).
        let block = model.block ?? .empty
        for entry in layout.declarations(listed: Self.listingOrder) where Self.declares(entry.kind) {
            let part: Job.Part
            var origin: String?
            var definition: String?
            if let (_, key) = entry.blockDefinition(in: block) {
                // A block's definition is kept as it is (`Compilation.summariesAreKept`): its path and key. No origin,
                // as Kotlin's: only a build's layout reads one (`SwiftBuildLayout`), and a plan with a block has none;
                // the section's lines hold no path `String`s (format 5) to share.
                files.append(.kept(path: entry.file + Self.fileExtension, origin: nil, definition: key))
                continue
            }
            switch entry.kind {
            case .operation:
                let item = model.operations[entry.index]
                (part, origin, definition) = (.operation(entry.index), item.location.file.path, item.definitionKey)
            case .fragment:
                let item = model.fragments[entry.index]
                (part, origin, definition) = (.fragment(entry.index), item.location.file.path, item.definitionKey)
            case .enumeration: part = .enumeration(entry.index)
            case .inputObject: part = .inputObject(entry.index)
            case .schemaNamespace: part = .namespace(names.namespace ?? entry.name)
            case .customScalar:
                guard let type = model.types.customScalars[entry.index].mapping?.swiftType else { continue }
                part = .scalar(entry.index, swiftType: type)
            case .sharedTypeConditions: part = .typeConditions
            }
            if let definition, kept.contains(definition) {
                files.append(.kept(path: entry.file + Self.fileExtension, origin: origin, definition: definition))
                continue
            }
            jobs.append(
                (
                    files.count,
                    Job(
                        path: entry.file + Self.fileExtension, part: part, typeName: names.declared(entry),
                        origin: origin, definition: definition)
                ))
            files.append(nil)
        }
        let file: @Sendable (Job) -> GeneratedFile = { [self] job in
            guard deferred else {
                return GeneratedFile(
                    path: job.path, bytes: fileBytes(job), origin: job.origin, definition: job.definition)
            }
            return GeneratedFile(path: job.path, origin: job.origin, definition: job.definition) { fileBytes(job) }
        }
        let rendered =
            deferred
            ? jobs.map { file($0.job) } : ParallelWork.map(jobs, workers: workers, minimumItems: 16) { file($0.job) }
        for (index, item) in jobs.enumerated() { files[item.at] = rendered[index] }
        // Every place is filled: a kept file's, or its job's (into an array of that size, not one grown as it fills).
        var listed: [GeneratedFile] = []
        listed.reserveCapacity(files.count)
        for case let generated? in files { listed.append(generated) }
        return listed
    }

    /// The test data builders (`output.swift.testBuilders`): one file per operation and fragment, named after its
    /// builder (`RepositoryQueryBuilder.graphql.swift`), importing `BatonTesting` only.
    /// Definitions whose key is in `kept` come back as kept files, as `generate(keeping:)`'s do.
    package func generateTestBuilders(keeping kept: Set<String> = []) -> [GeneratedFile] {
        // The builders' layout (names and files in its claim order), listed operations' first.
        let builderLayout = TestBuilderLayout(model)
        let naming = builderLayout.naming
        let firstValues = TestBuilderDefinition.firstEnumValues(model)
        let builders = TestBuilderDefinition.all(model, layout: builderLayout)
        return (builders.filter { $0.0.operationName != nil } + builders.filter { $0.0.operationName == nil }).map {
            builder, file in
            let path = file + Self.fileExtension
            if kept.contains(builder.definitionKey) {
                return .kept(path: path, origin: builder.origin, definition: builder.definitionKey)
            }
            // The builder lowered here, in the file's job, and printed.
            let template = SwiftBuilderTemplate(
                generator: self, naming: naming, typeName: builder.typeName,
                root: declarations.testBuilder(builder.lens, firstEnumValues: firstValues),
                operationName: builder.operationName, fragmentName: builder.fragmentName)
            var bytes = Array((FileWriter.header + "\n\nimport BatonTesting\n\n").utf8)
            template.render().write(to: &bytes)
            while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
            bytes.append(UInt8(ascii: "\n"))
            return GeneratedFile(path: path, bytes: bytes, origin: builder.origin, definition: builder.definitionKey)
        }
    }

    /// One file's whole text: the header, a blank line, the imports, a blank line, the body. An operation's and a
    /// fragment's body (most files, and most of their bytes) is written straight into the file's bytes.
    private func fileBytes(_ job: Job) -> [UInt8] {
        var text = TextBuilder(capacity: 16_384)
        func head(_ imports: [String]) {
            text.add(FileWriter.header)
            text.add("\n\n")
            for (index, module) in imports.enumerated() {
                if index > 0 { text.add(UInt8(ascii: "\n")) }
                text.add("import ")
                text.add(module)
            }
            text.add("\n\n")
        }
        switch job.part {
        case .operation(let index):
            let operation = model.operations[index]
            head(imports(using: operation.lens, variables: operation.variables.map(\.type)))
            SwiftOperationTemplate(generator: self, operation: operation, typeName: job.typeName).write(into: &text)
        case .fragment(let index):
            let fragment = model.fragments[index]
            head(imports(using: fragment.lens, variables: []))
            SwiftFragmentTemplate(generator: self, fragment: fragment, typeName: job.typeName).write(into: &text)
        case .enumeration, .inputObject, .namespace, .typeConditions, .scalar:
            let (body, imports) = schemaFile(job.part, typeName: job.typeName)
            head(imports)
            body.write(to: &text)
        }
        // Templates and the lens writer write no line ending in spaces (`Template`); only the body's last line is open.
        text.removeTrailing(UInt8(ascii: " "))
        text.add(UInt8(ascii: "\n"))
        return text.bytes
    }

    /// The body of a file of the schema's types (or the namespace's, the shared type conditions') and the modules it
    /// imports; nothing for an operation's or a fragment's, which `fileBytes` writes.
    private func schemaFile(_ part: Job.Part, typeName name: String) -> (Template, [String]) {
        switch part {
        case .operation, .fragment: return (.empty, [])
        case .enumeration(let index):
            return (
                SwiftEnumTemplate(
                    generator: self, model: declarations.enumeration(model.types.enums[index]), typeName: name
                ).render(), ["Baton"]
            )
        case .inputObject(let index):
            let item = model.types.inputObjects[index]
            let usesFoundation = item.fields.contains { names.needsFoundation($0.type.namedType) }
            return (
                SwiftInputObjectTemplate(generator: self, model: declarations.inputObject(item), typeName: name)
                    .render(),
                usesFoundation ? ["Baton", "Foundation"] : ["Baton"]
            )
        case .namespace(let namespace):
            return (SwiftNamespaceTemplate(generator: self, name: namespace).render(), ["Baton"])
        case .typeConditions:
            return (SwiftTypeConditionsTemplate(generator: self).render(), ["Baton"])
        case .scalar(let index, let type):
            let scalar = model.types.customScalars[index]
            return (
                SwiftCustomScalarTemplate(
                    generator: self, model: declarations.customScalar(scalar), swiftType: type
                ).render(),
                type.hasPrefix("Foundation.") ? ["Baton", "Foundation"] : ["Baton"]
            )
        }
    }

    /// `import Baton`, and Foundation when a mapped scalar or a variable needs it.
    private func imports(using lens: Lens, variables: [BatonSchema.TypeRef]) -> [String] {
        // No scalar reads as a Foundation type: nothing to look for in the variables or the lens (issue 34).
        guard names.mapsScalarsToFoundation else { return ["Baton"] }
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

    /// `public `, `package ` or nothing, before declarations: the one place generated Swift's access
    /// modifier (`output.swift.accessModifier`) is spelled.
    var access: String { options.accessModifier }

    /// Written before every module-level declaration, after the access modifier: the one place generated
    /// Swift's isolation is spelled. Generated types are plain values read from any isolation, so they stay
    /// nonisolated in a target whose default isolation is the main actor (SwiftPM
    /// `.defaultIsolation(MainActor.self)`, Xcode 26's new app targets), where an unmarked declaration would be
    /// main-actor isolated and an operation's nonisolated `variables` could not read its input objects. Nested
    /// declarations inherit it. `nonisolated` on a type or extension needs Swift 6.1 (SE-0449).
    let isolation = "nonisolated "

    /// A schema type's declaration, inside `extension Namespace { … }` when the schema's types have one.
    func inSchemaNamespace(_ declaration: Template) -> Template {
        guard let namespace = names.namespace else { return declaration }
        return """
            \(isolation)extension \(IdentifierRules.swift.quoted(namespace)) {
                \(declaration)
            }
            """
    }
}

extension SwiftNames {
    /// The Swift name of a layout's declaration (the type a file declares, as its template writes it).
    func declared(_ entry: TopLevelDeclaration) -> String {
        switch entry.kind {
        case .operation: operations[entry.graphQLName] ?? entry.name
        case .fragment: fragments[entry.graphQLName] ?? entry.name
        case .enumeration: enums[entry.graphQLName] ?? entry.name
        case .inputObject: inputObjects[entry.graphQLName] ?? entry.name
        case .schemaNamespace: namespace ?? entry.name
        case .customScalar, .sharedTypeConditions: entry.name
        }
    }

    /// Whether values of the named input type are written with Foundation (mapped Foundation scalars).
    func needsFoundation(_ name: String) -> Bool {
        customScalars[name]?.hasPrefix("Foundation.") == true
    }
}
