import Baton
import Foundation

/// `query LocationList { locations { results { id name } } }`
struct LocationList: GraphQLOperation {
    static let operationName = "LocationList"
    static let document = "query LocationList { locations { results { id name } } }"
    var variables: [String: JSONValue] { [:] }
    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let locations = Field(
            "locations", type: .named("Locations"),
            selections: [
                .field(
                    "results", type: .list(.named("Location")),
                    selections: [.field("id", type: .named("ID")), .field("name", type: .named("String"))])
            ])
        static let selections: [Selection] = [.field(locations)]
    }
}

/// `query CharacterDetail($id: ID!) { character(id: $id) { id name origin { id name dimension } } }`
struct CharacterDetail: GraphQLOperation {
    static let operationName = "CharacterDetail"
    static let document =
        "query CharacterDetail($id: ID!) { character(id: $id) { id name origin { id name dimension } } }"
    var id: String
    var variables: [String: JSONValue] { ["id": .string(id)] }
    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let character = Field(
            "character", arguments: [("id", .variable("id"))], type: .named("Character"),
            selections: Character.selections)
        static let selections: [Selection] = [.field(character)]
        var character: Character? { lens.read(Self.character) }
    }
    struct Character: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let name = Field("name", type: .named("String"))
        static let origin = Field("origin", type: .named("Location"), selections: Origin.selections)
        static let selections: [Selection] = [.field("id", type: .named("ID")), .field(name), .field(origin)]
        var name: String? { lens.read(Self.name) }
        var origin: Origin? { lens.read(Self.origin) }
    }
    struct Origin: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let name = Field("name", type: .named("String"))
        static let dimension = Field("dimension", type: .named("String"))
        static let selections: [Selection] = [.field("id", type: .named("ID")), .field(name), .field(dimension)]
        var name: String? { lens.read(Self.name) }
        var dimension: String? { lens.read(Self.dimension) }
    }
}

/// `query CharacterOrigin($id: ID!) { character(id: $id) { id origin { id name } } }`
struct CharacterOrigin: GraphQLOperation {
    static let operationName = "CharacterOrigin"
    static let document = "query CharacterOrigin($id: ID!) { character(id: $id) { id origin { id name } } }"
    static var onError: String? { "PROPAGATE" }
    var id: String
    var variables: [String: JSONValue] { ["id": .string(id)] }
    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let character = Field(
            "character", arguments: [("id", .variable("id"))], type: .named("Character"),
            selections: [
                .field("id", type: .named("ID")),
                .field(
                    "origin", type: .named("Location"),
                    selections: [.field("id", type: .named("ID")), .field("name", type: .named("String"))]),
            ])
        static let selections: [Selection] = [.field(character)]
    }
}

enum HealAnswers {
    static let locationList =
        #"{"data":{"locations":{"results":[{"id":"1","name":"Earth (C-137)"},{"id":"3","name":"Citadel of Ricks"}]}}}"#
    static let detail =
        #"{"data":{"character":{"id":"1","name":"Rick Sanchez","origin":{"id":"1","name":"Earth (C-137)","dimension":"Dimension C-137"}}}}"#
    static let retargeted = #"{"data":{"character":{"id":"1","origin":{"id":"3","name":"Citadel of Ricks"}}}}"#
    static let detailHealed =
        #"{"data":{"character":{"id":"1","name":"Rick Sanchez","origin":{"id":"3","name":"Citadel of Ricks","dimension":"unknown"}}}}"#
    static let detailWithoutDimension =
        #"{"data":{"character":{"id":"1","name":"Rick Sanchez","origin":{"id":"3","name":"Citadel of Ricks"}}}}"#
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { current = start }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }

    var function: @Sendable () -> Date { { self.now } }
}
