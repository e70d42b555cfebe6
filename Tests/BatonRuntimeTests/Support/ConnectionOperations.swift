import Baton
import Foundation

// Hand-written in the generated shape, for the store's connection tests:
//
//   query IssueComments($id: ID!, $count: Int = 2, $cursor: String, $order: String) {
//     issue(id: $id) { id title
//       comments(first: $count, after: $cursor, orderBy: $order) @connection(key: "Issue_comments", filters: ["orderBy"]) {
//         totalCount edges { cursor node { id body } } pageInfo { endCursor hasNextPage }
//       }
//     }
//   }
//   mutation AddComment($input: JSON, $connections: [ID!]!) {
//     addComment(input: $input) { commentEdge @appendEdge(connections: $connections) { cursor node { id body } } }
//   }
//   mutation PrependComment … { addComment(input:) { commentEdge @prependEdge(connections: $connections) { … } } }
//   mutation AddCommentNode … { addComment(input:) { comment @appendNode(connections:, edgeTypeName: "CommentEdge") { id body } } }
//   mutation DeleteComment($id: ID!, $connections: [ID!]!) {
//     deleteComment(id: $id) { deletedId @deleteRecord(typeName: "Comment") }
//   }
//   mutation RemoveCommentEdge … { deleteComment(id:) { deletedId @deleteEdge(connections: $connections) } }

struct IssueComments: GraphQLOperation {
    static let operationName = "IssueComments"
    static let document = "query IssueComments { … }"
    static let variableDefaults: [String: JSONValue] = ["count": .number("2")]
    var id: String
    var cursor: String?
    var order: String?
    var variables: [String: JSONValue] {
        var values: [String: JSONValue] = ["id": .string(id)]
        if let cursor { values["cursor"] = .string(cursor) }
        if let order { values["order"] = .string(order) }
        return values
    }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let issue = Field(
                "issue", arguments: [("id", .variable("id"))], type: .named("Issue"), selections: Issue.selections)
        }
        static let selections: [Selection] = [.field(Fields.issue)]
        var issue: Issue? { lens.read(Fields.issue) }
    }

    struct Issue: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let id = Field("id", type: .nonNull(.named("ID")))
            static let title = Field("title", type: .named("String"))
            static let comments = Field(
                "comments",
                arguments: [
                    ("after", .variable("cursor")), ("first", .variable("count")), ("orderBy", .variable("order")),
                ],
                type: .nonNull(.named("CommentConnection")), selections: Comments.selections,
                connection: ConnectionSpec(key: "Issue_comments", filters: ["orderBy"]))
        }
        static let selections: [Selection] = [.field(Fields.id), .field(Fields.title), .field(Fields.comments)]
        var id: String { lens.read(Fields.id) }
        var title: String? { lens.read(Fields.title) }
        var comments: Comments { lens.read(Fields.comments) }
    }

    struct Comments: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let totalCount = Field("totalCount", type: .named("Int"))
            static let edges = Field("edges", type: .list(.named("CommentEdge")), selections: Edge.selections)
            static let pageInfo = Field("pageInfo", type: .nonNull(.named("PageInfo")), selections: PageInfo.selections)
        }
        static let selections: [Selection] = [.field(Fields.totalCount), .field(Fields.edges), .field(Fields.pageInfo)]
        var totalCount: Int? { lens.read(Fields.totalCount) }
        var edges: LensList<NullableItem<Edge>>? { lens.read(Fields.edges) }
        var pageInfo: PageInfo { lens.read(Fields.pageInfo) }
        var connectionID: ConnectionID { ConnectionID(lens.key) }
        /// The bodies in order, for assertions.
        var bodies: [String] { (edges ?? []).compactMap { $0.value?.node?.body } }
    }

    struct Edge: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let cursor = Field("cursor", type: .named("String"))
            static let node = Field("node", type: .named("Comment"), selections: Comment.selections)
        }
        static let selections: [Selection] = [.field(Fields.cursor), .field(Fields.node)]
        var cursor: String? { lens.read(Fields.cursor) }
        var node: Comment? { lens.read(Fields.node) }
    }

    struct Comment: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let id = Field("id", type: .nonNull(.named("ID")))
            static let body = Field("body", type: .named("String"))
        }
        static let selections: [Selection] = [.field(Fields.id), .field(Fields.body)]
        var id: String { lens.read(Fields.id) }
        var body: String? { lens.read(Fields.body) }
    }

    struct PageInfo: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let endCursor = Field("endCursor", type: .named("String"))
            static let hasNextPage = Field("hasNextPage", type: .nonNull(.named("Boolean")))
        }
        static let selections: [Selection] = [.field(Fields.endCursor), .field(Fields.hasNextPage)]
        var endCursor: String? { lens.read(Fields.endCursor) }
        var hasNextPage: Bool { lens.read(Fields.hasNextPage) }
    }
}

/// `mutation AddComment($body: String!, $connections: [ID!]!)` with the update on its edge or node.
struct AddComment: GraphQLOperation {
    enum Placement: Sendable { case appendEdge, prependEdge, appendNode }

