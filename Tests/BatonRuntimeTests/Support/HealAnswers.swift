import Baton
import Foundation

/// `query LocationList { locations { results { id name } } }`, written by hand: the example schema the generated
/// operations use (Examples/RickAndMorty) has no `locations`.
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

/// The answers the healing tests commit for `LocationList`, `CharacterDetail` and `CharacterOrigin` (the last two
/// generated from Operations/ and Propagate/Operations/).
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
