/// The `Encoder` handed to a value's `encode(to:)`: one value slot of the archive.
///
/// Three words, so that an `any Encoder` holds it inline rather than in a box of its own on
/// the heap: the parent's index and the depth are 32 bits each.
struct ArchiveValueEncoder: Encoder {
    let state: ArchiveEncodingState
    /// Offset in the body where the value's tag goes (-1: a slot that can never be filled).
    let slot: Int
    private let parent32: Int32
    private let depth32: Int32

    init(state: ArchiveEncodingState, parent: Int, slot: Int, depth: Int) {
        self.state = state
        self.slot = slot
        parent32 = Int32(truncatingIfNeeded: parent)
        depth32 = Int32(truncatingIfNeeded: depth)
    }

    /// The container the value goes in (-1 for the root).
    var parent: Int { Int(parent32) }
    var depth: Int { Int(depth32) }

    var codingPath: [any CodingKey] { state.writer.codingPath(depth) }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let frame = state.writer.frame(forSlot: slot, parent: parent, tag: ArchiveTag.keyed)
        return state.keyedContainer(Key.self, frame: frame, depth: depth)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let frame = state.writer.frame(forSlot: slot, parent: parent, tag: ArchiveTag.array)
        return ArchiveUnkeyedEncodingContainer(state: state, frame: frame, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ArchiveSingleValueEncodingContainer(encoder: self)
    }
}

/// Where a keyed encoding container writes: its frame (-1 when it could not be opened) and
/// its depth.
struct ArchiveEncodingPlace {
    var frame: Int
    var depth: Int
}

/// Writes the entries of one keyed container.
struct ArchiveKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: ArchiveEncodingState
    let slot: ArchiveKeyedSlot<ArchiveEncodingPlace>

    /// The container's frame, or -1 when it could not be opened.
    var frame: Int { slot.place.frame }
    var depth: Int { slot.place.depth }

    var codingPath: [any CodingKey] { state.writer.codingPath(depth) }

    /// Starts the entry for `key`.
    private func begin(_ key: some CodingKey, _ value: @autoclosure () -> Any) throws {
        let name = key.stringValue
        do {
            try state.writer.beginEntry(frame, name: name)
        } catch {
            let message =
                switch error {
                case .closed:
                    "cannot encode key '\(key.stringValue)': its keyed container was closed "
                        + "(a parent container was written to after it was created)"
                case .duplicateKey: "key '\(key.stringValue)' encoded twice in one keyed container"
                }
            throw EncodingError.invalidValue(
                value(), EncodingError.Context(codingPath: codingPath + [key], debugDescription: message))
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key, Optional<Any>.none as Any)
        state.writer.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key, value)
        state.writer.writeBool(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key, value)
        state.writer.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key, value)
        state.writer.writeDouble(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key, value)
        state.writer.writeFloat(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encodeInteger<I: FixedWidthInteger>(_ value: I, _ key: Key) throws {
        try begin(key, value)
        if I.isSigned {
            state.writer.writeInt(Int64(truncatingIfNeeded: value))
        } else {
            state.writer.writeUInt(UInt64(truncatingIfNeeded: value))
        }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key, value)
        state.writer.setPath(key, at: depth)
        try state.encode(value, parent: frame, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        var nested = -1
        if (try? begin(key, ())) != nil {
            state.writer.setPath(key, at: depth)
            nested = state.writer.openFrame(tag: ArchiveTag.keyed)
        }
        return state.keyedContainer(NestedKey.self, frame: nested, depth: depth + 1)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        var nested = -1
        if (try? begin(key, ())) != nil {
            state.writer.setPath(key, at: depth)
            nested = state.writer.openFrame(tag: ArchiveTag.array)
        }
        return ArchiveUnkeyedEncodingContainer(state: state, frame: nested, depth: depth + 1)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(using: ArchiveSuperKey()) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(using: key) }

    /// An encoder for the value under `key`, which stays null until something is written.
    private func superEncoder(using key: some CodingKey) -> any Encoder {
        guard (try? begin(key, ())) != nil else {
            // An encoder whose slot can never be filled: every container it hands out throws.
            return ArchiveValueEncoder(state: state, parent: frame, slot: -1, depth: depth + 1)
        }
        state.writer.setPath(key, at: depth)
        state.writer.pendingSlot = state.writer.body.count
        return ArchiveValueEncoder(state: state, parent: frame, slot: state.writer.body.count, depth: depth + 1)
    }
}

