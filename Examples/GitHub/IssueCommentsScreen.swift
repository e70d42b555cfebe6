import Baton
import SwiftUI

/// An issue's comments, a page at a time, and a button that adds one: the guide's `addComment` call, from a view.
struct IssueCommentsScreen: View {
    @Query(
        """
        query IssueCommentsQuery($id: ID!, $count: Int = 3, $cursor: String) {
          node(id: $id) {
            ... on Issue {
              title
              ...IssueComments_issue
            }
          }
        }
        """)
    var issue: IssueCommentsQuery

    /// What the user typed.
    let draft: String

    var body: some View {
        switch issue.phase {
        case .ready(let data):
            if let issue = data.node?.asIssue {
                List {
                    Text(issue.title).font(.headline)
                    IssueComments(issue: issue.issueComments, draft: draft)
                }
            } else {
                Text("No such issue")
            }
        case .loading:
            ProgressView()
        case .failed(let error):
            ErrorView(error) { issue.retry() }
        }
    }
}

/// The comments of an issue: each one (greyed while the server has not answered it), "More" while the server has
/// more, and "Send", which adds `draft` to this very list.
struct IssueComments: View {
    @Fragment(
        """
        fragment IssueComments_issue on Issue @refetchable(queryName: "IssueCommentsPaginationQuery") {
          id
          comments(first: $count, after: $cursor) @connection(key: "IssueComments_comments") {
            totalCount
            edges {
              cursor
              node { id body author { login } }
            }
            pageInfo { endCursor hasNextPage }
          }
        }
        """)
    var issue: IssueComments_issue

    @Mutation(
        """
        mutation AddComment($input: AddCommentInput!, $connections: [ID!]!) {
          addComment(input: $input) {
            commentEdge @appendEdge(connections: $connections) {
              cursor
              node { id body author { login } }
            }
          }
        }
        """)
    var addComment: MutationCall<AddComment>

    @SwiftUI.Environment(\.baton) var baton: BatonEnvironment?

    let draft: String

    var body: some View {
        ForEach(issue.comments.edges ?? .empty, id: \.index) { edge in
            if let comment = edge.node {
                Text(comment.lens.isOptimistic ? "\(comment.body) (sending…)" : comment.body)
            }
        }
        if let baton, baton.pagination(of: issue).hasNext {
            Button(action: { Task { try await baton.pagination(of: issue).loadNext(3) } }) { Text("More") }
        }
        Button(action: send) { Text("Send") }
    }

    func send() {
        let body = draft
        let subjectID = issue.id
        let connectionID = issue.comments.connectionID
        Task {
            try await addComment(input: AddCommentInput(body: body, subjectId: subjectID), connections: [connectionID])
        }
    }
}
