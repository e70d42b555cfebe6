import BatonIR
import XCTest

/// A schema and documents built to break generated Kotlin: hard keywords as type, field, argument, enum-value
/// and variable names, names of the runtime's types (`Optional`, `Field`), `Undeclared` and `Companion` as enum
/// values, names differing only in case (`url`/`Url`/`URL`, `State`/`state`, `a`/`A`, `class`/`Class`, whose
/// getters would clash on the JVM), members named like generated helpers (`reader`, `Plan`, `it`), `_`, and
/// descriptions and strings with `*/`, `/*`, `$`, quotes and backslashes.
enum KotlinHostileSchema {
    static let packageName = "hostile.in.is"

    static func model() throws -> LensModel {
        try KotlinProjectSupport.model(
            schema: schema, documents: documents,
            options: LensModelOptions(
                customScalars: [
                    "DateTime": CustomScalarMapping(kotlinType: "java.time.Instant", kotlinConverter: "app.DateTimes")
                ]))
    }

    static let schema = #"""
        """
        Descriptions that try to end comments: */ and /* and $dollar and \backslash and "quotes"
        """
        type Query {
          "*/ fun evil() {} /*"
          class(in: In, is: String = "$x"): class
          object: [object!]
          when: when
          Optional: Optional
          url: String
          Url: String
          URL: String
          field(value: Field): Field
          many: Many
          search(by: Search): [String]
          state: State
          stateLower: state
          at: DateTime
          json: Json
          matrix: [[Int!]]!
          echo(a: String, b: ID, c: Optional, d: DateTime): String
          page(limit: Int): String
          sem: String @semanticNonNull
          semList: [String] @semanticNonNull(levels: [0, 1])
        }

        type Mutation {
          update(input: In!): class
        }

        type class {
          val: String
          var: Int!
          fun: fun
          reader: String
          Plan: String
          it: Boolean
          hashCode: Int
          toString: String
          equals: String
          Companion: String
          class: ID
          Class: ID
          _: String
          data: Float
          isOpen: Boolean
          getOpen: Boolean
          at: DateTime!
          ats: [DateTime!]
        }

        type fun {
          is: Boolean
          in: [[Float]]
        }

        type object {
          this: String
          super: String
        }

        union when = class | fun

        "*/ an enum named like the runtime's Optional"
        enum Optional {
          val
          when
          is
          in
          Undeclared
          undeclared
          Companion
          fromRawValue
          rawValue
          class
          String
          "*/ old"
          OLD @deprecated(reason: "*/ gone $x \"quoted\" \\ backslash")
        }

        enum Field {
          a
          A
          b
        }

        "*/ over the tree's branchLimit: found through the runtime's table, named like what that call mentions"
        enum Many {
          find java knownValues EnumValue Class Map lazy it associateBy cast tables V01 V02 V03 V04 V05 V06 V07 V08 V09 V10 V11 V12 V13 V14 V15 V16 V17 V18 V19 V20 V21 V22 V23 V24 V25
          OLD @deprecated(reason: "gone")
        }

        enum State {
          ON
        }

        enum state {
          off
        }

        scalar DateTime
        scalar Json

        "*/ input"
        input In {
          in: String
          is: Int!
          default: Optional = val
          nested: In
          list: [[Optional]]
          at: DateTime
          ats: [DateTime!]
          class: String
          Class: String
        }

