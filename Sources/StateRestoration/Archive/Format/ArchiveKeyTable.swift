import Synchronization

/// The names of one key type's keys, by the byte that tells the keys apart, so that the
/// keyed containers find a key's name without asking the key for it.
///
/// Finding an entry's name by the key's text costs, for every entry encoded or decoded, an
/// opaque `stringValue` call, a release of the string it returns and a hash probe of the
/// string's words: about 70 instructions of the 345 that encoding a `Double` entry costs in
/// profiles of the benchmark tree. The synthesized `CodingKeys` of a Codable struct or enum is
/// a payload-free enum, whose value is a single byte (none for a one-case enum). A table per
/// key type maps that byte to the name's number, found with `stringValue` the first time a
/// coding call meets the byte; later keys with the same byte are one load away from it.
///
/// Only key types that are plain data (no references) of at most one byte get a table:
/// their value is that byte. The table assumes, as every coder does, that a key's
/// `stringValue` depends on the key's value alone; a name is kept for one coding call only, so
/// a key type whose names change between calls (a prefix read from a setting, say) is asked
/// again in the next call.
///
/// A number holds for the numbering it was found in: one encode's use of its name book, or one
/// decode's name table. Each entry carries the stamp of that call (``ArchiveKeyTable/newStamp()``,
/// unique in the process, never 0, which marks an entry not yet filled), and an entry with
/// another stamp is found again by text.
/// A table starts with room for 8 bytes and grows to the largest byte met, up to 256.
///
/// The table belongs to a container slot (``ArchiveContainerSlot/keyTable``), which is used by
/// one coding call at a time, and is freed with it.
struct ArchiveKeyTable {
    struct Entry {
        var stamp: UInt64
        var number: Int
    }

    private var entries: UnsafeMutablePointer<Entry>
    private var capacity: Int
    /// 1, or 0 for a key type whose values have no bytes (one case).
    private let byteCount: Int

    private init(byteCount: Int) {
        self.byteCount = byteCount
        capacity = byteCount == 0 ? 1 : 8
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(stamp: 0, number: 0), count: capacity)
    }

    /// A table for `Key`, or nil when its values are not told apart by at most one byte.
    static func make<Key: CodingKey>(for _: Key.Type) -> ArchiveKeyTable? {
        guard _isPOD(Key.self), MemoryLayout<Key>.size <= 1 else { return nil }
        return ArchiveKeyTable(byteCount: MemoryLayout<Key>.size)
    }

    func deallocate() {
        entries.deallocate()
    }

    /// The entry index for `key`, a value of the table's key type: its byte.
    @inline(__always)
    func tag(of key: some CodingKey) -> Int {
        guard byteCount != 0 else { return 0 }
        // A one-byte key type's value is its byte. (`withUnsafeBytes(of:)` is not inlined into
        // the unspecialized containers: a call of 38 instructions per key.)
        return Int(unsafeBitCast(key, to: UInt8.self))
    }

    /// What ``number(at:stamp:)`` returns for a byte not yet looked up in a numbering.
    static var unknown: Int { Int.min }

    /// The number stored for `tag` in the numbering stamped `stamp`, or ``unknown``.
    @inline(__always)
    func number(at tag: Int, stamp: UInt64) -> Int {
        guard tag < capacity else { return Self.unknown }
        let entry = entries[tag]
        return entry.stamp == stamp ? entry.number : Self.unknown
    }

    /// Stores `number` for `tag` in the numbering stamped `stamp`, making room for it.
    mutating func store(_ number: Int, at tag: Int, stamp: UInt64) {
        if tag >= capacity {
            var newCapacity = capacity
            while newCapacity <= tag { newCapacity *= 2 }
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
            grown.moveInitialize(from: entries, count: capacity)
            (grown + capacity).initialize(repeating: Entry(stamp: 0, number: 0), count: newCapacity - capacity)
            entries.deallocate()
            entries = grown
            capacity = newCapacity
        }
        entries[tag] = Entry(stamp: stamp, number: number)
    }

    private static let stamps = Atomic<UInt64>(0)

    /// A stamp no numbering has had before.
    static func newStamp() -> UInt64 {
        stamps.add(1, ordering: .relaxed).newValue
    }
}

/// A coding state whose keyed containers find their keys' names through the slots' key tables.
protocol ArchiveKeyNaming: AnyObject {
    /// The stamp of the current call's numbering (see ``ArchiveKeyTable``).
    var keyStamp: UInt64 { get }
    /// The number of the name `name` in that numbering: the name book's number when encoding,
    /// the index in the archive's name table (-1: not there) when decoding.
    func keyNumber(forName name: String) -> Int
}

extension ArchiveStateSlot where State: ArchiveKeyNaming {
    /// The number of `key`, a key of the type this slot's wrapper was made for: from the key
    /// table when it has the key's byte for this call, else from the key's text.
    @inline(__always)
    func keyNumber<Key: CodingKey>(_ key: Key) -> Int {
        if let table = keyTable {
            let tag = table.tag(of: key)
            let number = withState { table.number(at: tag, stamp: $0.keyStamp) }
            if number != ArchiveKeyTable.unknown { return number }
            return learnKeyNumber(name: key.stringValue, tag: tag)
        }
        // The key first: `stringValue` is an opaque call, across which a state already
        // loaded from the slot would have to be retained.
        let name = key.stringValue
        return withState { $0.keyNumber(forName: name) }
    }

    /// The number of the key named `name` whose byte is `tag`, stored in the key table. (Given
    /// the name rather than the key, it is generic over the state only, so it is specialized
    /// for each state rather than calling it through its conformance.)
    @inline(never)
    func learnKeyNumber(name: String, tag: Int) -> Int {
        // The number first: an encoder that makes a private name book for it takes a new stamp.
        let (number, stamp) = withState { ($0.keyNumber(forName: name), $0.keyStamp) }
        keyTable?.store(number, at: tag, stamp: stamp)
        return number
    }
}
