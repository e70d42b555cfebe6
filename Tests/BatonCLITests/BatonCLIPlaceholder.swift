import XCTest

final class BatonCLIPlaceholder: XCTestCase {
    func testBuilds() {}
}
