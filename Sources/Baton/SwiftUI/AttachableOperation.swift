import Foundation

// Compiled on every platform: generated queries conform to `AttachableOperation` everywhere, and a handle gives its
// attached operation value to any caller (the Linux example does). Only the wrappers that attach in a view
// (`Query.swift`) need SwiftUI.

/// A query whose value can carry the handle a view attached for it, so the view reads `repository.phase`,
/// `repository.isStale` and `repository.retry()` from the same value it declared (`@Query("…") var repository:
/// RepositoryQuery`).
///
/// Generated queries conform; `attachment` is empty on a value the app made (`RepositoryQuery(owner:name:)`) and
/// filled on the value `@Query` or `Handle.attachedOperation` gives.
public protocol AttachableOperation: GraphQLOperation {
    /// The handle this value reads its phase from, if any.
    var attachment: Attachment<Self> { get set }
}

/// An operation whose variables may all be left out, so `init()` builds it and `@Query("…")` needs none passed.
public protocol DefaultVariablesOperation: AttachableOperation {
    init()
}

/// The handle an operation value reads its phase from, or why there is none.
public struct Attachment<Operation: GraphQLOperation>: Sendable {
    /// The attached handle.
    public let handle: Handle<Operation>?
    /// Why nothing is attached, when something tried and could not (a view without a `BatonEnvironment`).
    let failure: FetchError?

    /// Nothing attached: what a value the app made carries.
    public init() {
        handle = nil
        failure = nil
    }

    init(handle: Handle<Operation>) {
        self.handle = handle
        failure = nil
    }

    init(failure: FetchError) {
        handle = nil
        self.failure = failure
    }
}

extension AttachableOperation {
    /// The attached handle's phase. A value without a handle reads `.failed(.unattached)`, with why.
    public var phase: Phase<Data> {
        if let handle = attachment.handle { return handle.phase }
        return .failed(
            attachment.failure
                ?? .unattached(
                    "\(Self.operationName) is not attached: read it through @Query, or attach it with "
                        + "BatonEnvironment.attach and use the handle's attachedOperation"))
    }

    /// Whether the attached handle's data is stale (false without a handle).
    public var isStale: Bool { attachment.handle?.isStale ?? false }

    /// Whether a fetch is running for the attached handle.
    public var isFetching: Bool { attachment.handle?.isFetching ?? false }

    /// The failure of the latest fetch, when it failed; with data already there the phase stays `.ready`.
    public var lastFetchError: FetchError? { attachment.handle?.lastFetchError ?? attachment.failure }

    /// Fetches again through the attached handle (nothing without one).
    public func retry() { attachment.handle?.retry() }
}

extension Handle where Operation: AttachableOperation {
    /// The operation value with this handle attached: reads `phase`, `isStale` and `retry()` through it.
    public var attachedOperation: Operation {
        var value = operation
        value.attachment = Attachment(handle: self)
        return value
    }
}
