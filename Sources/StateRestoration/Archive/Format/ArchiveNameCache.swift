/// An open-addressing cache (linear probing) from a string's two raw words to a name
/// index, for ``ArchiveEncodingState/nameIndex(for:)`` and
/// ``ArchiveDecodingState/nameIndex(for:)``.
///
/// Equal words mean equal strings: a small string's words are its bytes, and a large
/// string's words identify its immutable storage, which the cache's owner keeps alive
/// (the name table for the archive's names, ``insert(_:index:keepingAlive:)`` for keys).
/// Unequal words say nothing (two equal large strings can have different storage), so a
/// miss falls back to a lookup by content. The cache takes at most half its capacity
/// and then stops adding, so probes stay short whatever the archive holds.
struct ArchiveNameCache {
    private static var capacity: Int { 512 }
    /// Marks an empty slot in ``indices``.
    private static var empty: Int { -2 }
    private var words = [UInt64](repeating: 0, count: 2 * Self.capacity)
    private var indices = [Int](repeating: Self.empty, count: Self.capacity)
    private var keptAlive: [String] = []
    private var count = 0

    /// The raw words of `string`.
    @inline(__always)
    static func words(of string: String) -> (UInt64, UInt64) {
        withUnsafeBytes(of: string) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    @inline(__always)
    private static func home(of words: (UInt64, UInt64)) -> Int {
        Int(truncatingIfNeeded: ((words.0 &+ words.1 &* 31) &* 0x9E37_79B9_7F4A_7C15) >> 55)
    }

    /// The index cached for `key`'s words (-1: not in the archive), or nil when not cached.
    @inline(__always)
    func index(for key: (UInt64, UInt64)) -> Int? {
        var slot = Self.home(of: key)
        while true {
            let index = indices[slot]
            if index == Self.empty { return nil }
            if words[2 &* slot] == key.0 && words[2 &* slot &+ 1] == key.1 { return index }
            slot = (slot &+ 1) & (Self.capacity &- 1)
        }
    }

    /// Whether the cache takes no more entries (see ``insert(_:index:keepingAlive:)``).
    var isFull: Bool { count >= Self.capacity / 2 }

    /// How many entries the cache holds.
    var entryCount: Int { count }

    /// Forgets every cached index, keeping the memory.
    mutating func removeAll() {
        guard count > 0 else { return }
        for slot in indices.indices { indices[slot] = Self.empty }
        keptAlive.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Caches `index` for `key`'s words, unless they are cached already or the cache is
    /// half full. `string`, the key the words came from, is kept alive if given.
    mutating func insert(_ key: (UInt64, UInt64), index: Int, keepingAlive string: String?) {
        guard count < Self.capacity / 2 else { return }
        var slot = Self.home(of: key)
        while indices[slot] != Self.empty {
            if words[2 &* slot] == key.0 && words[2 &* slot &+ 1] == key.1 { return }
            slot = (slot &+ 1) & (Self.capacity &- 1)
        }
        words[2 &* slot] = key.0
        words[2 &* slot &+ 1] = key.1
        indices[slot] = index
        count += 1
        if let string { keptAlive.append(string) }
    }
}
