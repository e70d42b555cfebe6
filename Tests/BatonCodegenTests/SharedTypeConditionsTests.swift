import BatonCodegen
import BatonCompiler
import Foundation
import XCTest

/// Fragments on an interface or a union read their type condition from one table per module
/// (`Baton+TypeConditions.graphql.swift`): the table holds every abstract type some fragment is
/// written on, whatever an incremental run keeps, and goes when no such fragment is left.
final class SharedTypeConditionsTests: XCTestCase {
    var folder = ""
    static let table = "Swift/Baton+TypeConditions.graphql.swift"

    static let schema = """
        type Query { node(id: ID!): Node actor: Actor hero: Hero }
        interface Node { id: ID! }
        type Hero implements Node { id: ID! name: String }
        type Droid implements Node { id: ID! model: String }
        type Bot { id: ID! }
        union Actor = Hero | Bot

        """

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "baton-type-conditions-" + UUID().uuidString
        try write("schema.graphql", Self.schema)
        try write(
            "baton.json",
            #"{"schema": "schema.graphql", "documents": "Documents/**/*.graphql", "output": {"swift": {"path": "Generated/Swift"}}}"#
        )
        try write("Documents/NodeBits.graphql", "fragment NodeBits on Node { id }\n")
        try write("Documents/ActorBits.graphql", "fragment ActorBits on Actor { __typename }\n")
        try write("Documents/HeroBits.graphql", "fragment HeroBits on Hero { name }\n")
        try write(
            "Documents/Queries.graphql",
            "query Node($id: ID!) { node(id: $id) { ...NodeBits } }\nquery Actor { actor { ...ActorBits } }\n"
                + "query Hero { hero { ...HeroBits ... on Node { id } } }\n")
        XCTAssertEqual(gen().status, .clean)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func write(_ path: String, _ text: String, in root: String? = nil) throws {
        let full = (root ?? folder) + "/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    func gen(in root: String? = nil) -> DriverResult {
        Driver(request: ProjectRequest(workingDirectory: root ?? folder), targets: .configured).generate(check: false)
    }

    func outputs(in root: String? = nil) throws -> [String: String] {
        let base = (root ?? folder) + "/Generated"
        var files: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: base)
        where path.hasSuffix(".swift") {
            files[path] = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
        }
        return files
    }

    /// Generates after `edit`, incrementally, and compares with a cold run in a fresh copy.
    func assertMatchesAColdRun(_ what: String, _ edit: () throws -> Void) throws -> [String: String] {
        try edit()
        XCTAssertEqual(gen().status, .clean, what)
        let copy = folder + "-cold"
        try? FileManager.default.removeItem(atPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name != "Generated" {
            try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: copy + "/" + name)
        }
        XCTAssertEqual(gen(in: copy).status, .clean, what)
        let incremental = try outputs()
        XCTAssertEqual(incremental, try outputs(in: copy), what)
        return incremental
    }

    func testTheTableFollowsTheFragmentsOnAbstractTypes() throws {
        let first = try outputs()
        let table = try XCTUnwrap(first[Self.table])
        XCTAssertTrue(table.contains(#"static let on_Actor: Baton.TypeCondition = Baton.TypeCondition("Actor", possibleTypes: ["Bot", "Hero"])"#))
        XCTAssertTrue(table.contains(#"static let on_Node: Baton.TypeCondition = Baton.TypeCondition("Node", possibleTypes: ["Droid", "Hero"])"#))
        XCTAssertFalse(table.contains("on_Hero"), "an object type's condition is written in place")
        XCTAssertTrue(first["Swift/NodeBits.graphql.swift"]?.contains("= Baton.TypeCondition.on_Node\n") == true)
        XCTAssertTrue(first["Swift/HeroBits.graphql.swift"]?.contains(#"= Baton.TypeCondition("Hero")"#) == true)
        // An inline fragment's condition is its own intersection, written in place.
        XCTAssertTrue(first["Swift/Hero.graphql.swift"]?.contains("Baton.TypeCondition.on_") == false)

        // An edit elsewhere keeps the fragments' files; the table is the cold run's.
        _ = try assertMatchesAColdRun("an edited query") {
            try write("Documents/HeroBits.graphql", "fragment HeroBits on Hero { name id }\n")
        }
        // The last fragment on Actor gone: its entry goes, Node's stays.
        let withoutActor = try assertMatchesAColdRun("the fragment on a union removed") {
            try FileManager.default.removeItem(atPath: folder + "/Documents/ActorBits.graphql")
            try write(
                "Documents/Queries.graphql",
                "query Node($id: ID!) { node(id: $id) { ...NodeBits } }\nquery Hero { hero { ...HeroBits } }\n")
        }
        XCTAssertEqual(withoutActor[Self.table]?.contains("on_Actor"), false)
        XCTAssertEqual(withoutActor[Self.table]?.contains("on_Node"), true)
        // No fragment on an abstract type left: no table.
        let none = try assertMatchesAColdRun("every fragment on an abstract type removed") {
            try FileManager.default.removeItem(atPath: folder + "/Documents/NodeBits.graphql")
            try write("Documents/Queries.graphql", "query Hero { hero { ...HeroBits } }\n")
        }
        XCTAssertNil(none[Self.table])
    }
}
