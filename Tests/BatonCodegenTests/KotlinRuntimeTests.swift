import BatonCodegen
import BatonCodegenKotlin
import Foundation
import XCTest

/// Runs a program compiled with the Kotlin runtime support (in the one kotlinc batch) that exercises its read semantics
/// through a hand-written lens plan: field errors beside fields, `@catch`, `@catch(to: NULL)`, `@required`
/// (LOG, THROW, and a null reaching the root), `@throwOnFieldError`, unexpected values, conversion failures,
/// missing data, undeclared enum values, notifications per slot, and the JSON of inputs with absent fields.
final class KotlinRuntimeTests: XCTestCase {
    func testRuntimeCompilesAndReadsAsTheSwiftRuntimeDoes() throws {
        let build = try KotlinBuild.shared()
        let output = try KotlinTestSupport.runMain(
            "check.runtime.RuntimeCheckKt", classes: build.classes, in: build.folder)
        XCTAssertEqual(output, Self.expected)
    }

    /// The runtime `baton gen` writes is the repository's `.kt` files, byte for byte (after the header), in order.
    func testTheWrittenRuntimeIsTheKotlinFiles() throws {
        let onDisk = try KotlinBuild.runtimeFiles()
        let written = KotlinRuntime.files(header: FileWriter.header + "\n\n")
        XCTAssertEqual(written.map(\.path), onDisk.map(\.path))
        for (file, disk) in zip(written, onDisk) {
            XCTAssertEqual(file.contents, FileWriter.header + "\n\n" + disk.contents, file.path)
        }
    }

