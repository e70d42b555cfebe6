// Written by ScenarioTablePrinter from Tests/BatonCodegenTests/KotlinScenarios/Scenarios.json: do not edit.
// Refresh: BATON_UPDATE_FIXTURES=1 swift test --filter KotlinScenarioTests/testTheScenarioTablesAreUpToDate
package baton.tests

import baton.runtime.Operation

/** The scenario set's operations and reads, through the generated Kotlin. */
object ScenarioTables {
    fun operation(key: String): Operation<*>? = when (key) {
        "CharacterDetail(id: \"1\")" -> scenarios.CharacterDetail(id = "1")
        "CharacterDetail(id: \"2\")" -> scenarios.CharacterDetail(id = "2")
        "CharacterFriends(id: \"1\")" -> scenarios.CharacterFriends(id = "1")
        "CharacterOrigin(id: \"1\")" -> scenarios.CharacterOrigin(id = "1")
        "ListReads()" -> scenarios.ListReads()
        "LocationList()" -> scenarios.LocationList()
        "RootRequired()" -> scenarios.RootRequired()
        "TestConditions(id: \"1\", withOrigin: true, hideStatus: false)" -> scenarios.TestConditions(id = "1", withOrigin = true, hideStatus = false)
        "TestProfileQuery(id: \"1\")" -> scenarios.TestProfileQuery(id = "1")
        else -> null
    }

    fun read(key: String, data: Any?): String? = when (key) {
        "CharacterDetail: character?.name" ->
            ScenarioShow.text((data as? scenarios.CharacterDetail.Data)?.character?.name)
        "CharacterDetail: character?.origin?.dimension" ->
            ScenarioShow.text((data as? scenarios.CharacterDetail.Data)?.character?.origin?.dimension)
        "ListReads: lists?.names" ->
            ScenarioShow.text((data as? scenarios.ListReads.Data)?.lists?.names)
        "ListReads: lists?.nested" ->
            ScenarioShow.text((data as? scenarios.ListReads.Data)?.lists?.nested)
        "ListReads: lists?.places[]name" ->
            ScenarioShow.text((data as? scenarios.ListReads.Data)?.lists?.places?.map { it.name })
        "ListReads: lists?.required" ->
            ScenarioShow.text((data as? scenarios.ListReads.Data)?.lists?.required)
        "TestConditions: character?.origin?.dimension" ->
            ScenarioShow.text((data as? scenarios.TestConditions.Data)?.character?.origin?.dimension)
        "TestProfileQuery: character?.gender" ->
            ScenarioShow.text((data as? scenarios.TestProfileQuery.Data)?.character?.gender)
        "TestProfileQuery: character?.image" ->
            ScenarioShow.text((data as? scenarios.TestProfileQuery.Data)?.character?.image)
        "TestProfileQuery: character?.location?.name" ->
            ScenarioShow.text((data as? scenarios.TestProfileQuery.Data)?.character?.location?.name)
        else -> null
    }
}
