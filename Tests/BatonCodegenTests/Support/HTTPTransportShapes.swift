import Baton
import BatonIR
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the Swift runtime sends for the network tests' operations, for comparing with the Kotlin transports: the
/// persisted ids and documents come from `baton gen`'s manifest (Tests/BatonNetworkTests/Operations), the same model
/// both runtimes' generated code is written from.
enum HTTPTransportShapes {
    struct ManifestOperation: Decodable {
        var id: String
        var name: String
        var body: String
    }

    struct Manifest: Decodable {
        var operations: [ManifestOperation]
    }

    static let operations: [String: ManifestOperation] = {
        let url = KotlinBuild.network.appendingPathComponent("Operations/persisted-queries.json")
        guard let data = try? Data(contentsOf: url), let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [:] }
        return Dictionary(manifest.operations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    static var characterQueryID: String { operations["CharacterQuery"]?.id ?? "CharacterQuery is not in the manifest" }
    static var charactersPageID: String { operations["CharactersPage"]?.id ?? "CharactersPage is not in the manifest" }
    static var renameCharacterID: String {
        operations["RenameCharacter"]?.id ?? "RenameCharacter is not in the manifest"
    }

    /// The id of the Kotlin server checks' hand-written `ServerCharacter` (in no manifest).
    static let serverCharacterID = SHA256.hexDigest(
        "query ServerCharacter($id: ID!) { character(id: $id) { id name status __typename } }")

    /// The URL Swift's `HTTPTransport` GETs for `CharactersPage(first:after:)` at `https://example.com/graphql?app=1`.
    static func getURL(first: Int, after: String) -> URLComponents? {
        guard let page = operations["CharactersPage"], let base = URL(string: "https://example.com/graphql?app=1")
        else { return nil }
        let request = GraphQLRequest(
            operationName: page.name, query: page.body,
            variables: ["first": .number(String(first)), "after": .string(after)], onError: "PROPAGATE")
        let transport = HTTPTransport(url: base, method: .getForQueries)
        guard let url = transport.urlRequest(for: request).url else { return nil }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)
    }
}
