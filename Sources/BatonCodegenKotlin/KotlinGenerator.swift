import BatonCodegen
import BatonDeclarations
import BatonDiagnostics
import BatonIR
import BatonSchema

/// What `baton gen --lang kotlin` needs besides the lens model.
package struct KotlinGeneratorOptions: Sendable {
    /// `output.kotlin.package`: the package of every generated file (not of the runtime support).
    package var packageName: String
    /// Whether to write the runtime support (`baton/runtime/*.kt`) beside the generated code.
    package var includeRuntime: Bool

    package init(packageName: String, includeRuntime: Bool = true) {
        self.packageName = packageName
        self.includeRuntime = includeRuntime
    }
}

/// Writes the lens model as Kotlin: one file per operation, fragment, enum, input object and custom scalar,
/// plus the runtime support, all in deterministic order with deterministic names.
///
/// Every decision about types (optionality, list levels, failure modes) is the model's; this generator only
/// spells them in Kotlin. Kotlin 1.3 is the oldest language it targets: sealed classes (no sealed
/// interfaces), no value classes, no trailing commas, no `fun interface`.
package enum KotlinGenerator {
    /// Top-level names Kotlin reserves for generated definitions: those generated code uses
    /// unqualified from the default imports and from the runtime support.
    /// The test kit's names (`baton.testing`) too: a test builder file imports them.
    package static var reservedTypeNames: Set<String> {
        (IdentifierRules.kotlin.unusable[.type] ?? []).union(TestBuilderNaming.kitTypeNames)
    }

    /// Why `name` cannot be a Kotlin package name, or nil when it can: dot-separated identifiers (letters,
    /// digits, `_`, not starting with a digit; hard keywords are quoted when written).
    package static func packageNameProblem(_ name: String) -> String? {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        for segment in segments {
            let valid =
                segment.first.map { $0.isLetter || $0 == "_" } == true
                && segment.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                && segment.unicodeScalars.allSatisfy { $0.isASCII }
            if !valid || segment.allSatisfy({ $0 == "_" }) {
                return
                    "output.kotlin.package \"\(name)\" is not a Kotlin package name: use dot-separated identifiers such as \"com.example.app\"."
            }
        }
        return nil
    }

    /// The extension of every generated file.
    static let fileExtension = ".kt"

    /// Whether Kotlin declares something for a layout's declaration: everything but the schema namespace (the
    /// package is one) and the shared type conditions (spelt where they are used) (`TopLevelDeclaration.Kind`).
    package static func declares(_ kind: TopLevelDeclaration.Kind) -> Bool {
        switch kind {
        case .schemaNamespace, .sharedTypeConditions: false
        case .customScalar, .enumeration, .inputObject, .fragment, .operation: true
        }
    }

    /// The generated files, paths relative to the Kotlin output folder, sorted by path; with
    /// `deferred`, each file's text is rendered when it is asked for (`GeneratedFile.bytes`, as
    /// the writer writes it) instead of all of them here.
    package static func generate(
        _ model: LensModel, options: KotlinGeneratorOptions, keeping kept: Set<String> = [],
        workers: Int = ParallelWork.processorCount, deferred: Bool = false
    ) -> [GeneratedFile] {
        let layout = TopLevelLayout(model)
        let names = KotlinTopLevelNames(layout)
        let context = KotlinContext(model: model, names: names, packageName: options.packageName)
        // The layout's files (names and files in its claim order), then the files on `workers` threads
        // (`ParallelWork`, results in that order).
        // A block's definition (`LensModel.block`) is kept as it is, never spelt: its job carries only its path and
        // key, so no template can be asked for it.
        enum Part: Sendable { case scalar(Int), enumeration(Int), input(Int), fragment(Int), operation(Int) }
        enum Job: Sendable {
            case kept(path: String, definition: String)
            case spelt(path: String, part: Part, definition: String?)
        }
        var jobs: [Job] = []
        // Taken once (an optional bound in the loop is copied for each of a large project's tens of thousands).
        let block = model.block ?? .empty
        for entry in layout.declarations where declares(entry.kind) {
            let path = entry.file + fileExtension
            if let (_, key) = entry.blockDefinition(in: block) {
                jobs.append(.kept(path: path, definition: key))
                continue
            }
            switch entry.kind {
            case .customScalar: jobs.append(.spelt(path: path, part: .scalar(entry.index), definition: nil))
            case .enumeration: jobs.append(.spelt(path: path, part: .enumeration(entry.index), definition: nil))
            case .inputObject: jobs.append(.spelt(path: path, part: .input(entry.index), definition: nil))
            case .fragment:
                jobs.append(
                    .spelt(
                        path: path, part: .fragment(entry.index), definition: model.fragments[entry.index].definitionKey
                    ))
            case .operation:
                jobs.append(
                    .spelt(
                        path: path, part: .operation(entry.index),
                        definition: model.operations[entry.index].definitionKey))
            case .schemaNamespace, .sharedTypeConditions: continue
            }
        }
        let text: @Sendable (Part) -> String = { part in
            let body: Template
            switch part {
            case .scalar(let index):
                body = KotlinTypeTemplates.customScalar(
                    context.declarations.customScalar(model.types.customScalars[index]), context)
            case .enumeration(let index):
                body = KotlinTypeTemplates.enumeration(
                    context.declarations.enumeration(model.types.enums[index]), context)
            case .input(let index):
                body = KotlinTypeTemplates.inputObject(
                    context.declarations.inputObject(model.types.inputObjects[index]), context)
            case .fragment(let index): body = KotlinDefinitionWriter(context).fragment(model.fragments[index])
            case .operation(let index): body = KotlinDefinitionWriter(context).operation(model.operations[index])
            }
            return context.file(body)
        }
        let file: @Sendable (Job) -> GeneratedFile = { job in
            switch job {
            case .kept(let path, let definition):
                return .kept(path: path, origin: nil, definition: definition)
            case .spelt(let path, let part, let definition):
                if let definition, kept.contains(definition) {
                    return .kept(path: path, origin: nil, definition: definition)
                }
                guard deferred else { return GeneratedFile(path: path, contents: text(part), definition: definition) }
                return GeneratedFile(path: path, definition: definition) { Array(text(part).utf8) }
            }
        }
        var files = deferred ? jobs.map(file) : ParallelWork.map(jobs, workers: workers, minimumItems: 16, file)
        if options.includeRuntime {
            for file in KotlinRuntime.files(header: FileWriter.header + "\n\n") {
                files.append(GeneratedFile(path: file.path, contents: file.contents))
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// The Kotlin names of every top-level declaration in the generated package: the layout's names
/// (`TopLevelLayout` decided them once, for every language), as Kotlin declares them.
struct KotlinTopLevelNames: Sendable {
    var scalars: [String: String] = [:]
    var enums: [String: String] = [:]
    var inputObjects: [String: String] = [:]
    var fragments: [String: String] = [:]
    var operations: [String: String] = [:]
    /// Every name above.
    var all = KotlinScope()

    init(_ layout: TopLevelLayout) {
        // `declared` changes nothing when the plan reserved Kotlin's names, and keeps a plan built
        // without them (a test's) compiling.
        for entry in layout.declarations where KotlinGenerator.declares(entry.kind) {
            let name = KotlinNames.declared(entry.name, .type)
            all.reserve(name)
            // A block's definition (`LensModel.block`) is never spelt, nor referred to by one spelt: its name is
            // only taken.
            if entry.inBlock { continue }
            switch entry.kind {
            case .customScalar: scalars[entry.graphQLName] = name
            case .enumeration: enums[entry.graphQLName] = name
            case .inputObject: inputObjects[entry.graphQLName] = name
            case .fragment: fragments[entry.graphQLName] = name
            case .operation: operations[entry.graphQLName] = name
            case .schemaNamespace, .sharedTypeConditions: break
            }
        }
    }
}

/// What every template shares: the model, the top-level names, the package, and the names every file's nested
/// classes must avoid (computed once).
struct KotlinContext: Sendable {
    let model: LensModel
    let names: KotlinTopLevelNames
    let packageName: String
    /// Every top-level name and `Companion`: nested classes never take them.
    let nestedTypeBase: KotlinScope
    /// The plan lowered into declarations (`DeclarationTree`), one construct at a time where it is printed.
    let declarations: DeclarationLowering

    init(model: LensModel, names: KotlinTopLevelNames, packageName: String) {
        self.model = model
        self.declarations = DeclarationLowering(model)
        self.names = names
        self.packageName = packageName
        nestedTypeBase = KotlinScope(base: names.all, ["Companion"]).flattened()
    }

    /// The fragment named `name`, found in constant time.
    func fragment(named name: String) -> FragmentModel? {
        declarations.fragment(named: name)
    }

    /// A whole file: the header, the package, the runtime imports the body uses, then the body.
    func file(_ body: Template) -> String {
        let text = body.text
        let words = Self.words(text)
        let imports = IdentifierRules.kotlinRuntimeTypeNames.sorted().filter { words.contains($0) }
        var out = FileWriter.header + "\n\n"
        out +=
            "package " + packageName.split(separator: ".").map { KotlinNames.quoted(String($0)) }.joined(separator: ".")
        out += "\n\n"
        if !imports.isEmpty {
            out += imports.map { "import \(KotlinRuntime.packageName).\($0)" }.joined(separator: "\n") + "\n\n"
        }
        out += text
        Template.trimTrailingSpaces(&out)  // templates end no other line in spaces (`Template`)
        return out + "\n"
    }

    /// The runtime types `text` mentions as whole words (one pass over the UTF-8 bytes). Words inside comments
    /// and strings count too, which at worst adds an unused import.
    static func words(_ text: String) -> Set<String> {
        var found = Set<String>()
        var text = text
        text.withUTF8 { bytes in
            let wordBytes = Self.wordBytes
            var start = -1
            for index in 0...bytes.count {
                if index < bytes.count, wordBytes[Int(bytes[index])] {
                    if start < 0 { start = index }
                    continue
                }
                defer { start = -1 }
                // Only a capitalized word as long as some runtime name is compared, byte by byte.
                guard start >= 0, bytes[start] >= UInt8(ascii: "A"), bytes[start] <= UInt8(ascii: "Z"),
                    index - start < runtimeNamesByLength.count
                else { continue }
                let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
                for candidate in runtimeNamesByLength[index - start] where candidate.bytes.elementsEqual(word) {
                    found.insert(candidate.name)
                    break
                }
            }
        }
        return found
    }

    /// Which bytes make words: letters, digits and `_`.
    private static let wordBytes: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        return (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    /// The runtime's type names and their UTF-8 bytes, by UTF-8 length (the index), to look words up
    /// without making strings of the others.
    private static let runtimeNamesByLength: [[(name: String, bytes: [UInt8])]] = {
        let longest = IdentifierRules.kotlinRuntimeTypeNames.map(\.utf8.count).max() ?? 0
        var byLength = [[(name: String, bytes: [UInt8])]](repeating: [], count: longest + 1)
        for name in IdentifierRules.kotlinRuntimeTypeNames.sorted() {
            byLength[name.utf8.count].append((name, Array(name.utf8)))
        }
        return byLength
    }()

    /// The Kotlin type of a built-in scalar, or nil for a custom one.
    static func builtInScalar(_ name: String) -> String? {
        switch name {
        case "String", "ID": "String"
        case "Int": "Int"
        case "Float": "Double"
        case "Boolean": "Boolean"
        default: nil
        }
    }

    /// The Kotlin mapping of a custom scalar (type and converter), when baton.json gives both.
    func kotlinMapping(_ scalar: String) -> (type: String, converter: String)? {
        let mapping = model.types.customScalars.first { $0.name == scalar }?.mapping
        guard let type = mapping?.kotlinType, let converter = mapping?.kotlinConverter else { return nil }
        return (type, converter)
    }

    /// The Kotlin type written for a named input or output type: a built-in, or the generated type's name.
    func namedType(_ name: String) -> String {
        if let builtIn = Self.builtInScalar(name) { return builtIn }
        if let scalar = names.scalars[name] { return KotlinNames.quoted(scalar) }
        if let enumeration = names.enums[name] { return KotlinNames.quoted(enumeration) }
        if let input = names.inputObjects[name] { return KotlinNames.quoted(input) }
        return "String"
    }

    /// The Kotlin type of an input value (a variable or input field) of schema type `type`.
    func inputType(_ type: TypeRef) -> String {
        switch type {
        case .nonNull(let inner): nonNullInputType(inner)
        default: nonNullInputType(type) + "?"
        }
    }

    private func nonNullInputType(_ type: TypeRef) -> String {
        switch type {
        case .nonNull(let inner): nonNullInputType(inner)
        case .list(let inner): "List<\(inputType(inner))>"
        case .named(let name): namedType(name)
        }
    }

    /// The expression that turns `expression` (of schema type `type`) into a JSON-ready value, or nil when
    /// the value is JSON-ready already (only mapped custom scalars need converting).
    func encoding(_ expression: String, _ type: TypeRef, depth: Int = 0) -> String? {
        guard needsEncoding(type) else { return nil }
        let variable = "v\(depth)"
        switch type {
        case .nonNull(let inner):
            return nonNullEncoding(expression, inner, depth: depth)
        default:
            guard let inner = nonNullEncoding(variable, type, depth: depth + 1) else { return nil }
            return "\(expression)?.let { \(variable) -> \(inner) }"
        }
    }

    private func nonNullEncoding(_ expression: String, _ type: TypeRef, depth: Int) -> String? {
        switch type {
        case .nonNull(let inner):
            return nonNullEncoding(expression, inner, depth: depth)
        case .list(let inner):
            let variable = "v\(depth)"
            guard let item = encoding(variable, inner, depth: depth + 1) else { return nil }
            return "\(expression).map { \(variable) -> \(item) }"
        case .named(let name):
            guard let mapping = kotlinMapping(name) else { return nil }
            return "\(mapping.converter).encode(\(expression))"
        }
    }

    private func needsEncoding(_ type: TypeRef) -> Bool { kotlinMapping(type.namedType) != nil }
}
