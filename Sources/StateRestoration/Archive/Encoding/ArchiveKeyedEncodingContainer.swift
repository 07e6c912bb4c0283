/// Writes the entries of one keyed container straight into the archive buffer.
struct ArchiveKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// The encoding state, the container's frame (-1 when it could not be opened) and
    /// depth; see ``ArchiveContainerCache`` for why they live in a class.
    let slot: ArchiveEncodingSlot

    var state: ArchiveEncodingState { @inline(__always) get { slot.state } }

    /// The container's frame, or -1 when it could not be opened.
    var frame: Int { @inline(__always) get { slot.first } }
    var depth: Int { @inline(__always) get { slot.depth } }

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }

    @inline(__always)
    private func begin(_ key: Key, _ value: @autoclosure () -> Any) throws {
        try begin(number: slot.keyNumber(key), key, value())
    }

    @inline(__always)
    private func begin(number: Int, _ key: some CodingKey, _ value: @autoclosure () -> Any) throws {
        let status = slot.withState { $0.beginEntry(frame, number: number) }
        switch status {
        case .ok:
            return
        case .closed:
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: state.codingPath(depth: depth, appending: key),
                    debugDescription: "cannot encode key '\(key.stringValue)': its keyed container was closed "
                        + "(a parent container was written to after it was created)"
                )
            )
        case .duplicateKey:
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: state.codingPath(depth: depth, appending: key),
                    debugDescription: "key '\(key.stringValue)' encoded twice in one keyed container"
                )
            )
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key, Optional<Any>.none as Any)
        slot.withState { $0.writeNullInRoom() }
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeBoolInRoom(value) }
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeString(value) }
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeDoubleInRoom(value) }
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeFloat(value) }
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeIntInRoom(Int64(value)) }
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeIntInRoom(Int64(value)) }
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeIntInRoom(Int64(value)) }
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeIntInRoom(Int64(value)) }
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeIntInRoom(value) }
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeUIntInRoom(UInt64(value)) }
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeUIntInRoom(UInt64(value)) }
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeUIntInRoom(UInt64(value)) }
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeUIntInRoom(UInt64(value)) }
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try begin(key, value)
        slot.withState { $0.writeUIntInRoom(value) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key, value)
        let frame = frame
        let depth = depth
        try slot.withState { state in
            state.setPath(depth: depth, key: key)
            try state.encodeGeneric(value, parent: frame, depth: depth + 1)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let opened = (try? begin(key, ())) != nil
        return slot.withState { state in
            var nested = -1
            if opened {
                state.setPath(depth: depth, key: key)
                nested = state.openFrame(tag: ArchiveTag.keyed)
            }
            return state.keyedContainer(NestedKey.self, frame: nested, depth: depth + 1)
        }
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        var nested = -1
        if (try? begin(key, ())) != nil {
            state.setPath(depth: depth, key: key)
            nested = state.openFrame(tag: ArchiveTag.array)
        }
        return ArchiveUnkeyedEncodingContainer(state: state, frame: nested, depth: depth + 1)
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(using: ArchiveSuperKey())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(using: key)
    }

    private func superEncoder(using key: some CodingKey) -> any Encoder {
        let name = key.stringValue
        let number = slot.withState { $0.nameNumber(of: name) }
        guard (try? begin(number: number, key, ())) != nil else {
            // An encoder whose slot can never be filled: every container it hands out throws.
            return ArchiveValueEncoder(state: state, parentFrame: frame, slot: -1, depth: depth + 1)
        }
        state.setPath(depth: depth, key: key)
        state.pendingSlot = state.count
        return ArchiveValueEncoder(state: state, parentFrame: frame, slot: state.count, depth: depth + 1)
    }
}
