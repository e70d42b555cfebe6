// Written by ScenarioTablePrinter from Tests/BatonCodegenTests/KotlinScenarios/Scenarios.json: do not edit.
// Refresh: BATON_UPDATE_FIXTURES=1 swift test --filter KotlinScenarioTests/testTheScenarioTablesAreUpToDate
import Baton

/// The scenario set's operations and reads, through the generated Swift.
enum ScenarioTables {
    static func operation(_ key: String, _ values: [String: Any]) throws
        -> (any GraphQLOperation)?
    {
        switch key {
        case "AddFriend(id: \"5\", name: \"Jerry\", connections: [$connection])": return try AddFriend(id: "5", name: "Jerry", connections: [ScenarioKept.get(values, "connection")])
        case "CaughtReads(id: \"1\")": return CaughtReads(id: "1")
        case "CaughtThrowReads(id: \"1\")": return CaughtThrowReads(id: "1")
        case "CharacterDetail(id: \"1\")": return CharacterDetail(id: "1")
        case "CharacterDetail(id: \"2\")": return CharacterDetail(id: "2")
        case "CharacterFriends(id: \"1\")": return CharacterFriends(id: "1")
        case "CharacterFriends(id: \"1\", cursor: \"c2\")": return CharacterFriends(id: "1", cursor: "c2")
        case "CharacterFriends(id: \"1\", kind: \"enemy\")": return CharacterFriends(id: "1", kind: "enemy")
        case "CharacterOrigin(id: \"1\")": return CharacterOrigin(id: "1")
        case "CustomValues()": return CustomValues()
        case "FriendPagesRoot(id: \"1\")": return FriendPagesRoot(id: "1")
        case "ListReads()": return ListReads()
        case "LocationList()": return LocationList()
        case "NestedCatchReads(id: \"1\")": return NestedCatchReads(id: "1")
        case "RemoveCharacter(id: \"3\")": return RemoveCharacter(id: "3")
        case "RequiredReads(id: \"1\")": return RequiredReads(id: "1")
        case "RootRequired()": return RootRequired()
        case "StrictFragmentReads(id: \"1\")": return StrictFragmentReads(id: "1")
        case "StrictReads(id: \"1\")": return StrictReads(id: "1")
        case "StrictSpreadReads(id: \"1\")": return StrictSpreadReads(id: "1")
        case "TestConditions(id: \"1\", withOrigin: true, hideStatus: false)": return TestConditions(id: "1", withOrigin: true, hideStatus: false)
        case "TestProfileQuery(id: \"1\")": return TestProfileQuery(id: "1")
        case "ThrowReads(id: \"1\")": return ThrowReads(id: "1")
        case "ValueReads(id: \"1\")": return ValueReads(id: "1")
        default: return nil
        }
    }

