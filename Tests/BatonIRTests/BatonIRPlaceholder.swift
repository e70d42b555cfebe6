import XCTest

final class BatonIRPlaceholder: XCTestCase {
    func testBuilds() {}
}
