// Written by ScenarioTablePrinter from Tests/BatonCodegenTests/KotlinScenarios/Scenarios.json: do not edit.
// Refresh: BATON_UPDATE_FIXTURES=1 swift test --filter KotlinScenarioTests/testTheScenarioTablesAreUpToDate
package baton.tests

import baton.runtime.Operation

/** The scenario set's operations and reads, through the generated Kotlin. */
object ScenarioTables {
    fun operation(key: String): Operation<*>? = when (key) {
        "CharacterDetail(id: \"1\")" -> scenarios.CharacterDetail(id = "1")
        "CharacterDetail(id: \"2\")" -> scenarios.CharacterDetail(id = "2")
        "LocationList()" -> scenarios.LocationList()
        "RootRequired()" -> scenarios.RootRequired()
        else -> null
    }

    fun read(key: String, data: Any?): String? = when (key) {
        "CharacterDetail: character?.name" ->
            ScenarioShow.text((data as? scenarios.CharacterDetail.Data)?.character?.name)
        else -> null
    }
}
