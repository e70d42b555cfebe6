export type Result<T> = { readonly value: T } | { readonly errors: ReadonlyArray<unknown> };
export type Deferred<T> = "pending" | { readonly ready: T } | { readonly failed: ReadonlyArray<unknown> };
export interface Streamed<T> { readonly items: ReadonlyArray<T>; readonly isComplete: boolean }

// CommentOrder.d.ts
export enum CommentOrder {
  "NEWEST" = "NEWEST",
  "OLDEST" = "OLDEST",
}

// AddCommentInput.d.ts
export interface AddCommentInput {
  readonly subjectId: string;
  readonly body: string;
  readonly clientMutationId?: string | null;
}

// CommentRow_comment.d.ts
/** on Comment */
export interface CommentRow_comment {
  /** @read plain */
  readonly body: string;
  /** @read plain */
  readonly author: CommentRow_comment.Author | null;
}
export namespace CommentRow_comment {
  export interface Author {
    /** @read plain */
    readonly login: string;
  }
  export namespace Author {
    export interface Optimistic {
      readonly login: string;
    }
  }
  export interface Optimistic {
    readonly body: string;
    readonly author?: CommentRow_comment.Author.Optimistic | null;
  }
}

// IssueComments_issue.d.ts
/** on Issue @refetch IssueCommentsPaginationQuery by node @paginate comments forward(count, cursor) */
export interface IssueComments_issue {
  /** @read plain */
  readonly title: string;
  /** @read plain @args comments(after: $cursor, first: $count, orderBy: $order) */
  readonly comments: IssueComments_issue.Comments;
}
export namespace IssueComments_issue {
  export interface Comments {
    /** @read plain */
    readonly totalCount: number;
    /** @read plain */
    readonly edges: ReadonlyArray<IssueComments_issue.Comments.Edges | null> | null;
    /** @read plain */
    readonly pageInfo: IssueComments_issue.Comments.PageInfo;
  }
  export namespace Comments {
    export interface Edges {
      /** @read plain */
      readonly cursor: string;
      /** @read plain */
      readonly node: IssueComments_issue.Comments.Edges.Node | null;
    }
    export namespace Edges {
      export interface Node {
        /** @read plain */
        readonly id: string;
        /** @read spread */
        readonly commentRow: CommentRow_comment;
      }
    }
    export interface PageInfo {
      /** @read plain */
      readonly endCursor: string | null;
      /** @read plain */
      readonly hasNextPage: boolean;
    }
  }
}

// AddComment.d.ts
/** mutation AddComment @call optimistic: Optimistic */
export interface AddComment {
  /** @read plain @args addComment(input: $input) */
  readonly addComment: AddComment.AddComment2 | null;
}
export namespace AddComment {
  export interface AddComment2 {
    /** @read plain */
    readonly commentEdge: AddComment.AddComment2.CommentEdge | null;
  }
  export namespace AddComment2 {
    export interface CommentEdge {
      /** @read plain */
      readonly cursor: string;
      /** @read plain */
      readonly node: AddComment.AddComment2.CommentEdge.Node | null;
    }
    export namespace CommentEdge {
      export interface Node {
        /** @read plain */
        readonly id: string;
        /** @read spread */
        readonly commentRow: CommentRow_comment;
      }
      export namespace Node {
        export interface Optimistic {
          readonly id: string;
          readonly commentRow: CommentRow_comment.Optimistic;
        }
      }
      export interface Optimistic {
        readonly cursor: string;
        readonly node?: AddComment.AddComment2.CommentEdge.Node.Optimistic | null;
      }
    }
    export interface Optimistic {
      readonly commentEdge?: AddComment.AddComment2.CommentEdge.Optimistic | null;
    }
  }
  export interface Optimistic {
    readonly addComment?: AddComment.AddComment2.Optimistic | null;
  }
}
export interface AddCommentVariables {
  readonly input: AddCommentInput;
}

// DeleteComment.d.ts
/** mutation DeleteComment @call optimistic: Optimistic */
export interface DeleteComment {
  /** @read plain @args deleteComment(id: $id) */
  readonly deleteComment: DeleteComment.DeleteComment2 | null;
}
export namespace DeleteComment {
  export interface DeleteComment2 {
    /** @read plain */
    readonly deletedCommentId: string | null;
  }
  export namespace DeleteComment2 {
    export interface Optimistic {
      readonly deletedCommentId?: string | null;
    }
  }
  export interface Optimistic {
    readonly deleteComment?: DeleteComment.DeleteComment2.Optimistic | null;
  }
}
export interface DeleteCommentVariables {
  readonly id: string;
}

// IssueCommentsPaginationQuery.d.ts
/** query IssueCommentsPaginationQuery @fetch @refetches IssueComments_issue */
export interface IssueCommentsPaginationQuery {
  /** @read plain @args node(id: $id) */
  readonly node: IssueCommentsPaginationQuery.Node | null;
}
export namespace IssueCommentsPaginationQuery {
  export interface Node {
    /** @read spread */
    readonly issueComments: IssueComments_issue | null;
  }
}
export interface IssueCommentsPaginationQueryVariables {
  readonly count?: number | null;
  readonly cursor?: string | null;
  readonly id: string;
  readonly order?: CommentOrder | null;
}

// IssueQuery.d.ts
/** query IssueQuery @fetch */
export interface IssueQuery {
  /** @read plain @args node(id: $id) */
  readonly node: IssueQuery.Node | null;
}
export namespace IssueQuery {
  export interface Node {
    /** @read plain */
    readonly id: string;
    /** @read spread */
    readonly issueComments: IssueComments_issue | null;
  }
}
export interface IssueQueryVariables {
  readonly id: string;
  readonly count?: number | null; // = 2
  readonly cursor?: string | null;
  readonly order?: CommentOrder | null;
}
