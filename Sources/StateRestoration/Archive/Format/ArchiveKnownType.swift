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

/// A small direct-mapped cache from a type's metadata identity to its
/// ``ArchiveKnownType``, so that classifying the types of a tree costs one probe per
/// value after the first sighting of each type.
struct ArchiveTypeCache {
    private var keys = [ObjectIdentifier?](repeating: nil, count: 256)
    private var kinds = [ArchiveKnownType](repeating: .other, count: 256)

    @inline(__always)
    mutating func kind(of type: Any.Type) -> ArchiveKnownType {
        let identity = ObjectIdentifier(type)
        let slot = Int(truncatingIfNeeded: (UInt(bitPattern: identity) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if keys[slot] == identity { return kinds[slot] }
        let kind = ArchiveKnownType.classify(identity)
        keys[slot] = identity
        kinds[slot] = kind
        return kind
    }
}
