package scenarios

import baton.runtime.ScalarConverter
import java.math.BigDecimal

/** The scenario project's `Decimal` converter: the number's literal as a `BigDecimal` (`1.10` keeps its scale). */
object ScenarioDecimal : ScalarConverter<BigDecimal> {
    override fun decode(text: String): BigDecimal? = try {
        BigDecimal(text)
    } catch (error: NumberFormatException) {
        null
    }

    override fun encode(value: BigDecimal): String = value.toPlainString()
}

/** The scenario project's `JSON` converter: any value as its JSON text (the text the runtime stores it as). */
object ScenarioJSON : ScalarConverter<String> {
    override fun decode(text: String): String? = text

    override fun encode(value: String): String = value
}
