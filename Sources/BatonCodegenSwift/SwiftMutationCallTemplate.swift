import BatonCodegen
import BatonDeclarations

/// A mutation's call: `Baton.MutationCall<M>` called like a function with the mutation's variables, typed, and an
/// optional typed optimistic response — the guide's `try await addComment(input: …, connections: [connectionID])`.
///
///     extension Baton.MutationCall where Operation == AddComment {
///         @discardableResult
///         func callAsFunction(input: AddCommentInput, connections: [Baton.ConnectionID],
///                             optimisticResponse: AddComment.Data.Optimistic? = nil) async throws(Baton.FetchError)
///             -> AddComment.Data
///     }
struct SwiftMutationCallTemplate {
    let generator: SwiftGenerator
    /// The tree's entry point: the mutation, and its optimistic builder if it has one.
    let call: MutationCallEntryPoint
    let typeName: String
    /// The operation's init parameters (`input: AddCommentInput`) and the names (declared, unquoted) that pass
    /// them on.
    let parameters: [String]
    let arguments: [String]

    private static let rules = IdentifierRules.swift

    func render() -> Template {
        let access = generator.access
        let type = Self.rules.quoted(typeName)
        let builder = call.optimisticBuilder.map { "\(type).Data.\(Self.rules.quoted($0))" }
        // `optimisticResponse` is the last parameter; a variable of that name keeps it (the runtime's label wins).
        let optimisticLabel = arguments.contains("optimisticResponse") ? "optimisticResponse_" : "optimisticResponse"
        var all = parameters
        if let builder { all.append("\(optimisticLabel): \(builder)? = nil") }
        let passed = arguments.map { "\(Self.rules.argumentLabel($0)): \(Self.rules.quoted($0))" }.joined(
            separator: ", ")
        return """

            \(generator.isolation)extension Baton.MutationCall where Operation == \(type) {
                /// Sends `mutation \(call.operationName)` through the call's environment (never retried, never answered from
                /// the store), with `\(optimisticLabel)` shown at once until the server answers; returns its data or
                /// throws `Baton.FetchError`.
                @discardableResult
                \(access)func callAsFunction(\(joined: all, separator: ", ")) async throws(Baton.FetchError) -> \(type).Data {
                    try await perform(\(type)(\(passed))\(builder == nil ? "" : ", optimisticResponse: \(optimisticLabel)"))
                }
            }
            """
    }
}
