import XCTest

final class BatonValidationPlaceholder: XCTestCase {
    func testBuilds() {}
}
