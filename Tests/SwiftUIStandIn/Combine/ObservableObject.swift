// A stand-in for the part of Apple's Combine that Baton and the examples use, for typechecking on Linux. Each
// declaration has the signature Apple documents; bodies are the stand-in's own. Never part of a product: the tests
// compile it into a temporary folder (Tests/BatonCodegenTests/SwiftUIStandInTests.swift).

import Foundation

/// `protocol Publisher<Output, Failure>`: a type that can transmit a sequence of values over time. The stand-in
/// declares the associated types only; subscribing (`receive(subscriber:)`) is not used by the code it checks.
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
}

/// `protocol ObservableObject: AnyObject`: a type of object with a publisher that emits before the object changes.
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The publisher Combine keeps for the object.
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher.registry.publisher(for: self) }
}

/// `final class ObservableObjectPublisher`: a publisher that publishes changes from observable objects.
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never

    public init() {}

    /// Sends the changed value to the downstream subscriber (the stand-in has none).
    public func send() {}

    /// One publisher per object, as Combine keeps it.
    static let registry = Registry()

    final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var publishers: [ObjectIdentifier: ObservableObjectPublisher] = [:]

        func publisher(for object: AnyObject) -> ObservableObjectPublisher {
            lock.lock()
            defer { lock.unlock() }
            if let existing = publishers[ObjectIdentifier(object)] { return existing }
            let publisher = ObservableObjectPublisher()
            publishers[ObjectIdentifier(object)] = publisher
            return publisher
        }
    }
}
