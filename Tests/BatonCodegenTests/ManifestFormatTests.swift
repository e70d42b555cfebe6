import BatonIR
import BatonTestSupport
import BatonValidation
import XCTest

@testable import BatonCompiler

/// The manifest's text (`GenerationManifest.text`, read back by `ManifestReader`): what is
/// written reads back equal; anything else, a version-2 manifest, every truncation, a changed
/// byte in a number or separator, is no manifest (a full run), never a crash or a wrong value.
final class ManifestFormatTests: XCTestCase {
    static let stamp = FileStamp(
        size: 120, seconds: 1_764_000_000, nanoseconds: 123_456_789, inode: UInt64.max - 1,
        changeSeconds: -5, changeNanoseconds: 0)

    static var manifest: GenerationManifest {
        GenerationManifest(
            inputs: String(repeating: "a", count: 64), names: String(repeating: "b", count: 64),
            documents: ["Documents/A query.graphql": "h1", "Documents/B.graphql": "h2"],
            documentStamps: ["Documents/A query.graphql": stamp],
            files: [
                .init(path: "HeroA.graphql.swift", stamp: stamp, definition: "o:HeroA", digest: "d1"),
                .init(path: "Schema/Mood.swift", stamp: stamp, definition: "-", digest: "-"),
            ],
            extras: [("/tmp/project/persisted.json", stamp)],
            projectFiles: ["/tmp/project/baton.json": "c1", "/tmp/project/schema.graphql": "c2"],
            projectFileStamps: ["/tmp/project/schema.graphql": stamp])
    }

    func testWhatIsWrittenReadsBackEqual() throws {
        let text = try XCTUnwrap(Self.manifest.text)
        XCTAssertTrue(text.hasPrefix("baton-gen-manifest 5\n"))
        let read = try XCTUnwrap(GenerationManifest(text: text))
        XCTAssertEqual(read, Self.manifest)
        XCTAssertEqual(read.documentStamps["Documents/A query.graphql"], Self.stamp)
        XCTAssertNil(read.documentStamps["Documents/B.graphql"])
        XCTAssertEqual(read.projectFileStamps.keys.sorted(), ["/tmp/project/schema.graphql"])
        XCTAssertEqual(read.text, text)
    }

    func testAnythingButAWholeManifestIsNone() throws {
        let bytes = Array(try XCTUnwrap(Self.manifest.text).utf8)
        for count in 0..<bytes.count {
            XCTAssertNil(GenerationManifest(bytes: Array(bytes[..<count])), "truncated to \(count) bytes")
        }
        XCTAssertNil(GenerationManifest(bytes: bytes + Array("x\n".utf8)), "a line after end")
        // Every digit, space and tab replaced by a letter: a number or a separator broken.
        for index in bytes.indices where [UInt8(ascii: " "), UInt8(ascii: "\t")].contains(bytes[index]) {
            var edited = bytes
            edited[index] = UInt8(ascii: "x")
            // A space inside a path is part of the path; every other separator matters.
            let inPath = bytes[..<index].last { $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") }
            if inPath == UInt8(ascii: "\t") { continue }
            XCTAssertNil(GenerationManifest(bytes: edited), "separator \(index) replaced")
        }
        let version2 = try XCTUnwrap(Self.manifest.text).replacingOccurrences(
            of: "baton-gen-manifest 5", with: "baton-gen-manifest 4")
        XCTAssertNil(GenerationManifest(text: version2), "another version: a full run")
        let overflowing = try XCTUnwrap(Self.manifest.text).replacingOccurrences(
            of: " 1764000000 ", with: " 99999999999999999999 ")
        XCTAssertNil(GenerationManifest(text: overflowing), "a number that does not fit")
    }

    static var summary: PlanSummary {
        PlanSummary(documents: [
            "Documents/A query.graphql": .init(
                links: DocumentLinks(keys: ["label:a label\twith %", "name:HeroA", "name:HeroBits"]),
                definitions: [
                    DefinitionSummary(
                        kind: .query, name: "HeroA", path: "Documents/A query.graphql",
                        usedTypes: UsedTypeNames(enums: ["Mood"], inputObjects: ["HeroFilter", "Page"]),
                        operationID: String(repeating: "e", count: 64)),
                    DefinitionSummary(
                        kind: .fragment, name: "HeroBits", path: "Documents/A query.graphql",
                        usedTypes: UsedTypeNames(customScalars: ["DateTime"]), typeCondition: "Hero"),
                ]),
            "Documents/B.graphql": .init(links: DocumentLinks(keys: [], joinsAll: true)),
            "Documents/C.graphql": .init(
                links: DocumentLinks(keys: ["name:Cheer"]),
                definitions: [
                    DefinitionSummary(
                        kind: .mutation, name: "Cheer", path: "Documents/C.graphql", usedTypes: UsedTypeNames())
                ]),
        ])
    }

    func testThePlanSummaryReadsBackEqualAndOnlyWhole() throws {
        var manifest = Self.manifest
        let bytes = try XCTUnwrap(Self.summary.bytes)
        manifest.plan = bytes[...]
        let read = try XCTUnwrap(GenerationManifest(text: try XCTUnwrap(manifest.text)))
        XCTAssertEqual(read, manifest)
        XCTAssertEqual(read.planSummary, Self.summary)
        // The section is taken by its length: a manifest whose section is cut short is none.
        let text = try XCTUnwrap(manifest.text)
        XCTAssertNil(
            GenerationManifest(
                text: text.replacingOccurrences(of: "plan \(bytes.count)\n", with: "plan \(bytes.count + 1)\n")))
        XCTAssertNil(
            GenerationManifest(
                text: text.replacingOccurrences(of: "plan \(bytes.count)\n", with: "plan \(bytes.count - 1)\n")))
        // A malformed section is no summary (every document is read), never a wrong one.
        for count in 0..<bytes.count where bytes[count] == 0x0A {
            let cut = Array(bytes[...count])
            XCTAssertNotNil(PlanSummary(bytes: cut[...]), "whole lines up to \(count)")
        }
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\t") || byte == 0x0A {
            var edited = bytes
            edited[index] = UInt8(ascii: " ")
            XCTAssertNil(PlanSummary(bytes: edited[...]), "separator \(index) replaced")
        }
        XCTAssertNil(
            PlanSummary(bytes: Array("links 0\tA.graphql\ndef query X - - - -\tA.graphql\n".utf8)[...]),
            "a field missing")
        XCTAssertNil(PlanSummary(bytes: Array("links 2\tA.graphql\n".utf8)[...]))
        XCTAssertNil(PlanSummary(bytes: Array("links 0 %4\tA.graphql\n".utf8)[...]), "a broken escape")
    }

