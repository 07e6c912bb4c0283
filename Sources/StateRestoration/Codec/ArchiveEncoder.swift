public import Foundation

/// Encodes any `Encodable` value into the compact, self-describing binary archive format.
///
/// `ArchiveEncoder` is shaped like `JSONEncoder`: configure it, then call ``encode(_:)``.
/// Field names are stored once per archive, every value carries a one-byte type tag, and
/// containers are length-prefixed so that a reader can skip them; see
/// `Documentation/ArchiveFormat.md` for the byte-level layout.
///
/// Values are written straight into one growing buffer with no intermediate tree.
/// Containers must be used in nesting order: once you write to a container, the nested
/// containers and super encoders created from it before are closed, and writing to
/// them throws an `EncodingError`.
///
/// ```swift
/// struct Screen: Codable { var id: UUID; var title: String; var scroll: Double }
/// let data = try ArchiveEncoder().encode(Screen(id: UUID(), title: "Inbox", scroll: 120))
/// let screen = try ArchiveDecoder().decode(Screen.self, from: data)
/// ```
public struct ArchiveEncoder: Sendable {
    /// Values handed to `encode(to:)` implementations through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with an empty `userInfo`.
    public init() {}

    /// Encodes `value` into a standalone archive.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The archive bytes.
    /// - Throws: `EncodingError.invalidValue` when the value's `encode(to:)` misuses
    ///   the Encoder API (writes a key twice in one container, writes to a container
    ///   after its parent moved on, or encodes two single values into one slot), or
    ///   any error the value's `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let state = ArchiveEncodingState(userInfo: userInfo)
        defer { state.wrappers = nil }
        try state.encode(value, parent: -1, depth: 0)
        return state.writer.finish()
    }
}

extension ArchiveEncodingState {
    /// Encodes any value into the current slot of container `parent` (-1 for the root), taking
    /// the compact path for the types with an encoding of their own (scalars, `Data`, `Date`,
    /// `UUID`, `URL`, `Decimal`, arrays of scalars) and calling `encode(to:)` otherwise.
    func encode<T: Encodable>(_ value: T, parent: Int, depth: Int) throws {
        if let kind = ArchiveKnownType.of(T.self) {
            writer.encode(known: kind, value)
            return
        }
        let slot = writer.body.count
        try value.encode(to: ArchiveValueEncoder(state: self, parent: parent, slot: slot, depth: depth))
        writer.closeFrames(above: parent)
        writer.fillIfEmpty(slot)
    }
}

extension ArchiveWriter {
    /// Writes `value`, of kind `kind` (the kind of `T`, so each cast succeeds).
    mutating func encode<T>(known kind: ArchiveKnownType, _ value: T) {
        switch kind {
        case .string: if let value = value as? String { writeString(value) }
        case .int: if let value = value as? Int { writeInt(Int64(value)) }
        case .double: if let value = value as? Double { writeDouble(value) }
        case .bool: if let value = value as? Bool { writeBool(value) }
        case .uuid: if let value = value as? UUID { writeUUID(value) }
        case .date: if let value = value as? Date { writeDate(value) }
        case .int64: if let value = value as? Int64 { writeInt(value) }
        case .int32: if let value = value as? Int32 { writeInt(Int64(value)) }
        case .int16: if let value = value as? Int16 { writeInt(Int64(value)) }
        case .int8: if let value = value as? Int8 { writeInt(Int64(value)) }
        case .uint: if let value = value as? UInt { writeUInt(UInt64(value)) }
        case .uint64: if let value = value as? UInt64 { writeUInt(value) }
        case .uint32: if let value = value as? UInt32 { writeUInt(UInt64(value)) }
        case .uint16: if let value = value as? UInt16 { writeUInt(UInt64(value)) }
        case .uint8: if let value = value as? UInt8 { writeUInt(UInt64(value)) }
        case .float: if let value = value as? Float { writeFloat(value) }
        case .data: if let value = value as? Data { writeData(value) }
        case .url: if let value = value as? URL { writeURL(value) }
        case .decimal: if let value = value as? Decimal { writeDecimal(value) }
        case .stringArray: if let value = value as? [String] { writeArray(value) }
        case .intArray: if let value = value as? [Int] { writeArray(value) }
        case .int64Array: if let value = value as? [Int64] { writeArray(value) }
        case .int32Array: if let value = value as? [Int32] { writeArray(value) }
        case .uintArray: if let value = value as? [UInt] { writeArray(value) }
        case .uint64Array: if let value = value as? [UInt64] { writeArray(value) }
        case .uint32Array: if let value = value as? [UInt32] { writeArray(value) }
        case .doubleArray: if let value = value as? [Double] { writeArray(value) }
        case .floatArray: if let value = value as? [Float] { writeArray(value) }
        case .uuidArray: if let value = value as? [UUID] { writeArray(value) }
        case .dateArray: if let value = value as? [Date] { writeArray(value) }
        case .boolArray: if let value = value as? [Bool] { writeArray(value) }
        }
    }
}
