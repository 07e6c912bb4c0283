import Foundation

/// The per-use fields of a keyed container handed out as a `KeyedEncodingContainer` or
/// `KeyedDecodingContainer`, kept in a class so that the container's box can be reused.
class ArchiveContainerSlot {
    /// Encoding: the container's frame. Decoding: where its index starts in the arena.
    @exclusivity(unchecked) var first: Int
    /// Decoding: the container's entry count. Unused when encoding.
    @exclusivity(unchecked) var second: Int
    @exclusivity(unchecked) var depth: Int
    /// Decoding: the `allKeys` arrays already built for one-entry containers of this key
    /// type, by the entry's name (an `[Key]` stored as its buffer reference); at most
    /// ``maximumSingleKeyArrays``, since a slot lives as long as its coding state, which a
    /// pool may keep for the life of the process, and some key types have unbounded names (a
    /// dictionary's keys).
    static let maximumSingleKeyArrays = 16
    @exclusivity(unchecked) var singleKeyArrays: [(name: String, keys: AnyObject)] = []
    /// The names of the key type's keys by their byte, for key types that have one
    /// (see ``ArchiveKeyTable``); set when the slot is made, for its wrapper's key type.
    @exclusivity(unchecked) var keyTable: ArchiveKeyTable?

    init(first: Int, second: Int, depth: Int) {
        self.first = first
        self.second = second
        self.depth = depth
    }

    deinit {
        keyTable?.deallocate()
    }

    /// Makes the slot hold its coding state, for a wrapper that leaves its state's cache while
    /// something else may still hold it (see ``ArchiveContainerCache``).
    func keepState() {}

    /// Lets go of the coding state, for a wrapper that its state's cache now holds.
    func releaseState() {}
}

/// A keyed container's slot that also holds the coding state (an ``ArchiveEncodingState``
/// or ``ArchiveDecodingState``): the container is then a single reference, so the standard
/// library's box copies it (it does, for every non-mutating `decode` call) with one retain.
final class ArchiveStateSlot<State: AnyObject>: ArchiveContainerSlot {
    /// Keeps the state alive for a wrapper that its state's cache does not hold (one that
    /// escaped its `encode(to:)` or `init(from:)` and was left out of the cache, or one the
    /// cache had no room for); nil while the cache holds the wrapper, since the cache belongs
    /// to the state: the wrapper cannot outlive it then, and a slot that held its state would
    /// make a cycle.
    @exclusivity(unchecked) var owner: State?
    /// The state, read without reference counting on every entry; set once, when the slot is
    /// made, so a pooled state's wrappers need no work when a later call takes it up.
    let unmanagedState: Unmanaged<State>

    // Read through `_withUnsafeGuaranteedRef` rather than `takeUnretainedValue()`: the
    // optimizer then drops more retains of the state (2 % of a decode, measured).
    var state: State {
        @inline(__always) get { unmanagedState._withUnsafeGuaranteedRef { $0 } }
    }

    /// Runs `body` on the state without retaining it. A read of ``state`` is retained
    /// around any call the compiler cannot see into, so hot paths that make one (a key's
    /// `stringValue`, a value's `encode(to:)`) go through here.
    @inline(__always)
    func withState<Result>(_ body: (State) throws -> Result) rethrows -> Result {
        try unmanagedState._withUnsafeGuaranteedRef(body)
    }

    /// A slot that holds `state` until its wrapper goes into the state's cache.
    init(state: State, first: Int, second: Int, depth: Int) {
        self.owner = state
        self.unmanagedState = .passUnretained(state)
        super.init(first: first, second: second, depth: depth)
    }

    override func keepState() { owner = unmanagedState.takeUnretainedValue() }

    override func releaseState() { owner = nil }
}

typealias ArchiveEncodingSlot = ArchiveStateSlot<ArchiveEncodingState>
typealias ArchiveDecodingSlot = ArchiveStateSlot<ArchiveDecodingState>