    /// A `def` line's fields are checked where they lie (`DefinitionSummary.checkedKind`) and read back
    /// (`PlanSummary.definitions(of:)`): each field as written, `-` as none, and any field `writeFields` cannot
    /// write refused.
    func testADefinitionLineIsReadFieldByField() throws {
        func read(_ line: String) -> DefinitionSummary? {
            PlanSummary(bytes: Array("links 0\tA.graphql\n\(line)\tA.graphql\n".utf8)[...])?
                .definitions(of: "A.graphql").first
        }
        XCTAssertEqual(
            read("def subscription Feed abc - Mood,Sort -  DateTime"), nil, "an empty field")
        XCTAssertEqual(
            read("def subscription Feed abc - Mood,Sort - DateTime"),
            DefinitionSummary(
                kind: .subscription, name: "Feed", path: "A.graphql",
                usedTypes: UsedTypeNames(enums: ["Mood", "Sort"], customScalars: ["DateTime"]), operationID: "abc"))
        XCTAssertEqual(
            read("def fragment Bits - Hero - Filter -"),
            DefinitionSummary(
                kind: .fragment, name: "Bits", path: "A.graphql", usedTypes: UsedTypeNames(inputObjects: ["Filter"]),
                typeCondition: "Hero"))
        // The generated name, where it is not the name (`DefinitionSummary.typeName`).
        var pushed = DefinitionSummary(
            kind: .query, name: "HeroC", path: "A.graphql", usedTypes: UsedTypeNames(), operationID: "c")
        pushed.typeName = "HeroC_"
        XCTAssertEqual(read("def query HeroC c - - - - HeroC_"), pushed)
        for bad in [
            "def querx X - - - - -", "def queryy X - - - - -", "def Query X - - - - -", "def query X,Y - - - - -",
            "def query X - - Mood,,Sort - -", "def query X - - Mood, - -", "def query X - - ,Mood - -",
            "def query X - - - - - -", "def query X - - - -", "def query X - - - - - X_,Y",
            "def query X - - - - - X_ Y",
        ] {
            XCTAssertNil(read(bad), bad)
            XCTAssertNil(PlanSummary(bytes: Array("links 0\tA.graphql\n\(bad)\tA.graphql\n".utf8)[...]), bad)
        }
    }

