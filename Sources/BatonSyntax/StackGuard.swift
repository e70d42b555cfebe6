#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells a recursive algorithm when the current thread's stack is close to its end, so that it
/// can stop with a diagnostic instead of crashing.
///
/// A depth limit alone cannot guarantee this: a debug build uses several kilobytes of stack per
/// nesting level, and secondary threads may have as little as 512 KiB. The guard reads the
/// thread's stack bounds once and then compares the address of a local variable with the low
/// end, which costs a few instructions per check. Where the bounds cannot be read it always
/// answers that there is room, leaving the depth limit as the only bound.
package struct StackGuard: Sendable {
    /// Lowest address the stack may grow down to before a check fails (0 when unknown).
    let limit: UInt

    /// The free stack a check demands: enough for one more nesting level of any recursive
    /// walk in a debug build, plus building and throwing the diagnostic.
    package static let defaultReserve = 128 * 1024

    /// A guard for the calling thread (create it on the thread that recurses).
    package init(reserve: Int = StackGuard.defaultReserve) {
        let here = StackGuard.currentAddress()
        let low = StackGuard.currentThreadStackLow()
        if low != 0 && low < here {
            limit = low + UInt(reserve)
        } else {
            // Bounds unknown: allow what the smallest common thread stack (512 KiB) leaves.
            limit = here > StackGuard.fallbackBudget ? here - StackGuard.fallbackBudget : 0
        }
    }

    /// How much stack a walk may use when the thread's bounds cannot be read.
    static let fallbackBudget: UInt = 256 * 1024

    /// True while the stack has at least `reserve` bytes left.
    @inline(__always)
    package func hasRoom() -> Bool {
        guard limit != 0 else { return true }
        return StackGuard.currentAddress() > limit
    }

    /// True while the free stack (beyond the reserve) is at least `factor` times what was used
    /// since `start` (an earlier `StackGuard.address()` on this thread): for a walk whose result
    /// another recursion of similar frames (a printer, say) must go through again later.
    @inline(__always)
    package func hasRoom(forRepeating factor: UInt, since start: UInt) -> Bool {
        guard limit != 0 else { return true }
        let here = StackGuard.currentAddress()
        guard here > limit else { return false }
        let used = start > here ? start - here : 0
        return here - limit >= used.multipliedReportingOverflow(by: factor).partialValue
    }

    /// The current stack position, for `hasRoom(forRepeating:since:)`.
    @inline(__always)
    package static func address() -> UInt { currentAddress() }

    /// An address in the caller's stack frame.
    @inline(__always)
    static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// The low end (growth limit) of the calling thread's stack, or 0 if unknown. Read once per
    /// thread and then kept in thread-local storage: on Linux, glibc answers for the main thread
    /// by reading `/proc/self/maps`, which cost `baton gen` a tenth of its time when every
    /// operation's document text made a guard.
    static func currentThreadStackLow() -> UInt {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            if let cached = pthread_getspecific(stackLowKey) {
                let value = UInt(bitPattern: cached)
                return value == StackGuard.unknownBounds ? 0 : value
            }
            let low = readCurrentThreadStackLow()
            _ = pthread_setspecific(
                stackLowKey, UnsafeRawPointer(bitPattern: low == 0 ? StackGuard.unknownBounds : low))
            return low
        #else
            return 0
        #endif
    }

    /// Kept for a thread whose bounds could not be read (a real stack bound is page-aligned).
    static let unknownBounds: UInt = 1

    /// Asks the system for the low end of the calling thread's stack.
    static func readCurrentThreadStackLow() -> UInt {
        #if canImport(Glibc) || canImport(Musl)
            // `pthread_getattr_np` is a GNU extension the Swift Glibc module does not import.
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return 0 }
            let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
            var attributes = pthread_attr_t()
            guard getAttributes(pthread_self(), &attributes) == 0 else { return 0 }
            defer { pthread_attr_destroy(&attributes) }
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return 0 }
            return UInt(bitPattern: address)
        #elseif canImport(Darwin)
            let thread = pthread_self()
            let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = UInt(pthread_get_stacksize_np(thread))
            return high > size ? high - size : 0
        #else
            return 0
        #endif
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// Each thread's stack low end, once read (see `StackGuard.currentThreadStackLow`).
    private let stackLowKey: pthread_key_t = {
        var key = pthread_key_t()
        _ = pthread_key_create(&key, nil)
        return key
    }()
#endif