/// Reuses the type-erasing boxes of keyed containers, one per `CodingKey` type.
///
/// Wrapping a container in `KeyedEncodingContainer(_:)` or `KeyedDecodingContainer(_:)`
/// costs runtime generic-metadata lookups (the concrete container, the standard library's
/// box for it, the ``ArchiveContainerMaker``), a witness-table lookup and allocations,
/// about 2,000 instructions: a quarter of every encode and decode in profiles of the
/// benchmark tree, whose types open the same few `CodingKeys` hundreds of times. The cache
/// keeps the last wrapper made for each key type with its ``ArchiveContainerSlot``; when
/// nothing outside the cache still holds the wrapper's box (the `init(from:)` or
/// `encode(to:)` that used it returned), the next container of that key type retargets the
/// slot and hands the same wrapper out again. A wrapper that is still referenced elsewhere
/// (a recursive type, an escaped container) is never reused.
///
/// Each coding state has a cache of its own, and the cache goes into the state pool with
/// its state (``ArchiveEncodingState/recycle(_:)``, ``ArchiveDecodingState/recycle(_:)``), so
/// the wrappers of a model's key types are made once per pooled state rather than once per
/// call (about 50 key types in the benchmark's medium tree: 8 % of a call), and a call
/// that takes up a pooled state finds them already pointing at it.
///
/// Ownership: a wrapper the cache holds does not hold the state (the slot's `owner` is nil);
/// one that leaves the cache while something else may still hold it (replaced by a newer
/// wrapper of its key type, or found still referenced when the call ends) holds it from then
/// on, and so does every wrapper the cache does not take. An escaped container therefore
/// always keeps its own state alive, and that state, being referenced, never goes back to a
/// pool, so the container can never write into or read from a later call. Pointing the
/// pooled wrappers at each call's state and letting go of it again (as a process-wide pool of
/// caches did) cost two atomic reference-count operations per key type and call: 4 % of a
/// medium encode.
///
/// The wrapper is stored as its box reference: `KeyedEncodingContainer` and
/// `KeyedDecodingContainer` are a single reference to their box. Those types are not
/// frozen, so a later standard library (an app built today, run on a newer OS) might lay
/// them out otherwise: the cache is used only when a container is exactly one reference
/// wide (see ``ArchiveContainerMaker/make()``), and every other layout takes the ordinary
/// path, slower but never a trap.
///
/// `@unchecked Sendable`: a cache is used by one coding call at a time, as its state is, and
/// moves between calls with its state through the state pool's lock. Its stored properties
/// are `@exclusivity(unchecked)`, as the coding states' are.
final class ArchiveContainerCache: @unchecked Sendable {
    struct Entry {
        var type: ObjectIdentifier?
        var box: AnyObject?
        var slot: ArchiveContainerSlot?
        /// Turns `box` back into the wrapper; see ``ArchiveContainerMaker``.
        var make: AnyObject?
    }

    /// Slots in the open-addressing table (linear probing); at most ``maximumCount`` are used,
    /// and key types past that are not cached. The table is at most three-eighths full: at three
    /// quarters (128 slots), the probe sequences of a process's hundred or so key types grew long
    /// enough to cost 2 % of an encode, depending on where the linker put the types' metadata.
    static let capacity = 256
    static let maximumCount = 96
    /// The table, allocated on first use.
    @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>?
    /// The table slots in use, in order of use.
    @exclusivity(unchecked) private var used: [Int] = []

    init() {}

    deinit {
        if let entries {
            entries.deinitialize(count: Self.capacity)
            entries.deallocate()
        }
    }

    @inline(__always)
    private static func home(of type: ObjectIdentifier) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    /// The cached wrapper for `type` (as its box), its slot and the maker that turns the box
    /// back into the wrapper, if nothing else holds the wrapper.
    @inline(__always)
    func reusable(
        for type: Any.Type
    ) -> (box: AnyObject, slot: ArchiveContainerSlot, make: AnyObject)? {
        // A retired cache hands nothing out: its wrappers do not hold the state, and a
        // container that escaped the call could otherwise pass one on past the state's life.
        guard let entries, !isRetired else { return nil }
        let identity = ObjectIdentifier(type)
        var index = Self.home(of: identity)
        while true {
            let entry = entries + index
            guard let found = entry.pointee.type else { return nil }
            if found == identity {
                guard isKnownUniquelyReferenced(&entry.pointee.box), let box = entry.pointee.box,
                    let slot = entry.pointee.slot, let make = entry.pointee.make
                else { return nil }
                return (box, slot, make)
            }
            index = (index &+ 1) & (Self.capacity &- 1)
        }
    }

