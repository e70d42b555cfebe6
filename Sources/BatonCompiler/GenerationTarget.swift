import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonIR

/// A language `baton gen` writes: where its output goes, what it needs from baton.json, and how it
/// spells the plan.
///
/// Checking a target's settings is apart from generating, so `check` reports every setting `gen`
/// would stop on without generating anything, and `gen` knows every problem of every language
/// before it writes the first file.
package struct GenerationTarget: Sendable {
    /// `swift`, `kotlin`, `swift-test-builders`, `kotlin-test-builders`.
    package var name: String
    /// The language `--lang` selects it by (`swift` for the Swift test builders).
    package var language: String
    /// Written only when baton.json names its folder, never demanded by `--lang`: the test data builders.
    package var isTestBuilders = false
    /// The output folder setting for this language, if the project has one.
    package var outputPath: @Sendable (Configuration) -> Located<String>?
    /// File extensions the language's files end in (for stale-file removal).
    package var managedExtensions: Set<String>
    /// Names no generated definition may take in this language: the plan avoids the names of
    /// every target, so the names agree whichever languages a run writes.
    package var reservedTypeNames: Set<String>
    /// Problems with the settings this language needs (reported in baton.json, as `config`).
    package var settingsProblems: @Sendable (Configuration) -> [Diagnostic]
    /// The files for a plan, paths relative to the output folder. Called only when
    /// `settingsProblems` found nothing and the plan has no errors: spelling a plan cannot fail.
    /// Definitions whose keys are in the set are not rendered but come back as kept files
    /// (`GeneratedFile.kept`, an incremental run's). The files are deferred: each is rendered when
    /// the writer writes it (`GeneratedFile.bytes`).
    package var generate: @Sendable (LensModel, Configuration, Set<String>) -> [GeneratedFile]

    package init(
        name: String, outputPath: @escaping @Sendable (Configuration) -> Located<String>?,
        managedExtensions: Set<String>, reservedTypeNames: Set<String>,
        settingsProblems: @escaping @Sendable (Configuration) -> [Diagnostic],
        generate: @escaping @Sendable (LensModel, Configuration, Set<String>) -> [GeneratedFile]
    ) {
        self.name = name
        self.language = name
        self.outputPath = outputPath
        self.managedExtensions = managedExtensions
        self.reservedTypeNames = reservedTypeNames
        self.settingsProblems = settingsProblems
        self.generate = generate
    }
}

