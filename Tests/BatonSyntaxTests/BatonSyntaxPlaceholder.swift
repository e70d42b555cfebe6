import XCTest

final class BatonSyntaxPlaceholder: XCTestCase {
    func testBuilds() {}
}