    /// Caches a wrapper for `type`, in place of the one cached for it before.
    func store(_ box: AnyObject, slot: ArchiveContainerSlot, make: AnyObject, for type: Any.Type) {
        guard !isRetired else { return }
        let entries: UnsafeMutablePointer<Entry>
        if let existing = self.entries {
            entries = existing
        } else {
            entries = .allocate(capacity: Self.capacity)
            entries.initialize(repeating: Entry(), count: Self.capacity)
            self.entries = entries
        }
        let identity = ObjectIdentifier(type)
        var index = Self.home(of: identity)
        while let found = entries[index].type, found != identity {
            index = (index &+ 1) & (Self.capacity &- 1)
        }
        if entries[index].type == nil {
            guard used.count < Self.maximumCount else { return }
            used.append(index)
        }
        // The wrapper replaced is still held elsewhere (else it would have been reused):
        // from now on it holds the state itself.
        entries[index].slot?.keepState()
        entries[index] = Entry(type: identity, box: box, slot: slot, make: make)
        slot.releaseState()
    }

    var isEmpty: Bool { used.isEmpty }

    /// Caches `wrapper`, a new keyed container for key type `type` whose slot is `slot`,
    /// when its layout allows (see ``ArchiveContainerMaker/make()``), and returns it.
    func remember<Wrapper>(_ wrapper: Wrapper, slot: ArchiveContainerSlot, for type: Any.Type) -> Wrapper {
        if let make = ArchiveContainerMaker<Wrapper>.make() {
            store(unsafeBitCast(wrapper, to: AnyObject.self), slot: slot, make: make, for: type)
        }
        return wrapper
    }

    /// Ends a coding call: a wrapper still held outside the cache (a container that escaped
    /// the call) leaves the cache and holds the state, and the cache hands out and takes in
    /// nothing more until ``reopen()`` (by ``recycle``, once nothing else holds the state).
    /// The entry keeps its key type, which later probes for other key types pass over.
    func endCall() {
        // Once is enough (a pending encoding's state is recycled twice); and a second write of
        // the flag could meet a read by a container that escaped to another thread.
        guard !isRetired else { return }
        isRetired = true
        guard let entries else { return }
        for index in used {
            let entry = entries + index
            if !isKnownUniquelyReferenced(&entry.pointee.box), entry.pointee.box != nil {
                entry.pointee.slot?.keepState()
                entry.pointee.box = nil
                entry.pointee.slot = nil
                entry.pointee.make = nil
            }
        }
    }

    /// Makes the cache usable again, for a state that goes back to its pool.
    func reopen() { isRetired = false }

    /// Set by ``endCall()``: the coding call is over, and a container or coder that escaped
    /// it makes wrappers that are not cached, each holding the state.
    @exclusivity(unchecked) private(set) var isRetired = false
}

extension ArchiveEncodingState {
    /// Takes a name book for this encode (``ArchiveNameBook/take()``).
    func takeNameBook() {
        book = ArchiveNameBook.take()
    }

    /// Gives the name book back when the encode is over; the state's book is left nil, so a
    /// container that escaped the encode cannot reach the pooled one.
    func returnNameBook() {
        if let book {
            self.book = nil
            ArchiveNameBook.put(book)
        }
    }

    /// A `KeyedEncodingContainer` writing into `frame`, reusing a cached wrapper when possible.
    ///
    /// The reuse path names `KeyedEncodingContainer<Key>` only as the result of the cached
    /// ``ArchiveContainerMaker``, so it makes no runtime metadata lookup (see there).
    @inline(__always)
    func keyedContainer<Key: CodingKey>(_: Key.Type, frame: Int, depth: Int) -> KeyedEncodingContainer<Key> {
        if let (box, slot, make) = containers.reusable(for: Key.self) {
            slot.first = frame
            slot.depth = depth
            return ArchiveContainerMaker.restore(make, as: KeyedEncodingContainer<Key>.self).make(box)
        }
        return newKeyedContainer(Key.self, frame: frame, depth: depth)
    }