    /// A summary is a value: its fields are shared by its copies until one is changed
    /// (`DefinitionSummary`'s storage), and a changed copy changes neither the original nor what it equals.
    func testACopiedSummaryChangesAlone() throws {
        let original = DefinitionSummary(
            kind: .query, name: "HeroC", path: "A.graphql", usedTypes: UsedTypeNames(enums: ["Mood"]), operationID: "c")
        var copy = original
        XCTAssertEqual(copy, original)
        copy.typeName = "HeroC_"
        copy.usedTypes.enums.append("Sort")
        copy.documentText = "query HeroC { hero }"
        XCTAssertNil(original.typeName)
        XCTAssertEqual(original.usedTypes.enums, ["Mood"])
        XCTAssertEqual(original.documentText, "")
        XCTAssertNotEqual(copy, original)
        XCTAssertEqual(Set([original, copy]).count, 2)
        copy.typeName = nil
        copy.usedTypes.enums = ["Mood"]
        copy.documentText = ""
        XCTAssertEqual(copy, original, "equal field by field again")
        XCTAssertEqual(copy.hashValue, original.hashValue)
        var block = [original, original]
        block[1].name = "HeroD"
        XCTAssertEqual(block.map(\.name), ["HeroC", "HeroD"])
    }

    /// Each line's keyword is told by its first byte and compared whole with its separator (`extra` and `end`
    /// share theirs); a stamp's numbers but the inode may be negative, none may be a sign alone or below
    /// `Int64.min + 1`: anything else is no manifest.
    func testKeywordsAndSignsAreReadExactly() throws {
        let text = try XCTUnwrap(Self.manifest.text)
        for (from, to) in [
            ("\ndoc ", "\ndoc\t"), ("\ndoc ", "\ndocs "), ("\nfile ", "\nfils "), ("\ninput ", "\ninputs "),
            ("\nextra ", "\nextra\n"), ("\nextra ", "\nend "), ("\nend\n", "\nend \n"), ("\nend\n", "\nen\n"),
            ("\nend\n", "\nextra\n"), ("\nfile ", "\nxfile "),
        ] {
            XCTAssertNotEqual(text.replacingOccurrences(of: from, with: to), text, to)
            XCTAssertNil(GenerationManifest(text: text.replacingOccurrences(of: from, with: to)), to)
        }
        XCTAssertEqual(GenerationManifest(text: text), Self.manifest)
        var signed = Self.manifest
        signed.files[0].stamp.seconds = -Int64.max
        signed.files[0].stamp.nanoseconds = -1
        signed.files[0].stamp.size = 0
        let signedText = try XCTUnwrap(signed.text)
        XCTAssertEqual(GenerationManifest(text: signedText)?.files[0].stamp, signed.files[0].stamp)
        let cases: [(from: String, to: String, reason: String)] = [
            (" -9223372036854775807 ", " -9223372036854775808 ", "below Int64.min + 1"),
            (" -9223372036854775807 ", " 9223372036854775808 ", "above Int64.max"),
            (" -9223372036854775807 -1 ", " -9223372036854775807 - ", "a sign alone"),
            (" -9223372036854775807 -1 ", " -9223372036854775807 -1- ", "a sign after the digits"),
            (" -9223372036854775807 -1 ", " -9223372036854775807 --1 ", "two signs"),
        ]
        for (from, to, reason) in cases {
            let edited = signedText.replacingOccurrences(of: from, with: to)
            XCTAssertNotEqual(edited, signedText, reason)
            XCTAssertNil(GenerationManifest(text: edited), reason)
        }
        // The inode never takes a sign.
        let inode = " \(UInt64.max - 1) "
        XCTAssertTrue(signedText.contains(inode))
        XCTAssertNil(GenerationManifest(text: signedText.replacingOccurrences(of: inode, with: " -1 ")), "inode")
    }

    /// A stamp's number of 20 digits is read when it fits (an inode can be `UInt64.max`), and the
    /// manifest refused when it does not.
    func testTheLargestNumbersOfAStampAreRead() throws {
        var large = Self.stamp
        large.inode = UInt64.max
        var manifest = Self.manifest
        manifest.files[0].stamp = large
        let text = try XCTUnwrap(manifest.text)
        XCTAssertTrue(text.contains(" 18446744073709551615 "))
        XCTAssertEqual(GenerationManifest(text: text)?.files[0].stamp, large)
        XCTAssertNil(
            GenerationManifest(
                text: text.replacingOccurrences(of: " 18446744073709551615 ", with: " 18446744073709551616 ")),
            "one more than UInt64.max")
        XCTAssertNil(
            GenerationManifest(
                text: text.replacingOccurrences(of: " 18446744073709551615 ", with: " 184467440737095516150 ")),
            "21 digits")
    }

