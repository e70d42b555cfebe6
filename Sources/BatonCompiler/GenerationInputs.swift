import BatonCodegen
import BatonCodegenKotlin
import BatonConfig
import BatonDeclarations
import BatonFiles
import BatonIR

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hashes of what a project's generated code is made from, taken before anything is parsed:
/// what `GenerationManifest` compares with the last run's. See `GenerationManifest` for what
/// each part covers.
package struct GenerationInputs: Sendable, Equatable {
    /// The digest of the project-wide inputs (Baton's build, working directory, baton.json, schema, options).
    package var project: String
    /// Each document's SHA-256 (hexadecimal), by display path (the path the plan's locations carry).
    package var documents: [String: String]
    /// The stamp each document had before it was hashed, when the file had been still for a while
    /// then (`FileStamp.isSettled`): a later run whose stamp is the same takes the hash unread.
    package var stamps: [String: FileStamp] = [:]
    /// The SHA-256 of baton.json and of each schema file, by absolute path, and the stamps of
    /// those settled when hashed: what `project` is made of, recorded so that the next run
    /// takes them unread as it does documents.
    package var projectFiles: [String: String] = [:]
    package var projectFileStamps: [String: FileStamp] = [:]

    /// The `inputs` digest of one output folder: the project's, the language's and the folder's.
    package func inputs(language: String, root: String) -> String {
        SHA256.hexDigest(project + "\u{0}" + language + "\u{0}" + root)
    }

    /// The inputs of `project` (the file lists a compilation will have); nil when they cannot all
    /// be read, when editor buffers stand in for files, or when Baton's own build cannot be
    /// identified: such a run is a full one and records no manifest.
    ///
    /// baton.json and the schema files are hashed whole, each its recorded hash when its stamp
    /// is the recorded one. A document's hash is, in order: `known`'s (a watch session's documents it has not read
    /// again since it hashed them, with their stamps, taken as given); `recorded`'s when the file's
    /// stamp is the one recorded beside it (the last manifest's: not read); else the file read and
    /// hashed, its stamp taken first. Hashes and stamps are always taken before the documents
    /// they describe are read, so a file edited in between is found changed by the next run.
    package static func read(
        project: ProjectInput, workingDirectory: String, kotlinRuntime: Bool, options: [String],
        known: GenerationInputs? = nil, recorded: GenerationManifest? = nil, now: Int64 = Int64(time(nil))
    ) -> GenerationInputs? {
        guard project.overlays.isEmpty, let configuration = project.configuration, let tool = toolIdentity else {
            return nil
        }
        var digest = SHA256()
        func add(_ text: String) {
            digest.update(Array(text.utf8))
            digest.update([0])
        }
        var projectFiles: [String: String] = [:]
        var projectFileStamps: [String: FileStamp] = [:]
        func addFile(_ path: String) -> Bool {
            guard
                let (hash, stamp) = hash(
                    path, recorded: recorded?.projectFiles[path], recordedStamp: recorded?.projectFileStamps[path],
                    now: now)
            else { return false }
            projectFiles[path] = hash
            projectFileStamps[path] = stamp
            add(path)
            add(hash)
            return true
        }
        add(tool)
        add(workingDirectory)
        // The Kotlin runtime is read from files beside `baton` or in its source tree (`KotlinRuntimeFiles`),
        // which can change while the executable does not.
        if kotlinRuntime {
            add("kotlin-runtime")
            add(kotlinRuntimeDigest)
        }
        for option in options { add(option) }
        guard addFile(configuration.path) else { return nil }
        add("schema")
        for path in project.schemaFiles {
            guard addFile(path) else { return nil }
        }
        var documents: [String: String] = [:]
        var stamps: [String: FileStamp] = [:]
        for path in project.documentFiles {
            let display = Path.display(path, from: workingDirectory)
            if let hash = known?.documents[display] {
                documents[display] = hash
                stamps[display] = known?.stamps[display]
                continue
            }
            guard
                let (hash, stamp) = hash(
                    path, recorded: recorded?.documents[display], recordedStamp: recorded?.documentStamps[display],
                    now: now)
            else { return nil }
            documents[display] = hash
            stamps[display] = stamp
        }
        return GenerationInputs(
            project: SHA256.hex(digest.finalize()), documents: documents, stamps: stamps, projectFiles: projectFiles,
            projectFileStamps: projectFileStamps)
    }

    /// The Kotlin runtime's files (names and texts), hashed once per process: they are found and read once
    /// (`KotlinRuntimeFiles.found`), and hashing their text on every run was most of a debug build's incremental run.
    private static let kotlinRuntimeDigest: String = {
        var digest = SHA256()
        for source in KotlinRuntime.sources {
            for text in [source.name, source.text] {
                digest.update(Array(text.utf8))
                digest.update([0])
            }
        }
        return SHA256.hex(digest.finalize())
    }()

    /// The hash of the file at `path`, its stamp taken first: the recorded hash when the stamp is
    /// the recorded one, else the bytes read and hashed; with the stamp when the next run may trust
    /// it (it was the recorded one, or the file had been still for a while: `FileStamp.isSettled`).
    /// Nil when the file cannot be read.
    private static func hash(_ path: String, recorded: String?, recordedStamp: FileStamp?, now: Int64)
        -> (hash: String, stamp: FileStamp?)?
    {
        let stamp = FileStamp(of: path)
        if let stamp, let recorded, recordedStamp == stamp { return (recorded, stamp) }
        guard case .success(let bytes) = FileSystem.readFile(path) else { return nil }
        return (SHA256.hex(SHA256.hash(bytes)), stamp.flatMap { $0.isSettled(before: now) ? $0 : nil })
    }

    /// This executable's path, size, modification time and inode: a rebuilt Baton is another
    /// Baton (its version string alone would not say so during development).
    static let toolIdentity: String? = {
        guard let path = FileSystem.executablePath, let stamp = FileStamp(of: path) else { return nil }
        return path + " " + stamp.text
    }()
}

