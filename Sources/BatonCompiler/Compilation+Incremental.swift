import BatonCodegen
import BatonConfig

/// An incremental `.generate`: which definitions' files stay as they are (`GenerationManifest`).
extension Compilation {
    /// The definitions of the output folder `root` whose files can stay: the folder's manifest
    /// was made from the same project-wide inputs and top-level names, and records the same
    /// digest for the definition and the stamp its file still has (in a folder of
    /// `trustedOutputRoots`, the stamp it was written with). Empty without inputs or a manifest.
    func keptDefinitions(language: String, root: String) -> Set<String> {
        guard let generationInputs, let namesDigest, let manifest = previousManifests[root],
            manifest.inputs == generationInputs.inputs(language: language, root: root), manifest.names == namesDigest
        else { return [] }
        let trusted = trustedOutputRoots.contains(root)
        var kept: Set<String> = []
        for entry in manifest.files where entry.definition != "-" {
            guard let digest = definitionDigests[entry.definition], digest == entry.digest,
                trusted || FileStamp(of: root + "/" + entry.path) == entry.stamp
            else { continue }
            kept.insert(entry.definition)
        }
        return kept
    }

    /// True when every kept file has the path the manifest recorded for its definition (it
    /// always should, the names being the same; if not, the folder is generated in full).
    func keptFilesAreWhereRecorded(_ files: [GeneratedFile], root: String) -> Bool {
        guard let manifest = previousManifests[root] else { return false }
        var recorded: [String: String] = [:]
        for entry in manifest.files { recorded[entry.definition] = entry.path }
        return files.allSatisfy { file in
            !file.kept || (file.definition.map { recorded[$0] == file.path } ?? false)
        }
    }

    /// The absolute output folders `.generate` will write (each language's, and the Kotlin
    /// runtime's when it has a folder of its own), with their language names.
    var plannedOutputRoots: [(language: String, root: String)] {
        guard let configuration = project.configuration else { return [] }
        var roots: [(language: String, root: String)] = targets.compactMap { target in
            target.outputPath(configuration).map {
                (target.name, Path.absolute($0.value, relativeTo: configuration.directory))
            }
        }
        if let kotlinRuntime, let root = KotlinRuntimePlacement.separateRoot(kotlinRuntime, outputs: roots) {
            roots.append((GenerationTargets.kotlin.name, root))
        }
        return roots
    }
}