    func testASplicedSectionIsTheMergedSummarysSection() throws {
        var fresh = PlanSummary()
        fresh.documents["Documents/A query.graphql"] = .init(links: DocumentLinks(keys: ["name:HeroA"]))
        fresh.documents["Documents/Ab.graphql"] = .init(
            links: DocumentLinks(keys: ["name:New"]),
            definitions: [
                DefinitionSummary(kind: .query, name: "New", path: "Documents/Ab.graphql", usedTypes: UsedTypeNames())
            ])
        fresh.documents["Documents/D.graphql"] = .init()
        var merged = Self.summary
        merged.documents["Documents/C.graphql"] = nil  // gone
        for (path, document) in fresh.documents { merged.documents[path] = document }
        let spliced = PlanSummary.splice(
            try XCTUnwrap(Self.summary.bytes),
            replacing: [
                "Documents/A query.graphql", "Documents/Ab.graphql", "Documents/C.graphql", "Documents/D.graphql",
            ],
            with: try XCTUnwrap(fresh.bytes))
        XCTAssertEqual(spliced, try XCTUnwrap(merged.bytes))
    }

    /// Format 5: every `links` line, then every `def` line in the plan's order (operations of every kind by name,
    /// then fragments by name), whatever document each is in; a section with a `def` line out of that order or
    /// repeated, a `links` line after a `def` line, or a `def` line whose path holds a tab is refused (a full run
    /// follows).
    func testDefinitionLinesAreInThePlansOrderAndReadOnlySo() throws {
        let bytes = try XCTUnwrap(Self.summary.bytes)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        let definitions = lines.filter { $0.hasPrefix("def ") }
        XCTAssertEqual(
            definitions.map { $0.split(separator: " ")[1...2].joined(separator: " ") },
            ["mutation Cheer", "query HeroA", "fragment HeroBits"])
        XCTAssertEqual(lines.prefix(3).filter { $0.hasPrefix("links ") }.count, 3, "every links line first")
        XCTAssertEqual(PlanSummary(bytes: bytes[...]), Self.summary)
        func read(_ lines: [String]) -> PlanSummary? {
            PlanSummary(bytes: Array((lines.joined(separator: "\n") + "\n").utf8)[...])
        }
        XCTAssertNotNil(read(lines))
        var swapped = lines
        swapped.swapAt(3, 4)
        XCTAssertNil(read(swapped), "two operations out of order")
        swapped = lines
        swapped.swapAt(4, 5)
        XCTAssertNil(read(swapped), "a fragment before an operation")
        XCTAssertNil(read(lines + [lines[5]]), "a definition twice")
        swapped = lines
        swapped.swapAt(2, 3)
        XCTAssertNil(read(swapped), "a links line after a definition")
        XCTAssertNil(read(lines + ["def fragment Zed - T - - -\tDocuments/C.graphql\tmore"]), "a tab in a path")
        XCTAssertNotNil(read(lines + ["def fragment Zed - T - - -\tDocuments/C.graphql"]))
    }

    /// Splicing random summaries (operations and fragments whose names fall between one another's, documents
    /// replaced, gone, added) gives the section `bytes` writes for the merged summary, which reads back as it.
    func testSplicedDefinitionLinesAreMergedInThePlansOrder() throws {
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var counter = 0
        let kinds: [DefinitionSummary.Kind] = [.query, .mutation, .subscription, .fragment]
        func definitions(_ path: String) -> [DefinitionSummary] {
            (0..<next(4)).map { _ in
                counter += 1
                let letters = (0...next(3)).map { _ in "ABCab"[String.Index(utf16Offset: next(5), in: "ABCab")] }
                return DefinitionSummary(
                    kind: kinds[next(kinds.count)], name: String(letters) + "\(counter)", path: path,
                    usedTypes: UsedTypeNames(enums: next(2) == 0 ? [] : ["Mood"]))
            }
        }
        let paths = (0..<8).map { "Documents/\($0 % 3)/D\($0).graphql" }
        for round in 0..<300 {
            var whole = PlanSummary()
            for path in paths where next(4) != 0 {
                whole.documents[path] = .init(
                    links: DocumentLinks(keys: ["name:N\(next(9))"]), definitions: definitions(path))
            }
            var fresh = PlanSummary()
            var replaced: Set<String> = []
            for path in paths where next(3) == 0 {
                replaced.insert(path)
                // A replaced document comes back (or is new) with other definitions, or is gone.
                if next(3) != 0 {
                    fresh.documents[path] = .init(
                        links: DocumentLinks(keys: ["name:F"]), definitions: definitions(path))
                }
            }
            var merged = whole
            for path in replaced { merged.documents[path] = nil }
            for (path, document) in fresh.documents { merged.documents[path] = document }
            let spliced = PlanSummary.splice(
                try XCTUnwrap(whole.bytes), replacing: replaced, with: try XCTUnwrap(fresh.bytes))
            XCTAssertEqual(
                String(decoding: spliced, as: UTF8.self), String(decoding: try XCTUnwrap(merged.bytes), as: UTF8.self),
                "round \(round)")
            XCTAssertEqual(PlanSummary(bytes: spliced[...]), merged, "round \(round)")
            // A section read, its kept lines a filter of its lines (as `Compilation.readReached` finds them): the
            // same bytes, with the fresh lines put in by halving.
            let section = try XCTUnwrap(whole.bytes)
            let read = try XCTUnwrap(PlanSummary(bytes: section[...]))
            let set = PathSet(replaced)
            let kept = read.definitionLines.group(byPath: { set.contains($0) ? 1 : 0 }, count: 2)[0]
            XCTAssertEqual(
                PlanSummary.splice(
                    section[...], lines: read.definitionLines, kept: kept, replacing: replaced,
                    with: try XCTUnwrap(fresh.bytes)), spliced, "round \(round)")
        }
    }

