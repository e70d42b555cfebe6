import XCTest

final class BatonRuntimePlaceholder: XCTestCase {
    func testBuilds() {}
}
