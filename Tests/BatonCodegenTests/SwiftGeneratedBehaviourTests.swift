import BatonCodegen
import BatonCodegenSwift
import BatonIR
import Foundation
import XCTest

/// Generated Swift run against the runtime: enums with unknown values and deprecated cases, mapped custom scalars,
/// `@required` bubbling, `@throwOnFieldError` with `@semanticNonNull`, inline fragments on a union, a fragment on
/// an interface, and input objects with absent, null and value fields and a `@oneOf` input.
final class SwiftGeneratedBehaviourTests: XCTestCase {
    static let schema = """
        scalar DateTime
        scalar Money
        scalar Link
        scalar Uid
        scalar Opaque
        interface Node { id: ID! }
        type User implements Node { id: ID! name: String login: String! }
        type Bot implements Node { id: ID! model: String }
        union Actor = User | Bot
        "How a post feels."
        enum Mood { HAPPY SAD @deprecated(reason: "Cheer up.") }
        type Query { node(id: ID!): Node actors: [Actor] post(id: ID!): Post }
        type Post {
          id: ID! title: String! body: String createdAt: DateTime price: Money url: Link uid: Uid raw: Opaque
          mood: Mood moods: [Mood!] author: User editor: User score: Int @semanticNonNull
        }
        input PostFilter { mood: Mood after: DateTime limit: Int = 10 text: String tags: [String!] price: Money }
        input Target @oneOf { id: ID name: String }
        type Mutation { touch(filter: PostFilter!, target: Target): Post }
        """

    static let documents = """
        query PostScreen($id: ID!) {
          post(id: $id) {
            id title body createdAt price url uid raw mood moods
            author { name @required(action: NONE) login }
            editor { login @required(action: THROW) }
            ...PostStrict_post
          }
          actors { ... on User { login } ... on Bot { model } }
          node(id: $id) { ...NodeId_node }
        }
        fragment PostStrict_post on Post @throwOnFieldError { score }
        fragment NodeId_node on Node { id }
        mutation Touch($filter: PostFilter!, $target: Target) { touch(filter: $filter, target: $target) { id } }
        """

    static let response = """
        {"data": {
          "post": {"__typename": "Post", "id": "p1", "title": "Hello", "body": null, "createdAt": "2017-11-04T18:48:46.250Z",
                   "price": "12.50", "url": "https://example.com/a", "uid": "not-a-uuid", "raw": "opaque text",
                   "mood": "ANGRY", "moods": ["HAPPY", "SAD"], "author": {"__typename": "User", "name": null, "login": "ann"},
                   "editor": {"__typename": "User", "login": null}, "score": null},
          "actors": [{"__typename": "User", "login": "octocat"}, {"__typename": "Bot", "model": "R2"}, null],
          "node": {"__typename": "User", "id": "u1"}
        },
        "errors": [{"message": "score hidden", "path": ["post", "score"]}]}
        """

    static let program = #"""
        import Baton
        import Foundation

        func show(_ value: Any?) -> String { value.map { "\($0)" } ?? "nil" }

        let store = Store()
        let screen = PostScreen(id: "p1")
        _ = try store.commit(GraphQLResponse(bytes: Data(CommandLine.arguments[1].utf8)), for: screen)
        let data = try store.read(screen)
        if let post = data.post {
            print("title: \(post.title)")
            print("body: \(show(post.body))")
            print("createdAt: \(show(post.createdAt.map { $0.timeIntervalSince1970 }))")
            print("price: \(show(post.price))")
            print("url: \(show(post.url?.host()))")
            print("uid: \(show(post.uid))")
            print("raw: \(show(post.raw))")
            print("mood: \(show(post.mood)) rawText: \(show(post.mood?.rawText))")
            print("moods: \(show(post.moods?.map(\.rawText)))")
            print("author: \(show(post.author?.login))")
            do { _ = try post.editor?.login } catch { print("editor.login: \(error)") }
            do { _ = try post.postStrict.wrappedValue.score } catch { print("score: \(error)") }
        }
        for actor in data.actors ?? [] {
            print("actor: user \(show(actor.asUser?.login)) bot \(show(actor.asBot?.model))")
        }
        print("node: \(show(data.node?.nodeId.id))")
        print("round trip: \(Mood(rawText: "SAD") == Mood(rawText: Mood(rawText: "SAD").rawText)) \(Mood(rawText: "NEW").rawText)")
        let sad = Mood(rawText: "SAD")
        print("equality: \(Mood.HAPPY == .HAPPY) \(Mood.HAPPY == sad) \(Mood.unknown("HAPPY") == .HAPPY) \(Mood.unknown("x") == .unknown("x")) \(Mood.unknown("x") == .unknown("y"))")
        print("set: \(Set([Mood.HAPPY, .HAPPY, sad, .unknown("HAPPY"), .unknown("x"), .unknown("x")]).count)")

        var filter = PostFilter(mood: .HAPPY, limit: 5, price: Decimal(string: "1.5"))
        filter.text = .null
        let touch = Touch(filter: filter, target: .name("x"))
        print("variables: \(JSONValue.object(JSONObject(touch.variables.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })).canonicalText)")
        print("absent: \(Touch(filter: PostFilter()).variables.keys.sorted())")
        print("id: \(Touch.operationID.count) \(PostScreen.operationID == Touch.operationID)")
        """#

    static let expected = """
        title: Hello
        body: nil
        createdAt: 1509821326.25
        price: 12.5
        url: example.com
        uid: nil
        raw: opaque text
        mood: unknown("ANGRY") rawText: ANGRY
        moods: ["HAPPY", "SAD"]
        author: nil
        editor.login: required field post.editor.login is null
        score: field errors: score hidden
        actor: user octocat bot nil
        actor: user nil bot R2
        actor: user nil bot nil
        node: u1
        round trip: true NEW
        equality: true false false true false
        set: 4
        variables: {"filter":{"limit":5,"mood":"HAPPY","price":1.5,"text":null},"target":{"name":"x"}}
        absent: ["filter"]
        id: 64 false

        """

    func testGeneratedCodeBehavesAsTheGuideSays() throws {
        let schema = try ModelHarness.schema(sdl: Self.schema)
        let options = LensModelOptions(customScalars: [
            "DateTime": CustomScalarMapping(swiftType: "Foundation.Date"),
            "Money": CustomScalarMapping(swiftType: "Foundation.Decimal"),
            "Link": CustomScalarMapping(swiftType: "Foundation.URL"),
            "Uid": CustomScalarMapping(swiftType: "Foundation.UUID"),
        ])
        let model = try ModelHarness.model(
            schema: schema, documents: [("behaviour.graphql", Self.documents)], options: options)
        let files = SwiftGenerator(model: model).generate()
        XCTAssertEqual(files, SwiftGenerator(model: model).generate(), "same input, same bytes")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-behaviour-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try FileWriter(root: folder.path, managedExtensions: ["swift"]).write(files)
        try Self.program.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let output = try SwiftCompiler.buildAndRun(
            files.map { folder.appendingPathComponent($0.path).path } + [
                folder.appendingPathComponent("main.swift").path
            ],
            arguments: [Self.response])
        XCTAssertEqual(output, Self.expected)
    }
}
