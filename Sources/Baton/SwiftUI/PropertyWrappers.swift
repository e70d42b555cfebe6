#if canImport(SwiftUI)
    import SwiftUI

    // SwiftUI conveniences over the Linux-tested core (`BatonEnvironment`, `Handle`). Compiled only where SwiftUI
    // exists; everything they do is a call the tests exercise through `Handle`.

    private struct BatonEnvironmentKey: EnvironmentKey {
        static let defaultValue: BatonEnvironment? = nil
    }

    extension EnvironmentValues {
        /// The Baton environment views attach handles to: `.environment(\.baton, environment)`.
        public var baton: BatonEnvironment? {
            get { self[BatonEnvironmentKey.self] }
            set { self[BatonEnvironmentKey.self] = newValue }
        }
    }

    /// Keeps one handle for a view's lifetime and republishes its changes to SwiftUI.
    @MainActor
    final class HandleModel<Operation: GraphQLOperation>: ObservableObject {
        private(set) var handle: Handle<Operation>?

        func attach(_ environment: BatonEnvironment, _ operation: Operation, _ policy: FetchPolicy) {
            guard handle == nil else { return }
            let handle = environment.attach(operation, policy: policy)
            handle.observe { [weak self] in
                Task { @MainActor in self?.objectWillChange.send() }
            }
            self.handle = handle
        }
    }

    /// What `@Query` gives a view: the handle's phase, staleness and retry.
    public struct QueryValue<Operation: GraphQLOperation> {
        let handle: Handle<Operation>?

        public var phase: Phase<Operation.Data> { handle?.phase ?? .loading }
        public var isStale: Bool { handle?.isStale ?? false }
        public var lastFetchError: FetchError? { handle?.lastFetchError }
        public func retry() { handle?.retry() }
    }

    /// `@Query("query …", Operation(variables…)) var data`: attaches a handle in the view's `baton` environment.
    ///
    /// The document literal is what the compiler reads; at run time the generated operation carries it.
    @propertyWrapper
    public struct Query<Operation: GraphQLOperation>: DynamicProperty {
        @SwiftUI.Environment(\.baton) private var environment: BatonEnvironment?
        @StateObject private var model = HandleModel<Operation>()
        private let operation: Operation
        private let policy: FetchPolicy

        public init(_ document: String, _ operation: Operation, policy: FetchPolicy = .storeOrNetwork) {
            self.operation = operation
            self.policy = policy
        }

        @MainActor
        public var wrappedValue: QueryValue<Operation> {
            if let environment { model.attach(environment, operation, policy) }
            return QueryValue(handle: model.handle)
        }
    }

    /// `@Fragment("fragment …") var issue: IssueRow_issue`: a fragment's lens, passed in by the parent, which re-reads
    /// (and so re-renders the child) when the fragment's slots change.
    @propertyWrapper
    public struct Fragment<Value: LensType>: DynamicProperty {
        public var wrappedValue: Value

        public init(wrappedValue: Value, _ document: String) {
            self.wrappedValue = wrappedValue
        }
    }
#endif
