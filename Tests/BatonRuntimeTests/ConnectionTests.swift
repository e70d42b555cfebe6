import Baton
import Foundation
import XCTest

/// Connection records: one per parent, key and filter values, whatever the paging arguments; pages merge in order
/// without duplicates; a refetch replaces; a page after the wrong cursor is not merged.
final class ConnectionTests: XCTestCase {
    func commit(_ store: Store, _ text: String, _ operation: IssueComments) throws {
        try store.commit(bytes: Data(text.utf8), for: operation)
    }

    func comments(_ store: Store, _ operation: IssueComments) throws -> IssueComments.Comments {
        let data = try store.read(operation)
        return try XCTUnwrap(data.issue?.comments)
    }

    func testPagesMergeIntoOneConnectionWhateverThePagingArguments() throws {
        let store = Store()
        let first = IssueComments(id: "1")
        try commit(store, CommentPages.page(0..<2, total: 5), first)
        XCTAssertEqual(try comments(store, first).bodies, ["comment 0", "comment 1"])
        let second = IssueComments(id: "1", cursor: "k1")
        try commit(store, CommentPages.page(2..<4, total: 5), second)
        // Both operations read one connection: the paging arguments are not part of it.
        XCTAssertEqual(try comments(store, first).bodies, ["comment 0", "comment 1", "comment 2", "comment 3"])
        XCTAssertEqual(try comments(store, second).bodies, try comments(store, first).bodies)
        XCTAssertEqual(try comments(store, first).pageInfo.endCursor, "k3")
        XCTAssertEqual(try comments(store, first).pageInfo.hasNextPage, true)
        XCTAssertEqual(try comments(store, first).totalCount, 5)
        XCTAssertEqual(
            try comments(store, first).connectionID,
            ConnectionID(parent: "Issue:1", key: "Issue_comments"), "the ID a caller computes is the lens's")
        XCTAssertEqual(
            try comments(store, first).connectionID.recordKey, "Issue:1.__connection:Issue_comments")
    }

    func testFiltersMakeConnectionsOfTheirOwn() throws {
        let store = Store()
        try commit(store, CommentPages.page(0..<2, total: 2), IssueComments(id: "1", order: "NEWEST"))
        try commit(store, CommentPages.page(5..<6, total: 1), IssueComments(id: "1", order: "OLDEST"))
        XCTAssertEqual(try comments(store, IssueComments(id: "1", order: "NEWEST")).bodies, ["comment 0", "comment 1"])
        XCTAssertEqual(try comments(store, IssueComments(id: "1", order: "OLDEST")).bodies, ["comment 5"])
        XCTAssertEqual(
            try comments(store, IssueComments(id: "1", order: "OLDEST")).connectionID,
            ConnectionID(parent: "Issue:1", key: "Issue_comments", filters: ["orderBy": "OLDEST"]))
    }

    func testDuplicateEdgesAreShownOnceAndARefetchReplaces() throws {
        let store = Store()
        try commit(store, CommentPages.page(0..<3, total: 6), IssueComments(id: "1"))
        // The next page overlaps the loaded one (the server shifted): comment 2 is not shown twice.
        try commit(
            store, CommentPages.page(2..<5, total: 6).replacingOccurrences(of: "\"k2\"", with: "\"k2b\""),
            IssueComments(id: "1", cursor: "k2"))
        XCTAssertEqual(
            try comments(store, IssueComments(id: "1")).bodies,
            ["comment 0", "comment 1", "comment 2", "comment 3", "comment 4"])
        // From the start again: the first page replaces the loaded edges.
        try commit(store, CommentPages.page(0..<2, total: 6), IssueComments(id: "1"))
        XCTAssertEqual(try comments(store, IssueComments(id: "1")).bodies, ["comment 0", "comment 1"])
        XCTAssertEqual(try comments(store, IssueComments(id: "1")).pageInfo.endCursor, "k1")
    }

