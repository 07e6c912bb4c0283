import Foundation

/// Reads the entries of one keyed container, indexed once when it was opened.
struct ArchiveKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The decoding state, where the container's index starts in the state's arena, its
    /// entry count and its depth; see ``ArchiveContainerCache`` for why they live in a class.
    let slot: ArchiveDecodingSlot

    var state: ArchiveDecodingState { @inline(__always) get { slot.state } }

    var start: Int { @inline(__always) get { slot.first } }
    var count: Int { @inline(__always) get { slot.second } }
    var depth: Int { @inline(__always) get { slot.depth } }

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }

    var allKeys: [Key] {
        // Synthesized enum decoding asks every one-entry container for its keys. Building
        // an `[Key]` in this unspecialized code costs several runtime metadata lookups, so
        // the arrays are kept by name on the slot (shared by the containers of one key
        // type, across decodes). `Array` is `@frozen` and a single buffer reference, so the
        // casts need no metadata.
        if count == 1 {
            let name = state.names[state.arena[start + 1]]
            for cached in slot.singleKeyArrays where cached.name == name {
                return unsafeBitCast(cached.keys, to: [Key].self)
            }
            let keys = buildAllKeys()
            if slot.singleKeyArrays.count < ArchiveContainerSlot.maximumSingleKeyArrays {
                slot.singleKeyArrays.append((name, unsafeBitCast(keys, to: AnyObject.self)))
            }
            return keys
        }
        return buildAllKeys()
    }

    private func buildAllKeys() -> [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        for index in 0..<count {
            if let key = Key(stringValue: state.names[state.arena[start + 1 + 2 * index]]) {
                keys.append(key)
            }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        position(of: key) >= 0
    }

    /// The value offset for `key`, or -1 when the container has no entry for it.
    @inline(__always)
    private func position(of key: Key) -> Int {
        // The index of the key's name in the archive's name table (-1: not there).
        let index = slot.keyNumber(key)
        return slot.withState { $0.findEntry(start: start, count: count, nameIndex: index) }
    }

    /// The value offset for `key`, or a `keyNotFound` error.
    @inline(__always)
    private func entry(_ key: Key) throws -> Int {
        let position = position(of: key)
        guard position >= 0 else { throw keyNotFound(key) }
        return position
    }

    @inline(never)
    private func keyNotFound(_ key: Key) -> DecodingError {
        let path = codingPath
        let where_ = path.isEmpty ? "" : " (coding path: \(ArchiveDecodingState.render(path)))"
        return DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: path,
                debugDescription: "archive has no value for key '\(key.stringValue)'\(where_)"
            )
        )
    }

    @inline(__always)
    private func read<Value>(
        _ key: Key,
        _ reader: (ArchiveDecodingState, inout Int) throws(ArchiveError) -> Value
    ) throws -> Value {
        var p = try entry(key)
        do throws(ArchiveError) {
            return try reader(state, &p)
        } catch {
            throw state.decodingError(error, type: Value.self, depth: depth, key: key)
        }
    }

    @inline(__always)
    private func readIfPresent<Value>(
        _ key: Key,
        _ reader: (ArchiveDecodingState, inout Int) throws(ArchiveError) -> Value
    ) throws -> Value? {
        var p = position(of: key)
        guard p >= 0, state.bytes[p] != ArchiveTag.null else { return nil }
        do throws(ArchiveError) {
            return try reader(state, &p)
        } catch {
            throw state.decodingError(error, type: Value.self, depth: depth, key: key)
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        state.bytes[try entry(key)] == ArchiveTag.null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try read(key) { (s, p) throws(ArchiveError) in try s.readBool(&p, end: s.size, implied: ArchiveTag.none) }
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try read(key) { (s, p) throws(ArchiveError) in try s.readString(&p, end: s.size, implied: ArchiveTag.none) }
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try read(key) { (s, p) throws(ArchiveError) in try s.readDouble(&p, end: s.size, implied: ArchiveTag.none) }
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try read(key) { (s, p) throws(ArchiveError) in try s.readFloat(&p, end: s.size, implied: ArchiveTag.none) }
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int8.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int16.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int32.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int64.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt8.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt16.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt32.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try read(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt64.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let position = try entry(key)
        return try slot.withState { state in
            state.setPath(depth: depth, key: key)
            return try state.decodeGeneric(T.self, at: position, implied: ArchiveTag.none, depth: depth + 1)
        }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readBool(&p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readString(&p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readDouble(&p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readFloat(&p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int8.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int16.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int32.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(Int64.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt8.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt16.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt32.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try readIfPresent(key) { (s, p) throws(ArchiveError) in
            try s.readInteger(UInt64.self, &p, end: s.size, implied: ArchiveTag.none)
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let position = position(of: key)
        return try slot.withState { state in
            guard position >= 0, state.bytes[position] != ArchiveTag.null else { return nil }
            state.setPath(depth: depth, key: key)
            return try state.decodeGeneric(T.self, at: position, implied: ArchiveTag.none, depth: depth + 1)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let position = try entry(key)
        return try slot.withState { state in
            state.setPath(depth: depth, key: key)
            do throws(ArchiveError) {
                let (nestedStart, nestedCount, _) = try state.openKeyed(at: position, implied: ArchiveTag.none)
                return state.keyedContainer(NestedKey.self, start: nestedStart, count: nestedCount, depth: depth + 1)
            } catch {
                throw state.decodingError(error, type: [String: Any].self, depth: depth, key: key)
            }
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let position = try entry(key)
        state.setPath(depth: depth, key: key)
        do throws(ArchiveError) {
            let (elementsStart, end, elementCount, elementTag) = try state.openUnkeyed(
                at: position,
                implied: ArchiveTag.none
            )
            return ArchiveUnkeyedDecodingContainer(
                state: state,
                position: elementsStart,
                end: end,
                count: elementCount,
                implied: elementTag,
                depth: depth + 1
            )
        } catch {
            throw state.decodingError(error, type: [Any].self, depth: depth, key: key)
        }
    }

    func superDecoder() throws -> any Decoder {
        superDecoder(named: ArchiveSuperKey())
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        superDecoder(named: key)
    }

    /// A decoder for the value under `key`; a missing key gives a decoder of null, as
    /// JSONDecoder does.
    private func superDecoder(named key: some CodingKey) -> any Decoder {
        state.setPath(depth: depth, key: key)
        let position = state.findEntry(start: start, count: count, name: key.stringValue)
        guard position >= 0 else {
            return ArchiveValueDecoder(state: state, position: 0, implied: ArchiveTag.null, depth: depth + 1)
        }
        return ArchiveValueDecoder(state: state, position: position, implied: ArchiveTag.none, depth: depth + 1)
    }
}
