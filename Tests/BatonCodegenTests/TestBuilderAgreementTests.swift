import BatonCodegen
import BatonCompiler
import BatonTestSupport
import Foundation
import XCTest

/// The test data builders of the `test-builders` generator fixture, called the same way in Swift (`BatonTesting`,
/// compiled by swiftc) and in Kotlin (`baton.testing`, in the shared kotlinc build): both print the same response
/// bodies, and those are the bodies below (defaults per type, nested lists with null and error items, a union's
/// `__typename` from a set inline fragment, a spread completing the parent's list items, a field left out, an error
/// with extensions, a replaced resolver).
final class TestBuilderAgreementTests: XCTestCase {
    static let expected = [
        #"defaults: {"data":{"viewer":null,"actors":null,"node":null}}"#,
        #"viewer: {"data":{"viewer":{"__typename":"User","id":"User:1","handle":"alice","name":null,"mood":null,"createdAt":null,"friends":[{"__typename":"User","id":"User:2","login":"login","name":null},null,null],"organization":{"__typename":"Organization","id":"Organization:1","name":null,"members":[{"__typename":"User","id":"User:3","login":"login","mood":"HAPPY","friends":null}]},"login":"login"},"actors":null,"node":null},"errors":[{"message":"gone","path":["viewer","friends",2]}]}"#,
        #"actors: {"data":{"viewer":null,"actors":[{"__typename":"User","id":"User:1","login":"u \"quoted\""},{"__typename":"Bot","model":null},{"__typename":"User","id":"User:2","login":"login"},null],"node":null}}"#,
        #"spread wins: {"data":{"viewer":{"__typename":"User","id":"User:1","handle":"login","name":"Ada","mood":null,"createdAt":null,"friends":[{"__typename":"User","name":"Bo","id":"User:2","login":"login"}],"organization":null,"login":"login"},"actors":null,"node":null}}"#,
        #"missing and error: {"data":{"viewer":null,"actors":null,"node":{"__typename":"User","id":"User:1","mood":"SAD","friends":null}},"errors":[{"message":"no viewer","path":["viewer"],"extensions":{"code":"DENIED"}}]}"#,
        #"resolver: {"data":{"viewer":null,"actors":null,"node":{"__typename":"Bot","id":"Bot-1"}}}"#,
    ]

    /// The Swift calls: `main.swift` beside the fixture's Swift builders.
    static let swiftProgram = #"""
        import BatonTesting

        func show(_ name: String, _ builder: ViewerBuilder, resolver: BuilderResolver = BuilderResolver()) {
            print(name + ": " + builder.response(resolver: resolver).body)
        }

        show("defaults", ViewerBuilder())
        show(
            "viewer",
            ViewerBuilder(
                viewer: .value(
                    .init(
                        handle: "alice", friends: [.value(.init()), .null, .error("gone")],
                        organization: .value(.init(members: [.value(.init(userRow: UserRowBuilder(mood: "HAPPY")))]))))))
        show(
            "actors",
            ViewerBuilder(actors: [
                .value(.init(asUser: .init(login: "u \"quoted\""))), .value(.init()), .value(.init(typename: "User")), .null,
            ]))
        show(
            "spread wins",
            ViewerBuilder(
                viewer: .value(.init(name: "Ada", userRow: UserRowBuilder(friends: [.value(.init(name: "Bo"))])))))
        show(
            "missing and error",
            ViewerBuilder(
                viewer: .error("no viewer", extensions: ["code": "DENIED"]),
                node: .value(.init(userRow: UserRowBuilder(login: .missing, mood: "SAD")))))
        show(
            "resolver", ViewerBuilder(node: .value(.init())),
            resolver: BuilderResolver(id: { typename, number in .string("\(typename)-\(number)") }))
        """#

    /// The same calls in Kotlin (`check.builders.BuilderCallsKt`), compiled in the shared build.
    static let kotlinProgram = #"""
        package check.builders