/// Writes the elements of one unkeyed container.
struct ArchiveUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let state: ArchiveEncodingState
    /// The container's frame, or -1 when it could not be opened.
    let frame: Int
    let depth: Int

    var codingPath: [any CodingKey] { state.writer.codingPath(depth) }

    var count: Int { frame >= 0 ? state.writer.frames[frame].count : 0 }

    /// Starts an element; returns its index.
    private func begin(_ value: @autoclosure () -> Any) throws -> Int {
        guard let index = state.writer.beginElement(frame) else {
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "cannot encode an element: its unkeyed container was closed "
                        + "(a parent container was written to after it was created)"))
        }
        return index
    }

    mutating func encodeNil() throws {
        _ = try begin(Optional<Any>.none as Any)
        state.writer.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        _ = try begin(value)
        state.writer.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        _ = try begin(value)
        state.writer.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        _ = try begin(value)
        state.writer.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        _ = try begin(value)
        state.writer.writeFloat(value)
    }

    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

    private func encodeInteger<I: FixedWidthInteger>(_ value: I) throws {
        _ = try begin(value)
        if I.isSigned {
            state.writer.writeInt(Int64(truncatingIfNeeded: value))
        } else {
            state.writer.writeUInt(UInt64(truncatingIfNeeded: value))
        }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = try begin(value)
        state.writer.setPath(ArchiveIndexKey(index), at: depth)
        try state.encode(value, parent: frame, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        var nested = -1
        if let index = try? begin(()) {
            state.writer.setPath(ArchiveIndexKey(index), at: depth)
            nested = state.writer.openFrame(tag: ArchiveTag.keyed)
        }
        return state.keyedContainer(NestedKey.self, frame: nested, depth: depth + 1)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        var nested = -1
        if let index = try? begin(()) {
            state.writer.setPath(ArchiveIndexKey(index), at: depth)
            nested = state.writer.openFrame(tag: ArchiveTag.array)
        }
        return ArchiveUnkeyedEncodingContainer(state: state, frame: nested, depth: depth + 1)
    }

    mutating func superEncoder() -> any Encoder {
        guard let index = try? begin(()) else {
            return ArchiveValueEncoder(state: state, parent: frame, slot: -1, depth: depth + 1)
        }
        state.writer.setPath(ArchiveIndexKey(index), at: depth)
        state.writer.pendingSlot = state.writer.body.count
        return ArchiveValueEncoder(state: state, parent: frame, slot: state.writer.body.count, depth: depth + 1)
    }
}

/// Writes the one value of an encoder's slot.
struct ArchiveSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: ArchiveValueEncoder

    var state: ArchiveEncodingState { encoder.state }
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func begin(_ value: @autoclosure () -> Any) throws {
        guard state.writer.beginSingleValue(parent: encoder.parent, slot: encoder.slot) else {
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "cannot encode a single value: this encoder already holds a value "
                        + "or its parent container was closed"))
        }
    }

    mutating func encodeNil() throws {
        try begin(Optional<Any>.none as Any)
        state.writer.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        try begin(value)
        state.writer.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        try begin(value)
        state.writer.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        try begin(value)
        state.writer.writeDouble(value)
    }

    mutating func encode(_ value: Float) throws {
        try begin(value)
        state.writer.writeFloat(value)
    }

    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

    private func encodeInteger<I: FixedWidthInteger>(_ value: I) throws {
        try begin(value)
        if I.isSigned {
            state.writer.writeInt(Int64(truncatingIfNeeded: value))
        } else {
            state.writer.writeUInt(UInt64(truncatingIfNeeded: value))
        }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin(value)
        try state.encode(value, parent: encoder.parent, depth: encoder.depth)
    }
}
