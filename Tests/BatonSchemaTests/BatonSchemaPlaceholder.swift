import XCTest

final class BatonSchemaPlaceholder: XCTestCase {
    func testBuilds() {}
}
