/// Writes the elements of one unkeyed container straight into the archive buffer.
struct ArchiveUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let state: ArchiveEncodingState
    /// The container's frame, or -1 when it could not be opened.
    let frame: Int
    let depth: Int

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }

    var count: Int { frame >= 0 ? state.frames[frame].count : 0 }

    @inline(__always)
    private func begin(_ value: @autoclosure () -> Any) throws -> Int {
        let index = state.beginElement(frame)
        guard index >= 0 else {
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: state.codingPath(depth: depth),
                    debugDescription: "cannot encode an element: its unkeyed container was closed "
                        + "(a parent container was written to after it was created)"
                )
            )
        }
        return index
    }

    mutating func encodeNil() throws {
        _ = try begin(Optional<Any>.none as Any)
        state.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        _ = try begin(value)
        state.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        _ = try begin(value)
        state.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        _ = try begin(value)
        state.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        _ = try begin(value)
        state.writeFloat(value)
    }

    mutating func encode(_ value: Int) throws {
        _ = try begin(value)
        state.writeInt(Int64(value))
    }

    mutating func encode(_ value: Int8) throws {
        _ = try begin(value)
        state.writeInt(Int64(value))
    }

    mutating func encode(_ value: Int16) throws {
        _ = try begin(value)
        state.writeInt(Int64(value))
    }

    mutating func encode(_ value: Int32) throws {
        _ = try begin(value)
        state.writeInt(Int64(value))
    }

    mutating func encode(_ value: Int64) throws {
        _ = try begin(value)
        state.writeInt(value)
    }

    mutating func encode(_ value: UInt) throws {
        _ = try begin(value)
        state.writeUInt(UInt64(value))
    }

    mutating func encode(_ value: UInt8) throws {
        _ = try begin(value)
        state.writeUInt(UInt64(value))
    }

    mutating func encode(_ value: UInt16) throws {
        _ = try begin(value)
        state.writeUInt(UInt64(value))
    }

    mutating func encode(_ value: UInt32) throws {
        _ = try begin(value)
        state.writeUInt(UInt64(value))
    }

    mutating func encode(_ value: UInt64) throws {
        _ = try begin(value)
        state.writeUInt(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = try begin(value)
        state.setPath(depth: depth, index: index)
        try state.encodeGeneric(value, parent: frame, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        var nested = -1
        if let index = try? begin(()) {
            state.setPath(depth: depth, index: index)
            nested = state.openFrame(tag: ArchiveTag.keyed)
        }
        return state.keyedContainer(NestedKey.self, frame: nested, depth: depth + 1)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        var nested = -1
        if let index = try? begin(()) {
            state.setPath(depth: depth, index: index)
            nested = state.openFrame(tag: ArchiveTag.array)
        }
        return ArchiveUnkeyedEncodingContainer(state: state, frame: nested, depth: depth + 1)
    }

    mutating func superEncoder() -> any Encoder {
        guard let index = try? begin(()) else {
            return ArchiveValueEncoder(state: state, parentFrame: frame, slot: -1, depth: depth + 1)
        }
        state.setPath(depth: depth, index: index)
        state.pendingSlot = state.count
        return ArchiveValueEncoder(state: state, parentFrame: frame, slot: state.count, depth: depth + 1)
    }
}
