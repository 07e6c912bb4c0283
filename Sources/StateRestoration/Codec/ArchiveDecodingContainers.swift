/// The `Decoder` handed to a value's `init(from:)`: one value of the archive.
///
/// Three words, as ``ArchiveValueEncoder`` is, so that an `any Decoder` holds it inline rather
/// than in a box of its own on the heap: the depth is 32 bits.
///
/// It has no end of its own: the value's extent was checked against its container's end when
/// that container was opened (or, for the root, against the input's), so its reads are checked
/// against the end of the input.
struct ArchiveValueDecoder: Decoder {
    let state: ArchiveDecodingState
    /// Offset of the value's tag (or of its payload, when the tag is implied).
    let position: Int
    /// The element tag of a typed array, or nil when the value carries its own.
    let implied: UInt8?
    private let depth32: Int32

    init(state: ArchiveDecodingState, position: Int, implied: UInt8?, depth: Int) {
        self.state = state
        self.position = position
        self.implied = implied
        depth32 = Int32(truncatingIfNeeded: depth)
    }

    var depth: Int { Int(depth32) }

    var end: Int { state.reader.size }

    var codingPath: [any CodingKey] { state.codingPath(depth) }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        do throws(ArchiveError) {
            let keyed = try state.openKeyed(at: position, end: end, implied: implied)
            return state.keyedContainer(Key.self, keyed: keyed, depth: depth)
        } catch {
            throw state.decodingError(error, type: [String: Any].self, depth: depth)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try arrayContainer()
    }

    /// The value's unkeyed container.
    func arrayContainer() throws -> ArchiveUnkeyedDecodingContainer {
        do throws(ArchiveError) {
            let array = try state.reader.openUnkeyed(at: position, end: end, implied: implied)
            return ArchiveUnkeyedDecodingContainer(state: state, array: array, depth: depth)
        } catch {
            throw state.decodingError(error, type: [Any].self, depth: depth)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ArchiveSingleValueDecodingContainer(decoder: self)
    }
}

extension ArchiveKeyedDecodingContainer: KeyedDecodingContainerProtocol {
    var codingPath: [any CodingKey] { state.codingPath(depth) }

    var allKeys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(keyed.count)
        for entry in 0..<keyed.count {
            if let key = Key(stringValue: state.name(ofEntry: entry, in: keyed)) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { state.findEntry(key.stringValue, in: keyed) != nil }

    /// The offset of `key`'s value, or a `keyNotFound` error.
    private func entry(_ key: Key) throws -> Int {
        guard let position = state.findEntry(key.stringValue, in: keyed) else {
            let path = codingPath
            let location = path.isEmpty ? "" : " (coding path: \(ArchiveDecodingState.render(path)))"
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: path, debugDescription: "archive has no value for key '\(key.stringValue)'\(location)"))
        }
        return position
    }

    /// Reads the value of `key` with `read`, which throws only `ArchiveError`s.
    private func read<Value>(_ key: Key, _ read: (ArchiveReader, inout Int, Int) throws -> Value) throws -> Value {
        var p = try entry(key)
        do {
            return try read(state.reader, &p, keyed.end)
        } catch let error as ArchiveError {
            throw state.decodingError(error, type: Value.self, depth: depth, key: key)
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool { state.reader.bytes[try entry(key)] == ArchiveTag.null }

    func decode(_: Bool.Type, forKey key: Key) throws -> Bool { try read(key) { try $0.readBool(&$1, end: $2) } }
    func decode(_: String.Type, forKey key: Key) throws -> String { try read(key) { try $0.readString(&$1, end: $2) } }
    func decode(_: Double.Type, forKey key: Key) throws -> Double { try read(key) { try $0.readDouble(&$1, end: $2) } }
    func decode(_: Float.Type, forKey key: Key) throws -> Float { try read(key) { try $0.readFloat(&$1, end: $2) } }
    func decode(_: Int.Type, forKey key: Key) throws -> Int { try readInteger(key) }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { try readInteger(key) }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { try readInteger(key) }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { try readInteger(key) }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try readInteger(key) }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt { try readInteger(key) }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { try readInteger(key) }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { try readInteger(key) }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { try readInteger(key) }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try readInteger(key) }

