import Baton
import Foundation

// The connection tests read the operations `baton gen` writes from Connections/Operations into Connections/Generated
// (a project of the root workspace). The names below are shorthands for the generated nested types.

extension IssueComments {
    typealias Issue = Data.Issue
    typealias Comments = Data.Issue.Comments
    typealias Edge = Data.Issue.Comments.Edges
    typealias Comment = Data.Issue.Comments.Edges.Node
}

extension IssueComments.Data.Issue.Comments {
    /// The bodies in order, for assertions.
    var bodies: [String] { (edges ?? []).compactMap { $0.value?.node?.body } }
}

extension IssueCommentsFragment.Comments {
    /// The bodies in order, for assertions.
    var bodies: [String] { (edges ?? []).compactMap { $0.value?.node?.body } }
}

/// Builds `IssueComments` answers: a page of comments `from..<to` of `total`.
enum CommentPages {
    static func comment(_ n: Int, body: String? = nil) -> String {
        #"{"__typename":"Comment","id":"c\#(n)","body":"\#(body ?? "comment \(n)")"}"#
    }

    static func page(_ range: Range<Int>, total: Int, title: String = "Bug", issueKey: String = "issue") -> String {
        let edges = range.map { #"{"__typename":"CommentEdge","cursor":"k\#($0)","node":\#(comment($0))}"# }
        let end = range.isEmpty ? "null" : #""k\#(range.upperBound - 1)""#
        let connection =
            #"{"__typename":"CommentConnection","totalCount":\#(total),"edges":[\#(edges.joined(separator: ","))],"pageInfo":{"__typename":"PageInfo","endCursor":\#(end),"hasNextPage":\#(range.upperBound < total)}}"#
        return
            #"{"data":{"\#(issueKey)":{"__typename":"Issue","id":"1","title":"\#(title)","comments":\#(connection)}}}"#
    }

    static func added(_ n: Int, cursor: String? = nil) -> String {
        let cursorText = cursor.map { #""\#($0)""# } ?? "null"
        return
            #"{"data":{"addComment":{"__typename":"AddCommentPayload","commentEdge":{"__typename":"CommentEdge","cursor":\#(cursorText),"node":\#(comment(n))}}}}"#
    }
}
