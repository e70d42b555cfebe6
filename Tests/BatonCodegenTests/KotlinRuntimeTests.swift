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
        storage key: f({"a":[1,null],"b":"x"})
        bad json: JsonException: JSON: unexpected end of text at offset 3

        """#
}
