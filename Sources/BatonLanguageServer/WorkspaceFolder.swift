import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonSyntax

/// One workspace folder: the projects of the baton.json found from it, kept compiled by a `WatchSession` at
/// `check`'s stage (its driver set as `baton check`'s: `checksOnly`, the configured languages' settings), so
/// the diagnostics are `baton check`'s and an edit re-validates only what it reaches (`KeptValidation`).
///
/// Editors' unsaved texts reach the compilations as overlays (`Compilation.documentsChanged(_:texts:)`,
/// `schemaChanged(texts:)`); changes on disk go through the session (`WatchSession.apply`), which resolves the
/// projects again when a file appears or disappears or a baton.json changes.
package final class WorkspaceFolder {
    /// The folder's absolute path: the working directory of its driver.
    package let root: String
    package let session: WatchSession

    package init(root: String) {
        self.root = Path.normalize(root)
        var driver = Driver(
            request: ProjectRequest(workingDirectory: self.root), policy: DiagnosticPolicy(), targets: .configured)
        driver.options.checksOnly = true
        session = WatchSession(driver: driver, stage: .plan)
    }

    /// The kept compilations, one per project.
    package var compilations: [Compilation] { session.result.compilations }

    /// The baton.json the projects come from (absolute), if one was found.
    package var configurationPath: String? { session.result.resolved.configurationPath }

    /// Whether `path` belongs here: a document or schema file of a project, the configuration, or a file
    /// inside the folder.
    package func contains(_ path: String) -> Bool {
        if path == configurationPath || Path.isInside(path, directory: root) { return true }
        return compilations.contains {
            $0.project.documentFiles.contains(path) || $0.project.schemaFiles.contains(path)
        }
    }

    /// Each compilation's fragment definitions by name, kept until the next change (hover, definition and
    /// completion ask for them on every request; a project has thousands of documents).
    private var fragmentIndexes: [ObjectIdentifier: [String: [FragmentSite]]] = [:]
    /// `uri(ofDisplay:)`'s answers: a display path's URI depends only on it and `root`, which never changes.
    private var uriOfDisplay: [String: String] = [:]

    /// The fragment definitions of `compilation` by name, in document order.
    package func fragments(of compilation: Compilation) -> [String: [FragmentSite]] {
        if let index = fragmentIndexes[ObjectIdentifier(compilation)] { return index }
        var index: [String: [FragmentSite]] = [:]
        for document in compilation.documents {
            for case .fragment(let fragment) in document.definitions {
                index[fragment.name.value, default: []].append(FragmentSite(document: document, fragment: fragment))
            }
        }
        fragmentIndexes[ObjectIdentifier(compilation)] = index
        fragmentNames[ObjectIdentifier(compilation)] = index.keys.sorted()
        return index
    }

    /// The names of `fragments(of:)`, sorted.
    package func fragmentNames(of compilation: Compilation) -> [String] {
        if let names = fragmentNames[ObjectIdentifier(compilation)] { return names }
        return fragments(of: compilation).keys.sorted()
    }
    private var fragmentNames: [ObjectIdentifier: [String]] = [:]

    /// Compilations validated again since an edit and not yet planned (`plan()`).
    private var unplanned: [Compilation] = []

    /// Whether an edit's plan is still to run.
    package var planPending: Bool { !unplanned.isEmpty }

    /// Applies an editor's texts (`texts` holds every open document's text that differs from disk; a changed
    /// path without one is read from disk again) to the projects reading `changed`, and validates those again
    /// (only what the change reaches). Their plan, whose diagnostics complete `check`'s, runs in `plan()`, when the
    /// editor is quiet: on a large project it costs more than the validation of one document. Returns whether any
    /// project reads one of the paths.
    @discardableResult
    package func edit(_ changed: Set<String>, texts: [String: [UInt8]]) -> Bool {
        var touched = false
        fragmentIndexes = [:]
        fragmentNames = [:]
        for compilation in compilations {
            // A keystroke changes one path: look it up in the lists rather than hash every listed path.
            let documents = changed.filter(compilation.project.documentFiles.contains)
            let schema = changed.filter(compilation.project.schemaFiles.contains)
            if documents.isEmpty && schema.isEmpty { continue }
            touched = true
            if !schema.isEmpty {
                compilation.schemaChanged(texts: texts.filter { compilation.project.schemaFiles.contains($0.key) })
            }
            if !documents.isEmpty { compilation.documentsChanged(documents, texts: texts) }
            compilation.run(upTo: .validate)
            if !unplanned.contains(where: { $0 === compilation }) { unplanned.append(compilation) }
        }
        return touched
    }

    /// Runs the plan of every compilation validated since an edit: `check`'s stage, its last diagnostics.
    package func plan() {
        for compilation in unplanned { compilation.run(upTo: .plan) }
        unplanned = []
    }

    /// Applies changes on disk (files saved, created, deleted or renamed; baton.json edited), then the editor's
    /// texts again, since a project started afresh reads the disk.
    package func filesChangedOnDisk(_ paths: Set<String>, texts: [String: [UInt8]]) {
        guard let outcome = session.apply(paths) else { return }
        unplanned = []
        fragmentIndexes = [:]
        fragmentNames = [:]
        // A project started afresh (baton.json edited, projects resolved again) reads the disk: the editor's
        // texts again. Otherwise `apply` read again only the files that changed on disk.
        let open = Set(texts.keys).filter(contains).filter { outcome.resolvedAgain || paths.contains($0) }
        if !open.isEmpty { edit(open, texts: texts) }
    }

    /// Every diagnostic shown, with `baton check`'s severities and filters, in `baton check`'s order.
    package var diagnostics: [Diagnostic] { session.result.shownDiagnostics }

    /// The same diagnostics in no particular order. Sorting them, or asking each its display path, locates every
    /// one (its line and column): the server sorts only the files whose diagnostics changed. (The request has no
    /// PATHS, so `Compilation.shownDiagnostics`' filter keeps everything: the policy alone decides.)
    package var unorderedDiagnostics: [Diagnostic] {
        let result = session.result
        return result.policy.shown(result.policy.settle(result.resolved.diagnostics, configuration: nil))
            + result.compilations.flatMap { $0.policy.shown($0.diagnostics) }
            + result.policy.shown(result.driverDiagnostics)
    }

    /// The absolute path a diagnostic's display path names.
    package func absolute(_ displayPath: String) -> String { Path.absolute(displayPath, relativeTo: root) }

    /// The URI of a file this folder shows as `displayPath`, remembered: every publication after an edit asks for the
    /// URI of each file with diagnostics (thousands in a large project), and percent-encoding them again each time
    /// was a tenth of an edit's work (issue 34).
    package func uri(ofDisplay displayPath: String) -> String {
        if let known = uriOfDisplay[displayPath] { return known }
        let uri = DocumentURI.uri(of: absolute(displayPath))
        uriOfDisplay[displayPath] = uri
        return uri
    }
}

/// A fragment's definition and the document holding it.
package struct FragmentSite {
    package var document: Document
    package var fragment: FragmentDefinition
}
