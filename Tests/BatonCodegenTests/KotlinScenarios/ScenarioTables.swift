// Written by ScenarioTablePrinter from Tests/BatonCodegenTests/KotlinScenarios/Scenarios.json: do not edit.
// Refresh: BATON_UPDATE_FIXTURES=1 swift test --filter KotlinScenarioTests/testTheScenarioTablesAreUpToDate
import Baton

/// The scenario set's operations and reads, through the generated Swift.
enum ScenarioTables {
    static func operation(_ key: String) -> (any GraphQLOperation)? {
        switch key {
        case "CaughtReads(id: \"1\")": return CaughtReads(id: "1")
        case "CaughtThrowReads(id: \"1\")": return CaughtThrowReads(id: "1")
        case "CharacterDetail(id: \"1\")": return CharacterDetail(id: "1")
        case "CharacterDetail(id: \"2\")": return CharacterDetail(id: "2")
        case "CharacterFriends(id: \"1\")": return CharacterFriends(id: "1")
        case "CharacterOrigin(id: \"1\")": return CharacterOrigin(id: "1")
        case "ListReads()": return ListReads()
        case "LocationList()": return LocationList()
        case "NestedCatchReads(id: \"1\")": return NestedCatchReads(id: "1")
        case "RequiredReads(id: \"1\")": return RequiredReads(id: "1")
        case "RootRequired()": return RootRequired()
        case "StrictReads(id: \"1\")": return StrictReads(id: "1")
        case "TestConditions(id: \"1\", withOrigin: true, hideStatus: false)": return TestConditions(id: "1", withOrigin: true, hideStatus: false)
        case "TestProfileQuery(id: \"1\")": return TestProfileQuery(id: "1")
        case "ThrowReads(id: \"1\")": return ThrowReads(id: "1")
        case "ValueReads(id: \"1\")": return ValueReads(id: "1")
        default: return nil
        }
    }

    static func read(_ key: String, _ data: Any?) -> String? {
        switch key {
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
        case "StrictReads: attempt character?.name":
            return ScenarioShow.attempt { try (data as? StrictReads.Data)?.character?.name }
        case "TestConditions: character?.origin?.dimension":
            return ScenarioShow.text((data as? TestConditions.Data)?.character?.origin?.dimension)
        case "TestProfileQuery: character?.gender":
            return ScenarioShow.text((data as? TestProfileQuery.Data)?.character?.gender)
        case "TestProfileQuery: character?.image":
            return ScenarioShow.text((data as? TestProfileQuery.Data)?.character?.image)
        case "TestProfileQuery: character?.location?.name":
            return ScenarioShow.text((data as? TestProfileQuery.Data)?.character?.location?.name)
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
}