    /// `PathSet` finds a path's bytes exactly when `Set<String>` finds the path: as bytes where both are ASCII,
    /// as `String`s otherwise (the Kelvin sign's `K`, a decomposed `é`).
    func testAPathSetFindsPathsAsStringsDo() {
        let paths = [
            "Documents/K.graphql", "Documents/\u{212A}.graphql", "Documents/\u{E9}.graphql",
            "Documents/e\u{301}.graphql",
            "Documents/a.graphql", "Documents/ab.graphql", "Documents/b.graphql", "Documents/a/long/path/x.graphql",
        ]
        let probes = paths + ["Documents/a.graphq", "Documents/c.graphql", "", "Documents/a/long/path/y.graphql"]
        for mask in 0..<(1 << paths.count) {
            let subset = Set(paths.indices.filter { mask & (1 << $0) != 0 }.map { paths[$0] })
            let set = PathSet(subset)
            for probe in probes {
                let found = Array(probe.utf8).withUnsafeBufferPointer { set.contains($0) }
                XCTAssertEqual(found, subset.contains(probe), "\(probe) in \(subset.sorted())")
            }
        }
    }

    /// Splicing, for every subset of a summary's documents replaced by fresh ones (some new, some
    /// with definitions), gives the section `bytes` writes for the merged summary.
    func testSplicingAnySubsetIsTheMergedSummarysSection() throws {
        var whole = PlanSummary()
        let paths = (0..<6).map { "Documents/\($0 % 2 == 0 ? "a" : "b")/D\($0).graphql" }
        for (index, path) in paths.enumerated() {
            whole.documents[path] = .init(
                links: DocumentLinks(keys: ["name:Q\(index)"]),
                definitions: (0..<(index % 3)).map {
                    DefinitionSummary(kind: .query, name: "Q\(index)_\($0)", path: path, usedTypes: UsedTypeNames())
                })
        }
        let section = try XCTUnwrap(whole.bytes)
        for mask in 0..<(1 << paths.count) {
            var fresh = PlanSummary()
            var replaced: Set<String> = []
            for (index, path) in paths.enumerated() where mask & (1 << index) != 0 {
                replaced.insert(path)
                // Every other replaced document is gone; the others come back with a new definition.
                guard index % 2 == 0 else { continue }
                fresh.documents[path] = .init(
                    links: DocumentLinks(keys: ["name:N\(index)"]),
                    definitions: [
                        DefinitionSummary(kind: .mutation, name: "N\(index)", path: path, usedTypes: UsedTypeNames())
                    ])
            }
            // A new document between the others.
            let added = "Documents/a/D\(mask % 6)x.graphql"
            replaced.insert(added)
            fresh.documents[added] = .init(links: DocumentLinks(keys: ["name:X"]))
            var merged = whole
            for path in replaced { merged.documents[path] = nil }
            for (path, document) in fresh.documents { merged.documents[path] = document }
            let spliced = PlanSummary.splice(section, replacing: replaced, with: try XCTUnwrap(fresh.bytes))
            XCTAssertEqual(spliced, try XCTUnwrap(merged.bytes), "mask \(mask)")
            XCTAssertEqual(PlanSummary(bytes: spliced[...]), merged, "mask \(mask)")
        }
    }

