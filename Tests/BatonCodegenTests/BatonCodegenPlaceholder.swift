import XCTest

final class BatonCodegenPlaceholder: XCTestCase {
    func testBuilds() {}
}