    /// Pages join the list in place and an index of the edges shown answers "already shown?": when a response
    /// writes a loaded edge record again with another node, the next page is checked against what the list shows
    /// now (comment 2 is no longer shown, so it joins), as the merge over the whole list decided.
    func testAnEdgeWrittenAgainIsCheckedAsTheListShowsIt() throws {
        let store = Store()
        try commit(store, CommentPages.page(0..<2, total: 9), IssueComments(id: "1"))
        try commit(store, CommentPages.page(2..<4, total: 9), IssueComments(id: "1", cursor: "k1"))
        XCTAssertEqual(
            try comments(store, IssueComments(id: "1")).bodies, ["comment 0", "comment 1", "comment 2", "comment 3"])
        // The page after k1 again, its first edge now comment 9: not merged (k1 is not the end cursor), but its
        // edge record, which the connection links, is written again.
        let rewritten = CommentPages.page(2..<4, total: 9).replacingOccurrences(of: "\"k2\"", with: "\"k9\"")
            .replacingOccurrences(of: "\"c2\"", with: "\"c9\"").replacingOccurrences(
                of: "comment 2", with: "comment 9")
        try commit(store, rewritten, IssueComments(id: "1", cursor: "k1"))
        XCTAssertEqual(
            try comments(store, IssueComments(id: "1")).bodies, ["comment 0", "comment 1", "comment 9", "comment 3"])
        let again = CommentPages.page(2..<3, total: 9).replacingOccurrences(of: "\"k2\"", with: "\"k10\"")
        try commit(store, again, IssueComments(id: "1", cursor: "k3"))
        XCTAssertEqual(
            try comments(store, IssueComments(id: "1")).bodies,
            ["comment 0", "comment 1", "comment 9", "comment 3", "comment 2"])
        // A repeated node in the next page is still left out.
        try commit(
            store, CommentPages.page(3..<4, total: 9).replacingOccurrences(of: "\"k3\"", with: "\"k11\""),
            IssueComments(id: "1", cursor: "k10"))
        XCTAssertEqual(try comments(store, IssueComments(id: "1")).bodies.count, 5)
        XCTAssertEqual(try comments(store, IssueComments(id: "1")).pageInfo.endCursor, "k11")
    }

    func testAPageAfterAnotherCursorIsNotMerged() throws {
        let store = Store()
        try commit(store, CommentPages.page(0..<2, total: 6), IssueComments(id: "1"))
        try commit(store, CommentPages.page(4..<6, total: 6), IssueComments(id: "1", cursor: "k3"))
        XCTAssertEqual(try comments(store, IssueComments(id: "1")).bodies, ["comment 0", "comment 1"], "no hole")
        XCTAssertEqual(try comments(store, IssueComments(id: "1")).pageInfo.endCursor, "k1")
    }

    func testANullPageWhilePagingLeavesTheLoadedPages() throws {
        let store = Store()
        try commit(store, CommentPages.page(0..<2, total: 6), IssueComments(id: "1"))
        let failed =
            #"{"data":{"issue":{"__typename":"Issue","id":"1","title":"Bug","comments":null}},"errors":[{"message":"comments unavailable","path":["issue","comments"]}]}"#
        try commit(store, failed, IssueComments(id: "1", cursor: "k1"))
        XCTAssertEqual(try comments(store, IssueComments(id: "1")).bodies, ["comment 0", "comment 1"])
    }

    func testTheConnectionsPagesAreOneCommitAndNotifyOnce() throws {
        let store = Store()
        try commit(store, CommentPages.page(0..<2, total: 6), IssueComments(id: "1"))
        let connection = "Issue:1.__connection:Issue_comments"
        let calls = Locked(0)
        let subscription = store.subscribe(to: [
            SlotID(connection, "edges"), SlotID(connection + ".pageInfo", "endCursor"),
        ]) {
            _ in calls.withLock { $0 += 1 }
        }
        defer { subscription.cancel() }
        let result = try store.commit(
            bytes: Data(CommentPages.page(2..<4, total: 6).utf8), for: IssueComments(id: "1", cursor: "k1"))
        XCTAssertEqual(calls.withLock { $0 }, 1)
        XCTAssertTrue(result.changed.contains(SlotID(connection, "edges")))
        XCTAssertTrue(result.changed.contains(SlotID(connection + ".pageInfo", "endCursor")))
        // The records' slots and the page's are listed once each.
        XCTAssertEqual(result.changedSlots.count, result.changed.count)
    }
}

/// `Locked` for tests (the runtime's is internal).
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
