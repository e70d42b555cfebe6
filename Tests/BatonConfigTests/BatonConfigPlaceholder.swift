import XCTest

final class BatonConfigPlaceholder: XCTestCase {
    func testBuilds() {}
}
