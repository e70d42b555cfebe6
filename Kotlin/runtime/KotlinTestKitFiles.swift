#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        environment: getenv(environmentVariable).map { String(cString: $0) },
        executable: KotlinRuntimeFiles.executablePath)

    /// The folders looked in, in order, and the first that holds the kit, read.
    package static func locate(environment: String?, executable: String?)
        -> Result<KotlinRuntimeFiles.Sources, KotlinRuntimeFiles.Problem>
    {
        let folders = self.folders(environment: environment, executable: executable)
        for folder in folders {
            switch FilePath.kind(of: folder) {
            case .directory: return read(folder)
            case .symbolicLink where FilePath.entries(of: folder) != nil: return read(folder)
            default: continue
            }
        }
        return .failure(
            KotlinRuntimeFiles.Problem(
                description:
                    "the Kotlin test kit's files were not found (looked in \(folders.joined(separator: ", "))); install baton with scripts/install.sh, which puts them in PREFIX/\(installedFolder), or name their folder in \(environmentVariable)"
            ))
    }

    /// The one `BATON_KOTLIN_TESTING` names, or `share/baton/kotlin-testing` beside the executable's `bin` folder
    /// (as named, then with its links resolved), then the source tree.
    package static func folders(environment: String?, executable: String?) -> [String] {
        if let environment, !environment.isEmpty { return [environment] }
        var folders: [String] = []
        if let executable {
            let path = FilePath.absolute(executable)
            for binary in [path, FilePath.resolvingLinks(path)] {
                let prefix = FilePath.deletingLastComponent(FilePath.deletingLastComponent(binary))
                let folder = FilePath.standardized(prefix + "/" + installedFolder)
                if !folders.contains(folder) { folders.append(folder) }
            }
        }
        folders.append(FilePath.standardized(FilePath.deletingLastComponent(#filePath) + "/../testing/baton/testing"))
        return folders
    }

    /// Every `.kt` file in `folder`, checked to be a file of the kit.
    package static func read(_ folder: String) -> Result<KotlinRuntimeFiles.Sources, KotlinRuntimeFiles.Problem> {
        guard let names = FilePath.entries(of: folder) else {
            return .failure(.init(description: "\(folder): cannot read the folder of the Kotlin test kit"))
        }
        var sources: KotlinRuntimeFiles.Sources = []
        for name in names.sorted() where name.hasSuffix(".kt") {
            let path = folder + "/" + name
            guard let text = FilePath.utf8Text(of: path) else {
                return .failure(.init(description: "\(path): cannot read the file as UTF-8 text"))
            }
            guard !KotlinRuntimeFiles.hasCarriageReturn(text), text.hasPrefix("package baton.testing\n") else {
                return .failure(
                    .init(
                        description:
                            "\(path): not a file of the Kotlin test kit (its files begin with `package baton.testing` and use \\n line endings)"
                    ))
            }
            let last =
                text.utf8.last == UInt8(ascii: "\n") ? text.utf8.index(before: text.utf8.endIndex) : text.endIndex
            sources.append((name: name, text: String(text[..<last])))
        }
        guard !sources.isEmpty else { return .failure(.init(description: "\(folder): no .kt files")) }
        return .success(sources)
    }
}
