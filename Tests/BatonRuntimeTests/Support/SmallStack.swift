import Foundation
import XCTest

/// The stack size of Swift concurrency's and secondary threads on Apple platforms.
let smallStackSize = 512 * 1024

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it: a recursion that the main
/// thread's 8 MiB would hide crashes the test process here.
/// An error thrown by `body` fails the test.
func onThread(
    stackSize: Int = smallStackSize, file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @Sendable () throws -> Void
) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do {
            try body()
        } catch {
            XCTFail("thrown on the small stack: \(error)", file: file, line: line)
        }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
}
