import Foundation

/// The types with a dedicated encoding, recognised by metadata identity in the generic
/// encode and decode paths before falling back to their `Codable` conformance.
enum ArchiveKnownType: UInt8 {
    case other
    case string, int, double, bool, uuid, date
    case int64, int32, int16, int8, uint, uint64, uint32, uint16, uint8
    case float, data, url, decimal
    case stringArray, intArray, int64Array, int32Array, uintArray, uint64Array, uint32Array
    case doubleArray, floatArray, uuidArray, dateArray, boolArray
    /// An ``ArchivePendingEncoding``: written as the `Data` it stands for (encoding only).
    case pendingEncoding

    /// Metadata identities in raw-value order, starting at `.string`.
    static let identities: [ObjectIdentifier] = [
        ObjectIdentifier(String.self), ObjectIdentifier(Int.self), ObjectIdentifier(Double.self),
        ObjectIdentifier(Bool.self), ObjectIdentifier(UUID.self), ObjectIdentifier(Date.self),
        ObjectIdentifier(Int64.self), ObjectIdentifier(Int32.self), ObjectIdentifier(Int16.self),
        ObjectIdentifier(Int8.self), ObjectIdentifier(UInt.self), ObjectIdentifier(UInt64.self),
        ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt8.self),
        ObjectIdentifier(Float.self), ObjectIdentifier(Data.self), ObjectIdentifier(URL.self),
        ObjectIdentifier(Decimal.self),
        ObjectIdentifier([String].self), ObjectIdentifier([Int].self), ObjectIdentifier([Int64].self),
        ObjectIdentifier([Int32].self), ObjectIdentifier([UInt].self), ObjectIdentifier([UInt64].self),
        ObjectIdentifier([UInt32].self), ObjectIdentifier([Double].self), ObjectIdentifier([Float].self),
        ObjectIdentifier([UUID].self), ObjectIdentifier([Date].self), ObjectIdentifier([Bool].self),
        ObjectIdentifier(ArchivePendingEncoding.self),
    ]

    /// Looks `type` up in ``identities`` (a short linear scan).
    static func classify(_ type: ObjectIdentifier) -> ArchiveKnownType {
        for (index, identity) in identities.enumerated() where identity == type {
            return ArchiveKnownType(rawValue: UInt8(index + 1)) ?? .other
        }
        return .other
    }
}

/// A cache from a type's metadata identity to its ``ArchiveKnownType``, so that
/// classifying the types of a tree costs one probe per value after the first sighting
/// of each type.
struct ArchiveTypeCache {
    private var table = ArchiveTypeTable<ArchiveKnownType>()

    @inline(__always)
    mutating func kind(of type: Any.Type) -> ArchiveKnownType {
        if let kind = table[type] { return kind }
        let kind = ArchiveKnownType.classify(ObjectIdentifier(type))
        table[type] = kind
        return kind
    }
}

/// A small open-addressing hash table keyed by type identity (linear probing, so two
/// types that hash alike both stay: a direct-mapped table would evict them in turn on
/// every value of a tree that alternates them). It doubles when half full.
struct ArchiveTypeTable<Value: Sendable>: Sendable {
    private var keys = [ObjectIdentifier?](repeating: nil, count: 256)
    private var values: [Value?] = Array(repeating: nil, count: 256)
    /// `keys.count - 1`, kept: reading `keys.count` in the lookup was a call (Array's
    /// `count` getter of this specialization is not inlined there).
    private var mask = 255
    private(set) var count = 0

    @inline(__always)
    private static func home(of identity: ObjectIdentifier, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: identity)) &* 0x9E37_79B9_7F4A_7C15) >> 32)
            & mask
    }

    /// The value stored for `type`, or nil. Setting stores it (never nil in practice).
    subscript(type: Any.Type) -> Value? {
        @inline(__always) get {
            let identity = ObjectIdentifier(type)
            let mask = self.mask
            var slot = Self.home(of: identity, mask: mask)
            while let key = keys[slot] {
                if key == identity { return values[slot] }
                slot = (slot &+ 1) & mask
            }
            return nil
        }
        set {
            if count >= keys.count / 2 { grow() }
            store(ObjectIdentifier(type), newValue)
        }
    }

    /// Every stored pair.
    var entries: [(ObjectIdentifier, Value?)] {
        keys.indices.compactMap { index in keys[index].map { ($0, values[index]) } }
    }

    /// Stores `value` for the type with identity `identity`.
    private mutating func store(_ identity: ObjectIdentifier, _ value: Value?) {
        let mask = keys.count &- 1
        var slot = Self.home(of: identity, mask: mask)
        while let key = keys[slot], key != identity {
            slot = (slot &+ 1) & mask
        }
        if keys[slot] == nil { count += 1 }
        keys[slot] = identity
        values[slot] = value
    }

    /// Adds every pair of `other` (a type's value is the same in every table).
    mutating func merge(_ other: Self) {
        for (identity, value) in other.entries {
            if count >= keys.count / 2 { grow() }
            store(identity, value)
        }
    }

    private mutating func grow() {
        let old = entries
        keys = Array(repeating: nil, count: keys.count * 2)
        values = Array(repeating: nil, count: keys.count)
        mask = keys.count - 1
        count = 0
        for (identity, value) in old {
            store(identity, value)
        }
    }
}
