/// The Kotlin runtime support generated Kotlin code reads through: records, slots, reads, results, errors,
/// the custom-scalar converter interface and the `Optional` input type.
///
/// It ships inside Baton as text (`KotlinRuntime+Sources.swift`) and `baton gen --lang kotlin` writes it
/// beside the generated code, under `baton/runtime/` in package `baton.runtime`, so an app needs no other
/// dependency than the Kotlin standard library. Docs/Kotlin.md describes it.
package enum KotlinRuntime {
    /// The Kotlin package of the runtime support.
    package static let packageName = "baton.runtime"

    /// The folder, relative to the Kotlin output folder, that holds the runtime's files.
    package static let folder = "baton/runtime"

    /// The runtime's files as (path relative to the output folder, contents), each beginning with `header`.
    package static func files(header: String) -> [(path: String, contents: String)] {
        sources.map { source in
            (path: folder + "/" + source.name, contents: header + source.text + "\n")
        }
    }
}
