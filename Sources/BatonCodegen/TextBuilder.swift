/// Generated text built by appending UTF-8 bytes: for the parts of a file written line by line from
/// many small strings (a lens's fields and accessors), where `String`'s `+` and `append` cost several
/// hundred instructions each and a `Template` per piece more.
///
/// The bytes are in a buffer the builder owns (a pointer, a count, a capacity), not an `[UInt8]`: an
/// append is a capacity check and a copy, without `Array.append(contentsOf:)`'s per-call work (about
/// 137 instructions a piece into an array, ~82 here; issue 34). A copied builder shares the buffer
/// until either appends (`isKnownUniquelyReferenced`), so builders are still values.
package struct TextBuilder {
    /// The allocation, freed when the last builder holding it goes; its fields are constants, so reading
    /// them needs no exclusivity check.
    @usableFromInline
    final class Allocation {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        @usableFromInline let capacity: Int

        @usableFromInline
        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    @usableFromInline var allocation: Allocation
    /// The number of bytes written (the first `count` of `allocation`'s).
    @usableFromInline var count = 0

    @inlinable
    package init(capacity: Int = 256) { allocation = Allocation(capacity: Swift.max(capacity, 16)) }

    /// A builder holding a copy of `bytes` (with room for as many again).
    package init(_ bytes: [UInt8]) {
        self.init(capacity: bytes.count * 2)
        bytes.withUnsafeBufferPointer { add($0) }
    }

    package var isEmpty: Bool { count == 0 }

    /// Appends `text`'s UTF-8 bytes.
    @inlinable
    package mutating func add(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { add($0) }
        if done == nil {
            var text = text
            text.withUTF8 { add($0) }
        }
    }

    /// Appends `bytes`.
    @inlinable
    package mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let end = count &+ bytes.count
        if end > allocation.capacity || !isKnownUniquelyReferenced(&allocation) { reallocate(toHold: end) }
        (allocation.base + count).initialize(from: source, count: bytes.count)
        count = end
    }

    /// Appends one ASCII character.
    @inlinable
    package mutating func add(_ byte: UInt8) {
        if count == allocation.capacity || !isKnownUniquelyReferenced(&allocation) { reallocate(toHold: count &+ 1) }
        (allocation.base + count).initialize(to: byte)
        count &+= 1
    }

    /// Appends `value` in decimal digits (`-` first when it is negative), as `String(value)` spells it, without
    /// making that string: an accessor's field index, written once per member (issue 34).
    package mutating func add(decimal value: Int) {
        if value < 0 { add(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var digits = 1
        var power: UInt = 10
        while digits < 20, rest >= power {
            digits += 1
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        let end = count &+ digits
        if end > allocation.capacity || !isKnownUniquelyReferenced(&allocation) { reallocate(toHold: end) }
        var position = end
        repeat {
            position -= 1
            (allocation.base + position).initialize(to: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while position > count
        count = end
    }

    /// Removes the bytes equal to `byte` at the end.
    package mutating func removeTrailing(_ byte: UInt8) {
        while count > 0, allocation.base[count - 1] == byte { count -= 1 }
    }

    /// Moves the bytes to an allocation of its own holding at least `minimum` (at least twice the old capacity
    /// when it grows).
    @usableFromInline
    mutating func reallocate(toHold minimum: Int) {
        let capacity = minimum > allocation.capacity ? Swift.max(minimum, allocation.capacity * 2) : allocation.capacity
        let moved = Allocation(capacity: capacity)
        moved.base.initialize(from: allocation.base, count: count)
        allocation = moved
    }

    /// The bytes.
    package var bytes: [UInt8] {
        withExtendedLifetime(allocation) {
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                guard let target = buffer.baseAddress else { return }
                target.initialize(from: allocation.base, count: count)
                initialized = count
            }
        }
    }

    /// The text as a template (written as it is, re-indented where it is interpolated).
    package var template: Template { Template(text) }

    /// The text.
    package var text: String {
        withExtendedLifetime(allocation) {
            String(decoding: UnsafeBufferPointer(start: allocation.base, count: count), as: UTF8.self)
        }
    }
}