/// The languages `baton gen` knows, in the order they are generated and reported.
package enum GenerationTargets {
    package static var all: [GenerationTarget] { [swift, kotlin, swiftTestBuilders, kotlinTestBuilders] }

    /// The languages `--lang` names.
    package static var languages: [String] { [swift.name, kotlin.name] }

    /// The target named `name`.
    package static func named(_ name: String) -> GenerationTarget? { all.first { $0.name == name } }

    /// Every name some target reserves: what the plan's names avoid.
    package static var reservedTypeNames: Set<String> {
        all.reduce(into: Set<String>()) { $0.formUnion($1.reservedTypeNames) }
    }

    /// `options` with every target's reserved names: what a plan for generation is built with
    /// (the driver's compilations, and tests and benchmarks that build plans themselves).
    package static func planOptions(_ options: LensModelOptions = LensModelOptions()) -> LensModelOptions {
        var options = options
        options.reservedTypeNames.formUnion(reservedTypeNames)
        return options
    }

    package static let swift = GenerationTarget(
        name: "swift", outputPath: { $0.output.swiftPath }, managedExtensions: ["swift"],
        reservedTypeNames: SwiftGenerator.reservedTypeNames,
        settingsProblems: { configuration in
            // A mapped type is written into generated code verbatim: it must be a (qualified) Swift type name.
            var problems = configuration.customScalarTypes.compactMap { mapping -> Diagnostic? in
                guard let swift = mapping.swift, !isSwiftTypeName(swift.value) else { return nil }
                return .error(
                    "customScalarTypes.\(mapping.name).swift \"\(swift.value)\" is not a Swift type name (such as Foundation.Date or MyApp.Money).",
                    rule: "config", file: configuration.file, span: swift.span)
            }
            // The namespace is declared as written: it must be a name Swift can declare without quotes.
            if let namespace = configuration.output.swiftNamespace {
                let reserved = Set(GenerationTargets.reservedTypeNames.map { $0.lowercased() })
                if reserved.contains(namespace.value.lowercased())
                    || IdentifierRules.swift.quoted(namespace.value) != namespace.value
                {
                    problems.append(
                        .error(
                            "output.swift.namespace \"\(namespace.value)\" is reserved in Swift or in generated code; choose another name (such as \"API\").",
                            rule: "config", file: configuration.file, span: namespace.span))
                }
            }
            return problems
        },
        generate: { model, configuration, kept in
            let access = configuration.output.swiftAccessModifier?.value ?? .internal
            let options = SwiftGeneratorOptions(accessModifier: access == .internal ? "" : access.rawValue)
            return SwiftGenerator(model: model, options: options).generate(keeping: kept, deferred: true)
        })

    /// Kotlin needs `output.kotlin.package`; the runtime is written once per run (`KotlinRuntimePlacement`).
    package static let kotlin = GenerationTarget(
        name: "kotlin", outputPath: { $0.output.kotlinPath }, managedExtensions: ["kt"],
        reservedTypeNames: KotlinGenerator.reservedTypeNames,
        settingsProblems: { configuration in
            guard let package = configuration.output.kotlinPackage else {
                return [
                    .error(
                        "No output.kotlin.package in baton.json: which Kotlin package should the generated code be in?",
                        rule: "config", file: configuration.file,
                        span: configuration.output.kotlinPath?.span ?? .zero)
                ]
            }
            if let problem = KotlinGenerator.packageNameProblem(package.value) {
                return [.error(problem, rule: "config", file: configuration.file, span: package.span)]
            }
            return []
        },
        generate: { model, configuration, kept in
            // The runtime is placed by the driver, once per run (`KotlinRuntimePlacement`).
            KotlinGenerator.generate(
                model,
                options: KotlinGeneratorOptions(
                    packageName: configuration.output.kotlinPackage?.value ?? "", includeRuntime: false),
                keeping: kept, deferred: true)
        })

    /// The Swift test data builders (`output.swift.testBuilders`), written with the app's access modifier.
    package static let swiftTestBuilders: GenerationTarget = {
        var target = GenerationTarget(
            name: "swift-test-builders", outputPath: { $0.output.swiftTestBuilders }, managedExtensions: ["swift"],
            reservedTypeNames: [],
            settingsProblems: { configuration in
                apartProblems(
                    configuration.output.swiftTestBuilders, from: configuration.output.swiftPath, language: "swift",
                    configuration)
            },
            generate: { model, configuration, kept in
                let access = configuration.output.swiftAccessModifier?.value ?? .internal
                let options = SwiftGeneratorOptions(accessModifier: access == .internal ? "" : access.rawValue)
                return SwiftGenerator(model: model, options: options).generateTestBuilders(keeping: kept)
            })
        target.language = swift.name
        target.isTestBuilders = true
        return target
    }()

    /// The Kotlin test data builders (`output.kotlin.testBuilders`), in `output.kotlin.package`.
    package static let kotlinTestBuilders: GenerationTarget = {
        var target = GenerationTarget(
            name: "kotlin-test-builders", outputPath: { $0.output.kotlinTestBuilders }, managedExtensions: ["kt"],
            reservedTypeNames: [],
            settingsProblems: { configuration in
                guard let builders = configuration.output.kotlinTestBuilders else { return [] }
                guard configuration.output.kotlinPath != nil else {
                    return [
                        .error(
                            "output.kotlin.testBuilders needs output.kotlin.path and output.kotlin.package: the builders are in the generated code's package.",
                            rule: "config", file: configuration.file, span: builders.span)
                    ]
                }
                var problems = apartProblems(
                    builders, from: configuration.output.kotlinPath, language: "kotlin", configuration)
                if writesKotlinTestKit(configuration), let problem = KotlinRuntime.testKitProblem {
                    problems.append(
                        .error(
                            "output.kotlin.testBuilders: \(problem)", rule: "config",
                            file: configuration.file, span: builders.span))
                }
                return problems
            },
            generate: { model, configuration, kept in
                var files = KotlinGenerator.generateTestBuilders(
                    model, packageName: configuration.output.kotlinPackage?.value ?? "", keeping: kept)
                if writesKotlinTestKit(configuration) {
                    for file in KotlinRuntime.testKitFiles(header: FileWriter.header + "\n\n") {
                        files.append(GeneratedFile(path: file.path, contents: file.contents))
                    }
                }
                return files.sorted { $0.path < $1.path }
            })
        target.language = kotlin.name
        target.isTestBuilders = true
        return target
    }()

    /// Whether the Kotlin test kit (`baton/testing/*.kt`) is written beside the Kotlin test builders: when the
    /// runtime is written too (`output.kotlin.runtime` is not `false`); a project whose runtime another module
    /// provides gets the kit from there as well.
    static func writesKotlinTestKit(_ configuration: Configuration) -> Bool {
        if case .omitted = configuration.output.kotlinRuntime { return false }
        return true
    }

    /// The test builders' folder must be apart from the language's output folder: each folder's writer removes the
    /// generated files it did not write, so one inside the other would remove the other's.
    static func apartProblems(
        _ builders: Located<String>?, from output: Located<String>?, language: String, _ configuration: Configuration
    ) -> [Diagnostic] {
        guard let builders, let output,
            Path.isInside(builders.value, directory: output.value)
                || Path.isInside(output.value, directory: builders.value)
        else { return [] }
        return [
            .error(
                "output.\(language).testBuilders.path must be a folder apart from output.\(language).path (neither inside the other): each removes the generated files it did not write.",
                rule: "config", file: configuration.file, span: builders.span)
        ]
    }

    /// `Name` or `Module.Name` (letters, digits and `_`, not starting with a digit; generic arguments allowed).
    package static func isSwiftTypeName(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= 200 else { return false }
        var depth = 0
        var previous: Character = "."
        for character in text {
            switch character {
            case "<": depth += 1
            case ">": depth -= 1
            case ".", ",", " ", "_": break
            default:
                guard character.isASCII, character.isLetter || character.isNumber else { return false }
                if character.isNumber, previous == "." || previous == "<" || previous == " " { return false }
            }
            if depth < 0 { return false }
            previous = character
        }
        return depth == 0 && !text.hasSuffix(".") && !text.hasPrefix(".") && !text.contains("..")
    }
}

