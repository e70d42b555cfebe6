/// The Kotlin runtime's files, embedded into the Swift build: the `.kt` files beside this one (package
/// `baton.runtime`) are the single source of the runtime.
///
/// The `EmbedKotlinRuntime` build plugin writes `sources` and `typeNames` from them at build time (the
/// generated extension is never checked in), so the `baton` executable carries the runtime with no resource
/// bundle to lose and generated names avoid exactly the types the runtime declares. Adding, removing or editing
/// a `.kt` file here reruns the plugin.
package enum KotlinRuntimeFiles {}