    static let operationName = "AddComment"
    static let document = "mutation AddComment { … }"
    static var operationType: OperationType { .mutation }
    var body: String
    var connections: [ConnectionID]
    var variables: [String: JSONValue] { ["body": .string(body)] }
    var clientVariables: [String: JSONValue] { ["connections": connections.jsonValue] }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let addComment = Field(
                "addComment", arguments: [("body", .variable("body"))], type: .named("AddCommentPayload"),
                selections: Payload.selections)
        }
        static let selections: [Selection] = [.field(Fields.addComment)]
        var addComment: Payload? { lens.read(Fields.addComment) }
    }

    struct Payload: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        enum Fields {
            static let commentEdge = Field(
                "commentEdge", type: .named("CommentEdge"), selections: IssueComments.Edge.selections,
                update: RecordUpdate(.appendEdge, connections: .variable("connections")))
        }
        static let selections: [Selection] = [.field(Fields.commentEdge)]
        var commentEdge: IssueComments.Edge? { lens.read(Fields.commentEdge) }
    }
}

/// The same mutation, prepending.
struct PrependComment: GraphQLOperation {
    static let operationName = "PrependComment"
    static let document = "mutation PrependComment { … }"
    static var operationType: OperationType { .mutation }
    var body: String
    var connections: [ConnectionID]
    var variables: [String: JSONValue] { ["body": .string(body)] }
    var clientVariables: [String: JSONValue] { ["connections": connections.jsonValue] }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let addComment = Field(
            "addComment", arguments: [("body", .variable("body"))], type: .named("AddCommentPayload"),
            selections: [
                .field(
                    Field(
                        "commentEdge", type: .named("CommentEdge"), selections: IssueComments.Edge.selections,
                        update: RecordUpdate(.prependEdge, connections: .variable("connections"))))
            ])
        static let selections: [Selection] = [.field(addComment)]
    }
}

/// `addComment(body:) { comment @appendNode(connections: $connections, edgeTypeName: "CommentEdge") { id body } }`.
struct AddCommentNode: GraphQLOperation {
    static let operationName = "AddCommentNode"
    static let document = "mutation AddCommentNode { … }"
    static var operationType: OperationType { .mutation }
    var body: String
    var connections: [ConnectionID]
    var variables: [String: JSONValue] { ["body": .string(body)] }
    var clientVariables: [String: JSONValue] { ["connections": connections.jsonValue] }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let addComment = Field(
            "addComment", arguments: [("body", .variable("body"))], type: .named("AddCommentPayload"),
            selections: [
                .field(
                    Field(
                        "comment", type: .named("Comment"), selections: IssueComments.Comment.selections,
                        update: RecordUpdate(
                            .appendNode, connections: .variable("connections"), edgeTypename: "CommentEdge")))
            ])
        static let selections: [Selection] = [.field(addComment)]
    }
}

/// `deleteComment(id:) { deletedId @deleteRecord(typeName: "Comment") }`, or `@deleteEdge(connections:)`.
struct DeleteComment: GraphQLOperation {
    static let operationName = "DeleteComment"
    static let document = "mutation DeleteComment { … }"
    static var operationType: OperationType { .mutation }
    var id: String
    var variables: [String: JSONValue] { ["id": .string(id)] }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let deleteComment = Field(
            "deleteComment", arguments: [("id", .variable("id"))], type: .named("DeletePayload"),
            selections: [
                .field(
                    Field("deletedId", type: .named("ID"), update: RecordUpdate(.deleteRecord, typename: "Comment")))
            ])
        static let selections: [Selection] = [.field(deleteComment)]
    }
}

struct RemoveCommentEdge: GraphQLOperation {
    static let operationName = "RemoveCommentEdge"
    static let document = "mutation RemoveCommentEdge { … }"
    static var operationType: OperationType { .mutation }
    var id: String
    var connections: [ConnectionID]
    var variables: [String: JSONValue] { ["id": .string(id)] }
    var clientVariables: [String: JSONValue] { ["connections": connections.jsonValue] }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let deleteComment = Field(
            "deleteComment", arguments: [("id", .variable("id"))], type: .named("DeletePayload"),
            selections: [
                .field(
                    Field(
                        "deletedId", type: .named("ID"),
                        update: RecordUpdate(.deleteEdge, connections: .variable("connections"))))
            ])
        static let selections: [Selection] = [.field(deleteComment)]
    }
}

/// `fragment IssueCommentsPage on Issue @refetchable(queryName: "IssueCommentsPage") { comments(…) @connection }`
/// with its generated query `query IssueCommentsPage($count: Int, $cursor: String, $id: ID!, $order: String) {
/// node(id: $id) { ...IssueCommentsPage } }`.
struct IssueCommentsFragment: RefetchableFragment {
    let lens: Lens
    init(lens: Lens) { self.lens = lens }
    static let fragmentName: String? = "IssueCommentsFragment"
    static let typeCondition: TypeCondition? = TypeCondition("Issue")
    static let selections: [Selection] = IssueComments.Issue.selections
    static let connectionPath: [Field] = [IssueComments.Issue.Fields.comments]
    static let paging = PagingVariables(forwardCount: "count", forwardCursor: "cursor")
    static let refetchesThroughNode = true
    var comments: IssueComments.Comments { lens.read(IssueComments.Issue.Fields.comments) }

    struct RefetchQuery: RefetchQueryOperation {
        static let operationName = "IssueCommentsPage"
        static let document = "query IssueCommentsPage { … }"
        static let variableNames: Set<String> = ["count", "cursor", "id", "order"]
        let variables: [String: JSONValue]
        init(variables: [String: JSONValue]) {
            self.variables = variables.filter { Self.variableNames.contains($0.key) }
        }

        struct Data: LensType {
            let lens: Lens
            init(lens: Lens) { self.lens = lens }
            static let node = Field(
                "node", arguments: [("id", .variable("id"))], type: .named("Node"),
                selections: [.fragment(IssueCommentsFragment.self)])
            static let selections: [Selection] = [.field(node)]
        }
    }
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
