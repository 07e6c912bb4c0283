import Foundation

/// Reads the elements of one array or typed array in order.
struct ArchiveUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let state: ArchiveDecodingState
    /// Offset of the next element.
    var position: Int
    /// Offset just past the last element.
    let end: Int
    let elementCount: Int
    /// The element tag of a typed array, or ``ArchiveTag/none``.
    let implied: UInt8
    let depth: Int
    private(set) var currentIndex = 0

    init(state: ArchiveDecodingState, position: Int, end: Int, count: Int, implied: UInt8, depth: Int) {
        self.state = state
        self.position = position
        self.end = end
        self.elementCount = count
        self.implied = implied
        self.depth = depth
    }

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }

    var count: Int? { elementCount }

    var isAtEnd: Bool { currentIndex >= elementCount }

    @inline(never)
    private func atEnd(_ type: Any.Type) -> DecodingError {
        var path = codingPath
        path.append(ArchiveIndexKey(currentIndex))
        return DecodingError.valueNotFound(
            type,
            DecodingError.Context(
                codingPath: path,
                debugDescription: "archive unkeyed container is at end: all \(elementCount) elements were read "
                    + "(coding path: \(ArchiveDecodingState.render(path)))"
            )
        )
    }

    @inline(__always)
    private mutating func read<Value>(
        _ reader: (ArchiveDecodingState, inout Int, Int, UInt8) throws(ArchiveError) -> Value
    ) throws -> Value {
        guard currentIndex < elementCount else { throw atEnd(Value.self) }
        var p = position
        do throws(ArchiveError) {
            let value = try reader(state, &p, end, implied)
            try advance(to: p)
            return value
        } catch {
            throw state.decodingError(error, type: Value.self, depth: depth, key: ArchiveIndexKey(currentIndex))
        }
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < elementCount else { throw atEnd(Optional<Any>.self) }
        if implied == ArchiveTag.none, position < end, state.bytes[position] == ArchiveTag.null {
            do throws(ArchiveError) {
                try advance(to: position + 1)
            } catch {
                throw state.decodingError(error, type: Optional<Any>.self, depth: depth, key: nil)
            }
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readBool(&p, end: e, implied: t) }
    }

    mutating func decode(_ type: String.Type) throws -> String {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readString(&p, end: e, implied: t) }
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readDouble(&p, end: e, implied: t) }
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readFloat(&p, end: e, implied: t) }
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(Int.self, &p, end: e, implied: t) }
    }

    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(Int8.self, &p, end: e, implied: t) }
    }

    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(Int16.self, &p, end: e, implied: t) }
    }

    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(Int32.self, &p, end: e, implied: t) }
    }

    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(Int64.self, &p, end: e, implied: t) }
    }

    mutating func decode(_ type: UInt.Type) throws -> UInt {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(UInt.self, &p, end: e, implied: t) }
    }

    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(UInt8.self, &p, end: e, implied: t) }
    }

    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(UInt16.self, &p, end: e, implied: t) }
    }

    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(UInt32.self, &p, end: e, implied: t) }
    }

    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        try read { (s, p, e, t) throws(ArchiveError) in try s.readInteger(UInt64.self, &p, end: e, implied: t) }
    }

    /// Moves past the current element; after the last one, checks that the elements
    /// filled the container's declared byte length exactly.
    @inline(__always)
    private mutating func advance(to next: Int) throws(ArchiveError) {
        position = next
        currentIndex += 1
        if currentIndex == elementCount && next != end {
            throw ArchiveError(
                .lengthMismatch,
                "archive array declares its elements end at byte \(end) but its \(elementCount) elements end "
                    + "at byte \(next)",
                offset: next
            )
        }
    }

    /// Finds the extent of the next element and records its index in the coding path.
    private mutating func nextElement(_ type: Any.Type) throws -> (position: Int, next: Int) {
        guard currentIndex < elementCount else { throw atEnd(type) }
        let elementPosition = position
        let next: Int
        do throws(ArchiveError) {
            if implied == ArchiveTag.none, let simple = state.skipSimpleValue(at: elementPosition, end: end) {
                next = simple
            } else {
                next = try state.skipValue(at: elementPosition, end: end, implied: implied)
            }
        } catch {
            throw state.decodingError(error, type: type, depth: depth, key: ArchiveIndexKey(currentIndex))
        }
        state.setPath(depth: depth, index: currentIndex)
        return (elementPosition, next)
    }

    private mutating func advanceOrThrow(to next: Int, _ type: Any.Type) throws {
        do throws(ArchiveError) {
            try advance(to: next)
        } catch {
            throw state.decodingError(error, type: type, depth: depth, key: nil)
        }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (elementPosition, next) = try nextElement(T.self)
        let value = try state.decodeGeneric(T.self, at: elementPosition, implied: implied, depth: depth + 1)
        try advanceOrThrow(to: next, T.self)
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (elementPosition, next) = try nextElement([String: Any].self)
        do throws(ArchiveError) {
            let (nestedStart, nestedCount, _) = try state.openKeyed(at: elementPosition, implied: implied)
            try advance(to: next)
            return state.keyedContainer(NestedKey.self, start: nestedStart, count: nestedCount, depth: depth + 1)
        } catch {
            throw state.decodingError(error, type: [String: Any].self, depth: depth + 1, key: nil)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (elementPosition, next) = try nextElement([Any].self)
        do throws(ArchiveError) {
            let (elementsStart, elementsEnd, nestedCount, elementTag) = try state.openUnkeyed(
                at: elementPosition,
                implied: implied
            )
            try advance(to: next)
            return ArchiveUnkeyedDecodingContainer(
                state: state,
                position: elementsStart,
                end: elementsEnd,
                count: nestedCount,
                implied: elementTag,
                depth: depth + 1
            )
        } catch {
            throw state.decodingError(error, type: [Any].self, depth: depth + 1, key: nil)
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        let (elementPosition, next) = try nextElement(Any.self)
        try advanceOrThrow(to: next, Any.self)
        return ArchiveValueDecoder(state: state, position: elementPosition, implied: implied, depth: depth + 1)
    }
}
