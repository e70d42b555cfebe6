import BatonCodegen
import BatonCompiler
import BatonTestSupport
import Foundation
import XCTest

/// `output.swift.accessModifier` lets generated code live in a module of its own: the generator
/// fixtures' `public` and `package` Swift is compiled as a module (`GraphQLAPI`) and a second
/// module imports it and uses its operations, lenses, namespaced enums and input objects; the same
/// client does not compile against `internal` code, so the setting is what makes it work.
final class SwiftAccessModifierTests: XCTestCase {
    /// A client in another module: builds operations with namespaced inputs, reads the enum.
    static let client = """
        import Baton
        import GraphQLAPI

        func label(_ row: Row_user) -> String { row.login }
        let filter = API.MoodFilter(mood: API.Mood.HAPPY)
        let operation = API_(filter: filter, pick: API.Pick.login("octocat"))
        print(API_.operationName, operation.variables.keys.sorted().joined(separator: ","))
        print(API.Mood(rawText: "SAD").rawText, API.Mood(rawText: "NEW").rawText)
        let viewer: Viewer.Data.Viewer2? = nil
        print(viewer?.mood?.rawText ?? "none")
        """

    func testPublicSwiftIsUsedFromAnotherModule() throws {
        let output = try buildAndRunClient(fixture: "public-namespace", packageName: nil)
        XCTAssertEqual(output, "API filter,pick\nSAD NEW\nnone\n")
    }

    /// `public` with the operation suffix on a mutation (its call and variables, client-only ones apart), a
    /// connection (its lens and id) and a `@refetchable` fragment with its pagination query.
    func testPublicMutationsConnectionsAndPaginationAreUsedFromAnotherModule() throws {
        let client = """
            import Baton
            import GraphQLAPI

            let input = API.AddCommentInput(subjectId: "I1", body: "Hello")
            let add = AddCommentMutation(input: input, connections: [])
            print(AddCommentMutation.operationName, add.variables.keys.sorted(), add.clientVariables.keys.sorted())
            let issue = IssueQuery(id: "I1", order: API.CommentOrder.NEWEST)
            print(IssueQuery.operationName, issue.variables.keys.sorted())
            print(IssueCommentsPaginationQuery.operationName, IssueComments_issue.connectionPath.count)
            func bodies(_ fragment: IssueComments_issue) -> ([String], Baton.ConnectionID, Bool) {
                let edges = fragment.comments.edges.map { Array($0) } ?? []
                return (
                    edges.compactMap { $0.value?.node?.body }, fragment.comments.connectionID,
                    fragment.comments.pageInfo.hasNextPage
                )
            }
            func send(_ call: Baton.MutationCall<AddCommentMutation>, to connection: Baton.ConnectionID) async throws {
                let data = try await call(input: input, connections: [connection])
                print(data.addComment?.commentEdge?.node?.body ?? "none")
            }
            """
        XCTAssertEqual(
            try buildAndRunClient(fixture: "public-pagination", packageName: nil, client: client),
            """
            AddComment ["input"] ["connections"]
            IssueQuery ["id", "order"]
            IssueCommentsPaginationQuery 1

            """)
    }

    func testPackageSwiftIsUsedFromAnotherModuleOfThePackage() throws {
        let client = """
            import GraphQLAPI

            let operation = Viewer(filter: Schema.MoodFilter(mood: .SAD, limit: 3))
            print(Viewer.operationName, operation.variables.keys.sorted())
            """
        XCTAssertEqual(
            try buildAndRunClient(fixture: "package-access", packageName: "App", client: client),
            "Viewer [\"filter\"]\n")
    }

    func testInternalSwiftIsNotVisibleFromAnotherModule() throws {
        // The same fixture generated without the setting: the client cannot see the types.
        XCTAssertThrowsError(
            try buildAndRunClient(fixture: "public-namespace", packageName: nil, removingAccess: true)
        ) { error in
            XCTAssertTrue("\(error)".contains("cannot find"), "\(error)")
        }
    }

    /// Generates the fixture's Swift, compiles it as the library module `GraphQLAPI`, and builds and
    /// runs `client` as a program of another module importing it.
    private func buildAndRunClient(
        fixture name: String, packageName: String?, client: String = client, removingAccess: Bool = false
    ) throws -> String {
        let fixture = try XCTUnwrap(GeneratorFixtureTests.cases.first { $0.name == name + ".graphql" })
        var sections = try fixture.sections(keepsPreamble: true)
        if removingAccess, let index = sections.firstIndex(where: { $0.path == "baton.json" }) {
            sections[index].text = sections[index].text.replacingOccurrences(
                of: #""accessModifier": "public", "#, with: "")
        }
        let schema = try Data(contentsOf: GeneratorFixtureTests.fixtures.appendingPathComponent("schema.graphql"))
        let project = FixtureProject(
            sections: sections, defaultSchema: ("schema.graphql", Array(schema)), upTo: .generate,
            targets: .named(["swift"]))
        let files = try XCTUnwrap(project.compilation.outputs.first?.files, "\(project.diagnostics.map(\.message))")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-access-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try FileWriter(root: folder.appendingPathComponent("GraphQLAPI").path, managedExtensions: ["swift"])
            .write(files)
        let sources = files.map { folder.appendingPathComponent("GraphQLAPI/" + $0.path).path }
        let runtime = try SwiftCompiler.runtime()
        let package = packageName.map { ["-package-name", $0] } ?? []
        try SwiftCompiler.run(
            SwiftCompiler.swiftc,
            SwiftCompiler.flags + package + [
                "-module-name", "GraphQLAPI", "-parse-as-library", "-emit-library", "-emit-module",
                "-emit-module-path", folder.appendingPathComponent("GraphQLAPI.swiftmodule").path,
                "-I", runtime.path, "-L", runtime.path, "-lBaton",
                "-o",
                folder.appendingPathComponent(
                    SwiftCompiler.runtimeLibrary.replacingOccurrences(of: "Baton", with: "GraphQLAPI")
                ).path,
            ] + sources)
        let main = folder.appendingPathComponent("main.swift")
        try client.write(to: main, atomically: true, encoding: .utf8)
        let executable = folder.appendingPathComponent("client")
        try SwiftCompiler.run(
            SwiftCompiler.swiftc,
            SwiftCompiler.flags + package + [
                "-module-name", "Client", "-I", folder.path, "-I", runtime.path, "-L", folder.path, "-L", runtime.path,
                "-lGraphQLAPI", "-lBaton", "-Xlinker", "-rpath", "-Xlinker", folder.path, "-Xlinker", "-rpath",
                "-Xlinker", runtime.path, "-o", executable.path, main.path,
            ])
        return try SwiftCompiler.run(executable.path, [])
    }
}
