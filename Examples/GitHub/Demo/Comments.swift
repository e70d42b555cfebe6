// IssueCommentsScreen.swift, run without SwiftUI: the guide's `addComment` call from plain async code, pagination,
// and optimistic comments, each printing what the screen shows.

import Baton
import BatonTesting
import Foundation

/// IssueCommentsScreen's body for a value of its `@Query`, one line per view.
func commentsScreen(_ issue: IssueCommentsQuery, environment: BatonEnvironment) -> [String] {
    switch issue.phase {
    case .ready(let data):
        guard let issue = data.node?.asIssue else { return ["Text: No such issue"] }
        var lines = ["List", "  Text (headline): \(issue.title)"]
        let comments = issue.issueComments.wrappedValue
        for edge in comments.comments.edges ?? .empty {
            guard let comment = edge.node else { continue }
            let text = "\(comment.body) by \(comment.author?.login ?? "ghost")"
            lines.append("  Text: " + (comment.lens.isOptimistic ? text + " (sending…)" : text))
        }
        if environment.pagination(of: comments).hasNext { lines.append("  Button: More") }
        lines.append("  Button: Send")
        return lines
    case .loading:
        return ["ProgressView"]
    case .failed(let error):
        return ["ErrorView: \(error.description) [Try again]"]
    }
}

/// A transport that holds each mutation until `release()`, so the screen can be shown while it is on its way.
final class MutationHolder: Transport, @unchecked Sendable {
    let fixtures = FixtureTransport()
    private let lock = NSLock()
    private var held = 0
    private var released = 0

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Lets the oldest held mutation go on.
    func release() { locked { released += 1 } }

    /// Waits until `count` mutations were held.
    func waitUntilHeld(_ count: Int) async {
        while locked({ held }) < count { try? await Task.sleep(nanoseconds: 1_000_000) }
    }

    func send(_ request: GraphQLRequest) async throws -> Data {
        if request.operationType == .mutation {
            let number = locked {
                held += 1
                return held
            }
            while locked({ released }) < number { try await Task.sleep(nanoseconds: 1_000_000) }
        }
        return try await fixtures.send(request)
    }
}

/// One run of the comments screen: the issue's first page, then `steps`.
func commentsScenario(
    _ title: String, answers: [String: [FixtureTransport.Answer]],
    _ steps: (IssueCommentsQuery, BatonEnvironment, MutationHolder, @escaping (String) -> Void) async -> Void
) async {
    print("== \(title)")
    let log = MemoryLog()
    let transport = MutationHolder()
    transport.fixtures.answer(
        "IssueCommentsQuery", with: .file(fixtures.appendingPathComponent("issue-comments.json")))
    for (operation, list) in answers.sorted(by: { $0.key < $1.key }) {
        for answer in list { transport.fixtures.answer(operation, with: answer) }
    }
    let environment = BatonEnvironment(transport: transport, log: log)
    let handle = environment.attach(IssueCommentsQuery(id: "I_1"))
    let notified = Counter()
    handle.observe { notified.add() }
    await environment.settle()
    var printed = 0
    // Whether the first answer arrived before `observe` depends on the scheduler: counted from here on.
    _ = notified.take()
    var first = true
    let show: (String) -> Void = { label in
        print("\(label):")
        for line in commentsScreen(handle.attachedOperation, environment: environment) { print("  " + line) }
        let count = notified.take()
        if !first { print("  notified \(count) time(s)") }
        first = false
        let lines = log.lines
        for line in lines[printed...] { print("  log: " + line) }
        printed = lines.count
    }
    show("answered")
    await steps(handle.attachedOperation, environment, transport, show)
    handle.detach()
    print("")
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    func take() -> Int {
        lock.lock()
        defer {
            count = 0
            lock.unlock()
        }
        return count
    }
}

func commentsScenarios() async {
    let file = { (name: String) in FixtureTransport.Answer.file(fixtures.appendingPathComponent(name)) }

    await commentsScenario(
        "Comments: the guide's addComment appends the new edge to the list the screen reads",
        answers: ["AddComment": [file("add-comment.json")]]
    ) { issue, environment, transport, show in
        guard let comments = issue.phase.data?.node?.asIssue?.issueComments.wrappedValue else { return }
        transport.release()
        // What IssueComments' "Send" button does, from plain async code.
        let addComment = environment.mutation(AddComment.self)
        let body = "Thanks!"
        let subjectID = comments.id
        let connectionID = comments.comments.connectionID
        do {
            try await addComment(input: AddCommentInput(body: body, subjectId: subjectID), connections: [connectionID])
        } catch {
            print("addComment failed: \(error)")
        }
        show("after addComment(input: AddCommentInput(body: body, subjectId: subjectID), connections: [connectionID])")
    }

    await commentsScenario(
        "Comments: three pages, the middle one fails and is retried",
        answers: [
            "IssueCommentsPaginationQuery": [
                .failure("The network connection was lost."), file("issue-comments-page-2.json"),
                file("issue-comments-page-3.json"),
            ]
        ]
    ) { issue, environment, _, show in
        guard let comments = issue.phase.data?.node?.asIssue?.issueComments.wrappedValue else { return }
        let pagination = environment.pagination(of: comments)
        for attempt in 1...3 {
            do {
                try await pagination.loadNext(3)
                show("loadNext(3), attempt \(attempt)")
            } catch {
                show("loadNext(3), attempt \(attempt), failed: \(error); hasNext \(pagination.hasNext)")
            }
        }
    }

    await commentsScenario(
        "Comments: an optimistic comment the server refuses, then one it accepts",
        answers: ["AddComment": [file("add-comment-refused.json"), file("add-comment.json")]]
    ) { issue, environment, transport, show in
        guard let comments = issue.phase.data?.node?.asIssue?.issueComments.wrappedValue else { return }
        let addComment = environment.mutation(AddComment.self)
        let optimistic = AddComment.Data.Optimistic(
            addComment: .init(
                commentEdge: .init(
                    cursor: "pending",
                    node: .init(id: "pending", body: "Thanks!", author: .init(typename: "User", login: "octocat")))))
        for attempt in 1...2 {
            let call = Task {
                try await addComment(
                    input: AddCommentInput(body: "Thanks!", subjectId: comments.id),
                    connections: [comments.comments.connectionID], optimisticResponse: optimistic)
            }
            await transport.waitUntilHeld(attempt)
            show("attempt \(attempt) sent, not answered yet")
            transport.release()
            switch await call.result {
            case .success: show("attempt \(attempt) answered")
            case .failure(let error): show("attempt \(attempt) failed: \(error); rolled back")
            }
        }
    }
}
