import BatonFiles

/// A folder of Kotlin sources that `baton gen` writes out beside what it generates — the runtime's
/// (`KotlinRuntimeFiles`), the test kit's (`KotlinTestKitFiles`) — decided once for both: where it is looked for, first
/// match wins (the folder `environmentVariable` names, and only it when set; `installedFolder` beside the `bin`
/// folder of the running executable, as named, then with its links resolved; else `sourceTree`), and what its files
/// must be (UTF-8, `\n` line endings, beginning with `package packageName`), each kept without its final newline.
package struct KotlinSourceFolder: Sendable {
    /// What the files are, as problems name them: "Kotlin runtime", "Kotlin test kit".
    package var label: String
    package var packageName: String
    package var environmentVariable: String
    /// Below an installation's prefix (`PREFIX/bin/baton`).
    package var installedFolder: String
    /// The folder in the source tree this package was built from.
    package var sourceTree: String
    /// A check of the files read from a folder beyond what every file must be (the runtime's declared type names).
    package var check:
        (@Sendable (_ folder: String, _ sources: KotlinRuntimeFiles.Sources) -> KotlinRuntimeFiles.Problem?)?

    /// The folders looked in, in order, and the first that holds the files, read.
    package func locate(environment: String?, executable: String?) -> Result<
        KotlinRuntimeFiles.Sources, KotlinRuntimeFiles.Problem
    > {
        let folders = self.folders(environment: environment, executable: executable)
        for folder in folders {
            // A folder, or a symbolic link to one.
            switch FileSystem.entryKind(of: folder) {
            case .directory: return read(folder)
            case .symbolicLink where (try? FileSystem.listing(of: folder).get()) != nil: return read(folder)
            default: continue
            }
        }
        return .failure(
            KotlinRuntimeFiles.Problem(
                description:
                    "the \(label)'s files were not found (looked in \(folders.joined(separator: ", "))); install baton with scripts/install.sh, which puts them in PREFIX/\(installedFolder), or name their folder in \(environmentVariable)"
            ))
    }

    /// The one `environmentVariable` names, or `installedFolder` beside the executable's `bin` folder (as named,
    /// then with its links resolved), then `sourceTree`. Spelled as `URL`'s `deletingLastPathComponent`,
    /// `resolvingSymlinksInPath` and `standardizedFileURL` spell them (the problem lists them).
    package func folders(environment: String?, executable: String?) -> [String] {
        if let environment, !environment.isEmpty { return [environment] }
        var folders: [String] = []
        if let executable {
            let path = URLPath.absolute(executable)
            for binary in [path, URLPath.resolvingLinks(path)] {
                let prefix = URLPath.deletingLastComponent(URLPath.deletingLastComponent(binary))
                let folder = URLPath.standardized(prefix + "/" + installedFolder)
                if !folders.contains(folder) { folders.append(folder) }
            }
        }
        folders.append(sourceTree)
        return folders
    }

    /// Every `.kt` file in `folder`, sorted by name, checked to be one of these files (and by `check`).
    package func read(_ folder: String) -> Result<KotlinRuntimeFiles.Sources, KotlinRuntimeFiles.Problem> {
        guard case .success(let listed) = FileSystem.listing(of: folder) else {
            return .failure(.init(description: "\(folder): cannot read the folder of the \(label)"))
        }
        var sources: KotlinRuntimeFiles.Sources = []
        for name in listed.map(\.name).sorted() where name.hasSuffix(".kt") {
            let path = folder + "/" + name
            guard let text = FileSystem.utf8Text(of: path) else {
                return .failure(.init(description: "\(path): cannot read the file as UTF-8 text"))
            }
            guard !KotlinRuntimeFiles.hasCarriageReturn(text), text.hasPrefix("package \(packageName)\n") else {
                return .failure(
                    .init(
                        description:
                            "\(path): not a file of the \(label) (its files begin with `package \(packageName)` and use \\n line endings)"
                    ))
            }
            // Without its final line feed (no carriage return before it: refused above).
            let last =
                text.utf8.last == UInt8(ascii: "\n") ? text.utf8.index(before: text.utf8.endIndex) : text.endIndex
            sources.append((name: name, text: String(text[..<last])))
        }
        guard !sources.isEmpty else { return .failure(.init(description: "\(folder): no .kt files")) }
        if let problem = check?(folder, sources) { return .failure(problem) }
        return .success(sources)
    }
}
