// Written by ScenarioTablePrinter from Tests/BatonCodegenTests/KotlinScenarios/Scenarios.json: do not edit.
// Refresh: BATON_UPDATE_FIXTURES=1 swift test --filter KotlinScenarioTests/testTheScenarioTablesAreUpToDate
package baton.tests

import baton.runtime.Operation
import scenarios.invoke

/** The scenario set's operations and reads, through the generated Kotlin. */
object ScenarioTables {
    fun operation(key: String, values: Map<String, Any?>): Operation<*>? = when (key) {
        "AddFriend(id: \"5\", name: \"Jerry\", connections: [\$connection])" -> scenarios.AddFriend(id = "5", name = "Jerry", connections = listOf(kept<baton.runtime.ConnectionId>(values, "connection")))
        "CaughtReads(id: \"1\")" -> scenarios.CaughtReads(id = "1")
        "CaughtThrowReads(id: \"1\")" -> scenarios.CaughtThrowReads(id = "1")
        "CharacterDetail(id: \"1\")" -> scenarios.CharacterDetail(id = "1")
        "CharacterDetail(id: \"2\")" -> scenarios.CharacterDetail(id = "2")
        "CharacterFriends(id: \"1\")" -> scenarios.CharacterFriends(id = "1")
        "CharacterFriends(id: \"1\", cursor: \"c2\")" -> scenarios.CharacterFriends(id = "1", cursor = baton.runtime.Optional.of("c2"))
        "CharacterFriends(id: \"1\", kind: \"enemy\")" -> scenarios.CharacterFriends(id = "1", kind = baton.runtime.Optional.of("enemy"))
        "CharacterOrigin(id: \"1\")" -> scenarios.CharacterOrigin(id = "1")
        "CustomValues()" -> scenarios.CustomValues()
        "FriendPagesRoot(id: \"1\")" -> scenarios.FriendPagesRoot(id = "1")
        "ListReads()" -> scenarios.ListReads()
        "LocationList()" -> scenarios.LocationList()
        "NestedCatchReads(id: \"1\")" -> scenarios.NestedCatchReads(id = "1")
        "RemoveCharacter(id: \"3\")" -> scenarios.RemoveCharacter(id = "3")
        "RequiredReads(id: \"1\")" -> scenarios.RequiredReads(id = "1")
        "RootRequired()" -> scenarios.RootRequired()
        "StrictFragmentReads(id: \"1\")" -> scenarios.StrictFragmentReads(id = "1")
        "StrictReads(id: \"1\")" -> scenarios.StrictReads(id = "1")
        "StrictSpreadReads(id: \"1\")" -> scenarios.StrictSpreadReads(id = "1")
        "TestConditions(id: \"1\", withOrigin: true, hideStatus: false)" -> scenarios.TestConditions(id = "1", withOrigin = true, hideStatus = false)
        "TestProfileQuery(id: \"1\")" -> scenarios.TestProfileQuery(id = "1")
        "ThrowReads(id: \"1\")" -> scenarios.ThrowReads(id = "1")
        "ValueReads(id: \"1\")" -> scenarios.ValueReads(id = "1")
        else -> null
    }

