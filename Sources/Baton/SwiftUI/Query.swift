#if canImport(SwiftUI)
    import Foundation
    import SwiftUI
    #if canImport(Observation)
        import Observation
    #endif

    // The SwiftUI wrappers over the Linux-tested core (`BatonEnvironment`, `Handle`, `AttachableOperation`,
    // `Fragment`). Compiled only where SwiftUI exists; on Linux the tests typecheck them against a stand-in for
    // SwiftUI's declarations (Tests/SwiftUIStandIn, Docs/SwiftUI.md).

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

    /// `@Query("query …") var repository: RepositoryQuery`: the operation value, attached to a handle in the view's
    /// `baton` environment, so the view reads `repository.phase`, `repository.isStale` and `repository.retry()`.
    ///
    /// The literal is what `baton` reads; at run time the generated operation carries the document. The variables
    /// come from the view's maker: Swift's memberwise initializer takes the wrapper,
    /// `RepositoryScreen(repository: Query(RepositoryQuery(owner: "apple", name: "swift")))`. An operation whose
    /// variables may all be left out needs none (`ViewerScreen()`).
    ///
    /// The handle is attached on the first read of the body, once per view identity (its model is a `StateObject`),
    /// attached again when the variables, the policy or the environment change, and detached when the view goes.
    /// A change of the handle's phase or staleness re-renders the view: through Observation on macOS 14, iOS 17,
    /// tvOS 17 and watchOS 10 and later (only a body that read the value depends on it), through `ObservableObject`
    /// below.
    @MainActor
    @preconcurrency
    @propertyWrapper
    public struct Query<Operation: AttachableOperation>: DynamicProperty {
        @SwiftUI.Environment(\.baton) private var environment: BatonEnvironment?
        @StateObject private var model: QueryModel<Operation>
        /// The operation with its variables; nil for a required-variables operation made from the literal alone.
        private let operation: Operation?
        private let policy: FetchPolicy

        /// The operation the view's maker passes, with its variables; `policy` is where its data comes from.
        nonisolated public init(_ operation: Operation, policy: FetchPolicy = .storeOrNetwork) {
            self.operation = operation
            self.policy = policy
            _model = StateObject(wrappedValue: QueryModel())
        }

        /// What Swift uses when the view's maker passes nothing: the operation built without variables when all of
        /// them may be left out (`DefaultVariablesOperation`), otherwise no operation, and reading the view's value
        /// stops the program with what to pass (a programming error, as SwiftUI's own missing `EnvironmentObject`).
        nonisolated public init(_ document: String, policy: FetchPolicy = .storeOrNetwork) {
            operation = (Operation.self as? any DefaultVariablesOperation.Type)?.init() as? Operation
            self.policy = policy
            _model = StateObject(wrappedValue: QueryModel())
        }

        /// The operation value with its handle attached.
        public var wrappedValue: Operation {
            guard let operation else {
                preconditionFailure(
                    "@Query of \(Operation.operationName) has no variables: make the view with "
                        + "Query(\(Operation.self)(…)) for this property (its memberwise initializer takes it)")
            }
            guard let environment else {
                var value = operation
                value.attachment = Attachment(
                    failure: .unattached(
                        "no BatonEnvironment for \(Operation.operationName): set .environment(\\.baton, environment) "
                            + "on a view above this one"))
                return value
            }
            return model.attached(operation, in: environment, policy: policy)
        }
    }

    /// Keeps one handle for a view's identity and tells SwiftUI when it changes.
    @MainActor
    final class QueryModel<Operation: AttachableOperation>: ObservableObject {
        private var handle: Handle<Operation>?
        /// The token of this model's observer on `handle`.
        private var observer = 0
        /// What a body reads through Observation on macOS 14 / iOS 17 and later (a `QueryRevision`, made on the
        /// first read), else nil.
        private var revision: AnyObject?

        nonisolated init() {}

        deinit { handle?.detach() }

        /// The attached operation value, attaching (again) when the operation, policy or environment changed.
        func attached(_ operation: Operation, in environment: BatonEnvironment, policy: FetchPolicy) -> Operation {
            track()
            if let handle, handle.environment === environment, handle.policy == policy,
                handle.operation.identity == operation.identity
            {
                return handle.attachedOperation
            }
            if let handle {
                handle.removeObserver(observer)
                handle.detach()
            }
            let handle = environment.attach(operation, policy: policy)
            observer = handle.observe { [weak self] in
                guard let self else { return }
                Task { @MainActor in self.changed() }
            }
            self.handle = handle
            // The fetch runs on another task and may have finished before `observe`: read once more.
            Task { @MainActor [weak self] in self?.changed() }
            return handle.attachedOperation
        }

        /// Registers the reading body as dependent on the handle (Observation); nothing below macOS 14 / iOS 17.
        private func track() {
            #if canImport(Observation)
                if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
                    let subject = revision as? QueryRevision ?? QueryRevision()
                    revision = subject
                    _ = subject.value
                }
            #endif
        }

        /// The handle's phase or staleness changed: re-render the views that read it.
        private func changed() {
            #if canImport(Observation)
                if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let revision = revision as? QueryRevision {
                    revision.value &+= 1
                    return
                }
            #endif
            objectWillChange.send()
        }
    }

    #if canImport(Observation)
        /// A counter a body reads through Observation, bumped on every change of the handle.
        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        @Observable
        final class QueryRevision {
            var value = 0
        }
    #endif
#endif