        input Search @oneOf {
          byName: String
          byId: ID
          byIn: In
          byAt: DateTime
        }
        """#

    /// The documents: the hostile ones, and an operation whose document is too long for one JVM string constant
    /// (70,000 bytes of modified UTF-8, over the 65,535 of one constant, with `$`s and escapes), cut by
    /// `JVMStringConstant` into three pieces: its first two lines, then up to where a three-byte `€` would take the
    /// piece over the limit (8 bytes before the argument's text, then 8,570 times 7), then the rest.
    static let documents =
        hostileDocuments + "\nquery Long {\n  echo(a: \"" + String(repeating: "€$\\\\x", count: 10_000) + "\")\n}\n"

    static let hostileDocuments = #"""
        query Data($document: String, $data: ID!, $DOCUMENT: Optional, $in: In, $search: Search, $flag: Boolean!, $at: DateTime) @throwOnFieldError {
          class(in: $in, is: "$x \"q\" \\ */") {
            val
            var @required(action: THROW)
            fun { is in }
            reader
            Plan
            it
            hashCode
            toString
            equals
            Companion
            class
            Class
            _
            data
            isOpen
            getOpen
            ...object
          }
          object @catch { this super }
          when {
            ... on class { val }
            ... on fun { is }
            __typename
          }
          Optional
          url @include(if: $flag)
          Url @skip(if: $flag)
          URL
          field(value: a)
          many
          search(by: $search)
          state
          stateLower
          at
          json
          matrix
          echo(a: $document, b: $data, c: $DOCUMENT, d: $at)
          sem
          semList
          blank: url @catch(to: NULL)
          either: URL @include(if: $flag)
          either: URL @skip(if: $flag)
        }

        query data($show: Boolean = true, $limit: Int = 3) {
          url @include(if: $show)
          page(limit: $limit)
          required: class @required(action: LOG) { val @required(action: NONE) }
        }

        mutation Update($input: In!, $keep: Boolean = true) {
          update(input: $input) {
            val
            var @include(if: $keep)
            at @include(if: $keep)
            ats @skip(if: $keep)
            fun @include(if: $keep) { is }
            ...object @include(if: $keep)
          }
        }

        fragment object on class {
          val
          var
        }
        """#

    static let converter = #"""
        package app

        import baton.runtime.ScalarConverter
        import java.time.Instant

        /** The converter the hostile schema's `DateTime` (and the GitHub example's) maps through. */
        object DateTimes : ScalarConverter<Instant> {
            override fun decode(text: String): Instant? = Instant.parse(text)
            override fun encode(value: Instant): String = value.toString()
        }
        """#

    /// Uses the generated code: variables with absent, null and present values, an input object and a `@oneOf`
    /// input as JSON, a response committed and read back through every hostile accessor, enum round trips, and
    /// a `@required` null reaching an operation's root.
    static let program = #"""
        package check.hostile

        import baton.runtime.FieldResult
        import baton.runtime.Json
        import baton.runtime.Optional
        import baton.runtime.RecordStore
        import baton.runtime.CollectingReporter
        import baton.runtime.RequiredFieldException
        import hostile.`in`.`is`.Data_
        import hostile.`in`.`is`.Field_
        import hostile.`in`.`is`.In
        import hostile.`in`.`is`.Many
        import hostile.`in`.`is`.Long
        import hostile.`in`.`is`.Optional_
        import hostile.`in`.`is`.Search
        import hostile.`in`.`is`.Update
        import hostile.`in`.`is`.data__
        import hostile.`in`.`is`.`object`
        import java.security.MessageDigest
        import java.time.Instant

        fun sha256(text: String): String =
            MessageDigest.getInstance("SHA-256").digest(text.toByteArray(Charsets.UTF_8)).joinToString("") { String.format("%02x", it) }

