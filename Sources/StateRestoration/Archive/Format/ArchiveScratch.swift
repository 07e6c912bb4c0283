/// A minimal growable buffer of plain values for the codec's bookkeeping (container
/// frames, key ownership, keyed-container indexes).
///
/// Unlike an `Array` stored in a class, mutating it never calls the runtime's
/// uniqueness check, which showed up in profiles of the per-key hot paths. Indices are
/// still bounds-checked, except by ``uncheckedAddress(_:)``, for indices the caller knows
/// are in range.
struct ArchiveScratch<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = Swift.max(capacity, 1)
        self.base = .allocate(capacity: self.capacity)
    }

    init(repeating value: Element, count: Int) {
        self.capacity = Swift.max(count, 1)
        self.base = .allocate(capacity: self.capacity)
        base.initialize(repeating: value, count: count)
        self.count = count
    }

    deinit {
        base.deallocate()
    }

    subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "archive scratch index out of range")
            return base[index]
        }
        @inline(__always) set {
            precondition(index >= 0 && index < count, "archive scratch index out of range")
            base[index] = newValue
        }
    }

    /// The address of element `index`, which the caller knows is in range (checked in debug
    /// builds only); valid until the next append.
    @inline(__always)
    func uncheckedAddress(_ index: Int) -> UnsafeMutablePointer<Element> {
        assert(index >= 0 && index < count, "archive scratch index out of range")
        return base + index
    }

    /// The last element, or nil when empty.
    var last: Element? {
        @inline(__always) get { count > 0 ? base[count &- 1] : nil }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inline(__always)
    @discardableResult
    mutating func removeLast() -> Element {
        precondition(count > 0, "archive scratch is empty")
        count &-= 1
        return base[count]
    }

    /// Appends the elements of `buffer`.
    @inline(__always)
    mutating func append(contentsOf buffer: UnsafeBufferPointer<Element>) {
        guard let source = buffer.baseAddress else { return }
        while capacity &- count < buffer.count { grow() }
        (base + count).initialize(from: source, count: buffer.count)
        count &+= buffer.count
    }

    /// Calls `body` with the elements, valid during the call only.
    @inline(__always)
    func withElements<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Drops elements so that `newCount` remain.
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "archive scratch truncation out of range")
        count = newCount
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = capacity &* 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Calls `body` with each element in order.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for index in 0..<count {
            try body(base[index])
        }
    }
}
