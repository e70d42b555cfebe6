/// SplitMix64: small, fast and the same on every platform, so a seed names one run exactly (the
/// random tests of the compiler and the CLI; the runtime's tests keep their own, depending on
/// nothing of the compiler).
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in `0..<bound` (0 for a bound of 1 or less).
    package mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    /// True about `percent` times in a hundred.
    package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
