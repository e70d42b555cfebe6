import Foundation
import PackagePlugin

/// Embeds the Kotlin runtime's `.kt` files (Kotlin/runtime/baton/runtime, the single source) into the target
/// that holds them, `BatonKotlinRuntime`, at build time: their text (`KotlinRuntimeFiles.sources`, which
/// `baton gen --lang kotlin` writes out) and their top-level type names (`KotlinRuntimeFiles.typeNames`, which
/// generated names avoid).
///
/// The files are part of the target, so SwiftPM plans the build again when one is added or removed, and they
/// are the command's inputs, so editing one reruns it.
@main
struct EmbedKotlinRuntime: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let files: [URL] =
            target.sourceModule?.sourceFiles
            .map { $0.url }
            .filter { $0.pathExtension == "kt" && $0.deletingLastPathComponent().path.hasSuffix("/baton/runtime") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent } ?? []
        let output = context.pluginWorkDirectoryURL.appending(path: "KotlinRuntimeFiles+Embedded.swift")
        return [
            .buildCommand(
                displayName: "Embedding the Kotlin runtime (\(files.count) files) into \(target.name)",
                executable: try context.tool(named: "KotlinRuntimeEmbedder").url,
                arguments: [output.path] + files.map { $0.path },
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