    static func read(_ key: String, _ data: Any?) -> String? {
        switch key {
        case "AddFriend: addFriend?.friendEdge?.node?.name":
            return ScenarioShow.text((data as? AddFriend.Data)?.addFriend?.friendEdge?.node?.name)
        case "CaughtReads: character?.gender":
            return ScenarioShow.text((data as? CaughtReads.Data)?.character?.gender)
        case "CaughtReads: character?.image":
            return ScenarioShow.text((data as? CaughtReads.Data)?.character?.image)
        case "CaughtReads: outcome character?.location":
            return ScenarioShow.outcome((data as? CaughtReads.Data)?.character?.location)
        case "CaughtThrowReads: attempt character!.species":
            return ScenarioShow.attempt { try (data as? CaughtThrowReads.Data)?.character.caught()?.species }
        case "CaughtThrowReads: outcome born":
            return ScenarioShow.outcome((data as? CaughtThrowReads.Data)?.born)
        case "CaughtThrowReads: outcome character":
            return ScenarioShow.outcome((data as? CaughtThrowReads.Data)?.character)
        case "CaughtThrowReads: outcome character!.origin":
            return ScenarioShow.outcome((data as? CaughtThrowReads.Data)?.character.caught()?.origin)
        case "CaughtThrowReads: outcome item":
            return ScenarioShow.outcome((data as? CaughtThrowReads.Data)?.item)
        case "CaughtThrowReads: outcome locations":
            return ScenarioShow.outcome((data as? CaughtThrowReads.Data)?.locations)
        case "CaughtThrowReads: present owner":
            return ScenarioShow.present((data as? CaughtThrowReads.Data)?.owner)
        case "CharacterDetail: character?.name":
            return ScenarioShow.text((data as? CharacterDetail.Data)?.character?.name)
        case "CharacterDetail: character?.origin?.dimension":
            return ScenarioShow.text((data as? CharacterDetail.Data)?.character?.origin?.dimension)
        case "CharacterFriends: character?.friends.connectionID":
            return ScenarioShow.text((data as? CharacterFriends.Data)?.character?.friends.connectionID)
        case "CharacterFriends: character?.friends.edges[?]node?.name":
            return ScenarioShow.text((data as? CharacterFriends.Data)?.character?.friends.edges.map { $0.map { $0.node?.name } })
        case "CharacterFriends: character?.friends.pageInfo.hasNextPage":
            return ScenarioShow.text((data as? CharacterFriends.Data)?.character?.friends.pageInfo.hasNextPage)
        case "FriendPagesRoot: friendPages@.character?.friends.edges[?]node?.name":
            return ScenarioShow.text((data as? FriendPagesRoot.Data)?.friendPages.wrappedValue.character?.friends.edges.map { $0.map { $0.node?.name } })
        case "FriendPages_query: character?.friends.edges[?]node?.name":
            return ScenarioShow.text((data as? FriendPages_query)?.character?.friends.edges.map { $0.map { $0.node?.name } })
        case "FriendPages_query: character?.friends.pageInfo.hasNextPage":
            return ScenarioShow.text((data as? FriendPages_query)?.character?.friends.pageInfo.hasNextPage)
        case "ListReads: lists?.names":
            return ScenarioShow.text((data as? ListReads.Data)?.lists?.names)
        case "ListReads: lists?.nested":
            return ScenarioShow.text((data as? ListReads.Data)?.lists?.nested)
        case "ListReads: lists?.places[]name":
            return ScenarioShow.text((data as? ListReads.Data)?.lists?.places.map { $0.map { $0.name } })
        case "ListReads: lists?.required":
            return ScenarioShow.text((data as? ListReads.Data)?.lists?.required)
        case "NestedCatchReads: item!.title":
            return ScenarioShow.text((data as? NestedCatchReads.Data)?.item.caught()?.title)
        case "NestedCatchReads: locations!.results[?]name":
            return ScenarioShow.text((data as? NestedCatchReads.Data)?.locations.caught()?.results.map { $0.map { $0.name } })
        case "NestedCatchReads: outcome failing":
            return ScenarioShow.outcome((data as? NestedCatchReads.Data)?.failing)
        case "NestedCatchReads: outcome item":
            return ScenarioShow.outcome((data as? NestedCatchReads.Data)?.item)
        case "NestedCatchReads: outcome item!.owner":
            return ScenarioShow.outcome((data as? NestedCatchReads.Data)?.item.caught()?.owner)
        case "NestedCatchReads: outcome locations":
            return ScenarioShow.outcome((data as? NestedCatchReads.Data)?.locations)
        case "NestedCatchReads: present character":
            return ScenarioShow.present((data as? NestedCatchReads.Data)?.character)
        case "RequiredReads: character?.id":
            return ScenarioShow.text((data as? RequiredReads.Data)?.character?.id)
        case "StrictFragmentReads: attempt character?.strictCharacterImage@.image":
            return ScenarioShow.attempt { try (data as? StrictFragmentReads.Data)?.character?.strictCharacterImage.wrappedValue.image }
        case "StrictFragmentReads: attempt character?.strictCharacterImage@.name":
            return ScenarioShow.attempt { try (data as? StrictFragmentReads.Data)?.character?.strictCharacterImage.wrappedValue.name }
        case "StrictFragmentReads: character?.id":
            return ScenarioShow.text((data as? StrictFragmentReads.Data)?.character?.id)
        case "StrictReads: attempt character?.name":
            return ScenarioShow.attempt { try (data as? StrictReads.Data)?.character?.name }
        case "StrictSpreadReads: attempt character?.id":
            return ScenarioShow.attempt { try (data as? StrictSpreadReads.Data)?.character?.id }
        case "StrictSpreadReads: try character?.characterImage@.image":
            return ScenarioShow.tryRead { try (data as? StrictSpreadReads.Data)?.character?.characterImage.wrappedValue.image }
        case "TestConditions: character?.origin?.dimension":
            return ScenarioShow.text((data as? TestConditions.Data)?.character?.origin?.dimension)
        case "TestProfileQuery: character?.gender":
            return ScenarioShow.text((data as? TestProfileQuery.Data)?.character?.gender)
        case "TestProfileQuery: character?.image":
            return ScenarioShow.text((data as? TestProfileQuery.Data)?.character?.image)
        case "TestProfileQuery: character?.location?.name":
            return ScenarioShow.text((data as? TestProfileQuery.Data)?.character?.location?.name)
        case "TestProfileQuery: character?.name":
            return ScenarioShow.text((data as? TestProfileQuery.Data)?.character?.name)
        case "ThrowReads: attempt character?.species":
            return ScenarioShow.attempt { try (data as? ThrowReads.Data)?.character?.species }
        case "ValueReads: character?.born":
            return ScenarioShow.text((data as? ValueReads.Data)?.character?.born)
        case "ValueReads: character?.mood":
            return ScenarioShow.text((data as? ValueReads.Data)?.character?.mood)
        case "ValueReads: character?.status":
            return ScenarioShow.text((data as? ValueReads.Data)?.character?.status)
        default: return nil
        }
    }

    static func value(_ key: String, _ data: Any?) -> ScenarioKept? {
        switch key {
        case "CharacterFriends: value character?.friends.connectionID":
            return ScenarioKept((data as? CharacterFriends.Data)?.character?.friends.connectionID)
        default: return nil
        }
    }

    static func pagination(_ key: String, _ data: Any?, _ environment: BatonEnvironment) -> ScenarioPages? {
        switch key {
        case "FriendPagesRoot: pagination FriendPages_query friendPages":
            return ((data as? FriendPagesRoot.Data)?.friendPages).map { ScenarioPages(environment.pagination(of: $0)) }
        default: return nil
        }
    }

    static func mutate(_ key: String, _ values: [String: Any], _ environment: BatonEnvironment)
        async throws -> Any?
    {
        switch key {
        case "AddFriend(id: \"5\", name: \"Jerry\", connections: [$connection])":
            return try await MutationCall<AddFriend>(environment: environment)(id: "5", name: "Jerry", connections: [ScenarioKept.get(values, "connection")], optimisticResponse: AddFriend.Data.Optimistic(addFriend: .init(friendEdge: .init(cursor: "pending", node: .init(id: "5", name: "Jerry (sending)")))))
        default:
            throw ScenarioInterpreter.Failure(
                description: "\(key) is not in ScenarioTables: regenerate the tables")
        }
    }
}
