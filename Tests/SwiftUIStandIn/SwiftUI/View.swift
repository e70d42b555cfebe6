// A stand-in for the SwiftUI declarations Baton and the examples use, for typechecking on Linux. Each declaration
// has the signature Apple documents (isolation, generic constraints, result builders); bodies are the stand-in's
// own and are never run. A type Apple documents without `@MainActor` declares its `View` conformance in an
// extension, as SwiftUI does, so Swift does not infer main-actor isolation for its initializers. Never part of a product: the tests compile it into a temporary folder
// (Tests/BatonCodegenTests/SwiftUIStandInTests.swift), and on Apple platforms the real SwiftUI is used.

@_exported import Combine
@_exported import Foundation
@_exported import Observation

/// `@MainActor @preconcurrency protocol View`: a type that represents part of your app's user interface.
@MainActor
@preconcurrency
public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View

    /// The content and behavior of the view.
    @ViewBuilder
    @MainActor
    @preconcurrency
    var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { self }
}

/// The stand-in's marker for a view SwiftUI draws itself (`Body == Never`).
func primitiveBody(_ type: Any.Type) -> Never {
    fatalError("\(type) has no body; the SwiftUI stand-in is for typechecking only")
}

/// `@frozen struct EmptyView`: a view that doesn't contain any content.
@frozen
public struct EmptyView {
    @inlinable public init() {}
}

extension EmptyView: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}

/// `@frozen struct TupleView<T>`: a view created from a Swift tuple of view values.
@frozen
public struct TupleView<T> {
    public var value: T
    @inlinable public init(_ value: T) { self.value = value }
}

extension TupleView: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}

@available(*, unavailable)
extension TupleView: Sendable {}

/// `@frozen struct _ConditionalContent<TrueContent, FalseContent>`: the `if`/`else` and `switch` of a builder.
@frozen
public struct _ConditionalContent<TrueContent, FalseContent> {
    @frozen
    public enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    public let storage: Storage

    @usableFromInline init(storage: Storage) { self.storage = storage }
}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}

@available(*, unavailable)
extension _ConditionalContent: Sendable {}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}

/// `@frozen struct AnyView`: a type-erased view.
@frozen
public struct AnyView {
    private let erased: Any
    public init<V: View>(_ view: V) { erased = view }
}

extension AnyView: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}

@available(*, unavailable)
extension AnyView: Sendable {}

/// `@resultBuilder struct ViewBuilder`: a custom parameter attribute that constructs views from closures.
@resultBuilder
public struct ViewBuilder {
    /// Passes a single view written as a child view through unmodified.
    @_alwaysEmitIntoClient
    public static func buildExpression<Content>(_ content: Content) -> Content where Content: View { content }

    /// What a builder says of an expression that is not a view.
    @available(*, unavailable, message: "this expression does not conform to 'View'")
    @_disfavoredOverload
    @_alwaysEmitIntoClient
    public static func buildExpression(_ invalid: Any) -> some View { EmptyView() }

    /// Builds an empty view from a block containing no statements.
    @_alwaysEmitIntoClient
    public static func buildBlock() -> EmptyView { EmptyView() }

    /// Passes a single view written as a child view through unmodified.
    @_alwaysEmitIntoClient
    public static func buildBlock<Content>(_ content: Content) -> Content where Content: View { content }

    /// Builds a tuple view from the views of a block.
    @_disfavoredOverload
    @_alwaysEmitIntoClient
    public static func buildBlock<each Content>(_ content: repeat each Content) -> TupleView<(repeat each Content)>
    where repeat each Content: View {
        TupleView((repeat each content))
    }

    /// Produces an optional view for conditional statements in multi-statement closures that's only visible when
    /// the condition evaluates to true.
    @_alwaysEmitIntoClient
    public static func buildIf<Content>(_ content: Content?) -> Content? where Content: View { content }

    /// Produces content for a conditional statement in a multi-statement closure when the condition is true.
    @_alwaysEmitIntoClient
    public static func buildEither<TrueContent, FalseContent>(first: TrueContent) -> _ConditionalContent<
        TrueContent, FalseContent
    > where TrueContent: View, FalseContent: View {
        _ConditionalContent(storage: .trueContent(first))
    }

    /// Produces content for a conditional statement in a multi-statement closure when the condition is false.
    @_alwaysEmitIntoClient
    public static func buildEither<TrueContent, FalseContent>(second: FalseContent) -> _ConditionalContent<
        TrueContent, FalseContent
    > where TrueContent: View, FalseContent: View {
        _ConditionalContent(storage: .falseContent(second))
    }

    /// Processes view content for a conditional compiler-control statement that performs an availability check.
    @_alwaysEmitIntoClient
    public static func buildLimitedAvailability<Content>(_ content: Content) -> AnyView where Content: View {
        AnyView(content)
    }
}

@available(*, unavailable)
extension ViewBuilder: Sendable {}
