import BatonCodegen
import BatonCodegenKotlin
import BatonConfig
import BatonDeclarations
import BatonDiagnostics
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
    package var documents: [String: String] {
        // `listed` says what the documents were: not what they are after a change (a watch session's `known`).
        didSet { if !listed.isEmpty { listed = [] } }
    }
    /// The stamp each document had before it was hashed, when the file had been still for a while
    /// then (`FileStamp.isSettled`): a later run whose stamp is the same takes the hash unread.
    package var stamps: [String: FileStamp] = [:] {
        didSet { if !listed.isEmpty { listed = [] } }
    }
    /// The SHA-256 of baton.json and of each schema file, by absolute path, and the stamps of
    /// those settled when hashed: what `project` is made of, recorded so that the next run
    /// takes them unread as it does documents.
    package var projectFiles: [String: String] = [:]
    package var projectFileStamps: [String: FileStamp] = [:]
    /// The documents as `read` listed them (the project's order, sorted), each with what `documents` and `stamps`
    /// hold for it: walked beside a manifest's document lines, in the same order most often, instead of looking
    /// each up by path (`GenerationManifest.documentChanges`, `bytes(reusing:)`). Empty when it is not that list:
    /// inputs made otherwise, or `documents` or `stamps` changed since (a watch session's `known` drops some).
    package var listed: [ListedDocument] = []

    /// One document of `listed`: its display path, hash and stamp.
    package struct ListedDocument: Sendable, Equatable {
        package var path: String
        package var hash: String
        package var stamp: FileStamp?
    }

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
        known: GenerationInputs? = nil, recorded: GenerationManifest? = nil, now: Int64 = Int64(time(nil)),
        workers: Int = 1
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
        // Each document's hash (and stamp) on up to `workers` threads, the documents of a folder looked up relative
        // to it (`FileSystem.StatusReader`).
        let paths = project.documentFiles
        let hashed = ParallelWork.ranges(count: paths.count, workers: workers, minimumItems: 512) { range in
            let reader = FileSystem.StatusReader()
            return range.map { index -> (display: String, hash: String, stamp: FileStamp?)? in
                let display = Path.display(paths[index], from: workingDirectory)
                if let hash = known?.documents[display] { return (display, hash, known?.stamps[display]) }
                let last = recorded?.recordedDocument(display, at: index)
                guard
                    let (hash, stamp) = hash(
                        paths[index], recorded: last?.hash, recordedStamp: last?.stamp, now: now, reader: reader)
                else { return nil }
                return (display, hash, stamp)
            }
        }
        var documents: [String: String] = [:]
        var stamps: [String: FileStamp] = [:]
        var listed: [ListedDocument] = []
        documents.reserveCapacity(hashed.count)
        stamps.reserveCapacity(hashed.count)
        listed.reserveCapacity(hashed.count)
        for document in hashed {
            guard let (display, hash, stamp) = document else { return nil }
            documents[display] = hash
            stamps[display] = stamp
            listed.append(ListedDocument(path: display, hash: hash, stamp: stamp))
        }
        // Two files with one display path (not a list of distinct documents): no list.
        if listed.count != documents.count { listed = [] }
        return GenerationInputs(
            project: SHA256.hex(digest.finalize()), documents: documents, stamps: stamps, projectFiles: projectFiles,
            projectFileStamps: projectFileStamps, listed: listed)
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
    private static func hash(
        _ path: String, recorded: String?, recordedStamp: FileStamp?, now: Int64,
        reader: FileSystem.StatusReader = FileSystem.StatusReader()
    ) -> (hash: String, stamp: FileStamp?)? {
        let stamp = FileStamp(of: path, reader: reader)
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
        let block = model.block ?? .empty
        let lines = block.lines
        SummaryBlock.merge(model.operations, name: \.name, block.operations, in: lines) { index in
            line("o", model.operations[index].name, model.operations[index].typeName)
        } block: { index in
            let (name, typeName) = lines.names(at: block.operations[index])
            line("o", name, typeName)
        }
        SummaryBlock.merge(model.fragments, name: \.name, block.fragments, in: lines) { index in
            let fragment = model.fragments[index]
            line("f", fragment.name, fragment.typeName, fragment.spreadAccessorName)
        } block: { index in
            let (name, typeName) = lines.names(at: block.fragments[index])
            line("f", name, typeName, LensNaming.spreadAccessorName(fragment: name))
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
    ///
    /// The definitions are digested on up to `workers` threads, in contiguous ranges of the list (fragments, then
    /// operations), each with its own copy of the closures' walk state: the same digests as one thread's.
    package static func definitions(_ model: LensModel, documents: [String: String], workers: Int = 1) -> (
        digests: [String: String], undigested: Set<String>
    ) {
        // Summarized fragments take their recorded digests and are spread by no definition planned here.
        let planned = model.planned
        // The sent texts are split on another thread while the closures are numbered (both only read the plan).
        let (texts, closures) = ParallelWork.together(workers: workers) {
            DocumentParts(model: model).fragmentTexts
        } foreground: {
            ClosureDigests(planned, documents: documents)
        }
        let fragmentCount = planned.fragments.count
        let digests = ParallelWork.ranges(
            count: fragmentCount + planned.operations.count, workers: workers, minimumItems: 256
        ) { range -> [String?] in
            var closures = closures
            return range.map { index in
                guard index >= fragmentCount else { return fragmentDigest(planned.fragments[index], &closures, texts) }
                let operation = planned.operations[index - fragmentCount]
                var used = operation.fragmentsUsed
                if let refetched = operation.refetchableFragment { used.append(refetched) }
                return closures.digest(operation.location.file.path, used)
            }
        }
        var result: [String: String] = [:]
        result.reserveCapacity(digests.count)
        var undigested: Set<String> = []
        for (index, digest) in digests.enumerated() {
            guard index >= fragmentCount else {
                let key = planned.fragments[index].definitionKey
                if let digest { result[key] = digest } else { undigested.insert(key) }
                continue
            }
            // An operation's entry is set even when nil (as one thread did: removing an earlier one of its key).
            let key = planned.operations[index - fragmentCount].definitionKey
            result[key] = digest
            if digest == nil { undigested.insert(key) }
        }
        return (result, undigested)
    }

    /// A planned fragment's digest: `files + "\n" + optimistic + "\n" + text`, fed in pieces; nil when its closure
    /// has none.
    private static func fragmentDigest(
        _ fragment: FragmentModel, _ closures: inout ClosureDigests, _ texts: [String: String]
    ) -> String? {
        guard let files = closures.digest(fragment.location.file.path, [fragment.name]) else { return nil }
        var hasher = SHA256()
        hasher.update(utf8: files)
        hasher.update(utf8: fragment.lens.optimisticTypeName == nil ? "\n-\n" : "\noptimistic\n")
        hasher.update(utf8: texts[fragment.name].map(SHA256.hexDigest) ?? "-")
        return hasher.hexFinalize()
    }
}

/// The digest of the document files a definition is built from (`PlanDigests.definitions`): its own file and that
/// of every fragment it reaches through spreads (itself included), one line `hash\tpath\n` per file in the paths'
/// order, hashed; nil when a reached fragment is not planned or a file has no hash. The fragments are numbered and
/// each file's line written once, ranked in the paths' order, so a definition's closure is a walk over numbers and
/// its text a sort of ranks and a copy of lines, not a set, sort and join of strings per definition. Definitions that
/// reach the same files share one digest, hashed once.
struct ClosureDigests {
    /// Each planned fragment's number, by name (the first of a name).
    private var numbers: [String: Int] = [:]
    /// The fragments each fragment spreads itself, by number (-1 for a fragment not planned).
    private var spreads: [[Int]] = []
    /// The rank of each fragment's file.
    private var fileRanks: [Int] = []
    /// The rank of each file of a planned definition, by path (ranks follow the paths' order).
    private var ranks: [String: Int] = [:]
    /// Each file's line by rank; nil when the file has no hash.
    private var lines: [[UInt8]?] = []
    /// The walk's marks: a fragment is reached by this walk when its mark is `walk`.
    private var marks: [Int] = []
    private var walk = 0
    /// The digest of each set of files digested so far, by their sorted ranks.
    private var digests: [[Int]: String] = [:]

    init(_ planned: (operations: [OperationModel], fragments: [FragmentModel]), documents: [String: String]) {
        var paths = Set<String>()
        for fragment in planned.fragments { paths.insert(fragment.location.file.path) }
        for operation in planned.operations { paths.insert(operation.location.file.path) }
        for (rank, path) in paths.sorted().enumerated() {
            ranks[path] = rank
            lines.append(documents[path].map { Array(($0 + "\t" + path + "\n").utf8) })
        }
        for (number, fragment) in planned.fragments.enumerated() where numbers[fragment.name] == nil {
            numbers[fragment.name] = number
        }
        for fragment in planned.fragments {
            spreads.append(fragment.fragmentsSpread.map { numbers[$0] ?? -1 })
            fileRanks.append(ranks[fragment.location.file.path] ?? -1)
        }
        marks = Array(repeating: 0, count: planned.fragments.count)
    }

    /// The digest of `ownFile` (a planned definition's) with the files of every fragment `names` reach.
    mutating func digest(_ ownFile: String, _ names: [String]) -> String? {
        guard let own = ranks[ownFile] else { return nil }
        walk += 1
        var files: [Int] = [own]
        var stack: [Int] = []
        stack.reserveCapacity(names.count)
        for name in names {
            guard let number = numbers[name] else { return nil }
            stack.append(number)
        }
        while let number = stack.popLast() {
            guard number >= 0 else { return nil }
            guard marks[number] != walk else { continue }
            marks[number] = walk
            files.append(fileRanks[number])
            stack += spreads[number]
        }
        files.sort()
        var distinct: [Int] = []
        distinct.reserveCapacity(files.count)
        for rank in files where rank != distinct.last { distinct.append(rank) }
        // Definitions that reach the same files (those of one document, most often) share the digest.
        if let known = digests[distinct] { return known }
        var hasher = SHA256()
        for rank in distinct {
            guard let line = lines[rank] else { return nil }
            hasher.update(line)
        }
        let digest = hasher.hexFinalize()
        digests[distinct] = digest
        return digest
    }
}
