import BatonCompiler
import BatonDiagnostics
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif
import XCTest

/// A streamed check's schema handle (`BuiltSchema`): the driver marks it as being built and builds it on another
/// thread while the compilation's first pass reads the documents; the compilation's `take` waits for it.
final class BuiltSchemaTests: XCTestCase {
    private static func schema(_ marker: String) -> ProjectLoader.LoadedSchema {
        (schema: nil, sources: [], diagnostics: [Diagnostic(.warning, marker, rule: "test", range: nil)])
    }

    func testTakeWaitsForASchemaBeingBuilt() {
        for delay in [0, 1, 20] {
            let built = BuiltSchema()
            XCTAssertFalse(built.isExpected)
            built.willBuild()
            XCTAssertTrue(built.isExpected)
            let done = DispatchGroup()
            DispatchQueue.global().async(group: done) {
                if delay > 0 { usleep(UInt32(delay * 1000)) }
                built.set(Self.schema("built after \(delay) ms"))
            }
            let taken = built.take()
            XCTAssertEqual(taken?.diagnostics.map(\.message), ["built after \(delay) ms"])
            // Taken once: let go by the handle.
            XCTAssertNil(built.take())
            XCTAssertFalse(built.isExpected)
            done.wait()
        }
    }

    func testASchemaNotBeingBuiltIsNotWaitedFor() {
        let built = BuiltSchema()
        XCTAssertNil(built.take())
        built.set(Self.schema("set first"))
        XCTAssertTrue(built.isExpected)
        XCTAssertEqual(built.take()?.diagnostics.map(\.message), ["set first"])
        XCTAssertNil(built.take())
    }
}
