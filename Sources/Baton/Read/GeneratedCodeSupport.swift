/// A value GraphQL lets be absent, null, or a value: an input object's nullable field.
///
/// Generated input objects store nullable fields as `GraphQLNullable` but take plain optionals in their
/// initializers (`nil` is absent), so `.null` is written only where a null is meant. `indirect`, so input objects
/// that reach themselves through nullable fields stay finite.
public indirect enum GraphQLNullable<Wrapped: Sendable>: Sendable, ExpressibleByNilLiteral {
    /// Left out of the request.
    case absent
    /// Sent as `null`.
    case null
    /// Sent as the value.
    case value(Wrapped)

    /// `nil` is absent.
    public init(nilLiteral: ()) { self = .absent }

    /// The value, or nil when absent or null.
    public var wrapped: Wrapped? {
        if case .value(let value) = self { return value }
        return nil
    }
}

extension GraphQLNullable: Equatable where Wrapped: Equatable {}
extension GraphQLNullable: Hashable where Wrapped: Hashable {}

extension Lens {
    /// Whether `@include`/`@skip` conditions hold under this read's variables. Generated accessors of a
    /// conditional selection read nil without a missing-data report when they do not.
    public func includes(_ conditions: [Condition]) -> Bool {
        conditions.allSatisfy { $0.passes(context.variables) }
    }
}
