import Baton
import Foundation
import XCTest

/// Both runtimes key records by a declared key (`keyFields`, `@typePolicy`) the same way: the Kotlin runtime
/// commits each body below through a hand-written plan (what generated code declares: `keyFields = mapOf(…)`),
/// the Swift runtime commits the same bodies through the same plan in Swift, and the record keys each links to
/// must be equal, byte for byte: `Type:{"f":v,…}` for a keyed type, the path for an object missing a key field,
/// `Type:id` for a type without a declared key.
final class KotlinRecordKeyTests: XCTestCase {
    /// Bodies for the `entries` field (a list of MediaList keyed by `id mediaId`, Account by `login`).
    static let bodies = [
        #"{"data":{"entries":[{"__typename":"MediaList","id":1,"mediaId":7,"progress":3},{"__typename":"MediaList","id":1,"mediaId":8}]}}"#,
        #"{"data":{"entries":[{"__typename":"MediaList","id":1,"progress":3},{"__typename":"MediaList","id":1,"mediaId":null},{"__typename":"MediaList","id":1,"mediaId":{"x":1}}]}}"#,
        #"{"data":{"entries":[{"__typename":"Account","id":"9","login":"é\"x\u0001"},{"__typename":"MediaList","id":"a\u00e9","mediaId":true},{"__typename":"Staff","id":"4"}]}}"#,
        #"{"data":{"entries":[{"__typename":"MediaList","mediaId":1.50,"id":-2}]}}"#,
    ]

    static let program = #"""
        package check.keys

        import baton.runtime.*

        object K {
            val typename = Field("__typename", "__typename", "String", Scalars.STRING, true)
            val id = Field("id", "id", "ID", Scalars.ID, false)
            val mediaId = Field("mediaId", "mediaId", "Int", Scalars.INT, false)
            val login = Field("login", "login", "String", Scalars.STRING, false)
            val entries = Field("entries", "entries", "Entry", ListDecoder(LensDecoder { it }, false), false,
                selections = listOf(typename, id, mediaId, login),
                keyFields = mapOf("Account" to listOf("login"), "MediaList" to listOf("id", "mediaId")))
        }

        class Entries : Operation<RecordReader> {
            override val operationName get() = "Entries"
            override val operationType get() = "query"
            override val document get() = "query Entries { entries { __typename id mediaId login } }"
            override val operationId get() = "0"
            override val onError: String? get() = null
            override val rootTypename get() = "Query"
            override val selections get() = listOf<Selection>(K.entries)
            override val throwOnFieldError get() = false
            override fun variables(): Map<String, Any?> = emptyMap()
            override fun data(reader: RecordReader): RecordReader = reader
        }

        fun links(value: StoredValue?): String = when (value) {
            is StoredValue.Link -> value.key
            is StoredValue.Items -> value.items.joinToString(" | ") { links(it) }
            else -> value.toString()
        }

        fun main(args: Array<String>) {
            for (body in args) {
                val store = RecordStore()
                store.commit(Entries(), body)
                println(links(store.snapshot()["Query"]?.slots?.get("entries")?.value))
            }
            // The generated code of the `record-keys` generator fixture: its plan keys the records, and its
            // optimistic builder gives the whole key.
            val store = RecordStore()
            store.commit(keyed.Home(), """{"data":{"entry":{"id":1,"progress":2,"mediaId":7,"__typename":"MediaList"},"feed":[{"__typename":"ListActivity","id":"5","entry":{"status":"DONE","id":1,"mediaId":8,"__typename":"MediaList"}}],"search":[{"__typename":"Account","name":"N","login":"octocat"}],"me":{"name":"N","login":"octocat","__typename":"Account"}}}""")
            val query = store.snapshot()["Query"]!!
            for (slot in listOf("entry({\"id\":1})", "feed", "search", "me")) println(slot + " -> " + links(query.slots[slot]?.value))
            println("ListActivity:5 entry -> " + links(store.snapshot()["ListActivity:5"]?.slots?.get("entry")?.value))
            println("optimistic " + Json.write(keyed.Entry.Optimistic(id = 1, mediaId = 7).responseObject()))
        }
        """#

    /// What the Swift runtime links `entries` to for each body, through the same plan.
    static func swiftKeys() throws -> [String] {
        let fields: [Selection] = [
            .field("__typename", type: .nonNull(.named("String"))), .field("id", type: .named("ID")),
            .field("mediaId", type: .named("Int")), .field("login", type: .named("String")),
        ]
        let entries: [Selection] = [
            .field(
                "entries", type: .list(.named("Entry")), selections: fields,
                keyFields: ["Account": ["login"], "MediaList": ["id", "mediaId"]])
        ]
        return try bodies.map { body in
            let store = Store()
            try store.commit(bytes: Data(body.utf8), selections: entries)
            guard case .list(let items)? = store.snapshot()["Query"]?.slots["entries"]?.value else { return "none" }
            return items.map { item in
                if case .link(let key) = item { return key }
                return "\(item)"
            }.joined(separator: " | ")
        }
    }

    func testTheSwiftAndKotlinRuntimesKeyRecordsAlike() throws {
        let swift = try Self.swiftKeys()
        XCTAssertEqual(
            swift,
            [
                #"MediaList:{"id":1,"mediaId":7} | MediaList:{"id":1,"mediaId":8}"#,
                "Query.entries.0 | Query.entries.1 | Query.entries.2",
                #"Account:{"login":"é\"x\u0001"} | MediaList:{"id":"aé","mediaId":true} | Staff:4"#,
                #"MediaList:{"id":-2,"mediaId":1.50}"#,
            ])
        let build = try KotlinBuild.shared()
        let output = try KotlinTestSupport.runMain(
            "check.keys.RecordKeysKt", classes: build.classes, arguments: Self.bodies, in: build.folder)
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.prefix(swift.count)), swift)
        XCTAssertEqual(
            Array(lines.dropFirst(swift.count)),
            [
                #"entry({"id":1}) -> MediaList:{"id":1,"mediaId":7}"#,
                "feed -> ListActivity:5",
                #"search -> Account:{"login":"octocat"}"#,
                #"me -> Account:{"login":"octocat"}"#,
                #"ListActivity:5 entry -> MediaList:{"id":1,"mediaId":8}"#,
                #"optimistic {"__typename":"MediaList","id":1,"progress":null,"mediaId":7}"#,
            ])
    }
}