        import baton.testing.BuilderResolver
        import baton.testing.BuiltField
        import baton.testing.built
        import baton.testing.response
        import builders.UserRowBuilder
        import builders.ViewerBuilder

        fun show(name: String, builder: ViewerBuilder, resolver: BuilderResolver = BuilderResolver()) {
            println(name + ": " + response(builder, resolver).body)
        }

        fun main() {
            show("defaults", ViewerBuilder())
            show(
                "viewer",
                ViewerBuilder(
                    viewer = built(
                        ViewerBuilder.Viewer2(
                            handle = built("alice"),
                            friends = built(listOf(built(ViewerBuilder.Viewer2.Friends()), BuiltField.Null, BuiltField.Error("gone"))),
                            organization = built(
                                ViewerBuilder.Viewer2.Organization(
                                    members = built(
                                        listOf(built(ViewerBuilder.Viewer2.Organization.Members(userRow = UserRowBuilder(mood = built("HAPPY")))))
                                    )
                                )
                            )
                        )
                    )
                )
            )
            show(
                "actors",
                ViewerBuilder(
                    actors = built(
                        listOf(
                            built(ViewerBuilder.Actors(asUser = ViewerBuilder.Actors.AsUser(login = built("u \"quoted\"")))),
                            built(ViewerBuilder.Actors()),
                            built(ViewerBuilder.Actors(typename = "User")),
                            BuiltField.Null
                        )
                    )
                )
            )
            show(
                "spread wins",
                ViewerBuilder(
                    viewer = built(
                        ViewerBuilder.Viewer2(
                            name = built("Ada"),
                            userRow = UserRowBuilder(friends = built(listOf(built(UserRowBuilder.Friends(name = built("Bo"))))))
                        )
                    )
                )
            )
            show(
                "missing and error",
                ViewerBuilder(
                    viewer = BuiltField.Error("no viewer", mapOf("code" to "DENIED")),
                    node = built(ViewerBuilder.Node(userRow = UserRowBuilder(login = BuiltField.Missing, mood = built("SAD"))))
                )
            )
            show("resolver", ViewerBuilder(node = built(ViewerBuilder.Node())), BuilderResolver(id = { typename, number -> "$typename-$number" }))
        }
        """#

    /// The fixture's files of one target, as `baton gen` writes them.
    static func fixtureFiles(_ target: String) throws -> [GeneratedFile] {
        guard let fixture = GeneratorFixtureTests.cases.first(where: { $0.name == "test-builders.graphql" }) else {
            throw KotlinBuild.KotlinBuildError(message: "no generator fixture test-builders")
        }
        let schema = try Data(contentsOf: GeneratorFixtureTests.fixtures.appendingPathComponent("schema.graphql"))
        let project = FixtureProject(
            sections: try fixture.sections(keepsPreamble: true), defaultSchema: ("schema.graphql", Array(schema)),
            upTo: .generate, targets: .configured)
        guard let output = project.compilation.outputs.first(where: { $0.target.name == target }) else {
            throw KotlinBuild.KotlinBuildError(message: "test-builders: \(project.diagnostics.map(\.message))")
        }
        return output.files.filter { !$0.path.hasPrefix("baton/runtime/") && !$0.path.hasPrefix("baton/testing/") }
    }

    func testSwiftBuildersWriteTheExpectedResponses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-builders-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var files = try Self.fixtureFiles("swift-test-builders")
        files.append(GeneratedFile(path: "main.swift", contents: FileWriter.header + "\n\n" + Self.swiftProgram))
        _ = try FileWriter(root: folder.path, managedExtensions: ["swift"]).write(files)
        let output = try SwiftCompiler.buildAndRun(
            files.map { folder.appendingPathComponent($0.path).path }, testKit: true)
        XCTAssertEqual(output.split(separator: "\n").map(String.init), Self.expected)
    }

    func testKotlinBuildersWriteTheSameResponses() throws {
        let output = try KotlinBuild.shared().run("check.builders.BuilderCallsKt", [])
        XCTAssertEqual(output.split(separator: "\n").map(String.init), Self.expected)
    }
}