        fun main() {
            val input = In(
                `is` = 2, default = Optional.Present(Optional_.`when`), nested = Optional.Null,
                at = Optional.of(Instant.parse("2020-01-02T03:04:05Z")), `class` = Optional.of("c"),
                ats = Optional.of(listOf(Instant.parse("2021-01-01T00:00:00Z")))
            )
            val query = Data_(
                document_ = Optional.Null, data_ = "1", `in` = Optional.Present(input), search = Optional.of(Search.ByName("x")),
                flag = true
            )
            println("variables: " + Json.write(query.variables()))
            println("update: " + Json.write(Update(input = In(`is` = 1)).variables()))
            val given = Update.Data.Update2.Optimistic(
                `val` = "v", `var` = 3, at = Instant.parse("2020-01-02T03:04:05Z"),
                `fun` = Update.Data.Update2.Fun.Optimistic(`is` = true), `object` = `object`.Optimistic(`val` = "o", `var` = 4)
            )
            println("optimistic: " + Json.write(Update.Data.Optimistic(update = given).responseObject()))
            val leftOut = Update.Data.Update2.Optimistic(ats = listOf(Instant.parse("2021-01-01T00:00:00Z")))
            println("optimistic, left out: " + Json.write(Update.Data.Optimistic(update = leftOut).responseObject()))
            println("oneOf: " + Json.write(Search.ByAt(Instant.parse("2020-01-02T03:04:05Z"))))
            println("operation id is the SHA-256 of the document: " + (query.operationId == sha256(query.document)))
            println("long document: " + Long().document.length + " characters, id matches: " + (Long().operationId == sha256(Long().document)))
            println("document keeps \$ and quotes: " + query.document.contains("is: \"\$x \\\"q\\\" \\\\ */\""))

            val store = RecordStore()
            val response = """{"data":{"class":{"val":"v","var":3,"fun":null,"reader":"r","Plan":"p","it":true,"hashCode":1,
                "toString":"t","equals":"e","Companion":"c","class":"1","Class":"2","_":"u","data":1.5,"isOpen":true,
                "getOpen":false,"__typename":"class"},"object":[{"this":"a","super":"b","__typename":"object"}],
                "when":{"__typename":"fun","is":true},"Optional":"NEW_VALUE","url":"u1","URL":"u3","field":"A","many":"java","search":["s"],
                "state":"ON","stateLower":"off","at":"2020-01-02T03:04:05Z","json":{"k":[1,2]},"matrix":[[1,2],null],"echo":"e",
                "sem":"s","semList":["a","b"],"blank":"u1","either":"u3"}}"""
            println("changed: " + store.commit(query, response).changed.size)
            val log = CollectingReporter()
            val data = store.read(query, log)
            val c = data.`class`!!
            println("class: " + listOf(c.`val`, c.`var`, c.reader, c.Plan, c.it, c.hashCode, c.toString, c.equals, c.Companion_, c.`class`, c.Class, c._0, c.data, c.isOpen, c.getOpen).joinToString(", "))
            println("spread object: " + c.`object`.`val` + " " + c.`object`.`var`)
            val objects = data.`object`
            println("object @catch: " + (if (objects is FieldResult.Success) objects.value?.map { it.`this` + it.`super` } else objects))
            println("when: asClass=" + data.`when`?.asClass + " asFun.is=" + data.`when`?.asFun?.`is` + " __typename=" + data.`when`?.__typename)
            println("enum: " + data.Optional + " / " + data.field + " / " + data.state + " / " + data.stateLower)
            println("url: " + data.url + " Url (skipped): " + data.Url + " URL: " + data.URL)
            println("semanticNonNull: " + data.sem + " " + data.semList + " blank: " + data.blank + " either: " + data.either)
            println("at: " + data.at + " json: " + data.json + " matrix: " + data.matrix + " search: " + data.search + " echo: " + data.echo)
            println("log: " + log.events)
            println("enum round trip: " + (Optional_.fromRawValue("when") === Optional_.`when`) + " " + Optional_.fromRawValue("Undeclared") + " " + Optional_.fromRawValue("brand-new") + " " + Optional_.knownValues.size + " " + (Field_.fromRawValue("a") != Field_.fromRawValue("A")))
            println("large enum: " + (data.many === Many.java) + " " + (Many.fromRawValue("find") === Many.find) + " " + (Many.fromRawValue("OLD") === Many.knownValues.last()) + " " + Many.fromRawValue("EnumValue") + " " + Many.fromRawValue("brand-new") + " " + Many.knownValues.size)

            val root = data__()
            println("defaults: " + Json.write(root.variables()) + " " + Json.write(root.variablesWithDefaults()))
            println("changed: " + store.commit(root, """{"data":{"url":"x","page":"p3","required":{"val":"v","__typename":"class"}}}""").changed)
            val rootData = store.read(root)
            println("data: url=" + rootData.url + " page=" + rootData.page + " required.val=" + rootData.required.`val`)
            store.commit(root, """{"data":{"url":"x","page":"p3","required":{"val":null,"__typename":"class"}}}""")
            try {
                store.read(root)
                println("data: read")
            } catch (error: RequiredFieldException) {
                println("data: " + error.message)
            }
        }
        """#
}