    fun read(key: String, data: Any?): String? = when (key) {
        "AddFriend: addFriend?.friendEdge?.node?.name" ->
            ScenarioShow.text((data as? scenarios.AddFriend.Data)?.addFriend?.friendEdge?.node?.name)
        "CaughtReads: character?.gender" ->
            ScenarioShow.text((data as? scenarios.CaughtReads.Data)?.character?.gender)
        "CaughtReads: character?.image" ->
            ScenarioShow.text((data as? scenarios.CaughtReads.Data)?.character?.image)
        "CaughtReads: outcome character?.location" ->
            ScenarioShow.outcome((data as? scenarios.CaughtReads.Data)?.character?.location)
        "CaughtThrowReads: attempt character!.species" ->
            ScenarioShow.attempt { (data as? scenarios.CaughtThrowReads.Data)?.character?.caught()?.species }
        "CaughtThrowReads: outcome born" ->
            ScenarioShow.outcome((data as? scenarios.CaughtThrowReads.Data)?.born)
        "CaughtThrowReads: outcome character" ->
            ScenarioShow.outcome((data as? scenarios.CaughtThrowReads.Data)?.character)
        "CaughtThrowReads: outcome character!.origin" ->
            ScenarioShow.outcome((data as? scenarios.CaughtThrowReads.Data)?.character?.caught()?.origin)
        "CaughtThrowReads: outcome item" ->
            ScenarioShow.outcome((data as? scenarios.CaughtThrowReads.Data)?.item)
        "CaughtThrowReads: outcome locations" ->
            ScenarioShow.outcome((data as? scenarios.CaughtThrowReads.Data)?.locations)
        "CaughtThrowReads: present owner" ->
            ScenarioShow.present((data as? scenarios.CaughtThrowReads.Data)?.owner)
        "CharacterDetail: character?.name" ->
            ScenarioShow.text((data as? scenarios.CharacterDetail.Data)?.character?.name)
        "CharacterDetail: character?.origin?.dimension" ->
            ScenarioShow.text((data as? scenarios.CharacterDetail.Data)?.character?.origin?.dimension)
        "CharacterFriends: character?.friends.connectionID" ->
            ScenarioShow.text((data as? scenarios.CharacterFriends.Data)?.character?.friends?.connectionID)
        "CharacterFriends: character?.friends.edges[?]node?.name" ->
            ScenarioShow.text((data as? scenarios.CharacterFriends.Data)?.character?.friends?.edges?.map { it?.node?.name })
        "CharacterFriends: character?.friends.pageInfo.hasNextPage" ->
            ScenarioShow.text((data as? scenarios.CharacterFriends.Data)?.character?.friends?.pageInfo?.hasNextPage)
        "FriendPagesRoot: friendPages@.character?.friends.edges[?]node?.name" ->
            ScenarioShow.text((data as? scenarios.FriendPagesRoot.Data)?.friendPages?.character?.friends?.edges?.map { it?.node?.name })
        "FriendPages_query: character?.friends.edges[?]node?.name" ->
            ScenarioShow.text((data as? scenarios.FriendPages_query)?.character?.friends?.edges?.map { it?.node?.name })
        "FriendPages_query: character?.friends.pageInfo.hasNextPage" ->
            ScenarioShow.text((data as? scenarios.FriendPages_query)?.character?.friends?.pageInfo?.hasNextPage)
        "ListReads: lists?.names" ->
            ScenarioShow.text((data as? scenarios.ListReads.Data)?.lists?.names)
        "ListReads: lists?.nested" ->
            ScenarioShow.text((data as? scenarios.ListReads.Data)?.lists?.nested)
        "ListReads: lists?.places[]name" ->
            ScenarioShow.text((data as? scenarios.ListReads.Data)?.lists?.places?.map { it.name })
        "ListReads: lists?.required" ->
            ScenarioShow.text((data as? scenarios.ListReads.Data)?.lists?.required)
        "NestedCatchReads: item!.title" ->
            ScenarioShow.text((data as? scenarios.NestedCatchReads.Data)?.item?.caught()?.title)
        "NestedCatchReads: locations!.results[?]name" ->
            ScenarioShow.text((data as? scenarios.NestedCatchReads.Data)?.locations?.caught()?.results?.map { it?.name })
        "NestedCatchReads: outcome failing" ->
            ScenarioShow.outcome((data as? scenarios.NestedCatchReads.Data)?.failing)
        "NestedCatchReads: outcome item" ->
            ScenarioShow.outcome((data as? scenarios.NestedCatchReads.Data)?.item)
        "NestedCatchReads: outcome item!.owner" ->
            ScenarioShow.outcome((data as? scenarios.NestedCatchReads.Data)?.item?.caught()?.owner)
        "NestedCatchReads: outcome locations" ->
            ScenarioShow.outcome((data as? scenarios.NestedCatchReads.Data)?.locations)
        "NestedCatchReads: present character" ->
            ScenarioShow.present((data as? scenarios.NestedCatchReads.Data)?.character)
        "RequiredReads: character?.id" ->
            ScenarioShow.text((data as? scenarios.RequiredReads.Data)?.character?.id)
        "StrictFragmentReads: attempt character?.strictCharacterImage@.image" ->
            ScenarioShow.attempt { (data as? scenarios.StrictFragmentReads.Data)?.character?.strictCharacterImage?.image }
        "StrictFragmentReads: attempt character?.strictCharacterImage@.name" ->
            ScenarioShow.attempt { (data as? scenarios.StrictFragmentReads.Data)?.character?.strictCharacterImage?.name }
        "StrictFragmentReads: character?.id" ->
            ScenarioShow.text((data as? scenarios.StrictFragmentReads.Data)?.character?.id)
        "StrictReads: attempt character?.name" ->
            ScenarioShow.attempt { (data as? scenarios.StrictReads.Data)?.character?.name }
        "StrictSpreadReads: attempt character?.id" ->
            ScenarioShow.attempt { (data as? scenarios.StrictSpreadReads.Data)?.character?.id }
        "StrictSpreadReads: try character?.characterImage@.image" ->
            ScenarioShow.tryRead { (data as? scenarios.StrictSpreadReads.Data)?.character?.characterImage?.image }
        "TestConditions: character?.origin?.dimension" ->
            ScenarioShow.text((data as? scenarios.TestConditions.Data)?.character?.origin?.dimension)
        "TestProfileQuery: character?.gender" ->
            ScenarioShow.text((data as? scenarios.TestProfileQuery.Data)?.character?.gender)
        "TestProfileQuery: character?.image" ->
            ScenarioShow.text((data as? scenarios.TestProfileQuery.Data)?.character?.image)
        "TestProfileQuery: character?.location?.name" ->
            ScenarioShow.text((data as? scenarios.TestProfileQuery.Data)?.character?.location?.name)
        "TestProfileQuery: character?.name" ->
            ScenarioShow.text((data as? scenarios.TestProfileQuery.Data)?.character?.name)
        "ThrowReads: attempt character?.species" ->
            ScenarioShow.attempt { (data as? scenarios.ThrowReads.Data)?.character?.species }
        "ValueReads: character?.born" ->
            ScenarioShow.text((data as? scenarios.ValueReads.Data)?.character?.born)
        "ValueReads: character?.mood" ->
            ScenarioShow.text((data as? scenarios.ValueReads.Data)?.character?.mood)
        "ValueReads: character?.status" ->
            ScenarioShow.text((data as? scenarios.ValueReads.Data)?.character?.status)
        else -> null
    }

