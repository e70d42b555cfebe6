import Baton
import Foundation
import XCTest

/// An operation with `@defer` and `@stream` fetched through an `IncrementalTransport`: each payload committed as its
/// own batch, read between payloads as a view reads it (the byte fixtures of `IncrementalDeliveryTests`).
final class IncrementalFetchTests: XCTestCase {
    /// `query RepositoryScreen { repository { name owner ...Issues_repository @defer(label: "issues")
    /// stargazers @stream(label: "more", initialCount: 1) { login } } }`, as generated.
    struct RepositoryScreen: GraphQLOperation {
        static let operationName = "RepositoryScreen"
        static let document =
            #"query RepositoryScreen { repository { __typename id name owner ...Issues_repository @defer(label: "issues") stargazers @stream(label: "more", initialCount: 1) { login } } } fragment Issues_repository on Repository { issues { __typename id title } }"#
        static var incrementalDelivery: Bool { true }
        var variables: [String: JSONValue] { [:] }

        struct Data: LensType {
            let lens: Lens
            init(lens: Lens) { self.lens = lens }
            static let repository = Field("repository", type: .named("Repository"), selections: Repository.selections)
            static let selections: [Selection] = [.field(repository)]
            var repository: Repository? { lens.read(Self.repository) }
        }

        struct Repository: LensType {
            let lens: Lens
            init(lens: Lens) { self.lens = lens }
            static let name = Field("name", type: .named("String"))
            static let stargazers = Field(
                "stargazers", type: .list(.nonNull(.named("User"))), selections: Stargazer.selections)
            static let selections: [Selection] = [
                .field("id", type: .nonNull(.named("ID"))), .field(name), .field("owner", type: .named("String")),
                .fragment(Issues.self), .field(stargazers),
            ]
            var name: String? { lens.read(Self.name) }
            var issues: DeferredPhase<Fragment<Issues>> { lens.deferred(Issues.self, label: "issues") ?? .pending }
            var stargazers: Streamed<LensList<Stargazer>?> { lens.streamed(Self.stargazers, initialCount: .literal(1)) }
        }

        struct Stargazer: LensType {
            let lens: Lens
            init(lens: Lens) { self.lens = lens }
            static let login = Field("login", type: .named("String"))
            static let selections: [Selection] = [.field(login)]
            var login: String? { lens.read(Self.login) }
        }

        struct Issues: FragmentLensType {
            let lens: Lens
            init(lens: Lens) { self.lens = lens }
            static let fragmentName: String? = "Issues_repository"
            static let typeCondition: TypeCondition? = TypeCondition("Repository")
            static let issues = Field("issues", type: .list(.nonNull(.named("Issue"))), selections: Issue.selections)
            static let selections: [Selection] = [.field(issues)]
            var issues: LensList<Issue>? { lens.read(Self.issues) }
        }

        struct Issue: LensType {
            let lens: Lens
            init(lens: Lens) { self.lens = lens }
            static let title = Field("title", type: .named("String"))
            static let selections: [Selection] = [.field("id", type: .nonNull(.named("ID"))), .field(title)]
            var title: String? { lens.read(Self.title) }
        }
    }

    /// Hands over a fixture's parts one by one, and after each records what the store reads.
    final class PartsTransport: IncrementalTransport, @unchecked Sendable {
        let parts: [Foundation.Data]
        let store: Store
        private(set) var seen: [String] = []
        private(set) var requests: [GraphQLRequest] = []

        init(_ fixture: String, store: Store) throws {
            var reader = MultipartReader(boundary: "-")
            parts = try reader.feed(Array(try Fixtures.data("incremental/" + fixture))).map { Foundation.Data($0) }
            self.store = store
        }

        func send(_ request: GraphQLRequest) async throws -> Foundation.Data {
            throw TransportError.failed("an incremental operation was sent whole")
        }

