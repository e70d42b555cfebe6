import Foundation

/// Stops the fuzzer with a message: an invariant does not hold for this input (libFuzzer keeps the input).
func violated(_ message: String) -> Never {
    FileHandle.standardError.write(Data("invariant violated: \(message)\n".utf8))
    abort()
}