    fun value(key: String, data: Any?): ScenarioKept? = when (key) {
        "CharacterFriends: value character?.friends.connectionID" ->
            ScenarioKept((data as? scenarios.CharacterFriends.Data)?.character?.friends?.connectionID)
        else -> null
    }

    fun pagination(key: String, data: Any?, environment: baton.runtime.BatonEnvironment): ScenarioPages<*>? = when (key) {
        "FriendPagesRoot: pagination FriendPages_query friendPages" ->
            (data as? scenarios.FriendPagesRoot.Data)?.friendPages?.let { ScenarioPages(scenarios.FriendPages_query.pagination(environment, it)) { f: scenarios.FriendPages_query -> scenarios.FriendPages_query.pagination(environment, f) } }
        else -> null
    }

    fun mutate(key: String, values: Map<String, Any?>, environment: baton.runtime.BatonEnvironment): Any? = when (key) {
        "AddFriend(id: \"5\", name: \"Jerry\", connections: [\$connection])" ->
            scenarios.AddFriend.call(environment)(id = "5", name = "Jerry", connections = listOf(kept<baton.runtime.ConnectionId>(values, "connection")), optimisticResponse = scenarios.AddFriend.Data.Optimistic(addFriend = scenarios.AddFriend.Data.AddFriend2.Optimistic(friendEdge = scenarios.AddFriend.Data.AddFriend2.FriendEdge.Optimistic(cursor = "pending", node = scenarios.AddFriend.Data.AddFriend2.FriendEdge.Node.Optimistic(id = "5", name = "Jerry (sending)")))))
        else -> throw IllegalStateException("$key is not in ScenarioTables: regenerate the tables")
    }
}