    private func readInteger<I: FixedWidthInteger>(_ key: Key) throws -> I {
        try read(key) { try $0.readInteger(I.self, &$1, end: $2) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let position = try entry(key)
        state.setPath(key, at: depth)
        return try state.decode(T.self, at: position, end: keyed.end, implied: nil, depth: depth + 1)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let position = try entry(key)
        state.setPath(key, at: depth)
        do throws(ArchiveError) {
            let nested = try state.openKeyed(at: position, end: keyed.end, implied: nil)
            return state.keyedContainer(NestedKey.self, keyed: nested, depth: depth + 1)
        } catch {
            throw state.decodingError(error, type: [String: Any].self, depth: depth, key: key)
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let position = try entry(key)
        state.setPath(key, at: depth)
        do throws(ArchiveError) {
            let array = try state.reader.openUnkeyed(at: position, end: keyed.end, implied: nil)
            return ArchiveUnkeyedDecodingContainer(state: state, array: array, depth: depth + 1)
        } catch {
            throw state.decodingError(error, type: [Any].self, depth: depth, key: key)
        }
    }

    func superDecoder() throws -> any Decoder { superDecoder(named: ArchiveSuperKey()) }

    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(named: key) }

    /// A decoder for the value under `key`; a missing key gives a decoder of null, as
    /// JSONDecoder does, which reports the container's offset in its errors.
    private func superDecoder(named key: some CodingKey) -> any Decoder {
        state.setPath(key, at: depth)
        guard let position = state.findEntry(key.stringValue, in: keyed) else {
            return ArchiveValueDecoder(state: state, position: keyed.offset, implied: ArchiveTag.null, depth: depth + 1)
        }
        return ArchiveValueDecoder(state: state, position: position, implied: nil, depth: depth + 1)
    }
}

/// Reads the elements of one array or typed array in order.
struct ArchiveUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let state: ArchiveDecodingState
    let array: ArchiveReader.Unkeyed
    let depth: Int
    /// Offset of the next element.
    private var position: Int
    private(set) var currentIndex = 0

    init(state: ArchiveDecodingState, array: ArchiveReader.Unkeyed, depth: Int) {
        self.state = state
        self.array = array
        self.depth = depth
        position = array.start
    }

    var codingPath: [any CodingKey] { state.codingPath(depth) }
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private func atEnd(_ type: Any.Type) -> DecodingError {
        let path = codingPath + [ArchiveIndexKey(currentIndex)]
        return DecodingError.valueNotFound(
            type,
            DecodingError.Context(
                codingPath: path,
                debugDescription: "archive unkeyed container is at end: all \(array.count) elements were read "
                    + "(coding path: \(ArchiveDecodingState.render(path)))"))
    }

    /// Moves past the current element; after the last one, checks that the elements filled
    /// the container's declared length exactly.
    private mutating func advance(to next: Int) throws(ArchiveError) {
        position = next
        currentIndex += 1
        guard currentIndex < array.count || next == array.end else {
            throw ArchiveError(
                .lengthMismatch,
                "archive array declares its elements end at byte \(array.end) but its \(array.count) elements end "
                    + "at byte \(next)", offset: next)
        }
    }