/// Which languages a run generates (or, for `check`, checks the settings of).
package enum TargetSelection: Sendable, Equatable {
    /// None: `plate` reads the plan only.
    case none
    /// Every language the project has an output folder for (`check`, and `gen` without `--lang`).
    case configured
    /// The languages named with `--lang`; a project without an output folder for one is a
    /// configuration error. With `testBuilders`, a named language's test builders are written too when baton.json
    /// names their folder (a build plugin's run writes none).
    case named([String], testBuilders: Bool = true)

    /// The targets of `configuration` under this selection, and errors for named languages the
    /// project has no output for.
    func targets(of configuration: Configuration) -> (targets: [GenerationTarget], diagnostics: [Diagnostic]) {
        switch self {
        case .none:
            return ([], [])
        case .configured:
            return (GenerationTargets.all.filter { $0.outputPath(configuration) != nil }, [])
        case .named(let names, let testBuilders):
            var diagnostics: [Diagnostic] = []
            let targets = GenerationTargets.all.filter { target in
                guard names.contains(target.language) else { return false }
                return !target.isTestBuilders || (testBuilders && target.outputPath(configuration) != nil)
            }
            for target in targets where target.outputPath(configuration) == nil {
                diagnostics.append(
                    .error(
                        "No output.\(target.name).path in baton.json: where should the \(target.name) files go?",
                        rule: "config", file: configuration.file, span: .zero))
            }
            return (targets, diagnostics)
        }
    }
}
