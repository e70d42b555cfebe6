// The guide's "Honest data" chapter, run on any platform: `swift run GitHubExample`.
//
// It drives the code `baton gen` wrote for RepositoryScreen.swift (Generated/Swift) through a `BatonEnvironment` with
// a fixture transport, and prints what each branch of the screen shows: `screen(_:)` below is the screen's body,
// branch for branch, with a line of text where the screen has a view. SwiftUI is not needed: the value the screen's
// `@Query` gives it is the attached operation value a handle gives here (`handle.attachedOperation`).

import Baton
import BatonTesting
import Foundation

// MARK: What the screen shows

/// RepositoryScreen's body for a value of its `@Query`, one line per view.
func screen(_ repository: RepositoryQuery) -> [String] {
    switch repository.phase {
    case .ready(let data):
        switch data.repository {
        case .failure(let errors):
            return ["Text: Could not load the repository: \(errors.description)"]
        case .success(nil):
            return ["Text: No such repository"]
        case .success(let repo?):
            var lines = ["List", "  Text (headline): \(repo.nameWithOwner)"]
            if let description = repo.description { lines.append("  Text: \(description)") }
            for issue in repo.issues.nodes ?? .empty {
                if let row = issue.issueRow {
                    lines.append("  IssueRow: " + issueRow(row.wrappedValue))
                } else {
                    // The screen shows nothing here; the example says why.
                    let why = issue.value == nil ? "the list holds null" : "its author is gone"
                    lines.append("  (no row for item \(issue.index): \(why))")
                }
            }
            return lines
        }
    case .loading:
        return ["ProgressView"]
    case .failed(let error):
        return ["ErrorView: \(error.description) [Try again]"]
    }
}

/// IssueRow's body.
func issueRow(_ issue: IssueRow_issue) -> String {
    "#\(issue.number) \(issue.title) by \(issue.author.login)"
}

// MARK: Running it

/// A transport that holds requests until `open()`, so the first thing the screen shows is its loading state.
final class HeldTransport: Transport {
    let fixtures = FixtureTransport()
    private let gate = Gate()

    func open() async { await gate.open() }

    func send(_ request: GraphQLRequest) async throws -> Data {
        await gate.wait()
        return try await fixtures.send(request)
    }

    actor Gate {
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func open() {
            isOpen = true
            for continuation in waiting { continuation.resume() }
            waiting = []
        }
    }
}

/// The fixtures beside this example.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// Prints a heading, what the screen shows, and (once the fetches settled) the events logged since the last time.
final class Narrator {
    let log = MemoryLog()
    private var printed = 0

    func show(_ label: String, _ repository: RepositoryQuery, settled: Bool = true) {
        print("\(label):")
        for line in screen(repository) { print("  " + line) }
        // While a fetch is held, whether it has logged `fetchStarted` yet depends on the scheduler.
        guard settled else { return }
        let lines = log.lines
        for line in lines[printed...] { print("  log: " + line) }
        printed = lines.count
    }
}

/// One run of the screen: an environment whose transport answers `RepositoryQuery` with `answers`, in order.
func scenario(
    _ title: String, owner: String, name: String, answers: [FixtureTransport.Answer],
    then more: (RepositoryQuery, Narrator, BatonEnvironment) async -> Void = { _, _, _ in }
) async {
    print("== \(title)")
    let narrator = Narrator()
    let transport = HeldTransport()
    for answer in answers { transport.fixtures.answer("RepositoryQuery", with: answer) }
    let environment = BatonEnvironment(transport: transport, log: narrator.log)
    let handle = environment.attach(RepositoryQuery(owner: owner, name: name))
    let repository = handle.attachedOperation
    narrator.show("attached", repository, settled: false)
    await transport.open()
    await environment.settle()
    narrator.show("answered", repository)
    await more(repository, narrator, environment)
    handle.detach()
    print("")
}

await scenario(
    "Rows: one issue's author is gone, one list item is null", owner: "apple", name: "swift",
    answers: [.file(fixtures.appendingPathComponent("repository.json"))])

await scenario(
    "@catch: the server reports an error on repository", owner: "apple", name: "swfit",
    answers: [.file(fixtures.appendingPathComponent("repository-not-found.json"))])

await scenario(
    "No such repository: null without an error", owner: "apple", name: "nothing",
    answers: [.file(fixtures.appendingPathComponent("repository-null.json"))])

await scenario(
    "The request fails, then retry()", owner: "apple", name: "swift",
    answers: [
        .failure("The network connection was lost."), .file(fixtures.appendingPathComponent("repository.json")),
    ]
) { repository, narrator, environment in
    // ErrorView's button: `ErrorView(error) { repository.retry() }`.
    repository.retry()
    await environment.settle()
    narrator.show("after retry()", repository)
}

await commentsScenarios()