        func sendIncrementally(_ request: GraphQLRequest, receive: (Foundation.Data) async throws -> Void) async throws {
            requests.append(request)
            for part in parts {
                try await receive(part)
                seen.append(IncrementalFetchTests.describe(try? store.read(RepositoryScreen())))
            }
        }
    }

    static func describe(_ data: RepositoryScreen.Data?) -> String {
        guard let repository = data?.repository else { return "no repository" }
        let issues: String =
            switch repository.issues {
            case .pending: "issues pending"
            case .ready(let fragment): "issues " + (fragment.issues?.map { $0.title ?? "?" } ?? []).joined(separator: ", ")
            case .failed(let errors): "issues failed: \(errors)"
            }
        let stars = repository.stargazers
        let logins = (stars.items?.map { $0.login ?? "?" } ?? []).joined(separator: ", ")
        return "\(repository.name ?? "?"); \(issues); stargazers [\(logins)]\(stars.moreComing ? " more coming" : "")"
    }

    func fetch(_ fixture: String) async throws -> (PartsTransport, MemoryLog, FetchError?) {
        let store = Store()
        let transport = try PartsTransport(fixture, store: store)
        let log = MemoryLog()
        let environment = BatonEnvironment(store: store, transport: transport, log: log)
        do {
            _ = try await environment.fetch(RepositoryScreen())
            return (transport, log, nil)
        } catch {
            return (transport, log, error)
        }
    }

    /// The guide's repository screen with `issues` deferred: the repository first, then its issues; the request
    /// asked for an incremental answer.
    func testTheRepositoryFirstThenItsIssues() async throws {
        let (transport, log, error) = try await fetch("current-defer.multipart")
        XCTAssertNil(error)
        XCTAssertEqual(transport.seen, ["baton; issues pending; stargazers []", "baton; issues Defer it, Stream it; stargazers []"])
        XCTAssertEqual(transport.requests.first?.accept, GraphQLRequest.incrementalAccept)
        XCTAssertEqual(
            log.events.filter { $0.name == "committed" }.compactMap { $0.payload["payload"]?.stringValue },
            [
                "payload 1: filled data; pending 1; more coming",
                "payload 2: filled repository (issues); completed repository (issues); pending 0; complete",
            ])
    }

    /// A deferred fragment completed with errors reads as failed while the rest stays.
    func testAFailedFragmentReadsFailedWhileTheRestStays() async throws {
        let (transport, _, error) = try await fetch("current-failed.multipart")
        XCTAssertNil(error)
        XCTAssertEqual(transport.seen.last, "baton; issues failed: issues are unavailable; stargazers []")
    }

    /// A streamed list grows payload by payload, more coming until its stream completes.
    func testAStreamedListGrows() async throws {
        let (transport, _, error) = try await fetch("current-stream.multipart")
        XCTAssertNil(error)
        XCTAssertEqual(
            transport.seen,
            [
                "baton; issues pending; stargazers [ada] more coming",
                "baton; issues pending; stargazers [ada] more coming",
                "baton; issues pending; stargazers [ada, grace] more coming",
                "baton; issues pending; stargazers [ada, grace, linus]",
            ])
    }

    /// A payload that cannot be merged fails the fetch and commits nothing of itself; the first payload stays.
    func testAPayloadRefusedCommitsNothingOfItself() async throws {
        let (transport, _, error) = try await fetch("unknown-id.multipart")
        guard case .malformedResponse(let reason, _)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(reason, IncrementalError.unknownID("7").description)
        XCTAssertEqual(transport.seen, ["baton; issues pending; stargazers []"])
        XCTAssertEqual(Self.describe(try? transport.store.read(RepositoryScreen())), "baton; issues pending; stargazers []")
    }

    /// An answer that says more is coming and then ends fails the fetch.
    func testAnAnswerThatNeverCompletesFails() async throws {
        let (_, _, error) = try await fetch("never-ends.multipart")
        XCTAssertEqual(error, .malformedResponse(IncrementalError.endedWithMoreToCome.description, body: Data()))
    }
}
