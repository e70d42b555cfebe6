package baton.runtime

/**
 * A connection record's identity: what `@connection(key:filters:)` keeps one record for, per parent record, key
 * and filter values, whatever the paging arguments. A view reads it from the connection's lens
 * (`issue.comments.connectionID`) and passes it to a mutation's `connections`. It is the connection record's key,
 * the Swift runtime's `ConnectionID`: `Repository:1.__connection:RepositoryIssues_issues({"states":["OPEN"]})`.
 */
data class ConnectionId(val recordKey: String) : Comparable<ConnectionId> {
    override fun toString(): String = recordKey

    override fun compareTo(other: ConnectionId): Int = recordKey.compareTo(other.recordKey)

    companion object {
        /** The connection of [key] on the record [parent], for these filter values (those the field was given). */
        fun of(parent: String, key: String, filters: Map<String, Any?> = emptyMap()): ConnectionId {
            val slot = if (filters.isEmpty()) "__connection:$key" else
                "__connection:$key(" + Json.write(filters, sortKeys = true) + ")"
            return ConnectionId("$parent.$slot")
        }
    }
}
