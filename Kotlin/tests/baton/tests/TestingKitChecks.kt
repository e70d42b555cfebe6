package baton.tests

import baton.runtime.FieldResult
import baton.runtime.Handle
import baton.runtime.Phase
import baton.runtime.TransportException
import baton.testing.MockEnvironment
import baton.testing.MockFieldError
import baton.testing.TestKitFailure
import com.example.github.RepositoryQuery

/**
 * The guide's `RepositoryScreen` in Kotlin through the test kit (`baton.testing`) and the real runtime: the four
 * states Docs/Testing.md tests in Swift. Each section prints what the screen shows, then `passed` or the failure.
 */
class TestingKitChecks {
    private val swift = """
        {"repository": {"__typename": "Repository", "nameWithOwner": "apple/swift",
          "description": "The Swift Programming Language",
          "issues": {"__typename": "IssueConnection", "nodes": [
            {"__typename": "Issue", "id": "I_101", "number": 101, "title": "Crash in the type checker",
             "author": {"__typename": "User", "login": "alice"}},
            {"__typename": "Issue", "id": "I_102", "number": 102, "title": "Docs typo", "author": null}]}}}
    """

    fun run() {
        section("loading then ready") { loadingThenReady(it) }
        section("an issue without an author") { issueWithoutAuthor(it) }
        section("@catch") { caught(it) }
        section("a request error, then retry") { requestErrorThenRetry(it) }
        section("the kit's failures") { failures(it) }
    }

    /** What the screen shows for [phase], one line per view (RepositoryScreen's body). */
    private fun screen(phase: Phase<RepositoryQuery.Data>): List<String> = when (phase) {
        is Phase.Loading -> listOf("ProgressView")
        is Phase.Failed -> listOf("ErrorView: ${phase.error.description} [Try again]")
        is Phase.Ready -> when (val repository = phase.data.repository) {
            is FieldResult.Failure -> listOf("Text: Could not load the repository: ${repository.errors}")
            is FieldResult.Success -> {
                val repo = repository.value
                if (repo == null) listOf("Text: No such repository") else {
                    val lines = arrayListOf("List", "  Text (headline): ${repo.nameWithOwner}")
                    repo.description?.let { lines.add("  Text: $it") }
                    for (issue in repo.issues.nodes.orEmpty()) {
                        val row = issue?.issueRow ?: continue
                        lines.add("  IssueRow: #${row.number} ${row.title} by ${row.author.login}")
                    }
                    lines
                }
            }
        }
    }

    /** A new mock environment with RepositoryScreen's query attached for [owner]/[name]; [body] runs, then it detaches. */
    private fun scenario(
        owner: String, name: String, out: MutableList<String>,
        body: (MockEnvironment, Handle<RepositoryQuery.Data>) -> Unit
    ) {
        val mock = MockEnvironment()
        val handle = mock.environment.attach(RepositoryQuery(owner, name))
        try {
            body(mock, handle)
            out.add("passed")
        } finally {
            handle.detach()
        }
    }

    private fun loadingThenReady(out: MutableList<String>) = scenario("apple", "swift", out) { mock, handle ->
        mock.transport.waitForOperation("RepositoryQuery")
        out.addAll(screen(handle.phase))
        mock.expectSent("RepositoryQuery", mapOf("owner" to "apple", "name" to "swift"))
        mock.resolve("RepositoryQuery", swift)
        mock.settle()
        out.addAll(screen(handle.phase))
        mock.expectSentCount("RepositoryQuery", 1)
    }

    private fun issueWithoutAuthor(out: MutableList<String>) = scenario("apple", "swift", out) { mock, handle ->
        mock.resolve(null, swift)
        mock.settle()
        out.addAll(screen(handle.phase))
        mock.expectLogContaining(listOf("requiredFieldNull {\"path\":\"repository.issues.nodes.1.author\"}"))
    }

    private fun caught(out: MutableList<String>) = scenario("apple", "swfit", out) { mock, handle ->
        mock.resolve(
            "RepositoryQuery", "{\"repository\": null}",
            listOf(
                MockFieldError(
                    "Could not resolve to a Repository with the name 'apple/swfit'.", listOf("repository"),
                    mapOf("type" to "NOT_FOUND")
                )
            )
        )
        mock.settle()
        out.addAll(screen(handle.phase))
        val errors = (handle.phase.data?.repository as? FieldResult.Failure)?.errors?.errors.orEmpty()
        out.add("extensions: " + errors.map { it.extensions })
    }

    private fun requestErrorThenRetry(out: MutableList<String>) = scenario("apple", "swift", out) { mock, handle ->
        mock.reject("RepositoryQuery", TransportException("The network connection was lost."))
        mock.settle()
        out.addAll(screen(handle.phase))
        handle.retry()
        mock.resolve("RepositoryQuery", swift)
        mock.settle()
        out.addAll(screen(handle.phase))
        mock.expectSentCount("RepositoryQuery", 2)
        mock.expectLogContaining(
            listOf(
                "fetchFailed {\"operation\":\"RepositoryQuery\",\"error\":\"transport: The network connection was lost.\"}",
                "refetch {\"operation\":\"RepositoryQuery\",\"reason\":\"retry\"}",
                "fetchCompleted {\"operation\":\"RepositoryQuery\"}"
            )
        )
    }

    /** What the kit says when an expectation does not hold. */
    private fun failures(out: MutableList<String>) {
        val mock = MockEnvironment(timeoutMillis = 50)
        try {
            mock.resolve("ViewerQuery", "{}")
        } catch (failure: TestKitFailure) {
            out.add(failure.message ?: "")
        }
        try {
            baton.testing.LogComparison.expectEqual(listOf("a", "c", "d"), listOf("a", "b", "d"))
        } catch (failure: TestKitFailure) {
            out.addAll((failure.message ?: "").split("\n"))
        }
    }
}
