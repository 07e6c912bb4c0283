import Foundation

extension ArchiveDecodingState {
    /// Decodes any value at `position`, taking the direct path for scalars, Data, Date,
    /// UUID, URL and arrays of scalars, and calling `T.init(from:)` otherwise.
    ///
    /// `depth` is the length of the value's coding path (its key is already recorded).
    func decodeGeneric<T: Decodable>(_ type: T.Type, at position: Int, implied: UInt8, depth: Int) throws -> T {
        var p = position
        do throws(ArchiveError) {
            if T.self == String.self { return unsafeBitCast(try readString(&p, end: size, implied: implied), to: T.self) }
            if T.self == Int.self {
                return unsafeBitCast(try readInteger(Int.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == Double.self {
                return unsafeBitCast(try readDouble(&p, end: size, implied: implied), to: T.self)
            }
            if T.self == Bool.self { return unsafeBitCast(try readBool(&p, end: size, implied: implied), to: T.self) }
            if T.self == UUID.self { return unsafeBitCast(try readUUID(&p, end: size, implied: implied), to: T.self) }
            if T.self == Date.self { return unsafeBitCast(try readDate(&p, end: size, implied: implied), to: T.self) }
            if T.self == Int64.self {
                return unsafeBitCast(try readInteger(Int64.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == Int32.self {
                return unsafeBitCast(try readInteger(Int32.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == Int16.self {
                return unsafeBitCast(try readInteger(Int16.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == Int8.self {
                return unsafeBitCast(try readInteger(Int8.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == UInt.self {
                return unsafeBitCast(try readInteger(UInt.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == UInt64.self {
                return unsafeBitCast(try readInteger(UInt64.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == UInt32.self {
                return unsafeBitCast(try readInteger(UInt32.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == UInt16.self {
                return unsafeBitCast(try readInteger(UInt16.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == UInt8.self {
                return unsafeBitCast(try readInteger(UInt8.self, &p, end: size, implied: implied), to: T.self)
            }
            if T.self == Float.self { return unsafeBitCast(try readFloat(&p, end: size, implied: implied), to: T.self) }
            if T.self == Data.self { return unsafeBitCast(try readData(&p, end: size, implied: implied), to: T.self) }
            if T.self == URL.self { return unsafeBitCast(try readURL(&p, end: size, implied: implied), to: T.self) }
            if T.self == Decimal.self {
                let text = try readString(&p, end: size, implied: implied)
                guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw ArchiveError(
                        .invalidValue,
                        "archive decimal at byte \(position) is not a number: \(text)",
                        offset: position
                    )
                }
                return unsafeBitCast(decimal, to: T.self)
            }
            if MemoryLayout<T>.size == MemoryLayout<[Int]>.size,
                let array = try decodeScalarArray(T.self, at: position, implied: implied)
            {
                return array
            }
        } catch {
            throw decodingError(error, type: T.self, depth: depth, key: nil)
        }
        nesting &+= 1
        defer { nesting &-= 1 }
        guard nesting <= maximumDepth else {
            throw decodingError(
                ArchiveError(
                    .depthLimitExceeded,
                    "archive nesting at byte \(position) exceeds the depth limit of \(maximumDepth)",
                    offset: position
                ),
                type: T.self,
                depth: depth,
                key: nil
            )
        }
        return try T(from: ArchiveValueDecoder(state: self, position: position, implied: implied, depth: depth))
    }

    /// Decodes `[String]`, `[Int]`, `[UUID]` and other arrays of scalars directly, from
    /// either a typed array or an array of tagged values. Returns nil for other types.
    @inline(__always)
    func decodeScalarArray<T>(_ type: T.Type, at position: Int, implied: UInt8) throws(ArchiveError) -> T? {
        switch ObjectIdentifier(T.self) {
        case ArchiveArrayTypes.strings:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readString(&p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.ints:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readInteger(Int.self, &p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.int64s:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readInteger(Int64.self, &p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.int32s:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readInteger(Int32.self, &p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.uints:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readInteger(UInt.self, &p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.uint64s:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readInteger(UInt64.self, &p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.uint32s:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readInteger(UInt32.self, &p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.doubles:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readDouble(&p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.floats:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readFloat(&p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.uuids:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readUUID(&p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.dates:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readDate(&p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        case ArchiveArrayTypes.bools:
            let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                try state.readBool(&p, end: end, implied: tag)
            }
            return unsafeBitCast(array, to: T.self)
        default:
            return nil
        }
    }

    /// Reads every element of the array at `position` with `readElement`.
    @inline(__always)
    func readArray<Element>(
        at position: Int,
        implied: UInt8,
        _ readElement: (ArchiveDecodingState, inout Int, Int, UInt8) throws(ArchiveError) -> Element
    ) throws(ArchiveError) -> [Element] {
        let (start, end, count, elementTag) = try openUnkeyed(at: position, implied: implied)
        var result: [Element] = []
        result.reserveCapacity(count)
        var p = start
        for _ in 0..<count {
            result.append(try readElement(self, &p, end, elementTag))
        }
        guard p == end else {
            throw ArchiveError(
                .lengthMismatch,
                "archive array at byte \(position) declares \(end - start) bytes of elements but its \(count) "
                    + "elements end at byte \(p), not \(end)",
                offset: p
            )
        }
        return result
    }
}
