// The environment, dynamic properties and state, as Apple documents them (see View.swift).

/// `protocol EnvironmentKey`: a key for accessing values in the environment.
public protocol EnvironmentKey {
    /// The associated type representing the type of the environment key's value.
    associatedtype Value
    /// The default value for the environment key.
    static var defaultValue: Value { get }
}

/// `struct EnvironmentValues: CustomStringConvertible`: a collection of environment values propagated through a
/// view hierarchy.
public struct EnvironmentValues: CustomStringConvertible {
    private var values: [ObjectIdentifier: Any] = [:]

    /// Creates an environment values instance.
    public init() {}

    /// Accesses the environment value associated with a custom key.
    public subscript<K>(key: K.Type) -> K.Value where K: EnvironmentKey {
        get { values[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    public var description: String { "EnvironmentValues(\(values.count) set)" }
}

@available(*, unavailable)
extension EnvironmentValues: Sendable {}

extension View {
    /// Sets the environment value of the specified key path to the given value.
    @inlinable
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        _EnvironmentWritingView(content: self)
    }
}

/// What `environment(_:_:)` returns (SwiftUI's is a `ModifiedContent`; only its `some View` is public).
public struct _EnvironmentWritingView<Content: View> {
    @usableFromInline let content: Content
    @usableFromInline init(content: Content) { self.content = content }
}

extension _EnvironmentWritingView: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}

/// `protocol DynamicProperty`: an interface for a stored variable that updates an external property of a view.
public protocol DynamicProperty {
    /// Updates the underlying value of the stored value.
    mutating func update()
}

extension DynamicProperty {
    public mutating func update() {}
}

/// `@frozen @propertyWrapper struct Environment<Value>: DynamicProperty`: a property wrapper that reads a value from
/// a view's environment.
@frozen
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    @usableFromInline let keyPath: KeyPath<EnvironmentValues, Value>

    /// Creates an environment property to read the specified key path.
    @inlinable
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }

    /// The current value of the environment property (outside a view: the default).
    @inlinable
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

extension Environment: @unchecked Sendable where Value: Sendable {}

/// `@frozen @propertyWrapper struct State<Value>: DynamicProperty`: a property wrapper type that can read and write a
/// value managed by SwiftUI. (`projectedValue`, a `Binding`, is not part of the stand-in.)
@frozen
@propertyWrapper
public struct State<Value>: DynamicProperty {
    @usableFromInline let box: StateBox<Value>

    /// Creates a state property that stores an initial value.
    public init(wrappedValue value: Value) { box = StateBox(value) }

    /// The underlying value referenced by the state variable.
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }
}

extension State: @unchecked Sendable where Value: Sendable {}

/// The stand-in's storage for `State` and `StateObject`.
@usableFromInline
final class StateBox<Value> {
    @usableFromInline var value: Value
    @usableFromInline init(_ value: Value) { self.value = value }
}

/// `@MainActor @preconcurrency @frozen @propertyWrapper struct StateObject<ObjectType> where ObjectType:
/// ObservableObject`: a property wrapper type that instantiates an observable object. (`projectedValue` is not part
/// of the stand-in.)
@MainActor
@preconcurrency
@frozen
@propertyWrapper
public struct StateObject<ObjectType>: DynamicProperty where ObjectType: ObservableObject {
    nonisolated(unsafe) let thunk: () -> ObjectType
    nonisolated(unsafe) let box = StateBox<ObjectType?>(nil)

    /// Creates a new state object with an initial wrapped value.
    nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { self.thunk = thunk }

    /// The underlying value referenced by the state object.
    public var wrappedValue: ObjectType {
        if let object = box.value { return object }
        let object = thunk()
        box.value = object
        return object
    }
}