    /// The reserved type names are exactly the top-level classes kotlinc makes of the runtime's files (plus their
    /// type aliases, which make no class): `KotlinRuntimeFiles.typeNames` lists what the compiler declares.
    func testTheReservedTypeNamesAreTheRuntimesClasses() throws {
        let build = try KotlinBuild.shared()
        let folder = build.classes.appendingPathComponent("baton/runtime")
        let classes = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".class") && !$0.contains("$") }
            .map { String($0.dropLast(".class".count)) }
            .filter { !$0.hasSuffix("Kt") }
        let aliases = try KotlinBuild.runtimeFiles().flatMap { file in
            file.contents.split(separator: "\n").filter { $0.hasPrefix("typealias ") }.map {
                String($0.dropFirst("typealias ".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            }
        }
        XCTAssertEqual(IdentifierRules.kotlinRuntimeTypeNames, Set(classes + aliases))
    }

    /// `PlanTable` (generated files' plans as text, issue 34) parses every part of its format into the runtime's
    /// selections, reads by index, and types every malformed text it is given as a `PlanFormatException`: unknown
    /// kinds and parts, missing parts, unknown and unclosed decoders, forward children, truncated or badly escaped
    /// arguments, bad indexes.
    func testPlanTableParsesItsTextAndTypesMalformedTexts() throws {
        let build = try KotlinBuild.shared()
        let output = try KotlinTestSupport.runMain("check.plan.PlanCheckKt", classes: build.classes, in: build.folder)
        XCTAssertEqual(output, Self.planExpected)
    }

    /// Plans as generated code declares them, parsed and printed, and malformed texts.
    static let planProgram = #"""
        package check.plan

        import baton.runtime.*

        class Lens(val reader: RecordReader)

        /** A plan as generated code declares one: lens 0, externals 0 (an enum's decoder), 1 (selections), 2 (no list). */
        class TestPlan(vararg pieces: String) : PlanTable(*pieces) {
            override fun lens(index: Int, reader: RecordReader): Any = when (index) {
                0 -> Lens(reader)
                else -> super.lens(index, reader)
            }

            override fun external(index: Int): Any = when (index) {
                0 -> ENUM
                1 -> listOf<Selection>(Field("id", "id", "ID", Scalars.ID, true))
                2 -> "not a list"
                else -> super.external(index)
            }

            companion object {
                val ENUM: Decoder<String> = Scalars.enumeration { it }
            }
        }

        fun decoder(decoder: Decoder<*>): String = when (decoder) {
            Scalars.STRING -> "S"
            Scalars.ID -> "D"
            Scalars.INT -> "I"
            Scalars.FLOAT -> "F"
            Scalars.BOOLEAN -> "B"
            Scalars.CUSTOM -> "C"
            TestPlan.ENUM -> "enum"
            is ListDecoder<*> -> "[" + decoder(decoder.element) + "]" + (if (decoder.itemNonNull) "!" else "?")
            is OptionalItemsDecoder<*> -> "{" + decoder(decoder.element) + "}" + (if (decoder.itemNonNull) "!" else "?")
            is LensDecoder<*> -> "lens"
            else -> "other"
        }

        val variables = listOf(mapOf("a" to true, "b" to false), mapOf("a" to true, "b" to true), mapOf<String, Any?>("b" to false))

        fun conditions(conditions: List<Condition>): String =
            if (conditions.isEmpty()) "" else " if " + variables.map { v -> conditions.all { it.holds(v) } }

        fun describe(selection: Selection, indent: String): String = when (selection) {
            is Field<*> -> indent + "field " + selection.responseKey + " " + selection.name + ": " + selection.typeName + " " +
                decoder(selection.decoder) + (if (selection.nonNull) " nonNull" else "") +
                (if (selection.arguments.isEmpty()) "" else " args " + selection.arguments.map { (k, v) -> k + "=" + value(v) }) +
                conditions(selection.conditions) +
                (selection.required?.let { " required $it" } ?: "") + (if (selection.catches) " catches" else "") +
                (selection.connection?.let { " connection " + it.key + it.filters } ?: "") +
                (selection.update?.let { " update " + it.kind + " " + value(it.connections) + " " + it.edgeTypename + " " + it.typename } ?: "") +
                (if (selection.keyFields.isEmpty()) "" else " keys " + selection.keyFields) +
                selection.selections.joinToString("") { "\n" + describe(it, "$indent  ") }
            is InlineFragment<*> -> indent + "inline " + selection.typeCondition + " " + selection.possibleTypes +
                conditions(selection.conditions) + " makes " + selection.factory(absentReader()).javaClass.simpleName +
                selection.selections.joinToString("") { "\n" + describe(it, "$indent  ") }
            is FragmentSpread<*> -> indent + "spread " + selection.fragmentName + " on " + selection.typeCondition + " " +
                selection.possibleTypes + (if (selection.throwOnFieldError) " throwOnFieldError" else "") +
                conditions(selection.conditions) + " makes " + selection.factory(absentReader()).javaClass.simpleName +
                " selections " + selection.selections.size
        }

        fun value(value: Any?): String = when (value) {
            is Variable -> "$" + value.name
            is JsonNumber -> "#" + value.literal
            is String -> "\"" + value + "\""
            is List<*> -> value.map { value(it) }.toString()
            is Map<*, *> -> value.entries.map { it.key.toString() + ":" + value(it.value) }.toString()
            else -> value.toString()
        }

        /** Each text's parse: its roots, or the exception it throws. */
        fun attempt(name: String, plan: PlanTable, use: (PlanTable) -> Any? = { it.roots() }) {
            val result = try {
                use(plan)
                "parsed"
            } catch (error: PlanFormatException) {
                "PlanFormatException"
            } catch (error: Throwable) {
                "other " + error
            }
            println("$name: $result")
        }

        fun main() {
            val plan = TestPlan(
                "F|id|id|ID|D|1|\nF|name|na\\|me|String|S|0||c=+a,-b|r=L\nF|tags|tags|String|{[S]!}?|0||c=+a;-b\n" +
                    "F|kind|kind|Kind|#0|0||x|a={\"first\":5,\"after\":{\"\$\":\"cursor\"},\"q\":\"a\\\\\\\"b\\|c\\\\nd\\\\u00e9\",\"l\":[1.5e3,true,null,{\"k\":{\"\$\":\"v\"}}]}\n",
                "F|page|page|Page|@0|1|0,1|k=Key\\,1,b,a|K=T\\:x:a,b;U:c|r=T\nF|edges|edges|Edge|[@0]?|0|0|u=APPEND_EDGE|uc=[{\"\$\":\"c\"}]|ue=E\\|1|ut=T\n" +
                    "I|User|User,Bot|0,2|0|c=F\nI||*||0\nS|Frag|Node||1|0|t|c=-b\nR|4,5,6,7,8,3"
            )
            for (root in plan.roots()) println(describe(root, ""))
            val reader = absentReader()
            println("read by index: " + plan.read<String>(reader, 1) + " " + plan.readNonNull<String>(reader, 0).isEmpty() +
                " " + (plan.inlineFragmentNonNull<Any>(reader, 7) is Lens) + " " + (plan.fragment<Any>(reader, 8) is Lens))
            println("the same objects: " + (plan.field<Any>(0) === plan.field<Any>(0)) + " " + (plan.roots()[5] === plan.field<Any>(3)))
            attempt("pieces joined", TestPlan("F|i", "d|id|ID|D|1|\nR|", "0"))
            attempt("unknown kind", TestPlan("X|id|id|ID|D|1|\nR|0"))
            attempt("missing part", TestPlan("F|id|id|ID|D|1\nR|0"))
            attempt("unknown decoder", TestPlan("F|id|id|ID|Q|1|\nR|0"))
            attempt("unclosed decoder", TestPlan("F|id|id|ID|[S|1|\nR|0"))
            attempt("list without ! or ?", TestPlan("F|id|id|ID|[S]|1|\nR|0"))
            attempt("decoder with more after it", TestPlan("F|id|id|ID|SS|1|\nR|0"))
            attempt("forward child", TestPlan("F|a|a|A|@0|1|1\nF|id|id|ID|D|1|\nR|0"))
            attempt("child not a number", TestPlan("F|a|a|A|@0|1|x\nR|0"))
            attempt("truncated arguments", TestPlan("F|id|id|ID|D|1||a={\"first\":5\nR|0"))
            attempt("truncated string argument", TestPlan("F|id|id|ID|D|1||a={\"first\":\"ab\nR|0"))
            attempt("badly escaped argument", TestPlan("F|id|id|ID|D|1||a={\"first\":\"\\\\q\"}\nR|0"))
            attempt("short unicode escape", TestPlan("F|id|id|ID|D|1||a={\"first\":\"\\\\u12\"}\nR|0"))
            attempt("arguments not an object", TestPlan("F|id|id|ID|D|1||a=[1]\nR|0"))
            attempt("lone backslash", TestPlan("F|id|id|ID|D|1|\nR|0\\"))
            attempt("unknown part", TestPlan("F|id|id|ID|D|1||z=1\nR|0"))
            attempt("part twice", TestPlan("F|id|id|ID|D|1||x|x\nR|0"))
            attempt("nonNull not 1 or 0", TestPlan("F|id|id|ID|D|2|\nR|0"))
            attempt("unknown update", TestPlan("F|id|id|ID|D|1||u=NOPE\nR|0"))
            attempt("unknown required action", TestPlan("F|id|id|ID|D|1||r=Q\nR|0"))
            attempt("condition without + or -", TestPlan("F|id|id|ID|D|1||c=a\nR|0"))
            attempt("condition without a variable", TestPlan("F|id|id|ID|D|1||c=+\nR|0"))
            attempt("key fields without a type", TestPlan("F|id|id|ID|D|1||K=a,b\nR|0"))
            attempt("spread external not a list", TestPlan("S|Frag|Node|*|2|0\nR|0"))
            attempt("bad external index", TestPlan("F|id|id|ID|#9|1|\nR|0"))
            attempt("bad lens index", TestPlan("F|id|id|ID|@9|1|\nR|0")) { it.readNonNull<Any>(reader, 0) }
            attempt("bad root index", TestPlan("F|id|id|ID|D|1|\nR|5"))
            attempt("index beyond the lines", plan) { it.field<Any>(9) }
            attempt("index of another kind", plan) { it.spread<Any>(0) }
            attempt("no roots line", TestPlan("F|id|id|ID|D|1|"))
            attempt("empty text", TestPlan(""))
            println("malformed text is not parsed before use: " + TestPlan("nonsense").javaClass.simpleName)
        }

        fun absentReader(): RecordReader = RecordReader(ReadContext(RecordStore().snapshot(), emptyMap()), null, null)
        """#

    static let planExpected = #"""
        field page page: Page lens nonNull required THROW connection Key,1[a, b] keys {T:x=[a, b], U=[c]}
          field id id: ID D nonNull
          field name na|me: String S if [true, false, false] required LOG
        field edges edges: Edge [lens]? update APPEND_EDGE [$c] E|1 T
          field id id: ID D nonNull
        inline User [User, Bot] if [false, false, false] makes Lens
          field id id: ID D nonNull
          field tags tags: String {[S]!}? if [true, true, true]
        inline null null makes Lens
        spread Frag on Node [] throwOnFieldError if [true, false, true] makes Lens selections 1
        field kind kind: Kind enum args [first=#5, after=$cursor, q="a"b|c
        dé", l=[#1.5e3, true, null, [k:$v]]] catches
        read by index: null true true true
        the same objects: true true
        pieces joined: parsed
        unknown kind: PlanFormatException
        missing part: PlanFormatException
        unknown decoder: PlanFormatException
        unclosed decoder: PlanFormatException
        list without ! or ?: PlanFormatException
        decoder with more after it: PlanFormatException
        forward child: PlanFormatException
        child not a number: PlanFormatException
        truncated arguments: PlanFormatException
        truncated string argument: PlanFormatException
        badly escaped argument: PlanFormatException
        short unicode escape: PlanFormatException
        arguments not an object: PlanFormatException
        lone backslash: PlanFormatException
        unknown part: PlanFormatException
        part twice: PlanFormatException
        nonNull not 1 or 0: PlanFormatException
        unknown update: PlanFormatException
        unknown required action: PlanFormatException
        condition without + or -: PlanFormatException
        condition without a variable: PlanFormatException
        key fields without a type: PlanFormatException
        spread external not a list: PlanFormatException
        bad external index: PlanFormatException
        bad lens index: PlanFormatException
        bad root index: PlanFormatException
        index beyond the lines: PlanFormatException
        index of another kind: PlanFormatException
        no roots line: PlanFormatException
        empty text: PlanFormatException
        malformed text is not parsed before use: TestPlan

        """#

    /// A program reading through the runtime with a hand-written plan (what generated code would declare).
    static let program = #"""
        package check.runtime

        import baton.runtime.*

        object Years : ScalarConverter<Int> {
            override fun decode(text: String): Int? = text.removePrefix("year ").toIntOrNull()
            override fun encode(value: Int): String = "year $value"
        }

        sealed class Kind(override val rawValue: String) : EnumValue {
            object HUMAN : Kind("HUMAN")
            data class Undeclared(val scalarText: String) : Kind(scalarText)
            companion object {
                fun fromRawValue(text: String): Kind = when (text) { "HUMAN" -> HUMAN; else -> Undeclared(text) }
            }
        }

        class Input(val name: String, val note: Optional<String?> = Optional.Absent, val age: Optional<Int?> = Optional.Absent) : InputObject {
            override fun toJson(): Map<String, Any?> = JsonObjectBuilder().put("name", name).put("note", note).put("age", age).build()
        }

        class Person(val reader: RecordReader)

        object P {
            val id = Field("id", "id", "ID", Scalars.ID, true)
            val name = Field("name", "name", "String", Scalars.STRING, false)
            val nameReq = Field("name", "name", "String", Scalars.STRING, false, required = RequiredAction.LOG)
            val nameThrow = Field("name", "name", "String", Scalars.STRING, false, required = RequiredAction.THROW)
            val nameCatch = Field("name", "name", "String", Scalars.STRING, false, catches = true)
            val age = Field("age", "age", "Int", Scalars.INT, false)
            val title = Field("title", "title", "String", Scalars.STRING, true)
            val born = Field("born", "born", "Year", Scalars.custom(Years), false)
            val kind = Field("kind", "kind", "Kind", Scalars.enumeration(Kind.Companion::fromRawValue), false)
            val tags = Field("tags", "tags", "String", ListDecoder(Scalars.STRING, true), false)
            val missing = Field("missing", "missing", "String", Scalars.STRING, false)
            val person = Field("person", "person", "Person", LensDecoder(::Person), false,
                arguments = mapOf("id" to Variable("id"), "flag" to true), selections = listOf(id, nameReq, age, title, born, kind, tags))
            val personCatch = Field("person", "person", "Person", LensDecoder(::Person), false,
                arguments = mapOf("id" to Variable("id"), "flag" to true), selections = listOf(id, name), catches = true)
            val hero = Field("hero", "hero", "Person", LensDecoder(::Person), true, selections = listOf(id, nameReq), required = RequiredAction.NONE)
        }

        class Op(val id: String, val strict: Boolean = false, val sel: List<Selection>) : Operation<RecordReader> {
            override val operationName get() = "Op"
            override val operationType get() = "query"
            override val document get() = "query Op(\$id: ID!) { x }"
            override val operationId get() = "0"
            override val onError: String? get() = null
            override val rootTypename get() = "Query"
            override val selections get() = sel
            override val throwOnFieldError get() = strict
            override fun variables(): Map<String, Any?> = mapOf("id" to id)
            override fun data(reader: RecordReader): RecordReader = reader
        }

        /** An operation as generated code declares one: its identity as the runtime base's arguments (issue 34). */
        object OpPlan : PlanTable("F|id|id|ID|D|1|\nR|0")

        class Planned(val id: String) : PlanTable.Operation<RecordReader>("Planned", "mutation", "mutation Planned { id }", "abc", "Mutation", OpPlan) {
            override fun variables(): Map<String, Any?> = JsonObjectBuilder.of("id", id, "gone", Optional.Absent, "none", Optional.Null, "some", Optional.of(2))
            override fun data(reader: RecordReader): RecordReader = reader
        }

        class Strict : PlanTable.Operation<RecordReader>("Strict", "query", "query Strict { id }", "def", "Query", OpPlan, "PROPAGATE", true) {
            override fun variables(): Map<String, Any?> = JsonObjectBuilder.of("only", 1)
            override fun data(reader: RecordReader): RecordReader = reader
        }

        fun show(label: String, block: () -> Any?) {
            val text = try { block().toString() } catch (error: RuntimeException) { error.javaClass.simpleName + ": " + error.message }
            println("$label: $text")
        }

        fun main() {
            val log = CollectingReporter()
            val store = RecordStore()
            val op = Op("7", sel = listOf(P.person, P.hero))
            val person = """{"id":"7","name":null,"age":"old","title":null,"born":"year x","kind":"ALIEN","tags":["a",null]}"""
            println("Notified " + store.commit(op, """{"data":{"person":$person,"hero":{"id":"8","name":"Hero"}},"errors":[{"message":"no name","path":["person","name"]}]}""").changedDescription)
            val root = store.read(op, log)
            show("person (name @required LOG)") { root.read(P.person) }
            val p = root.child("Person:7", ResponsePath.key(null, "person"))
            show("name plain") { p.read(P.name) }
            show("name @catch") { p.catching(P.nameCatch) { it.read(P.nameCatch) } }
            show("name @catch(to: NULL)") { p.catchingToNull(P.nameCatch) { it.read(P.nameCatch) } }
            show("name THROW") { p.readOrThrow(P.nameThrow) }
            show("person @catch") { root.catching(P.personCatch) { it.read(P.personCatch) != null } }
            show("age (string where Int)") { p.read(P.age) }
            show("title (null, non-null)") { "\"" + (p.read(P.title) ?: "") + "\"" }
            show("born (does not convert)") { p.read(P.born) }
            show("kind") { p.read(P.kind) }
            show("tags (null element)") { p.read(P.tags) }
            show("missing") { p.read(P.missing) }
            show("strict name") { p.readStrict(P.name) }
            show("strict missing") { p.readStrict(P.missing) }
            show("strict title (null, non-null)") { p.readStrictNonNull(P.title) }
            show("strict age (string where Int)") { p.readStrict(P.age) }
            show("strict age, non-null") { p.readStrictNonNull(P.age) }
            show("strict operation") { store.read(Op("7", true, listOf(P.person)), log) }
            log.take().forEach { println("  log " + it.toLogEvent()) }
            println("Notified " + store.commit(op, """{"data":{"person":{"id":"7","name":"Seven","born":"year 1990"},"hero":{"id":"8","name":null}}}""").changedDescription)
            show("the old lens still reads its snapshot") { p.catching(P.nameCatch) { it.read(P.nameCatch) } }
            val q = RecordReader(ReadContext(store.snapshot(), op.variables(), log), "Person:7", ResponsePath.key(null, "person"))
            show("name @catch") { q.catching(P.nameCatch) { it.read(P.nameCatch) } }
            show("born") { q.read(P.born) }
            show("hero null reaches the root") { store.read(op, log) }
            log.take().forEach { println("  log " + it.toLogEvent()) }
            show("request error") { store.commit(op, """{"errors":[{"message":"boom"}]}""") }
            show("unattached") { store.commit(op, """{"data":{"hero":{"id":"8","name":"Hero"}},"errors":[{"message":"rate"},{"message":"x","path":["elsewhere"]},{"message":"y","path":["hero","name"]}]}""").unattachedErrors }
            show("input") { Json.write(Input("a\"b\n", note = Optional.Null)) }
            show("input") { Json.write(mapOf("input" to Input("x", age = Optional.of(3)), "kind" to Kind.HUMAN, "u" to Kind.Undeclared("NEW"))) }
            show("planned operation") { Planned("7").let { listOf(it.operationName, it.operationType, it.document, it.operationId, it.rootTypename, it.onError, it.throwOnFieldError, it.selections.map { s -> (s as Field<*>).name }, it.variables()) } }
            show("strict operation") { Strict().let { listOf(it.onError, it.throwOnFieldError, it.variables()) } }
            show("names and values odd") { JsonObjectBuilder.of("a", 1, "b") }
            show("a name not a string") { JsonObjectBuilder.of(1, 2) }
            show("storage key") { Field.storageKey("f", mapOf("b" to Variable("v"), "a" to listOf(1, Variable("w")), "c" to Variable("absent")), mapOf("v" to "x", "w" to null)) }
            show("bad json") { Json.parse("[1,") }
        }
        """#

    static let expected = #"""
        Notified Person:7.age Person:7.born Person:7.id Person:7.kind Person:7.name Person:7.tags Person:7.title Person:8.id Person:8.name Query.hero Query.person({"flag":true,"id":"7"})
        person (name @required LOG): null
        name plain: null
        name @catch: Failure(errors=no name)
        name @catch(to: NULL): null
        name THROW: RequiredFieldException: required field person.name is null
        person @catch: Failure(errors=no name)
        age (string where Int): null
        title (null, non-null): ""
        born (does not convert): null
        kind: Undeclared(scalarText=ALIEN)
        tags (null element): null
        missing: null
        strict name: FieldErrorsException: field errors: no name
        strict missing: MissingDataException: missing data at person.missing
        strict title (null, non-null): UnexpectedValueException: unexpected value at person.title: null in a non-null field
        strict age (string where Int): null
        strict age, non-null: UnexpectedValueException: unexpected value at person.age: a value its type cannot hold
        strict operation: FieldErrorsException: field errors: no name
          log requiredFieldNull {"path":"person.name"}
          log unexpectedValue {"type":"Person","field":"age","reason":"expected an Int, found string \"old\"","path":"person.age"}
          log unexpectedValue {"type":"Person","field":"title","reason":"null in a non-null field","path":"person.title"}
          log unexpectedValue {"type":"Person","field":"born","reason":"\"year x\" does not convert to Years","path":"person.born"}
          log unexpectedValue {"type":"Person","field":"tags","reason":"null in a non-null list item","path":"person.tags.1"}
          log missingData {"type":"Person","field":"missing"}
          log missingData {"type":"Person","field":"missing"}
          log unexpectedValue {"type":"Person","field":"title","reason":"null in a non-null field","path":"person.title"}
          log unexpectedValue {"type":"Person","field":"age","reason":"expected an Int, found string \"old\"","path":"person.age"}
          log unexpectedValue {"type":"Person","field":"age","reason":"expected an Int, found string \"old\"","path":"person.age"}
        Notified Person:7.born Person:7.name Person:8.name
        the old lens still reads its snapshot: Failure(errors=no name)
        name @catch: Success(value=Seven)
        born: 1990
        hero null reaches the root: RequiredFieldException: required field hero.name is null
          log requiredFieldNull {"path":"hero.name"}
        request error: RequestFailedException: request failed: boom
        unattached: [rate, x (at elsewhere)]
        input: {"name":"a\"b\n","note":null}
        input: {"input":{"name":"x","age":3},"kind":"HUMAN","u":"NEW"}
        planned operation: [Planned, mutation, mutation Planned { id }, abc, Mutation, null, false, [id], {id=7, none=null, some=2}]
        strict operation: [PROPAGATE, true, {only=1}]
        names and values odd: IllegalArgumentException: JsonObjectBuilder.of: a name without a value
        a name not a string: IllegalArgumentException: JsonObjectBuilder.of: argument 0 is not a name
        storage key: f({"a":[1,null],"b":"x"})
        bad json: JsonException: JSON: unexpected end of text at offset 3

        """#
}
