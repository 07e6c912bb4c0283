/// The per-use fields of a keyed container handed out as a `KeyedEncodingContainer` or
/// `KeyedDecodingContainer`, kept in a class so that the container's box can be reused.
class ArchiveContainerSlot {
    /// Encoding: the container's frame. Decoding: where its index starts in the arena.
    @exclusivity(unchecked) var first: Int
    /// Decoding: the container's entry count. Unused when encoding.
    @exclusivity(unchecked) var second: Int
    @exclusivity(unchecked) var depth: Int
    /// Decoding: the `allKeys` arrays already built for one-entry containers of this key
    /// type, by the entry's name index (an `[Key]` stored as its buffer reference).
    @exclusivity(unchecked) var singleKeyArrays: [(name: Int, keys: AnyObject)] = []

    init(first: Int, second: Int, depth: Int) {
        self.first = first
        self.second = second
        self.depth = depth
    }
}

/// A decoding container's slot, which also holds the decoding state: the container is
/// then a single reference, so the standard library's box copies it (it does, for every
/// non-mutating `decode` call) with one retain rather than two.
final class ArchiveDecodingSlot: ArchiveContainerSlot {
    let state: ArchiveDecodingState

    init(state: ArchiveDecodingState, first: Int, second: Int, depth: Int) {
        self.state = state
        super.init(first: first, second: second, depth: depth)
    }
}

/// Reuses the type-erasing boxes of keyed containers, one per `CodingKey` type.
///
/// Wrapping a container in `KeyedEncodingContainer(_:)` or `KeyedDecodingContainer(_:)`
/// costs two runtime generic-metadata lookups (the concrete container and the standard
/// library's box for it), a witness-table lookup and an allocation: about a quarter of
/// every encode and decode in profiles of the benchmark tree, whose types open the same
/// few `CodingKeys` hundreds of times. The cache keeps the last wrapper made for each key
/// type with its ``ArchiveContainerSlot``; when nothing outside the cache still holds the
/// wrapper's box (the `init(from:)` or `encode(to:)` that used it returned), the next
/// container of that key type retargets the slot and hands the same wrapper out again.
/// A wrapper that is still referenced elsewhere (a recursive type, an escaped container)
/// is never reused.
///
/// The wrapper is stored as its box reference: `KeyedEncodingContainer` and
/// `KeyedDecodingContainer` are a single reference to their box. Those types are not
/// frozen, so a later standard library (an app built today, run on a newer OS) might lay
/// them out otherwise: the cache is used only when a container is exactly one reference
/// wide, and every other layout takes the ordinary path, slower but never a trap.
///
/// The boxes hold the coding state strongly, and the state holds the cache: call
/// ``removeAll()`` when the encode or decode ends to break that cycle.
struct ArchiveContainerCache: ~Copyable {
    struct Entry {
        var type: ObjectIdentifier?
        var box: AnyObject?
        var slot: ArchiveContainerSlot?
    }

    static let capacity = 256
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: Entry(), count: Self.capacity)
    }

    deinit {
        entries.deinitialize(count: Self.capacity)
        entries.deallocate()
    }

    @inline(__always)
    private static func index(of type: ObjectIdentifier) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    /// The cached wrapper for `type` and its slot, if nothing else holds the wrapper.
    @inline(__always)
    func reusable(for type: Any.Type) -> (box: AnyObject, slot: ArchiveContainerSlot)? {
        let identity = ObjectIdentifier(type)
        let entry = entries + Self.index(of: identity)
        guard entry.pointee.type == identity, isKnownUniquelyReferenced(&entry.pointee.box),
            let box = entry.pointee.box, let slot = entry.pointee.slot
        else { return nil }
        return (box, slot)
    }

    @inline(__always)
    func store(_ box: AnyObject, slot: ArchiveContainerSlot, for type: Any.Type) {
        let identity = ObjectIdentifier(type)
        entries[Self.index(of: identity)] = Entry(type: identity, box: box, slot: slot)
    }

    /// Drops every cached wrapper.
    func removeAll() {
        for index in 0..<Self.capacity {
            entries[index] = Entry()
        }
    }
}

extension ArchiveEncodingState {
    /// A `KeyedEncodingContainer` writing into `frame`, reusing a cached wrapper when possible.
    @inline(__always)
    func keyedContainer<Key: CodingKey>(_: Key.Type, frame: Int, depth: Int) -> KeyedEncodingContainer<Key> {
        guard MemoryLayout<KeyedEncodingContainer<Key>>.size == MemoryLayout<AnyObject>.size else {
            let slot = ArchiveContainerSlot(first: frame, second: 0, depth: depth)
            return KeyedEncodingContainer(ArchiveKeyedEncodingContainer<Key>(state: self, slot: slot))
        }
        if let (box, slot) = containers.reusable(for: Key.self) {
            slot.first = frame
            slot.depth = depth
            return unsafeBitCast(box, to: KeyedEncodingContainer<Key>.self)
        }
        let slot = ArchiveContainerSlot(first: frame, second: 0, depth: depth)
        let container = KeyedEncodingContainer(ArchiveKeyedEncodingContainer<Key>(state: self, slot: slot))
        containers.store(unsafeBitCast(container, to: AnyObject.self), slot: slot, for: Key.self)
        return container
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
        guard MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size else {
            let slot = ArchiveDecodingSlot(state: self, first: start, second: count, depth: depth)
            return KeyedDecodingContainer(ArchiveKeyedDecodingContainer<Key>(slot: slot))
        }
        if let (box, cached) = containers.reusable(for: Key.self) {
            let slot = unsafeDowncast(cached, to: ArchiveDecodingSlot.self)
            slot.first = start
            slot.second = count
            slot.depth = depth
            return unsafeBitCast(box, to: KeyedDecodingContainer<Key>.self)
        }
        let slot = ArchiveDecodingSlot(state: self, first: start, second: count, depth: depth)
        let container = KeyedDecodingContainer(ArchiveKeyedDecodingContainer<Key>(slot: slot))
        containers.store(unsafeBitCast(container, to: AnyObject.self), slot: slot, for: Key.self)
        return container
    }
}