    /// Reads the next element with `read`, which throws only `ArchiveError`s.
    private mutating func read<Value>(_ read: (ArchiveReader, inout Int, Int, UInt8?) throws -> Value) throws -> Value {
        guard !isAtEnd else { throw atEnd(Value.self) }
        var p = position
        do {
            let value = try read(state.reader, &p, array.end, array.elementTag)
            try advance(to: p)
            return value
        } catch let error as ArchiveError {
            throw state.decodingError(error, type: Value.self, depth: depth, key: ArchiveIndexKey(currentIndex))
        }
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw atEnd(Optional<Any>.self) }
        guard array.elementTag == nil, position < array.end, state.reader.bytes[position] == ArchiveTag.null else {
            return false
        }
        do throws(ArchiveError) {
            try advance(to: position + 1)
        } catch {
            throw state.decodingError(error, type: Optional<Any>.self, depth: depth)
        }
        return true
    }

    mutating func decode(_: Bool.Type) throws -> Bool { try read { try $0.readBool(&$1, end: $2, implied: $3) } }
    mutating func decode(_: String.Type) throws -> String { try read { try $0.readString(&$1, end: $2, implied: $3) } }
    mutating func decode(_: Double.Type) throws -> Double { try read { try $0.readDouble(&$1, end: $2, implied: $3) } }
    mutating func decode(_: Float.Type) throws -> Float { try read { try $0.readFloat(&$1, end: $2, implied: $3) } }
    mutating func decode(_: Int.Type) throws -> Int { try readInteger() }
    mutating func decode(_: Int8.Type) throws -> Int8 { try readInteger() }
    mutating func decode(_: Int16.Type) throws -> Int16 { try readInteger() }
    mutating func decode(_: Int32.Type) throws -> Int32 { try readInteger() }
    mutating func decode(_: Int64.Type) throws -> Int64 { try readInteger() }
    mutating func decode(_: UInt.Type) throws -> UInt { try readInteger() }
    mutating func decode(_: UInt8.Type) throws -> UInt8 { try readInteger() }
    mutating func decode(_: UInt16.Type) throws -> UInt16 { try readInteger() }
    mutating func decode(_: UInt32.Type) throws -> UInt32 { try readInteger() }
    mutating func decode(_: UInt64.Type) throws -> UInt64 { try readInteger() }

    private mutating func readInteger<I: FixedWidthInteger>() throws -> I {
        try read { try $0.readInteger(I.self, &$1, end: $2, implied: $3) }
    }

    /// The extent of the next element, its index recorded in the coding path.
    private mutating func nextElement(_ type: Any.Type) throws -> (position: Int, end: Int) {
        guard !isAtEnd else { throw atEnd(type) }
        do throws(ArchiveError) {
            let next = try state.reader.skipValue(at: position, end: array.end, implied: array.elementTag)
            state.setPath(ArchiveIndexKey(currentIndex), at: depth)
            return (position, next)
        } catch {
            throw state.decodingError(error, type: type, depth: depth, key: ArchiveIndexKey(currentIndex))
        }
    }

    /// Moves past an element whose extent ``nextElement(_:)`` found.
    private mutating func advanceOrThrow(to next: Int, _ type: Any.Type) throws {
        do throws(ArchiveError) {
            try advance(to: next)
        } catch {
            throw state.decodingError(error, type: type, depth: depth)
        }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try nextElement(T.self)
        let value = try state.decode(
            T.self, at: element.position, end: element.end, implied: array.elementTag, depth: depth + 1)
        try advanceOrThrow(to: element.end, T.self)
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let element = try nextElement([String: Any].self)
        do throws(ArchiveError) {
            let keyed = try state.openKeyed(at: element.position, end: element.end, implied: array.elementTag)
            try advance(to: element.end)
            return state.keyedContainer(NestedKey.self, keyed: keyed, depth: depth + 1)
        } catch {
            throw state.decodingError(error, type: [String: Any].self, depth: depth + 1)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = try nextElement([Any].self)
        do throws(ArchiveError) {
            let nested = try state.reader.openUnkeyed(at: element.position, end: element.end, implied: array.elementTag)
            try advance(to: element.end)
            return ArchiveUnkeyedDecodingContainer(state: state, array: nested, depth: depth + 1)
        } catch {
            throw state.decodingError(error, type: [Any].self, depth: depth + 1)
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        let element = try nextElement(Any.self)
        try advanceOrThrow(to: element.end, Any.self)
        return ArchiveValueDecoder(
            state: state, position: element.position, implied: array.elementTag, depth: depth + 1)
    }
}

/// Reads the one value of a decoder.
struct ArchiveSingleValueDecodingContainer: SingleValueDecodingContainer {
    let decoder: ArchiveValueDecoder

    var state: ArchiveDecodingState { decoder.state }
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// Reads the value with `read`, which throws only `ArchiveError`s.
    private func read<Value>(_ read: (ArchiveReader, inout Int, Int, UInt8?) throws -> Value) throws -> Value {
        var p = decoder.position
        do {
            return try read(state.reader, &p, decoder.end, decoder.implied)
        } catch let error as ArchiveError {
            throw state.decodingError(error, type: Value.self, depth: decoder.depth)
        }
    }

    func decodeNil() -> Bool {
        let tag = decoder.implied ?? (decoder.position < decoder.end ? state.reader.bytes[decoder.position] : nil)
        return tag == ArchiveTag.null
    }

    func decode(_: Bool.Type) throws -> Bool { try read { try $0.readBool(&$1, end: $2, implied: $3) } }
    func decode(_: String.Type) throws -> String { try read { try $0.readString(&$1, end: $2, implied: $3) } }
    func decode(_: Double.Type) throws -> Double { try read { try $0.readDouble(&$1, end: $2, implied: $3) } }
    func decode(_: Float.Type) throws -> Float { try read { try $0.readFloat(&$1, end: $2, implied: $3) } }
    func decode(_: Int.Type) throws -> Int { try readInteger() }
    func decode(_: Int8.Type) throws -> Int8 { try readInteger() }
    func decode(_: Int16.Type) throws -> Int16 { try readInteger() }
    func decode(_: Int32.Type) throws -> Int32 { try readInteger() }
    func decode(_: Int64.Type) throws -> Int64 { try readInteger() }
    func decode(_: UInt.Type) throws -> UInt { try readInteger() }
    func decode(_: UInt8.Type) throws -> UInt8 { try readInteger() }
    func decode(_: UInt16.Type) throws -> UInt16 { try readInteger() }
    func decode(_: UInt32.Type) throws -> UInt32 { try readInteger() }
    func decode(_: UInt64.Type) throws -> UInt64 { try readInteger() }

    private func readInteger<I: FixedWidthInteger>() throws -> I {
        try read { try $0.readInteger(I.self, &$1, end: $2, implied: $3) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.decode(T.self, at: decoder.position, end: decoder.end, implied: decoder.implied, depth: decoder.depth)
    }
}
