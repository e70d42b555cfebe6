import Baton
import Foundation

// Hand-written in the shape Docs/Runtime.md asks the Swift generator for: each operation is a struct with its
// variables, each data type a struct wrapping a Lens, each field a static `Field`, each accessor one call.

/// `query TestProfileQuery($id: ID!) { character(id: $id) { id name origin { id name } status image
///  location { id name dimension } gender species type } }`
struct TestProfileQuery: GraphQLOperation {
    static let operationName = "TestProfileQuery"
    static let document =
        "query TestProfileQuery($id: ID!) { character(id: $id) { id name origin { id name } status image location { id name dimension } gender species type } }"
    var id: String
    var variables: [String: JSONValue] { ["id": .string(id)] }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let character = Field(
                "character", arguments: [("id", .variable("id"))], type: .named("Character"),
                selections: Character.selections)
        }
        static let selections: [Selection] = [.field(Fields.character)]
        var character: Character? { lens.read(Fields.character) }
    }

    struct Character: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let id = Field("id", type: .named("ID"))
            static let name = Field("name", type: .named("String"))
            static let origin = Field("origin", type: .named("Location"), selections: Origin.selections)
            static let status = Field("status", type: .named("String"))
            static let image = Field("image", type: .named("String"))
            static let location = Field("location", type: .named("Location"), selections: Location.selections)
            static let gender = Field("gender", type: .named("String"))
            static let species = Field("species", type: .named("String"))
            static let type = Field("type", type: .named("String"))
        }
        static let selections: [Selection] = [
            .field(Fields.id), .field(Fields.name), .field(Fields.origin), .field(Fields.status), .field(Fields.image),
            .field(Fields.location), .field(Fields.gender), .field(Fields.species), .field(Fields.type),
        ]
        var id: String? { lens.read(Fields.id) }
        var name: String? { lens.read(Fields.name) }
        var origin: Origin? { lens.read(Fields.origin) }
        var status: String? { lens.read(Fields.status) }
        var image: String? { lens.read(Fields.image) }
        var location: Location? { lens.read(Fields.location) }
        var gender: String? { lens.read(Fields.gender) }
        var species: String? { lens.read(Fields.species) }
        var type: String? { lens.read(Fields.type) }
    }

    struct Origin: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let id = Field("id", type: .named("ID"))
            static let name = Field("name", type: .named("String"))
        }
        static let selections: [Selection] = [.field(Fields.id), .field(Fields.name)]
        var id: String? { lens.read(Fields.id) }
        var name: String? { lens.read(Fields.name) }
    }

    struct Location: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let id = Field("id", type: .named("ID"))
            static let name = Field("name", type: .named("String"))
            static let dimension = Field("dimension", type: .named("String"))
        }
        static let selections: [Selection] = [.field(Fields.id), .field(Fields.name), .field(Fields.dimension)]
        var id: String? { lens.read(Fields.id) }
        var name: String? { lens.read(Fields.name) }
        var dimension: String? { lens.read(Fields.dimension) }
    }
}

/// `query TestConditions($id: ID!, $withOrigin: Boolean!, $hideStatus: Boolean!) { character(id: $id) { name
///  origin @include(if: $withOrigin) { name dimension id } species status @skip(if: $hideStatus) id } }`
struct TestConditions: GraphQLOperation {
    static let operationName = "TestConditions"
    static let document =
        "query TestConditions($id: ID!, $withOrigin: Boolean!, $hideStatus: Boolean!) { character(id: $id) { name origin @include(if: $withOrigin) { name dimension id } species status @skip(if: $hideStatus) id } }"
    var id: String
    var withOrigin: Bool
    var hideStatus: Bool
    var variables: [String: JSONValue] {
        ["id": .string(id), "withOrigin": .bool(withOrigin), "hideStatus": .bool(hideStatus)]
    }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let character = Field(
                "character", arguments: [("id", .variable("id"))], type: .named("Character"),
                selections: Character.selections)
        }
        static let selections: [Selection] = [.field(Fields.character)]
        var character: Character? { lens.read(Fields.character) }
    }

    struct Character: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let name = Field("name", type: .named("String"))
            static let origin = Field(
                "origin", type: .named("Location"), selections: Origin.selections, conditions: [.include("withOrigin")])
            static let species = Field("species", type: .named("String"))
            static let status = Field("status", type: .named("String"), conditions: [.skip("hideStatus")])
            static let id = Field("id", type: .named("ID"))
        }
        static let selections: [Selection] = [
            .field(Fields.name), .field(Fields.origin), .field(Fields.species), .field(Fields.status),
            .field(Fields.id),
        ]
        var name: String? { lens.read(Fields.name) }
        var origin: Origin? { lens.read(Fields.origin) }
        var species: String? { lens.read(Fields.species) }
        var status: String? { lens.read(Fields.status) }
        var id: String? { lens.read(Fields.id) }
    }

    struct Origin: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let name = Field("name", type: .named("String"))
            static let dimension = Field("dimension", type: .named("String"))
            static let id = Field("id", type: .named("ID"))
        }
        static let selections: [Selection] = [.field(Fields.name), .field(Fields.dimension), .field(Fields.id)]
        var name: String? { lens.read(Fields.name) }
        var dimension: String? { lens.read(Fields.dimension) }
        var id: String? { lens.read(Fields.id) }
    }
}
