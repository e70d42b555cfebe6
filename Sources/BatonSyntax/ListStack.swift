/// A stack the parser gathers one kind of list on (the selections of every set being parsed, a nested
/// set's above its parent's), so that each list is made once, at its size, when it is complete: an array
/// grown by appending is allocated and copied again at each doubling (four times for a list of nine).
///
/// The elements are moved, not copied, into the list (no retain or release). Noncopyable, so its memory
/// has exactly one owner (`RecursiveDescentParser`), which frees it with whatever a failed parse left on it.
struct ListStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>? = nil
    private var capacity = 0
    /// How many elements are on the stack: where a list about to be gathered starts.
    private(set) var count = 0

    init() {}

    deinit {
        if let base {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    /// The elements pushed since the stack held `start`, in order, as a list; they leave the stack.
    ///
    /// The list's storage comes from `reserveCapacity`, whose code is specialized for `Element` where it is
    /// used. `Array(unsafeUninitializedCapacity:)` allocates through the standard library's unspecialized
    /// entry, which finds the storage's class at run time (a cast and a metadata lookup, about 400
    /// instructions: more than the rest of making a list of a few elements, and the parser makes one per
    /// selection set and argument list).
    mutating func pop(from start: Int) -> [Element] {
        let length = count - start
        if length == 0 { return [] }
        var next = base.unsafelyUnwrapped + start
        count = start
        var list: [Element] = []
        list.reserveCapacity(length)
        for _ in 0..<length {
            list.append(next.move())
            next += 1
        }
        return list
    }

    /// Whether `element` is among the elements pushed since the stack held `start`.
    func contains(_ element: Element, from start: Int) -> Bool where Element: Equatable {
        guard let base else { return false }
        for index in start..<count where base[index] == element { return true }
        return false
    }

    /// Takes the elements pushed since the stack held `start` off it, as `pop(from:)` without the list.
    mutating func drop(from start: Int) {
        guard count > start, let base else { return }
        (base + start).deinitialize(count: count - start)
        count = start
    }

    private mutating func grow() {
        let grownCapacity = max(16, capacity * 2)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: grownCapacity)
        if let base {
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = grownCapacity
    }
}
