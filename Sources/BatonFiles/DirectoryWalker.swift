/// Walks a directory tree in a deterministic order (entries sorted by their UTF-8 bytes),
/// skipping build and VCS folders and never looping on a symbolic-link cycle.
package struct DirectoryWalker {
    /// Folder names never entered: build products, version control, JavaScript packages.
    package static let skippedDirectoryNames: Set<String> = [".build", ".git", "node_modules", ".swiftpm"]

    /// Decides whether a directory (absolute path) is worth entering.
    package var shouldEnter: (String) -> Bool = { _ in true }

    package init(shouldEnter: @escaping (String) -> Bool = { _ in true }) {
        self.shouldEnter = shouldEnter
    }

    /// Every regular file under `root` (absolute), in sorted depth-first order, and the
    /// directories that could not be read.
    package func files(under root: String) -> (files: [String], failures: [FileSystem.Failure]) {
        var files: [String] = []
        var failures: [FileSystem.Failure] = []
        var visited = Set<FileIdentity>()
        // A stack of directories still to list; children are pushed in reverse so that they
        // are visited in sorted order.
        var stack = [root]
        while let directory = stack.popLast() {
            if let identity = FileSystem.identity(of: directory) {
                if !visited.insert(identity).inserted { continue }
            }
            let entries: [FileSystem.Entry]
            switch FileSystem.entries(of: directory) {
            case .success(let list): entries = list
            case .failure(let failure):
                failures.append(failure)
                continue
            }
            var subdirectories: [String] = []
            for entry in entries {
                let name = entry.name
                let path = Path.child(directory, name)
                // A link (or an entry the listing does not type) is followed with `stat`.
                switch entry.kind ?? FileSystem.kind(of: path) {
                case .file:
                    files.append(path)
                case .directory:
                    if DirectoryWalker.skippedDirectoryNames.contains(name) { continue }
                    if shouldEnter(path) { subdirectories.append(path) }
                case .other, nil:
                    continue
                }
            }
            stack.append(contentsOf: subdirectories.reversed())
        }
        return (files, failures)
    }
}
