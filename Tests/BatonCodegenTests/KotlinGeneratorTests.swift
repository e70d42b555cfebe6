import BatonCodegen
import BatonCodegenKotlin
import BatonIR
import XCTest

/// The Kotlin generator without kotlinc: optionality as the model (and so the plates) says, deterministic
/// output, headers, escaping, and the shapes of enums, inputs and operations.
final class KotlinGeneratorTests: XCTestCase {
    func models() throws -> [(name: String, model: LensModel, packageName: String)] {
        try ["RickAndMorty", "GitHub"].map { name in
            let project = try KotlinProjectSupport.example(name)
            return (name, project.model, project.packageName)
        } + [("hostile", try KotlinHostileSchema.model(), KotlinHostileSchema.packageName)]
    }

    /// Every accessor's Kotlin property is nullable exactly where the model says the accessor is optional (a
    /// `@catch` accessor reads `FieldResult`, whose success type carries the value's optionality), and each list
    /// level's items are nullable exactly where the model's level is optional.
    func testOptionalityIsTheModels() throws {
        for (name, model, packageName) in try models() {
            let files = KotlinGenerator.generate(
                model, options: KotlinGeneratorOptions(packageName: packageName, includeRuntime: false))
            var checked = 0
            for definition in model.operations.map({ ($0.name, $0.lens) }) + model.fragments.map({ ($0.name, $0.lens) })
            {
                let text = try XCTUnwrap(
                    files.first {
                        $0.contents.contains("const val OPERATION_NAME: String = \"\(definition.0)\"")
                            || $0.contents.contains("const val FRAGMENT_NAME: String = \"\(definition.0)\"")
                    }?.contents, "\(name): \(definition.0)")
                // Properties appear as the lens tree is walked: a lens's accessors, then its nested lenses.
                var declarations = text.split(separator: "\n").compactMap { line -> (name: String, type: String)? in
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    guard trimmed.hasPrefix("val "), let colon = trimmed.firstRange(of: ": "),
                        let getter = trimmed.firstRange(of: " get() = ")
                    else { return nil }
                    let name = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)..<colon.lowerBound]
                    return (String(name), String(trimmed[colon.upperBound..<getter.lowerBound]))
                }
                declarations.removeAll {
                    [
                        "SELECTIONS", "operationName", "operationType", "document", "operationId", "onError",
                        "rootTypename", "selections", "throwOnFieldError",
                    ].contains($0.name)
                }
                var index = 0
                func walk(_ lens: Lens) {
                    for accessor in lens.accessors {
                        guard index < declarations.count else {
                            XCTFail("\(name): \(definition.0): no property for \(accessor.name)")
                            return
                        }
                        let type = declarations[index].type
                        index += 1
                        checked += 1
                        let label = "\(name): \(definition.0).\(accessor.name): \(type)"
                        var value = type
                        if accessor.catchMode == .result {
                            XCTAssertTrue(type.hasPrefix("FieldResult<") && type.hasSuffix(">"), label)
                            value = String(type.dropFirst("FieldResult<".count).dropLast())
                            XCTAssertEqual(value.hasSuffix("?"), accessor.levels[0].isOptional, label)
                        } else {
                            XCTAssertEqual(type.hasSuffix("?"), accessor.isOptional, label)
                        }
                        // Each list level: `List<item>` with `?` on the item exactly where the model's level is optional.
                        var rest = Substring(value.hasSuffix("?") ? String(value.dropLast()) : value)
                        for level in accessor.levels.dropFirst() {
                            XCTAssertTrue(rest.hasPrefix("List<") && rest.hasSuffix(">"), label)
                            rest = rest.dropFirst(5).dropLast()
                            XCTAssertEqual(rest.hasSuffix("?"), level.isOptional, label)
                            if rest.hasSuffix("?") { rest = rest.dropLast() }
                        }
                    }
                    // A connection's lens then reads its ConnectionId, through the member the plan names.
                    if let member = lens.connectionIDName {
                        let found = index < declarations.count ? declarations[index] : nil
                        XCTAssertEqual(found?.name, member, "\(name): \(definition.0): the connection ID member")
                        XCTAssertEqual(found?.type, "ConnectionId", "\(name): \(definition.0).\(member)")
                        index += 1
                    }
                    for accessor in lens.accessors { if let nested = accessor.lens { walk(nested) } }
                }
                walk(definition.1)
                XCTAssertEqual(index, declarations.count, "\(name): \(definition.0): properties left over")
            }
            XCTAssertGreaterThan(checked, 5, name)
        }
    }

    func testOutputIsDeterministicAndHeaderMarked() throws {
        for (name, model, packageName) in try models() {
            let options = KotlinGeneratorOptions(packageName: packageName)
            let first = KotlinGenerator.generate(model, options: options)
            XCTAssertEqual(first, KotlinGenerator.generate(model, options: options), name)
            XCTAssertEqual(first.map(\.path), first.map(\.path).sorted(), name)
            for file in first {
                XCTAssertTrue(file.contents.hasPrefix(FileWriter.header + "\n\n"), file.path)
                XCTAssertTrue(file.path.hasSuffix(".kt"), file.path)
            }
            XCTAssertEqual(first.filter { $0.path.hasPrefix("baton/runtime/") }.count, KotlinRuntime.sources.count)
        }
    }

    func testHostileNamesAreEscapedAndDistinct() throws {
        let files = KotlinGenerator.generate(
            try KotlinHostileSchema.model(),
            options: KotlinGeneratorOptions(packageName: KotlinHostileSchema.packageName, includeRuntime: false))
        let paths = files.map(\.path)
        // Types named like the runtime's (every type its files declare, `Json` too) are renamed, and so is `Data`,
        // which Swift's lenses nest (the plan's names are every language's); names differing only in case get
        // distinct files.
        XCTAssertEqual(
            paths,
            [
                "Data_.kt", "DateTime.kt", "Field_.kt", "In.kt", "Json_.kt", "Long.kt", "Many.kt", "Optional_.kt",
                "Search.kt", "State.kt", "Update.kt", "data__.kt", "object.kt", "state_.kt",
            ])
        let enumeration = try XCTUnwrap(files.first { $0.path == "Optional_.kt" }?.contents)
        XCTAssertTrue(enumeration.contains("package hostile.`in`.`is`"))
        XCTAssertTrue(enumeration.contains("sealed class Optional_(override val rawValue: String) : EnumValue {"))
        XCTAssertTrue(enumeration.contains("    object `when` : Optional_(\"when\")"))
        XCTAssertTrue(enumeration.contains("    object Undeclared_ : Optional_(\"Undeclared\")"))
        XCTAssertTrue(enumeration.contains("    object Companion_ : Optional_(\"Companion\")"))
        XCTAssertTrue(enumeration.contains("    data class Undeclared(val scalarText: String) : Optional_(scalarText)"))
        XCTAssertTrue(enumeration.contains(#"    @Deprecated("*/ gone \$x \"quoted\" \\ backslash")"#))
        XCTAssertTrue(enumeration.contains(" * *&#47; an enum named like the runtime's Optional"))
        XCTAssertFalse(enumeration.contains("/*  */"))
        let input = try XCTUnwrap(files.first { $0.path == "In.kt" }?.contents)
        XCTAssertTrue(input.contains("    val `is`: Int,"))
        XCTAssertTrue(input.contains("    val `in`: Optional<String?> = Optional.Absent,"))
        XCTAssertTrue(
            input.contains("    @get:JvmName(\"getClass_\") val `class`: Optional<String?> = Optional.Absent,"))
        let oneOf = try XCTUnwrap(files.first { $0.path == "Search.kt" }?.contents)
        XCTAssertTrue(oneOf.contains("sealed class Search : InputObject {"))
        XCTAssertTrue(oneOf.contains("    class ByAt(val byAt: DateTime) : Search() {"))
        let operation = try XCTUnwrap(files.first { $0.path == "Data_.kt" }?.contents)
        XCTAssertTrue(operation.contains("    val document_: Optional<String?> = Optional.Absent,"))
        XCTAssertTrue(operation.contains(#"const val DOCUMENT: String = "query Data(\$document: String"#))
        // A document over one JVM constant: `JVMStringConstant`'s pieces, the first cut at its line end, the second
        // between characters just before a three-byte `€` (the whole read back equal in `KotlinHostileSchemaTests`).
        let long = try XCTUnwrap(files.first { $0.path == "Long.kt" }?.contents)
        let appends = long.split(separator: "\n").filter { $0.contains(".append(") }
        XCTAssertTrue(long.contains("val DOCUMENT: String = StringBuilder()\n"))
        XCTAssertEqual(appends.count, 3)
        XCTAssertEqual(appends.first?.trimmingCharacters(in: .whitespaces), #".append("query Long {\n  echo(\n")"#)
        XCTAssertEqual(appends.dropFirst().first?.hasSuffix(#"\\x")"#), true)
        XCTAssertEqual(appends.last?.trimmingCharacters(in: .whitespaces).hasPrefix(#".append("€\$\\\\x€"#), true)
        for file in files {
            // Block comments never end early: every `*/` a description holds was broken.
            for line in file.contents.split(separator: "\n") where line.contains("*/") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                XCTAssertTrue(
                    trimmed == "*/" || trimmed.hasSuffix(" */") || trimmed.contains("\""), "\(file.path): \(line)")
            }
        }
    }

    /// A fragment selecting `self` and `Self` (issue 28): the lens class and its optimistic builder give the two
    /// properties distinct JVM getters alike, and a field named `Companion` does not clash with a lens class's
    /// companion object. `Self` is a key field of `self` (the fixture's `keyFields`), so the builder requires it: no
    /// default. kotlinc compiles the fixture in the shared builds (1.3 and current).
    func testCaseTwinsAndCompanionInLensesAndOptimisticBuilders() throws {
        let files = try KotlinBuild.fixtureKotlin("hostile-names")
        let fragment = try XCTUnwrap(files.first { $0.path == "self__.kt" }?.contents)
        let lens = try XCTUnwrap(fragment.range(of: "class self__ internal constructor"))
        let builder = try XCTUnwrap(fragment.range(of: "    class Optimistic("))
        let lensPart = fragment[lens.upperBound..<builder.lowerBound]
        let builderPart = fragment[builder.upperBound...]
        XCTAssertTrue(
            lensPart.contains("    @get:JvmName(\"getSelf_\")\n    val Self: String? get()"), String(lensPart))
        XCTAssertTrue(builderPart.contains("        val self: String? = null,"), String(builderPart))
        XCTAssertTrue(
            builderPart.contains("        @get:JvmName(\"getSelf_\") val Self: String?,"), String(builderPart))
        XCTAssertTrue(lensPart.contains("    val Companion_: String? get()"), String(lensPart))
        XCTAssertFalse(fragment.contains("val Companion:"))
    }

    /// Each optimistic builder's `responseObject()` is one `ResponseObjects.of` call (issue 34: no body of map
    /// writes, `map` lambdas or merges for kotlinc to analyse per builder), in every model: the record type, then a
    /// key and a value per member, `?key` for a selection under `@include`/`@skip`, `...` for a spread.
    func testOptimisticBuildersAreOneRuntimeCall() throws {
        var keys: Set<String> = []
        for (name, model, packageName) in try models() {
            let files = KotlinGenerator.generate(
                model, options: KotlinGeneratorOptions(packageName: packageName, includeRuntime: false))
            for file in files {
                let builders = file.contents.components(separatedBy: " : OptimisticResponse {").count - 1
                let calls =
                    file.contents.components(
                        separatedBy: "override fun responseObject(): Map<String, Any?> = ResponseObjects.of("
                    ).count - 1
                XCTAssertEqual(builders, calls, "\(name) \(file.path)")
                XCTAssertFalse(file.contents.contains("LinkedHashMap"), "\(name) \(file.path)")
                XCTAssertFalse(file.contents.contains("ResponseObjects.merge"), "\(name) \(file.path)")
                for line in file.contents.split(separator: "\n") {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed.hasPrefix("\"?") { keys.insert("?") }
                    if trimmed.hasPrefix("\"...\", ") { keys.insert("...") }
                }
            }
        }
        XCTAssertEqual(keys, ["?", "..."], "the models hold a left-out selection and a spread in a builder")
    }

    /// Every lens class extends the runtime's `PlanTable.Lens` over its file's plan, which holds the reader and
    /// declares `equals` and `hashCode` once (issue 34: fewer declarations for kotlinc to analyse), except one with a
    /// member named `reader` (the hostile schema's `class` lens): that keeps a reader of another name and writes its
    /// own equality.
    func testLensesInheritReaderAndEqualityUnlessAMemberIsNamedReader() throws {
        for (name, model, packageName) in try models() {
            let files = KotlinGenerator.generate(
                model, options: KotlinGeneratorOptions(packageName: packageName, includeRuntime: false))
            var inheriting = 0
            var own = 0
            for file in files {
                let lines = file.contents.split(separator: "\n")
                for line in lines where line.contains(" internal constructor(") && line.contains("RecordReader") {
                    if line.contains(" internal constructor(reader: RecordReader) : PlanTable.Lens(reader, Plan"),
                        line.hasSuffix(") {")
                    {
                        inheriting += 1
                    } else {
                        XCTAssertTrue(line.contains("(private val reader_: RecordReader) {"), "\(file.path): \(line)")
                        own += 1
                    }
                }
                // Equality is written out only where the reader is the class's own.
                let equals = lines.filter { $0.contains("override fun equals(other: Any?): Boolean = other is") }
                let ownReaders = lines.filter { $0.contains("(private val reader_: RecordReader) {") }
                XCTAssertEqual(equals.count, ownReaders.count, "\(name) \(file.path)")
            }
            XCTAssertGreaterThan(inheriting, 0, name)
            XCTAssertEqual(own > 0, name == "hostile", name)
        }
    }

    /// A plain or spread getter is one call of its lens's `PlanTable.Lens` base by line number (issue 34: kotlinc
    /// resolves one call, not three): a built-in scalar through its typed reader (`string(3)`, `intOrNull(4)`),
    /// anything else with its type spelt (`readNonNull<List<Item>>(5)`, `fragment<Money>(6)`), so nothing is inferred.
    /// Only a lens with its own reader (a member named `reader`) reads through `Plan`.
    func testGettersAreOneCallOfTheLensBase() throws {
        let typed = ["String": "string", "Int": "int", "Double": "double", "Boolean": "boolean"]
        let generic = ["read", "readNonNull", "fragment", "fragmentNonNull", "inlineFragment", "inlineFragmentNonNull"]
        for (name, model, packageName) in try models() {
            let files = KotlinGenerator.generate(
                model, options: KotlinGeneratorOptions(packageName: packageName, includeRuntime: false))
            var scalars = 0
            var others = 0
            var throughPlan = 0
            for file in files {
                for line in file.contents.split(separator: "\n") {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    guard trimmed.hasPrefix("val "), let getter = trimmed.range(of: " get() = "),
                        let colon = trimmed.range(of: ": ")
                    else { continue }
                    let type = String(trimmed[colon.upperBound..<getter.lowerBound])
                    let body = String(trimmed[getter.upperBound...])
                    let optional = type.hasSuffix("?")
                    let value = optional ? String(type.dropLast()) : type
                    if body.hasPrefix("Plan") && !body.hasPrefix("Plan.roots") && !body.contains(".field<")
                        && !body.contains(".spread<") && !body.contains(".inline<")
                    {
                        XCTAssertTrue(body.contains("(reader_, "), "\(name) \(file.path): \(trimmed)")
                        throughPlan += 1
                        continue
                    }
                    guard let open = body.firstIndex(where: { $0 == "<" || $0 == "(" }) else { continue }
                    let call = String(body[..<open])
                    if let reader = typed[value], body.hasSuffix(")"), !body.contains(".") {
                        XCTAssertEqual(call, reader + (optional ? "OrNull" : ""), "\(name) \(file.path): \(trimmed)")
                        XCTAssertFalse(body.contains("<"), "\(name) \(file.path): \(trimmed)")
                        scalars += 1
                    } else if generic.contains(call) {
                        XCTAssertTrue(body.hasPrefix(call + "<" + value + ">("), "\(name) \(file.path): \(trimmed)")
                        XCTAssertNil(typed[value], "a built-in scalar reads through its typed reader: \(trimmed)")
                        let nullable = ["read", "fragment", "inlineFragment"].contains(call)
                        XCTAssertEqual(nullable, optional, "\(name) \(file.path): \(trimmed)")
                        others += 1
                    }
                }
            }
            XCTAssertGreaterThan(scalars, 0, name)
            XCTAssertGreaterThan(others, 0, name)
            XCTAssertEqual(throughPlan > 0, name == "hostile", name)
        }
    }

    func testOperationCarriesItsIdentityAndPolicy() throws {
        let project = try KotlinProjectSupport.example("RickAndMorty")
        let files = KotlinGenerator.generate(
            project.model, options: KotlinGeneratorOptions(packageName: project.packageName))
        let profile = try XCTUnwrap(files.first { $0.path == "TestProfileQuery.kt" }?.contents)
        let operation = try XCTUnwrap(project.model.operation(named: "TestProfileQuery"))
        XCTAssertTrue(
            profile.contains("const val OPERATION_ID: String = \"\(SHA256.hexDigest(operation.documentText))\""))
        // Name, kind, document, id, root type and plan, then `onError` from baton.json: the runtime base's arguments.
        XCTAssertTrue(
            profile.contains(
                "class TestProfileQuery(\n    val id: String\n) : PlanTable.Operation<TestProfileQuery.Data>("
                    + "OPERATION_NAME, \"query\", DOCUMENT, OPERATION_ID, \"Query\", Plan, \"PROPAGATE\") {"), profile)
        XCTAssertFalse(profile.contains("override val onError"))
    }

    func testPackageNames() {
        XCTAssertNil(KotlinGenerator.packageNameProblem("com.example.app"))
        XCTAssertNil(KotlinGenerator.packageNameProblem("hostile.in.is"))
        for bad in ["", "com..app", "1com", "com.ex-ample", "com.", "_", "com.é"] {
            XCTAssertNotNil(KotlinGenerator.packageNameProblem(bad), bad)
        }
    }
}

/// The hostile schema's generated Kotlin compiles with the runtime (in the shared kotlinc batch) and behaves.
final class KotlinHostileSchemaTests: XCTestCase {
    func testHostileSchemaCompilesAndReads() throws {
        let build = try KotlinBuild.shared()
        let output = try KotlinTestSupport.runMain("check.hostile.HostileKt", classes: build.classes, in: build.folder)
        XCTAssertEqual(output, Self.expected)
    }

    static let expected = #"""
        variables: {"document":null,"data":"1","in":{"is":2,"default":"when","nested":null,"at":"2020-01-02T03:04:05Z","ats":["2021-01-01T00:00:00Z"],"class":"c"},"search":{"byName":"x"},"flag":true}
        update: {"input":{"is":1}}
        optimistic: {"__typename":"Mutation","update":{"__typename":"class","val":"o","var":4,"at":"2020-01-02T03:04:05Z","fun":{"__typename":"fun","is":true}}}
        optimistic, left out: {"__typename":"Mutation","update":{"__typename":"class","val":null,"ats":["2021-01-01T00:00:00Z"]}}
        oneOf: {"byAt":"2020-01-02T03:04:05Z"}
        operation id is the SHA-256 of the document: true
        long document: 50036 characters, id matches: true
        document keeps $ and quotes: true
        changed: 37
        class: v, 3, r, p, true, 1, t, e, c, 1, 2, u, 1.5, true, false
        spread object: v 3
        object @catch: [ab]
        when: asClass=null asFun.is=true __typename=fun
        enum: Undeclared(scalarText=NEW_VALUE) / A / ON / off
        url: u1 Url (skipped): null URL: u3
        semanticNonNull: s [a, b] blank: u1 either: u3
        at: 2020-01-02T03:04:05Z json: {"k":[1,2]} matrix: [[1, 2], null] search: [s] echo: e
        log: []
        enum round trip: true Undeclared Undeclared(scalarText=brand-new) 12 true
        large enum: true true true EnumValue Undeclared(scalarText=brand-new) 37
        defaults: {} {"show":true,"limit":3}
        changed: [Query.class, Query.class.val, Query.page({"limit":3}), Query.url]
        data: url=x page=p3 required.val=v
        data: required field required.val is null

        """#
}