    /// Splicing compares paths as `String`s do: where they are ASCII, as bytes in place; otherwise (a replaced
    /// path equal to a section's as a `String`, the Kelvin sign's `K`, a decomposed `é`) through `String`s. A
    /// section whose documents are not in order (not one `bytes` wrote) is spliced as before too.
    func testSplicingComparesPathsAsStringsDo() throws {
        // The section's paths ASCII or not, the replaced path equal to one of them as a `String` only.
        let cases: [(paths: [String], replaced: String)] = [
            (["Documents/K.graphql", "Documents/L.graphql"], "Documents/\u{212A}.graphql"),
            (["Documents/K.graphql", "Documents/\u{E9}.graphql"], "Documents/e\u{301}.graphql"),
            (["Documents/K.graphql", "Documents/\u{E9}.graphql"], "Documents/K.graphql"),
        ]
        for (paths, replaced) in cases {
            var whole = PlanSummary()
            for (index, path) in paths.enumerated() {
                whole.documents[path] = .init(links: DocumentLinks(keys: ["name:D\(index)"]))
            }
            var merged = whole
            merged.documents[replaced] = nil
            XCTAssertEqual(merged.documents.count, 1, replaced)
            let spliced = PlanSummary.splice(try XCTUnwrap(whole.bytes), replacing: [replaced], with: [])
            XCTAssertEqual(spliced, try XCTUnwrap(merged.bytes), replaced)
        }
        let unordered = Array("links 0 name:B\tDocuments/B.graphql\nlinks 0 name:A\tDocuments/A.graphql\n".utf8)
        let fresh = Array("links 0 name:N\tDocuments/A.graphql\n".utf8)
        let spliced = PlanSummary.splice(unordered, replacing: ["Documents/A.graphql"], with: fresh)
        XCTAssertEqual(
            String(decoding: spliced, as: UTF8.self),
            "links 0 name:N\tDocuments/A.graphql\nlinks 0 name:B\tDocuments/B.graphql\n")
    }

    /// A manifest written after an edit copies its unchanged file lines from the last one read
    /// (`bytes(reusing:)`): the bytes are what `bytes` spells, whatever changed.
    func testReusingTheLastManifestsLinesWritesTheSameBytes() throws {
        var last = Self.manifest
        last.files += (0..<5).map {
            .init(path: "Sub/F\($0).swift", stamp: Self.stamp, definition: "f:F\($0)", digest: "d\($0)")
        }
        let read = try XCTUnwrap(GenerationManifest(bytes: try XCTUnwrap(last.bytes)))
        XCTAssertEqual(read, last)
        XCTAssertEqual(read.bytes(reusing: read), last.bytes)
        var next = last
        next.files[1].stamp.size += 1  // rewritten
        next.files[3].digest = "new"
        next.files.remove(at: 5)  // every later entry at another place
        next.files.append(.init(path: "Sub/G.swift", stamp: Self.stamp, definition: "o:G", digest: "g"))
        next.documents["Documents/C.graphql"] = "h3"
        XCTAssertEqual(next.bytes(reusing: read), next.bytes)
        XCTAssertEqual(GenerationManifest(bytes: try XCTUnwrap(next.bytes(reusing: read))), next)
        // A manifest made in memory has no lines to lend.
        XCTAssertEqual(next.bytes(reusing: last), next.bytes)
        // The same documents, one with another hash, one with another stamp, one unstamped now.
        var same = last
        same.documents["Documents/B.graphql"] = "h9"
        same.documentStamps["Documents/B.graphql"] = Self.stamp
        same.documentStamps["Documents/A query.graphql"] = nil
        XCTAssertEqual(same.bytes(reusing: read), same.bytes)
        XCTAssertNotEqual(same.bytes, last.bytes)
        // Another document in the place of one: the lines are written as `bytes` sorts them.
        var renamed = last
        renamed.documents["Documents/B.graphql"] = nil
        renamed.documents["Documents/0.graphql"] = "h0"
        XCTAssertEqual(renamed.bytes(reusing: read), renamed.bytes)
    }

