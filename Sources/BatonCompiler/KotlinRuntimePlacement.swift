import BatonCodegen
import BatonCodegenKotlin
import BatonConfig
import BatonFiles

/// Where a compilation writes the Kotlin runtime (package `baton.runtime`).
package struct KotlinRuntimeDestination: Sendable, Equatable {
    /// The absolute folder that receives `baton/runtime/*.kt` (a source root, like an output folder).
    package var folder: String
    /// The setting that chose it, where write errors are reported.
    package var setting: Located<String>

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.folder == rhs.folder }
}

/// The Kotlin runtime is written once per run and folder, never once per project.
///
/// Each project's `output.kotlin.runtime` names a folder (by default its Kotlin output folder, so a
/// single-module app needs nothing else) or `false`; `baton gen --kotlin-runtime-out PATH` names one
/// folder for the whole run instead. Projects naming the same folder share one copy. The runtime's
/// files join the Kotlin output they lie inside (so that folder's writer, which removes stale
/// files, keeps them), or else are an output of their own rooted at `FOLDER/baton/runtime`. A
/// project whose runtime moved elsewhere has its old copy removed as stale (the files bear Baton's
/// header).
package enum KotlinRuntimePlacement {
    /// The folder a project's configuration asks for, or nil for `false`.
    package static func configured(_ configuration: Configuration) -> KotlinRuntimeDestination? {
        switch configuration.output.kotlinRuntime {
        case .omitted: return nil
        case .folder(let folder): return KotlinRuntimeDestination(folder: folder.value, setting: folder)
        case nil:
            guard let path = configuration.output.kotlinPath else { return nil }
            return KotlinRuntimeDestination(folder: path.value, setting: path)
        }
    }

    /// Gives each folder to the first compilation that asks for it; with `override` (absolute),
    /// the first compilation generating Kotlin writes it there and no other writes it at all.
    package static func assign(_ compilations: [Compilation], override: String?) {
        var claimed = Set<String>()
        for compilation in compilations {
            guard let wanted = compilation.kotlinRuntime else { continue }
            if let override {
                compilation.kotlinRuntime =
                    claimed.isEmpty ? KotlinRuntimeDestination(folder: override, setting: wanted.setting) : nil
                claimed.insert(override)
                continue
            }
            if !claimed.insert(wanted.folder).inserted { compilation.kotlinRuntime = nil }
        }
    }

    /// Adds the runtime's files to `outputs`: into the Kotlin output whose folder holds them, or as an
    /// output of their own.
    /// The folder `add` gives the runtime an output of its own in, or nil when it goes into a
    /// Kotlin output folder (`outputs`: language and absolute folder of each output).
    static func separateRoot(
        _ destination: KotlinRuntimeDestination, outputs: [(language: String, root: String)]
    ) -> String? {
        let root = Path.join(destination.folder, KotlinRuntime.folder)
        let kotlin = outputs.filter { $0.language == GenerationTargets.kotlin.name }
        if kotlin.isEmpty || kotlin.contains(where: { Path.isInside(root, directory: $0.root) }) { return nil }
        return root
    }

    static func add(_ destination: KotlinRuntimeDestination, to outputs: inout [Compilation.Output]) {
        let root = Path.join(destination.folder, KotlinRuntime.folder)
        let runtimeFiles = KotlinRuntime.files(header: FileWriter.header + "\n\n")
        if let index = outputs.firstIndex(where: {
            $0.target.name == GenerationTargets.kotlin.name && Path.isInside(root, directory: $0.root)
        }) {
            let prefix = Path.relative(root, to: outputs[index].root)
            for file in runtimeFiles {
                let name = Path.lastComponent(file.path)
                let path = prefix == "." ? name : Path.join(prefix, name)
                outputs[index].files.append(GeneratedFile(path: path, contents: file.contents))
            }
            outputs[index].files.sort { $0.path < $1.path }
            return
        }
        guard let kotlin = outputs.first(where: { $0.target.name == GenerationTargets.kotlin.name }) else { return }
        let files = runtimeFiles.map { file in
            GeneratedFile(path: Path.lastComponent(file.path), contents: file.contents)
        }
        outputs.append(
            Compilation.Output(target: kotlin.target, root: root, setting: destination.setting, files: files))
    }
}
