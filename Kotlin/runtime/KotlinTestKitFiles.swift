import BatonFiles

/// The Kotlin test kit's files (package `baton.testing`: `MockEnvironment.kt`, `DataBuilders.kt`), which
/// `baton gen` writes beside the Kotlin test data builders (`output.kotlin.testBuilders`) as it writes the runtime
/// beside the generated code.
///
/// Found as the runtime's are (`KotlinRuntimeFiles`), first match wins: the folder `BATON_KOTLIN_TESTING` names;
/// `share/baton/kotlin-testing` beside the `bin` folder of the running executable (`scripts/install.sh`, the
/// artifact bundle); else the source tree (`Kotlin/testing/baton/testing`). A file of the kit is UTF-8 with `\n`
/// line endings and begins with `package baton.testing`.
package enum KotlinTestKitFiles {
    /// The environment variable naming the folder that holds the kit's `.kt` files.
    package static let environmentVariable = "BATON_KOTLIN_TESTING"

    /// The folder of the kit's files below an installation's prefix (`PREFIX/bin/baton`).
    package static let installedFolder = "share/baton/kotlin-testing"

    /// The kit this process found, looked for once.
    package static let found: Result<KotlinRuntimeFiles.Sources, KotlinRuntimeFiles.Problem> = locate(
        environment: FileSystem.environment(environmentVariable),
        executable: KotlinRuntimeFiles.executablePath)

    /// Where the kit's files are looked for and what they must be (`KotlinSourceFolder`).
    package static let folder = KotlinSourceFolder(
        label: "Kotlin test kit", packageName: "baton.testing", environmentVariable: environmentVariable,
        installedFolder: installedFolder,
        sourceTree: URLPath.standardized(URLPath.deletingLastComponent(#filePath) + "/../testing/baton/testing"),
        check: nil)

    /// The folders looked in, in order, and the first that holds the kit, read.
    package static func locate(environment: String?, executable: String?)
        -> Result<KotlinRuntimeFiles.Sources, KotlinRuntimeFiles.Problem>
    {
        folder.locate(environment: environment, executable: executable)
    }

    /// The folders looked in, in order (`KotlinSourceFolder.folders`).
    package static func folders(environment: String?, executable: String?) -> [String] {
        folder.folders(environment: environment, executable: executable)
    }

    /// Every `.kt` file in `folder`, checked to be a file of the kit.
    package static func read(_ folder: String) -> Result<KotlinRuntimeFiles.Sources, KotlinRuntimeFiles.Problem> {
        self.folder.read(folder)
    }
}
