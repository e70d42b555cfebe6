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

/// A mutation whose root field selects one field carrying a declarative update (`Shape` says which): the
/// prepending, node-appending and deleting mutations below, one operation type for all of them.
protocol UpdateMutationShape: Sendable {
    static var operationName: String { get }
    /// The root field (`addComment(body:)` or `deleteComment(id:)`) and its one selection.
    static var root: Field { get }
}

struct UpdateMutation<Shape: UpdateMutationShape>: GraphQLOperation {
    static var operationName: String { Shape.operationName }
    static var document: String { "mutation \(Shape.operationName) { … }" }
    static var operationType: OperationType { .mutation }
    var variables: [String: JSONValue]
    var connections: [ConnectionID]
    var clientVariables: [String: JSONValue] { connections.isEmpty ? [:] : ["connections": connections.jsonValue] }

    /// `addComment(body: $body)`.
    init(body: String, connections: [ConnectionID]) {
        variables = ["body": .string(body)]
        self.connections = connections
    }

    /// `deleteComment(id: $id)`.
    init(id: String, connections: [ConnectionID] = []) {
        variables = ["id": .string(id)]
        self.connections = connections
    }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static var selections: [Selection] { [.field(Shape.root)] }
    }
}

/// `addComment(body:)` selecting `selection` (its edge or node, with its update).
private func addComment(_ selection: Field) -> Field {
    Field(
        "addComment", arguments: [("body", .variable("body"))], type: .named("AddCommentPayload"),
        selections: [.field(selection)])
}

/// `deleteComment(id:) { deletedId }` with `update` on `deletedId`.
private func deleteComment(_ update: RecordUpdate) -> Field {
    Field(
        "deleteComment", arguments: [("id", .variable("id"))], type: .named("DeletePayload"),
        selections: [.field(Field("deletedId", type: .named("ID"), update: update))])
}

/// AddComment, prepending its edge.
typealias PrependComment = UpdateMutation<PrependCommentShape>
enum PrependCommentShape: UpdateMutationShape {
    static let operationName = "PrependComment"
    static let root = addComment(
        Field(
            "commentEdge", type: .named("CommentEdge"), selections: IssueComments.Edge.selections,
            update: RecordUpdate(.prependEdge, connections: .variable("connections"))))
}

/// `addComment(body:) { comment @appendNode(connections: $connections, edgeTypeName: "CommentEdge") { id body } }`.
typealias AddCommentNode = UpdateMutation<AddCommentNodeShape>
enum AddCommentNodeShape: UpdateMutationShape {
    static let operationName = "AddCommentNode"
    static let root = addComment(
        Field(
            "comment", type: .named("Comment"), selections: IssueComments.Comment.selections,
            update: RecordUpdate(.appendNode, connections: .variable("connections"), edgeTypename: "CommentEdge")))
}

/// `deleteComment(id:) { deletedId @deleteRecord(typeName: "Comment") }`.
typealias DeleteComment = UpdateMutation<DeleteCommentShape>
enum DeleteCommentShape: UpdateMutationShape {
    static let operationName = "DeleteComment"
    static let root = deleteComment(RecordUpdate(.deleteRecord, typename: "Comment"))
}

/// `deleteComment(id:) { deletedId @deleteEdge(connections: $connections) }`.
typealias RemoveCommentEdge = UpdateMutation<RemoveCommentEdgeShape>
enum RemoveCommentEdgeShape: UpdateMutationShape {
    static let operationName = "RemoveCommentEdge"
    static let root = deleteComment(RecordUpdate(.deleteEdge, connections: .variable("connections")))
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
