import Baton
import Foundation
import XCTest

/// Persisted queries against a server that loaded `baton gen`'s manifest: the id alone is enough.
final class PersistedQueryTests: ServerTestCase {
    static let manifest = TestServer.packageRoot.appendingPathComponent(
        "Tests/BatonNetworkTests/Operations/persisted-queries.json")
    override class var serverArguments: [String] { ["--manifest", manifest.path] }

    func environment(_ key: String, _ mode: HTTPTransport.PersistedQueries, method: HTTPTransport.Method = .post)
        throws -> BatonEnvironment
    {
        BatonEnvironment(
            transport: HTTPTransport(
                url: try server.url, headers: ["X-Baton-Test-Key": key], method: method, persistedQueries: mode),
            retryPolicy: .never)
    }

    func testTheManifestListsEveryOperationWithItsGeneratedID() throws {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.manifest)) as? [String: Any]
        XCTAssertEqual(object?["format"] as? String, "apollo-persisted-query-manifest")
        XCTAssertEqual(object?["version"] as? Int, 1)
        let operations = object?["operations"] as? [[String: String]] ?? []
        XCTAssertEqual(
            operations.map { $0["name"] ?? "" },
            ["CharacterQuery", "CharacterRenamed", "CharactersPage", "RenameCharacter", "Ticks"])
        let byName = Dictionary(uniqueKeysWithValues: operations.map { ($0["name"] ?? "", $0) })
        XCTAssertEqual(byName["CharacterQuery"]?["id"], CharacterQuery.operationID)
        XCTAssertEqual(byName["CharacterQuery"]?["body"], CharacterQuery.document)
        XCTAssertEqual(byName["RenameCharacter"]?["type"], "mutation")
        XCTAssertEqual(byName["Ticks"]?["type"], "subscription")
    }

    func testPersistedOnlySendsTheIDAndNeverTheDocument() async throws {
        let key = UUID().uuidString
        let environment = try environment(key, .persistedOnly)
        let data = try await environment.fetch(CharacterQuery(id: "21"))
        XCTAssertEqual(data.character?.characterSummary.name, "Character 21")
        let renamed = try await environment.fetch(RenameCharacter(id: "22", name: "Persisted"))
        XCTAssertEqual(renamed.renameCharacter?.name, "Persisted")
        let log = try server.log(key: key)
        XCTAssertEqual(log.map(\.hasQuery), [false, false])
        XCTAssertEqual(log.map(\.persistedId), [CharacterQuery.operationID, RenameCharacter.operationID])
    }

    func testPersistedOnlyAsGETPutsOnlyTheIDInTheURL() async throws {
        let key = UUID().uuidString
        let environment = try environment(key, .persistedOnly, method: .getForQueries)
        let page = try await environment.fetch(CharactersPage(first: 2))
        XCTAssertEqual(page.characters.edges.map(\.node.id), ["1", "2"])
        let log = try server.log(key: key)
        XCTAssertEqual(log.map(\.method), ["GET"])
        XCTAssertEqual(log.first?.hasQuery, false)
    }
}

/// Automatic persisted queries and persisted-only mode against a server without a manifest.
final class AutomaticPersistedQueryTests: ServerTestCase {
    func environment(_ key: String, _ mode: HTTPTransport.PersistedQueries) throws -> BatonEnvironment {
        BatonEnvironment(
            transport: HTTPTransport(url: try server.url, headers: ["X-Baton-Test-Key": key], persistedQueries: mode),
            retryPolicy: .never)
    }

    func testTheDocumentGoesOnlyWhenTheServerDoesNotKnowTheHash() async throws {
        let key = UUID().uuidString
        let environment = try environment(key, .automatic)
        // A fragment is part of the document the hash covers: the server checks the hash against the text.
        let first = try await environment.fetch(CharacterQuery(id: "31"))
        XCTAssertEqual(first.character?.characterSummary.name, "Character 31")
        let second = try await environment.fetch(CharacterQuery(id: "32"))
        XCTAssertEqual(second.character?.characterSummary.name, "Character 32")
        let log = try server.log(key: key)
        XCTAssertEqual(log.map(\.hasQuery), [false, true, false], "hash, then hash and document, then hash")
        XCTAssertEqual(Set(log.compactMap(\.persistedId)), [CharacterQuery.operationID])
    }

    func testPersistedOnlyFailsClearlyWhenTheServerLacksTheID() async throws {
        let key = UUID().uuidString
        do {
            let environment = try environment(key, .persistedOnly)
            _ = try await environment.fetch(CharactersPage(first: 1))
            XCTFail("an unknown id must fail in persisted-only mode")
        } catch {
            XCTAssertEqual(
                error as? FetchError,
                .protocolViolation("the server has no persisted query \(CharactersPage.operationID)"))
        }
        XCTAssertEqual(try server.log(key: key).map(\.hasQuery), [false], "the document is never sent")
    }
}
