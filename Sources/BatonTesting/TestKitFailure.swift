/// What a test kit expectation throws when it does not hold: a sentence saying what was expected and what happened.
///
/// XCTest reports it as the thrown error of a `throws` test method, Swift Testing as an issue; neither is a
/// dependency of the kit.
public struct TestKitFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
