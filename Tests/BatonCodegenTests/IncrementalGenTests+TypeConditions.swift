import BatonCodegen
import BatonCompiler
import Foundation
import XCTest

/// Fragments on an interface or a union read their type condition from one table per module
/// (`Baton+TypeConditions.graphql.swift`): the table holds every abstract type some fragment is
/// written on, whatever an incremental run keeps, and goes when no such fragment is left.
extension IncrementalGenTests {
    func testTheTypeConditionTableFollowsTheFragmentsOnAbstractTypes() throws {
        let table = "Swift/Baton+TypeConditions.graphql.swift"
        XCTAssertNil(try outputs()[table], "no fragment on an abstract type, no table")
        try FileManager.default.removeItem(atPath: folder + "/Documents")
        try assertIncrementalIsCold("a schema with an interface and a union") {
            try write(
                "schema.graphql",
                """
                type Query { node(id: ID!): Node actor: Actor hero: Hero }
                interface Node { id: ID! }
                type Hero implements Node { id: ID! name: String }
                type Droid implements Node { id: ID! model: String }
                type Bot { id: ID! }
                union Actor = Hero | Bot

                """)
            try write("Documents/NodeBits.graphql", "fragment NodeBits on Node { id }\n")
            try write("Documents/ActorBits.graphql", "fragment ActorBits on Actor { __typename }\n")
            try write("Documents/HeroBits.graphql", "fragment HeroBits on Hero { name }\n")
            try write(
                "Documents/Queries.graphql",
                "query Node($id: ID!) { node(id: $id) { ...NodeBits } }\nquery Actor { actor { ...ActorBits } }\n"
                    + "query Hero { hero { ...HeroBits ... on Node { id } } }\n")
        }
        let first = try outputs()
        let declared = try XCTUnwrap(first[table])
        XCTAssertTrue(
            declared.contains(
                #"static let on_Actor: Baton.TypeCondition = Baton.TypeCondition("Actor", possibleTypes: ["Bot", "Hero"])"#))
        XCTAssertTrue(
            declared.contains(
                #"static let on_Node: Baton.TypeCondition = Baton.TypeCondition("Node", possibleTypes: ["Droid", "Hero"])"#))
        XCTAssertFalse(declared.contains("on_Hero"), "an object type's condition is written in place")
        XCTAssertTrue(first["Swift/NodeBits.graphql.swift"]?.contains("{ Baton.TypeCondition.on_Node }\n") == true)
        XCTAssertTrue(first["Swift/HeroBits.graphql.swift"]?.contains(#"{ Baton.TypeCondition("Hero") }"#) == true)
        // An inline fragment's condition is its own intersection, written in place.
        XCTAssertTrue(first["Swift/Hero.graphql.swift"]?.contains("Baton.TypeCondition.on_") == false)

        // An edit elsewhere keeps the fragments on abstract types; the table is still the cold run's.
        let (_, kept) = try assertIncrementalIsCold("an edited fragment on an object type") {
            try write("Documents/HeroBits.graphql", "fragment HeroBits on Hero { name id }\n")
        }
        XCTAssertGreaterThan(kept, 0)
        try assertIncrementalIsCold("the fragment on a union removed") {
            try FileManager.default.removeItem(atPath: folder + "/Documents/ActorBits.graphql")
            try write(
                "Documents/Queries.graphql",
                "query Node($id: ID!) { node(id: $id) { ...NodeBits } }\nquery Hero { hero { ...HeroBits } }\n")
        }
        XCTAssertEqual(try outputs()[table]?.contains("on_Actor"), false)
        XCTAssertEqual(try outputs()[table]?.contains("on_Node"), true)
        try assertIncrementalIsCold("every fragment on an abstract type removed") {
            try FileManager.default.removeItem(atPath: folder + "/Documents/NodeBits.graphql")
            try write("Documents/Queries.graphql", "query Hero { hero { ...HeroBits } }\n")
        }
        XCTAssertNil(try outputs()[table])
    }
}