    /// A run's documents taken by place beside the last manifest's lines (`recordedDocument`, `documentChanges`,
    /// `bytes(reusing:)` with the inputs' `listed`) are what looking each up by path gives, whatever changed: hashes,
    /// stamps, documents added, removed, renamed, listed in another order.
    func testDocumentsTakenByPlaceAreThoseLookedUpByPath() throws {
        var random = SeededGenerator(seed: 34)
        var aligned = 0
        for round in 0..<300 {
            var last = Self.manifest
            last.documents = [:]
            last.documentStamps = [:]
            for index in 0..<random.below(14) {
                let path = "Documents/\(random.pick(["", "Sub/", "a b/"]))D\(index).graphql"
                last.documents[path] = "h\(random.below(4))"
                if random.chance(70) { last.documentStamps[path] = random.chance(50) ? Self.stamp : Self.other }
            }
            let read = try XCTUnwrap(GenerationManifest(bytes: try XCTUnwrap(last.bytes)))
            var documents = read.documents
            var stamps = read.documentStamps
            for path in read.documents.keys {
                if random.chance(20) { documents[path] = "h\(random.below(4))" }
                if random.chance(20) { stamps[path] = random.chance(50) ? nil : Self.other }
                if random.chance(10) {
                    documents[path] = nil
                    stamps[path] = nil
                }
            }
            for index in 0..<random.pick([0, 0, 1, 2]) {
                let path = "Documents/\(random.pick(["", "Sub/", "Z/"]))N\(index).graphql"
                documents[path] = "n\(index)"
                if random.chance(50) { stamps[path] = Self.stamp }
            }
            var paths = documents.keys.sorted()
            if random.chance(20) { paths.shuffle(using: &random) }
            let listed = paths.map {
                GenerationInputs.ListedDocument(path: $0, hash: documents[$0] ?? "", stamp: stamps[$0])
            }
            let inputs = GenerationInputs(project: "p", documents: documents, stamps: stamps, listed: listed)
            if listed.map(\.path) == read.documentLines.map(\.path) { aligned += 1 }

            let changes = read.documentChanges(inputs)
            XCTAssertEqual(
                changes.changed, Set(documents.keys.filter { read.documents[$0] != documents[$0] }), "\(round)")
            XCTAssertEqual(changes.removed, Set(read.documents.keys.filter { documents[$0] == nil }), "\(round)")
            for (index, document) in listed.enumerated() {
                let recorded = read.recordedDocument(document.path, at: index)
                XCTAssertEqual(recorded.hash, read.documents[document.path], "\(round) \(document.path)")
                XCTAssertEqual(recorded.stamp, read.documentStamps[document.path], "\(round) \(document.path)")
            }
            var next = GenerationManifest(
                inputs: read.inputs, names: read.names, documents: documents, documentStamps: stamps, files: read.files,
                extras: read.extras, projectFiles: read.projectFiles, projectFileStamps: read.projectFileStamps)
            next.listed = listed
            XCTAssertEqual(next.bytes(reusing: read), next.bytes, "\(round)")
        }
        // Both ways were taken: by place (same paths in the same order) and by path.
        XCTAssertGreaterThan(aligned, 30)
        XCTAssertLessThan(aligned, 270)

        // A change of the dictionaries after the lists were made is what is read, by place or not.
        let read = try XCTUnwrap(GenerationManifest(bytes: try XCTUnwrap(Self.manifest.bytes)))
        let listed = read.documentLines.map {
            GenerationInputs.ListedDocument(path: $0.path, hash: $0.hash, stamp: $0.stamp)
        }
        var inputs = GenerationInputs(
            project: "p", documents: read.documents, stamps: read.documentStamps, listed: listed)
        var forged = read
        forged.documents["Documents/B.graphql"] = "forged"
        forged.documentStamps["Documents/A query.graphql"] = Self.other
        XCTAssertEqual(forged.recordedDocument("Documents/B.graphql", at: 1).hash, "forged")
        XCTAssertEqual(forged.recordedDocument("Documents/A query.graphql", at: 0).stamp, Self.other)
        XCTAssertEqual(forged.documentChanges(inputs).changed, ["Documents/B.graphql"])
        inputs.documents["Documents/A query.graphql"] = "edited"
        inputs.stamps["Documents/B.graphql"] = Self.other
        XCTAssertEqual(read.documentChanges(inputs).changed, ["Documents/A query.graphql"])
        var next = read
        next.listed = listed
        next.documentStamps["Documents/B.graphql"] = Self.other
        XCTAssertEqual(next.bytes(reusing: read), next.bytes)
    }

    static let other = FileStamp(
        size: 7, seconds: 1_765_000_000, nanoseconds: 5, inode: 42, changeSeconds: 1_765_000_001, changeNanoseconds: 9)

