import BatonKotlinRuntime

/// The Kotlin runtime generated Kotlin code reads through: records, slots, reads, results, errors, the store,
/// the environment, the custom-scalar converter interface and the `Optional` input type.
///
/// Its single source is the `.kt` files in Kotlin/runtime/baton/runtime, found and read when Kotlin is generated
/// (`KotlinRuntimeFiles` says where). `baton gen --lang kotlin` writes them beside the generated code, under
/// `baton/runtime/` in package `baton.runtime`, so an app needs no other dependency than the Kotlin standard
/// library. Docs/Kotlin.md describes it.
package enum KotlinRuntime {
    /// The Kotlin package of the runtime support.
    package static let packageName = "baton.runtime"

    /// The folder, relative to the Kotlin output folder, that holds the runtime's files.
    package static let folder = "baton/runtime"

    /// The runtime's files, or why they cannot be used (the driver reports it before generating Kotlin).
    package static var found: Result<KotlinRuntimeFiles.Sources, KotlinRuntimeFiles.Problem> {
        KotlinRuntimeFiles.found
    }

    /// The runtime's source files, by file name, in the order they are written; none when they were not found.
    package static var sources: [(name: String, text: String)] { (try? found.get()) ?? [] }

    /// The runtime's files as (path relative to the output folder, contents), each beginning with `header`.
    package static func files(header: String) -> [(path: String, contents: String)] {
        sources.map { source in
            (path: folder + "/" + source.name, contents: header + source.text + "\n")
        }
    }

    /// The folder, relative to the Kotlin test builders' folder, that holds the test kit's files.
    package static let testKitFolder = "baton/testing"

    /// Why the test kit's files cannot be written, or nil when they were found.
    package static var testKitProblem: String? {
        if case .failure(let problem) = KotlinTestKitFiles.found { return problem.description }
        return nil
    }

    /// The test kit's files (`KotlinTestKitFiles`: package `baton.testing`) as (path relative to the builders'
    /// folder, contents), each beginning with `header`; none when they were not found.
    package static func testKitFiles(header: String) -> [(path: String, contents: String)] {
        ((try? KotlinTestKitFiles.found.get()) ?? []).map { source in
            (path: testKitFolder + "/" + source.name, contents: header + source.text + "\n")
        }
    }
}
