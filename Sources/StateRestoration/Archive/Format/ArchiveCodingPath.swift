/// The coding-path keys of the value being encoded or decoded, one per depth: an encoder,
/// decoder or container at depth `d` reports the first `d` of them.
///
/// Every nested value records its key here, and most keys are only ever recorded: the path is
/// read when an error is thrown or a type asks for its `codingPath`. Storing a key as
/// `any CodingKey` boxed it in an existential and destroyed the one it replaced, through calls
/// into the runtime: about 75 instructions for each of the 190 nested values of an encode of
/// the benchmark's medium tree (2 % of it). So the keys that are plain data of at most one
/// byte (synthesized `CodingKeys`) are kept as their type and byte, and array indices as the
/// index; the key itself is made again when the path is read. Other keys are kept boxed.
///
/// Entries past the depth of the current operation are stale and never read, so a component
/// is overwritten in place rather than the array being truncated.
struct ArchiveCodingPath: ~Copyable {
    // `Kind` and `Component` are internal rather than private: a private element type of
    // `ArchiveScratch` crashes the 6.3 compiler ("Global is external, but doesn't have
    // external or weak linkage").
    enum Kind: UInt8 {
        /// A key of `type` whose value is the byte `value` (none for a type of size 0).
        case byte
        /// An ``ArchiveIndexKey`` with index `value`.
        case index
        /// The key in `boxed` at the same depth.
        case boxed
    }

    struct Component {
        var type: any CodingKey.Type
        var value: Int
        var kind: Kind
    }

    /// Not an `Array`: writing a component then never calls the runtime's uniqueness check.
    private var components = ArchiveScratch<Component>(capacity: 16)
    /// Keys kept boxed, at their depth (nil where none was); read only where the component
    /// says so. A boxed key stays until the coding call ends, even once its depth holds
    /// another key: releasing it there would cost every later component a check.
    private var boxed: [(any CodingKey)?] = []

    /// Records `key` as the component at `depth` (0-based).
    @inline(__always)
    mutating func set<Key: CodingKey>(_ key: Key, at depth: Int) {
        if _isPOD(Key.self) && MemoryLayout<Key>.size <= 1 {
            // A one-byte type's value is its byte.
            let byte = MemoryLayout<Key>.size == 0 ? 0 : Int(unsafeBitCast(key, to: UInt8.self))
            set(Component(type: Key.self, value: byte, kind: .byte), at: depth)
        } else {
            setBoxed(key, at: depth)
        }
    }

    /// Records the index of an unkeyed container's element as the component at `depth`.
    @inline(__always)
    mutating func set(index: Int, at depth: Int) {
        set(Component(type: ArchiveIndexKey.self, value: index, kind: .index), at: depth)
    }

    @inline(__always)
    private mutating func set(_ component: Component, at depth: Int) {
        if depth < components.count {
            components[depth] = component
        } else {
            append(component, at: depth)
        }
    }

    @inline(never)
    private mutating func append(_ component: Component, at depth: Int) {
        while components.count < depth {
            components.append(Component(type: ArchiveIndexKey.self, value: -1, kind: .index))
        }
        components.append(component)
    }

    @inline(never)
    private mutating func setBoxed(_ key: any CodingKey, at depth: Int) {
        while boxed.count <= depth { boxed.append(nil) }
        boxed[depth] = key
        set(Component(type: type(of: key), value: 0, kind: .boxed), at: depth)
    }

    /// The first `depth` components, as keys.
    func prefix(_ depth: Int) -> [any CodingKey] {
        (0..<Swift.min(depth, components.count)).map { position in
            let component = components[position]
            switch component.kind {
            case .byte: return Self.key(component.type, byte: UInt8(truncatingIfNeeded: component.value))
            case .index: return ArchiveIndexKey(component.value)
            case .boxed: return boxed[position] ?? ArchiveIndexKey(-1)
            }
        }
    }

    /// The key of one-byte type `type` whose byte is `byte`.
    private static func key<Key: CodingKey>(_ type: Key.Type, byte: UInt8) -> any CodingKey {
        withUnsafeBytes(of: byte) { $0.load(as: Key.self) }
    }

    mutating func removeAll() {
        components.truncate(to: 0)
        boxed.removeAll(keepingCapacity: true)
    }
}
