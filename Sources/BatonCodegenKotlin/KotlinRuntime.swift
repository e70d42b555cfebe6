import BatonKotlinRuntime

/// The Kotlin runtime generated Kotlin code reads through: records, slots, reads, results, errors, the store,
/// the environment, the custom-scalar converter interface and the `Optional` input type.
///
/// Its single source is the `.kt` files in Kotlin/runtime/baton/runtime, embedded at build time
/// (`KotlinRuntimeFiles`). `baton gen --lang kotlin` writes them beside the generated code, under
/// `baton/runtime/` in package `baton.runtime`, so an app needs no other dependency than the Kotlin standard
/// library. Docs/Kotlin.md describes it.
package enum KotlinRuntime {
    /// The Kotlin package of the runtime support.
    package static let packageName = "baton.runtime"

    /// The folder, relative to the Kotlin output folder, that holds the runtime's files.
    package static let folder = "baton/runtime"

    /// The runtime's source files, by file name, in the order they are written.
    package static var sources: [(name: String, text: String)] { KotlinRuntimeFiles.sources }

    /// The runtime's files as (path relative to the output folder, contents), each beginning with `header`.
    package static func files(header: String) -> [(path: String, contents: String)] {
        sources.map { source in
            (path: folder + "/" + source.name, contents: header + source.text + "\n")
        }
    }
}
