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
/// every value of a tree that alternates them). It holds the few dozen types of a
/// model; past 128 types it starts over rather than grow.
struct ArchiveTypeTable<Value: Sendable>: Sendable {
    private static var capacity: Int { 256 }
    private var keys = [ObjectIdentifier?](repeating: nil, count: Self.capacity)
    private var values: [Value?] = Array(repeating: nil, count: Self.capacity)
    private var count = 0

    @inline(__always)
    private static func home(of identity: ObjectIdentifier) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: identity)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    /// The value stored for `type`, or nil. Setting stores it (never nil in practice).
    subscript(type: Any.Type) -> Value? {
        @inline(__always) get {
            let identity = ObjectIdentifier(type)
            var slot = Self.home(of: identity)
            while let key = keys[slot] {
                if key == identity { return values[slot] }
                slot = (slot &+ 1) & (Self.capacity &- 1)
            }
            return nil
        }
        set {
            let identity = ObjectIdentifier(type)
            if count >= Self.capacity / 2 {
                self = Self()
            }
            var slot = Self.home(of: identity)
            while let key = keys[slot], key != identity {
                slot = (slot &+ 1) & (Self.capacity &- 1)
            }
            if keys[slot] == nil { count += 1 }
            keys[slot] = identity
            values[slot] = newValue
        }
    }
}