    /// A new wrapper, cached for later containers of its key type.
    @inline(never)
    func newKeyedContainer<Key: CodingKey>(_: Key.Type, frame: Int, depth: Int) -> KeyedEncodingContainer<Key> {
        let slot = ArchiveEncodingSlot(state: self, first: frame, second: 0, depth: depth)
        slot.keyTable = ArchiveKeyTable.make(for: Key.self)
        return containers.remember(
            KeyedEncodingContainer(ArchiveKeyedEncodingContainer<Key>(slot: slot)), slot: slot, for: Key.self)
    }
}

extension ArchiveDecodingState {
    /// A `KeyedDecodingContainer` over the container indexed at `start`, reusing a cached
    /// wrapper when possible.
    @inline(__always)
    func keyedContainer<Key: CodingKey>(
        _: Key.Type,
        start: Int,
        count: Int,
        depth: Int
    ) -> KeyedDecodingContainer<Key> {
        if let (box, cached, make) = containers.reusable(for: Key.self) {
            let slot = unsafeDowncast(cached, to: ArchiveDecodingSlot.self)
            slot.first = start
            slot.second = count
            slot.depth = depth
            return ArchiveContainerMaker.restore(make, as: KeyedDecodingContainer<Key>.self).make(box)
        }
        return newKeyedContainer(Key.self, start: start, count: count, depth: depth)
    }

    /// A new wrapper, cached for later containers of its key type.
    @inline(never)
    func newKeyedContainer<Key: CodingKey>(
        _: Key.Type,
        start: Int,
        count: Int,
        depth: Int
    ) -> KeyedDecodingContainer<Key> {
        let slot = ArchiveDecodingSlot(state: self, first: start, second: count, depth: depth)
        slot.keyTable = ArchiveKeyTable.make(for: Key.self)
        return containers.remember(
            KeyedDecodingContainer(ArchiveKeyedDecodingContainer<Key>(slot: slot)), slot: slot, for: Key.self)
    }
}

/// Turns a keyed container's box reference back into its `KeyedEncodingContainer<Key>` or
/// `KeyedDecodingContainer<Key>` without a runtime generic-metadata lookup.
///
/// Those types are resilient, so generic code that copies or bit-casts one needs its type
/// metadata, and in a `container(keyedBy:)` witness (unspecialized: it is called through
/// `Encoder`'s witness table) that is a `swift_getGenericMetadata` hash lookup of about 380
/// instructions for every container: 12 % of an encode of the benchmark tree, 8 % of a
/// decode. A maker is made with each new wrapper (so about once per key type and pooled
/// state: the cache keeps the two together); its class metadata holds the wrapper type's, so
/// ``make(_:)`` (a method of a generic class takes its generic arguments from `self`)
/// bit-casts without a lookup, and the witness returns that result straight into its own
/// (passing an indirect result on needs no metadata).
///
/// The cache stores the maker as `AnyObject`; ``restore(_:as:)`` casts it back to exactly
/// the type it was made with.
final class ArchiveContainerMaker<Wrapper> {
    /// A maker for `Wrapper` (a keyed container type), or nil when `Wrapper` is not laid out
    /// as exactly one reference: the wrapper types are not frozen, so a later standard
    /// library might lay them out otherwise, and then no container is ever reused.
    static func make() -> AnyObject? {
        guard MemoryLayout<Wrapper>.size == MemoryLayout<AnyObject>.size,
            MemoryLayout<Wrapper>.alignment == MemoryLayout<AnyObject>.alignment
        else { return nil }
        return ArchiveContainerMaker<Wrapper>()
    }

    private init() {}

    /// The wrapper whose box is `box`.
    @inline(never)
    func make(_ box: AnyObject) -> Wrapper {
        unsafeBitCast(box, to: Wrapper.self)
    }

    /// The maker `make()` returned as `maker`, with its type back.
    @inline(__always)
    static func restore(_ maker: AnyObject, as _: Wrapper.Type) -> ArchiveContainerMaker<Wrapper> {
        unsafeDowncast(maker, to: ArchiveContainerMaker<Wrapper>.self)
    }
}
