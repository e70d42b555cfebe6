import BatonCodegen
import BatonCodegenSwift
import BatonIR
import Foundation
import XCTest

/// The members the Swift generator writes for views (Docs/SwiftUI.md): a query conforms to `AttachableOperation` (or
/// `DefaultVariablesOperation` when every variable may be left out), a lens reading its record's non-null `id` is
/// `Identifiable`, a list of lenses is a `LensList` (of `NullableItem`s where items are nullable), and a spread is a
/// `Fragment`. The model decides (`Lens.isIdentifiable`); the generated code compiles and runs as described.
final class SwiftViewCodegenTests: XCTestCase {
    static let schema = """
        type User { id: ID! login: String! handle: ID name: String }
        type Query { users(first: Int, phase: String): [User] team: [User!]! user(id: ID!): User grid: [[User]] }
        type Mutation { rename(id: ID!, name: String!): User }
        """

    static let documents = """
        query Users($first: Int, $phase: String) { users(first: $first, phase: $phase) { id ...UserName } team { id login } }
        query Shapes($id: ID!) {
          user(id: $id) { handle }
          aliased: users { id: login }
          caught: users { id @catch }
          grid { id }
        }
        fragment UserName on User { name }
        mutation Rename($id: ID!, $name: String!) { rename(id: $id, name: $name) { id } }
        """

    func model() throws -> LensModel {
        try ModelHarness.model(
            schema: try ModelHarness.schema(sdl: Self.schema), documents: [("views.graphql", Self.documents)])
    }

    func testTheModelDecidesWhichLensesAreIdentifiable() throws {
        let model = try model()
        func lens(_ operation: String, _ path: [String]) -> Lens? {
            var lens = model.operation(named: operation)?.lens
            for name in path { lens = lens?.accessors.first { $0.name == name }?.lens }
            return lens
        }
        XCTAssertEqual(lens("Users", ["users"])?.isIdentifiable, true, "id: ID! selected")
        XCTAssertEqual(lens("Users", ["team"])?.isIdentifiable, true)
        XCTAssertEqual(lens("Shapes", ["user"])?.isIdentifiable, false, "no id selected")
        XCTAssertEqual(lens("Shapes", ["aliased"])?.isIdentifiable, false, "`id` is an alias of login")
        XCTAssertEqual(lens("Shapes", ["caught"])?.isIdentifiable, false, "`id` reads a Result under @catch")
        XCTAssertEqual(lens("Shapes", ["grid"])?.isIdentifiable, true)
    }

    func testGeneratedMembersForViews() throws {
        let files = SwiftGenerator(model: try model()).generate()
        func file(_ name: String) throws -> String {
            try XCTUnwrap(files.first { $0.path == name + ".graphql.swift" }, name).contents
        }
        let users = try file("Users")
        XCTAssertTrue(users.contains("struct Users: Baton.DefaultVariablesOperation {"), users)
        XCTAssertTrue(users.contains("var attachment = Baton.Attachment<Users>()"))
        XCTAssertTrue(users.contains("init() { self.init(first: nil, phase_: nil) }"), "every variable may be unset")
        XCTAssertTrue(users.contains("var phase_: String?"), "a variable does not take the value's `phase`")
        XCTAssertTrue(users.contains("var users: Baton.LensList<Baton.NullableItem<Users2>>?"), users)
        XCTAssertTrue(users.contains("var team: Baton.LensList<Team> {"), users)
        XCTAssertTrue(users.contains("struct Users2: Baton.LensType, Swift.Identifiable {"), users)
        XCTAssertTrue(users.contains("var userName: Baton.Fragment<UserName> { Baton.Fragment(lens: lens) }"), users)
        let shapes = try file("Shapes")
        XCTAssertTrue(shapes.contains("struct Shapes: Baton.AttachableOperation {"), "a required variable")
        XCTAssertFalse(shapes.contains("init() {"))
        XCTAssertTrue(shapes.contains("var grid: [Baton.LensList<Baton.NullableItem<Grid>>?]?"), shapes)
        XCTAssertEqual(shapes.components(separatedBy: ", Swift.Identifiable {").count, 2, "only grid's lens")
        let rename = try file("Rename")
        XCTAssertTrue(rename.contains("struct Rename: Baton.GraphQLOperation {"), "a mutation is not a view's value")
        XCTAssertFalse(rename.contains("attachment"))
    }

    /// The generated members compile and behave: `Users()` builds, items are identified by `id`, a null item stays.
    func testGeneratedMembersRun() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-views-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for file in SwiftGenerator(model: try model()).generate() {
            let url = folder.appendingPathComponent(file.path)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let main = folder.appendingPathComponent("main.swift")
        try #"""
        import Baton
        import Foundation

        func identities<C: Collection>(_ items: C) -> [String] where C.Element: Identifiable {
            items.map { "\($0.id)" }
        }

        let body = #"{"data":{"users":[{"id":"1","name":"Ann"},null],"team":[{"id":"2","login":"bo"}]}}"#
        let store = Store()
        _ = try store.commit(bytes: Data(body.utf8), for: Users())
        let data = try store.read(Users())
        let users = data.users ?? .empty
        print("users: \(users.count) \(identities(users)) \(users.map { $0.userName?.name ?? "nil" })")
        print("team: \(identities(data.team)) \(data.team.map(\.login))")
        print("phase: \(Users(phase_: "x").variables["phase"].map { "\($0)" } ?? "nil") \(Users().phase)")
        """#.write(to: main, atomically: true, encoding: .utf8)
        let output = try SwiftCompiler.buildAndRun(paths + [main.path])
        XCTAssertEqual(
            output,
            """
            users: 2 ["value(\\"1\\")", "null(index: 1)"] ["Ann", "nil"]
            team: ["2"] ["bo"]
            phase: string("x") failed(Users is not attached: read it through @Query, or attach it with \
            BatonEnvironment.attach and use the handle's attachedOperation)

            """)
    }
}