/// What the manifest records of a plan: its top-level names, and each definition's digest.
package enum PlanDigests {
    /// The digest of every top-level name of `model` (definitions and schema types with their
    /// generated names, in the model's order, and the namespace).
    package static func names(_ model: LensModel) -> String {
        // The text written into one buffer (a large plan has tens of thousands of names).
        var text: [UInt8] = []
        text.reserveCapacity(64 * (model.operations.count + model.fragments.count + (model.block?.count ?? 0)) + 64)
        func line(_ kind: String, _ fields: String...) {
            text.append(contentsOf: kind.utf8)
            for field in fields {
                text.append(UInt8(ascii: " "))
                text.append(contentsOf: field.utf8)
            }
            text.append(0x0A)
        }
        line("ns", model.schemaNamespace ?? "")
        // A block's definitions (`LensModel.block`) in the model's order, with their recorded names.
        let block = model.block ?? SummaryBlock(outside: [], recordedPlanned: [])
        SummaryBlock.merge(model.operations, name: \.name, block.operations) { index in
            line("o", model.operations[index].name, model.operations[index].typeName)
        } block: { index in
            line("o", block.operations[index].name, SummaryBlock.typeName(block.operations[index]))
        }
        SummaryBlock.merge(model.fragments, name: \.name, block.fragments) { index in
            let fragment = model.fragments[index]
            line("f", fragment.name, fragment.typeName, fragment.spreadAccessorName)
        } block: { index in
            let name = block.fragments[index].name
            line(
                "f", name, SummaryBlock.typeName(block.fragments[index]),
                LensNaming.spreadAccessorName(fragment: name))
        }
        for item in model.types.enums { line("e", item.name, item.typeName) }
        for item in model.types.inputObjects { line("i", item.name, item.typeName) }
        for item in model.types.customScalars { line("s", item.name, item.typeName) }
        return SHA256.hex(SHA256.hash(text))
    }

    /// Each definition's digest, by `GeneratedFile.definition` key: the hashes of the documents it
    /// is built from (its own, and those of every fragment it spreads, directly or not, or
    /// refetches); for a fragment also what other documents decide of its file: whether a
    /// mutation spreads it (it then declares an optimistic-response builder) and the text
    /// operations send it as (`DocumentParts`: the constant its type declares, present when the
    /// operations that use it agree on it). A definition whose document has no hash gets none (it
    /// is never kept). A summarized definition (`LensModel.summarized`) is not listed: its digest is
    /// the recorded one (its documents, and those of every definition that spreads it or that it
    /// spreads, are the ones it was recorded with), which the caller takes from the last manifest
    /// (`Compilation.definitionDigest`), so an edit costs no entry per definition it does not reach.
    /// `undigested` lists the keys of the planned definitions that get none.
    package static func definitions(_ model: LensModel, documents: [String: String]) -> (
        digests: [String: String], undigested: Set<String>
    ) {
        var fragmentFile: [String: String] = [:]
        var spreads: [String: [String]] = [:]
        // Summarized fragments take their recorded digests and are spread by no definition planned here.
        let planned = model.planned
        for fragment in planned.fragments {
            fragmentFile[fragment.name] = fragment.location.file.path
            spreads[fragment.name] = fragment.fragmentsSpread
        }
        // Every fragment a fragment reaches, itself included (a walk per fragment; cycles are
        // impossible in a valid document, and the visited set guards anyway).
        func closure(_ names: [String]) -> Set<String> {
            var seen: Set<String> = []
            var stack = names
            while let name = stack.popLast() {
                guard seen.insert(name).inserted else { continue }
                stack += spreads[name] ?? []
            }
            return seen
        }
        func digest(_ ownFile: String, _ fragments: Set<String>) -> String? {
            var files: Set<String> = [ownFile]
            for name in fragments {
                guard let file = fragmentFile[name] else { return nil }
                files.insert(file)
            }
            var text = ""
            for file in files.sorted() {
                guard let hash = documents[file] else { return nil }
                text += hash + "\t" + file + "\n"
            }
            return SHA256.hexDigest(text)
        }
        let texts = DocumentParts(model: model).fragmentTexts
        var result: [String: String] = [:]
        var undigested: Set<String> = []
        for fragment in planned.fragments {
            let key = fragment.definitionKey
            guard let files = digest(fragment.location.file.path, closure([fragment.name])) else {
                undigested.insert(key)
                continue
            }
            let optimistic = fragment.lens.optimisticTypeName == nil ? "-" : "optimistic"
            let text = texts[fragment.name].map(SHA256.hexDigest) ?? "-"
            result[key] = SHA256.hexDigest(files + "\n" + optimistic + "\n" + text)
        }
        for operation in planned.operations {
            let key = operation.definitionKey
            var used = operation.fragmentsUsed
            if let refetched = operation.refetchableFragment { used.append(refetched) }
            result[key] = digest(operation.location.file.path, closure(used))
            if result[key] == nil { undigested.insert(key) }
        }
        return (result, undigested)
    }
}
