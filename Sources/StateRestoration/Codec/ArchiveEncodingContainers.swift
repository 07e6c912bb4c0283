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

extension ArchiveKeyedEncodingContainer: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { state.writer.codingPath(depth) }

    /// Starts the entry for `key`.
    private func begin(_ key: Key, _ value: @autoclosure () -> Any) throws {
        try begin(key, name: nameIndex(of: key), value())
    }

    /// Starts the entry for `key`, whose name index is `name`.
    private func begin(_ key: some CodingKey, name: Int, _ value: @autoclosure () -> Any) throws {
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

    func encodeNil(forKey key: Key) throws {
        try begin(key, Optional<Any>.none as Any)
        state.writer.writeNull()
    }

    func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key, value)
        state.writer.writeBool(value)
    }

    func encode(_ value: String, forKey key: Key) throws {
        try begin(key, value)
        state.writer.writeString(value)
    }

    func encode(_ value: Double, forKey key: Key) throws {
        try begin(key, value)
        state.writer.writeDouble(value)
    }

    func encode(_ value: Float, forKey key: Key) throws {
        try begin(key, value)
        state.writer.writeFloat(value)
    }

    func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, key) }
    func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
    func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encodeInteger<I: FixedWidthInteger>(_ value: I, _ key: Key) throws {
        try begin(key, value)
        state.writer.writeInteger(value)
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key, value)
        state.writer.setPath(key, at: depth)
        try state.encode(value, parent: frame, depth: depth + 1)
    }

    /// Starts the entry for `key` and opens a container of `tag` in it; -1 when the entry cannot
    /// be written.
    private func openNested(_ key: Key, tag: UInt8) -> Int {
        guard (try? begin(key, ())) != nil else { return -1 }
        state.writer.setPath(key, at: depth)
        return state.writer.openFrame(tag: tag)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        state.keyedContainer(NestedKey.self, frame: openNested(key, tag: ArchiveTag.keyed), depth: depth + 1)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ArchiveUnkeyedEncodingContainer(state: state, frame: openNested(key, tag: ArchiveTag.array), depth: depth + 1)
    }

    func superEncoder() -> any Encoder {
        superEncoder(using: ArchiveSuperKey(), name: state.writer.nameIndex(of: "super"))
    }

    func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(using: key, name: nameIndex(of: key))
    }

    /// An encoder for the value under `key`, whose name index is `name`, which stays null until
    /// something is written.
    private func superEncoder(using key: some CodingKey, name: Int) -> any Encoder {
        guard (try? begin(key, name: name, ())) != nil else {
            return state.superEncoder(parent: frame, key: nil, depth: depth)
        }
        return state.superEncoder(parent: frame, key: key, depth: depth)
    }
}

extension ArchiveEncodingState {
    /// The encoder of a `superEncoder()` entry just begun under `key` in container `parent`, which
    /// stays null until something is written; with no key, one whose slot can never be filled
    /// (every container it hands out throws).
    func superEncoder(parent: Int, key: (any CodingKey)?, depth: Int) -> any Encoder {
        guard let key else { return ArchiveValueEncoder(state: self, parent: parent, slot: -1, depth: depth + 1) }
        writer.setPath(key, at: depth)
        writer.pendingSlot = writer.body.count
        return ArchiveValueEncoder(state: self, parent: parent, slot: writer.body.count, depth: depth + 1)
    }
}

/// The writes an unkeyed and a single-value container share: each value after the container's
/// ``beginValue(_:)``.
protocol ArchiveValueWriting {
    var state: ArchiveEncodingState { get }
    /// Starts a value; throws when the container cannot take one.
    func beginValue(_ value: @autoclosure () -> Any) throws
}

extension ArchiveValueWriting {
    /// Starts a value and writes it with `write`.
    private func write<Value>(_ value: Value, _ write: (inout ArchiveWriter, Value) -> Void) throws {
        try beginValue(value)
        write(&state.writer, value)
    }

    mutating func encodeNil() throws { try write(Optional<Any>.none as Any) { w, _ in w.writeNull() } }
    mutating func encode(_ value: Bool) throws { try write(value) { $0.writeBool($1) } }
    mutating func encode(_ value: String) throws { try write(value) { $0.writeString($1) } }
    mutating func encode(_ value: Double) throws { try write(value) { $0.writeDouble($1) } }
    mutating func encode(_ value: Float) throws { try write(value) { $0.writeFloat($1) } }
    mutating func encode(_ value: Int) throws { try write(value) { $0.writeInteger($1) } }
    mutating func encode(_ value: Int8) throws { try write(value) { $0.writeInteger($1) } }
    mutating func encode(_ value: Int16) throws { try write(value) { $0.writeInteger($1) } }
    mutating func encode(_ value: Int32) throws { try write(value) { $0.writeInteger($1) } }
    mutating func encode(_ value: Int64) throws { try write(value) { $0.writeInteger($1) } }
    mutating func encode(_ value: UInt) throws { try write(value) { $0.writeInteger($1) } }
    mutating func encode(_ value: UInt8) throws { try write(value) { $0.writeInteger($1) } }
    mutating func encode(_ value: UInt16) throws { try write(value) { $0.writeInteger($1) } }
    mutating func encode(_ value: UInt32) throws { try write(value) { $0.writeInteger($1) } }
    mutating func encode(_ value: UInt64) throws { try write(value) { $0.writeInteger($1) } }
}

/// Writes the elements of one unkeyed container.
struct ArchiveUnkeyedEncodingContainer: UnkeyedEncodingContainer, ArchiveValueWriting {
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

    func beginValue(_ value: @autoclosure () -> Any) throws { _ = try begin(value()) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        state.writer.setPath(ArchiveIndexKey(try begin(value)), at: depth)
        try state.encode(value, parent: frame, depth: depth + 1)
    }

    /// Starts an element and opens a container of `tag` in it; -1 when the element cannot be
    /// written.
    private func openNested(tag: UInt8) -> Int {
        guard let index = try? begin(()) else { return -1 }
        state.writer.setPath(ArchiveIndexKey(index), at: depth)
        return state.writer.openFrame(tag: tag)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        state.keyedContainer(NestedKey.self, frame: openNested(tag: ArchiveTag.keyed), depth: depth + 1)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        ArchiveUnkeyedEncodingContainer(state: state, frame: openNested(tag: ArchiveTag.array), depth: depth + 1)
    }

    mutating func superEncoder() -> any Encoder {
        guard let index = state.writer.beginElement(frame) else {
            return state.superEncoder(parent: frame, key: nil, depth: depth)
        }
        return state.superEncoder(parent: frame, key: ArchiveIndexKey(index), depth: depth)
    }
}

/// Writes the one value of an encoder's slot.
struct ArchiveSingleValueEncodingContainer: SingleValueEncodingContainer, ArchiveValueWriting {
    let encoder: ArchiveValueEncoder

    var state: ArchiveEncodingState { encoder.state }
    var codingPath: [any CodingKey] { encoder.codingPath }

    func beginValue(_ value: @autoclosure () -> Any) throws {
        guard state.writer.beginSingleValue(parent: encoder.parent, slot: encoder.slot) else {
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "cannot encode a single value: this encoder already holds a value "
                        + "or its parent container was closed"))
        }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try beginValue(value)
        try state.encode(value, parent: encoder.parent, depth: encoder.depth)
    }
}
