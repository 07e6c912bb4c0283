import Foundation

/// Writes the one value of an encoder's slot.
struct ArchiveSingleValueEncodingContainer: SingleValueEncodingContainer {
    let state: ArchiveEncodingState
    let parentFrame: Int
    let slot: Int
    let depth: Int

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }

    @inline(__always)
    private func begin(_ value: @autoclosure () -> Any) throws {
        guard state.beginSingleValue(parent: parentFrame, slot: slot) else {
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: state.codingPath(depth: depth),
                    debugDescription: "cannot encode a single value: this encoder already holds a value "
                        + "or its parent container was closed"
                )
            )
        }
    }

    mutating func encodeNil() throws {
        try begin(Optional<Any>.none as Any)
        state.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        try begin(value)
        state.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        try begin(value)
        state.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        try begin(value)
        state.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        try begin(value)
        state.writeFloat(value)
    }

    mutating func encode(_ value: Int) throws {
        try begin(value)
        state.writeInt(Int64(value))
    }

    mutating func encode(_ value: Int8) throws {
        try begin(value)
        state.writeInt(Int64(value))
    }

    mutating func encode(_ value: Int16) throws {
        try begin(value)
        state.writeInt(Int64(value))
    }

    mutating func encode(_ value: Int32) throws {
        try begin(value)
        state.writeInt(Int64(value))
    }

    mutating func encode(_ value: Int64) throws {
        try begin(value)
        state.writeInt(value)
    }

    mutating func encode(_ value: UInt) throws {
        try begin(value)
        state.writeUInt(UInt64(value))
    }

    mutating func encode(_ value: UInt8) throws {
        try begin(value)
        state.writeUInt(UInt64(value))
    }

    mutating func encode(_ value: UInt16) throws {
        try begin(value)
        state.writeUInt(UInt64(value))
    }

    mutating func encode(_ value: UInt32) throws {
        try begin(value)
        state.writeUInt(UInt64(value))
    }

    mutating func encode(_ value: UInt64) throws {
        try begin(value)
        state.writeUInt(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin(value)
        try state.encodeGeneric(value, parent: parentFrame, depth: depth)
    }
}
