import XCTest

/// The guide's custom-scalar sentence in the Kotlin runtime, for every JSON shape: a custom scalar the server writes
/// as a string, a number, a Boolean, an object or a list reads as that JSON's text, and a mapped scalar's converter
/// receives the same text. The response and the texts are the Swift runtime's (`CustomScalarShapeTests`).
final class KotlinCustomScalarTests: XCTestCase {
    func testEveryShapeReadsAsTheTextTheServerWrote() throws {
        let build = try KotlinBuild.shared()
        let output = try KotlinTestSupport.runMain(
            "check.scalars.ScalarShapesKt", classes: build.classes, in: build.folder)
        XCTAssertEqual(output, Self.expected)
    }

    static let values = [
        #""text""#, "12", "-1.50e3", "true", "false", #"{"b":1,"a":[true,null,"x\"y"],"c":{}}"#, #"[1,"two",[3]]"#,
    ]

    /// What each field and list item reads as: the texts, then the list's null.
    static var expected: String {
        let texts = [
            "text", "12", "-1.50e3", "true", "false", #"{"b":1,"a":[true,null,"x\"y"],"c":{}}"#, #"[1,"two",[3]]"#,
        ]
        let fields = zip(["a", "b", "c", "d", "e", "f", "g"], texts).map { "\($0): \($1)" }
        let items = (texts.map { $0 } + ["null"]).joined(separator: " | ")
        return (fields + ["list: " + items, "mapped: " + items, "log: none"]).joined(separator: "\n") + "\n"
    }

    static var response: String {
        let members = zip(["a", "b", "c", "d", "e", "f", "g"], values).map { #""\#($0)": \#($1)"# }
            .joined(separator: ", ")
        let list = "[" + values.joined(separator: ", ") + ", null]"
        return #"{"data": {"settings": {\#(members), "list": \#(list), "mapped": \#(list)}}}"#
    }

    static var program: String {
        #"""
        package check.scalars

        import baton.runtime.*

        /** A mapped scalar's converter that keeps the text it receives. */
        object RawTexts : ScalarConverter<String> {
            override fun decode(text: String): String? = text
            override fun encode(value: String): String = value
        }

        class Settings(val reader: RecordReader)

        object S {
            val names = listOf("a", "b", "c", "d", "e", "f", "g")
            val fields = names.map { Field(it, it, "JSON", Scalars.CUSTOM, false) }
            val list = Field("list", "list", "JSON", OptionalItemsDecoder(Scalars.CUSTOM, itemNonNull = false), false)
            val mapped = Field("mapped", "mapped", "Raw", OptionalItemsDecoder(Scalars.custom(RawTexts), itemNonNull = false), false)
            val settings = Field("settings", "settings", "Settings", LensDecoder(::Settings), false, selections = fields + listOf(list, mapped))
        }

        class Op : Operation<RecordReader> {
            override val operationName get() = "Op"
            override val operationType get() = "query"
            override val document get() = "query Op { settings { a b c d e f g list mapped } }"
            override val operationId get() = "0"
            override val onError: String? get() = null
            override val rootTypename get() = "Query"
            override val selections get() = listOf<Selection>(S.settings)
            override val throwOnFieldError get() = false
            override fun variables(): Map<String, Any?> = emptyMap()
            override fun data(reader: RecordReader): RecordReader = reader
        }

        fun main() {
            val log = CollectingReporter()
            val store = RecordStore()
            store.commit(Op(), "\#(response.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "$", with: "\\$"))")
            val settings = store.read(Op(), log).read(S.settings)!!.reader
            for (field in S.fields) println("${field.name}: ${settings.read(field)}")
            println("list: " + settings.read(S.list)!!.joinToString(" | "))
            println("mapped: " + settings.read(S.mapped)!!.joinToString(" | "))
            println("log: " + if (log.events.isEmpty()) "none" else log.events.joinToString("; ") { it.toLogEvent().toString() })
        }
        """#
    }
}
