#if canImport(SwiftUI)
    import Foundation
    import SwiftUI

    /// `@Mutation("mutation AddComment(…) { … }") var addComment: MutationCall<AddComment>`: the mutation bound to the
    /// view's `baton` environment, called like the guide's
    /// `try await addComment(input: AddCommentInput(body: body, subjectId: subjectID), connections: [connectionID])`
    /// (the generated `callAsFunction` takes the mutation's variables, typed, and an optional optimistic response).
    ///
    /// The literal is what `baton` reads; at run time the generated operation carries the document. Nothing is
    /// fetched until the view calls it, and a call from a view without a `BatonEnvironment` throws
    /// `FetchError.unattached` with what to set.
    @MainActor
    @preconcurrency
    @propertyWrapper
    public struct Mutation<Operation: GraphQLOperation>: DynamicProperty {
        @SwiftUI.Environment(\.baton) private var environment: BatonEnvironment?

        /// The default Swift gives `@Mutation("…")`: the literal is the compiler's.
        nonisolated public init(_ document: String) {}

        /// The mutation bound to the view's environment.
        public var wrappedValue: MutationCall<Operation> { MutationCall(environment: environment) }
    }
#endif
