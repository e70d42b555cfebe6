/// The Kotlin runtime's files, embedded into the Swift build: the `.kt` files beside this one (package
/// `baton.runtime`) are the single source of the runtime.
///
/// `KotlinRuntimeEmbedder` writes `sources` and `typeNames` from them into `KotlinRuntimeFiles+Embedded.swift`
/// (`swift run KotlinRuntimeEmbedder` after adding, removing or editing a `.kt` file; a test fails while it is
/// stale), so the `baton` executable carries the runtime with no resource bundle to lose and generated names
/// avoid exactly the types the runtime declares. The embedding is checked in rather than written by a
/// build-tool plugin because SwiftPM does not run a dependency's build-tool plugins when it builds that
/// dependency's executable as a plugin tool, which is how an app's build runs `BatonPlugin`.
package enum KotlinRuntimeFiles {}
