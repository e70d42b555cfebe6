package scenarios

import baton.runtime.ScalarConverter

/** The scenario project's `Year` converter: `year 1990` is 1990; any other text does not convert. */
object ScenarioYear : ScalarConverter<Int> {
    override fun decode(text: String): Int? = if (text.startsWith("year ")) text.substring(5).toIntOrNull() else null

    override fun encode(value: Int): String = "year $value"
}