    /// A manifest written after an edit is written into one buffer of about the last one's size (the last manifest's
    /// lines are longer than the first estimate allows, its plan section is large and last): never outgrown, so
    /// never copied into one twice as large. The section read is a slice of the bytes read.
    func testReusingTheLastManifestWritesIntoOneBufferOfItsSize() throws {
        var last = Self.manifest
        let folder = String(repeating: "Nested/", count: 50)
        last.files += (0..<2_000).map {
            .init(path: folder + "F\($0).swift", stamp: Self.stamp, definition: "f:F\($0)", digest: "d\($0)")
        }
        // A large section, written last (as a large project's is: megabytes), taken as bytes when read.
        last.plan = (Array(repeating: UInt8(ascii: "x"), count: 400_000) + [0x0A])[...]
        let read = try XCTUnwrap(GenerationManifest(bytes: try XCTUnwrap(last.bytes)))
        // The section read is where it lies in the bytes read, not a copy of them.
        let plan = try XCTUnwrap(read.plan)
        XCTAssertEqual(plan, last.plan)
        XCTAssertGreaterThan(plan.startIndex, 0)
        XCTAssertEqual(
            plan.withUnsafeBufferPointer { $0.baseAddress },
            read.source.withUnsafeBufferPointer { $0.baseAddress.map { $0 + plan.startIndex } })
        var next = read
        next.files[7].digest = "new"
        next.documents["Documents/C.graphql"] = "h3"
        let written = try XCTUnwrap(next.bytes(reusing: read))
        XCTAssertEqual(written, next.bytes)
        XCTAssertGreaterThan(written.count, 500_000)
        XCTAssertLessThanOrEqual(written.capacity, written.count + written.count / 32, "the buffer was outgrown")
    }

    /// A manifest read from bytes keeps its `files` entries as its lines (`ManifestFiles`): each field read or
    /// compared in place is the entry's; a manifest made of the last one's lines (as `recordManifests` makes one
    /// after an edit, in any order, with values among them) writes the bytes the same values spell, and reads
    /// back equal; a line is taken only from the bytes the entries were made to share, and an entry set is spelt.
    func testFileEntriesReadInPlaceAreTheirLines() throws {
        var last = Self.manifest
        last.files += (0..<5).map {
            .init(path: "Sub/F \($0)é.swift", stamp: Self.stamp, definition: "f:F\($0)", digest: "d\($0)")
        }
        let read = try XCTUnwrap(GenerationManifest(bytes: try XCTUnwrap(last.bytes)))
        XCTAssertEqual(read.files.count, last.files.count)
        for (index, entry) in last.files.enumerated() {
            XCTAssertEqual(read.files[index], entry)
            XCTAssertEqual(read.files.definition(at: index), entry.definition)
            XCTAssertEqual(read.files.path(at: index), entry.path)
            XCTAssertEqual(read.files.digest(at: index), entry.digest)
            XCTAssertEqual(read.files.stamp(at: index), entry.stamp)
            XCTAssertTrue(read.files.path(at: index, equals: entry.path))
            XCTAssertFalse(read.files.path(at: index, equals: entry.path + "x"))
            XCTAssertFalse(read.files.path(at: index, equals: String(entry.path.dropLast())))
            XCTAssertTrue(read.files.definition(at: index, equals: entry.definition))
            XCTAssertFalse(read.files.definition(at: index, equals: entry.definition + "x"))
            XCTAssertEqual(read.files.isNoDefinition(at: index), entry.definition == "-")
            XCTAssertNotNil(read.files.line(at: index))
            XCTAssertNil(last.files.line(at: index), "made in memory: values")
        }
        var taken = ManifestFiles(sharingSourceOf: read.files)
        var values: [GenerationManifest.Entry] = []
        for index in read.files.indices.reversed() where index != 2 {
            taken.append(index, of: read.files)
            values.append(last.files[index])
        }
        let added = GenerationManifest.Entry(path: "Sub/New.swift", stamp: Self.stamp, definition: "o:New", digest: "n")
        taken.append(added)
        values.append(added)
        XCTAssertNotNil(taken.line(at: 0), "a line of the shared bytes")
        XCTAssertNil(taken.line(at: taken.count - 1), "a value")
        var copied = last
        copied.files = taken
        var spelt = last
        spelt.files = ManifestFiles(values)
        XCTAssertEqual(copied, spelt)
        let bytes = try XCTUnwrap(copied.bytes)
        XCTAssertEqual(bytes, spelt.bytes)
        XCTAssertEqual(GenerationManifest(bytes: bytes), spelt)
        // Another manifest's entries are not its lines: taken as values.
        var foreign = ManifestFiles()
        foreign.append(1, of: read.files)
        XCTAssertNil(foreign.line(at: 0))
        XCTAssertEqual(foreign[0], last.files[1])
        var set = read.files
        set[1].stamp.size += 1
        XCTAssertNil(set.line(at: 1), "set: spelt again")
        XCTAssertEqual(set[1].stamp.size, Self.stamp.size + 1)
        XCTAssertNotNil(read.files.line(at: 1), "the original unchanged")
    }
}
