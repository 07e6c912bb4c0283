import Foundation

extension ArchiveDecodingState {
    /// Decodes any value at `position`, taking the direct path for scalars, Data, Date,
    /// UUID, URL and arrays of scalars, and calling `T.init(from:)` otherwise.
    ///
    /// `depth` is the length of the value's coding path (its key is already recorded).
    func decodeGeneric<T: Decodable>(_ type: T.Type, at position: Int, implied: UInt8, depth: Int) throws -> T {
        var p = position
        do throws(ArchiveError) {
            switch typeCache.kind(of: T.self) {
            case .other, .pendingEncoding:
                break
            case .string: return unsafeBitCast(try readString(&p, end: size, implied: implied), to: T.self)
            case .int: return unsafeBitCast(try readInteger(Int.self, &p, end: size, implied: implied), to: T.self)
            case .double: return unsafeBitCast(try readDouble(&p, end: size, implied: implied), to: T.self)
            case .bool: return unsafeBitCast(try readBool(&p, end: size, implied: implied), to: T.self)
            case .uuid: return unsafeBitCast(try readUUID(&p, end: size, implied: implied), to: T.self)
            case .date: return unsafeBitCast(try readDate(&p, end: size, implied: implied), to: T.self)
            case .int64: return unsafeBitCast(try readInteger(Int64.self, &p, end: size, implied: implied), to: T.self)
            case .int32: return unsafeBitCast(try readInteger(Int32.self, &p, end: size, implied: implied), to: T.self)
            case .int16: return unsafeBitCast(try readInteger(Int16.self, &p, end: size, implied: implied), to: T.self)
            case .int8: return unsafeBitCast(try readInteger(Int8.self, &p, end: size, implied: implied), to: T.self)
            case .uint: return unsafeBitCast(try readInteger(UInt.self, &p, end: size, implied: implied), to: T.self)
            case .uint64:
                return unsafeBitCast(try readInteger(UInt64.self, &p, end: size, implied: implied), to: T.self)
            case .uint32:
                return unsafeBitCast(try readInteger(UInt32.self, &p, end: size, implied: implied), to: T.self)
            case .uint16:
                return unsafeBitCast(try readInteger(UInt16.self, &p, end: size, implied: implied), to: T.self)
            case .uint8: return unsafeBitCast(try readInteger(UInt8.self, &p, end: size, implied: implied), to: T.self)
            case .float: return unsafeBitCast(try readFloat(&p, end: size, implied: implied), to: T.self)
            case .data: return unsafeBitCast(try readData(&p, end: size, implied: implied), to: T.self)
            case .url: return unsafeBitCast(try readURL(&p, end: size, implied: implied), to: T.self)
            case .decimal:
                let text = try readString(&p, end: size, implied: implied)
                guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw ArchiveError(
                        .invalidValue,
                        "archive decimal at byte \(position) is not a number: \(text)",
                        offset: position
                    )
                }
                return unsafeBitCast(decimal, to: T.self)
            case .stringArray:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readString(&p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .intArray:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readInteger(Int.self, &p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .int64Array:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readInteger(Int64.self, &p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .int32Array:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readInteger(Int32.self, &p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .uintArray:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readInteger(UInt.self, &p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .uint64Array:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readInteger(UInt64.self, &p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .uint32Array:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readInteger(UInt32.self, &p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .doubleArray:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readDouble(&p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .floatArray:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readFloat(&p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .uuidArray:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readUUID(&p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .dateArray:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readDate(&p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
            case .boolArray:
                let array = try readArray(at: position, implied: implied) { (state, p, end, tag) throws(ArchiveError) in
                    try state.readBool(&p, end: end, implied: tag)
                }
                return unsafeBitCast(array, to: T.self)
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
        if let arrayType = decodableArrays.value(for: T.self, { $0 as? any ArchiveDecodableArray.Type }) {
            return try decodeArray(arrayType, as: T.self, at: position, implied: implied, depth: depth)
        }
        return try T(from: ArchiveValueDecoder(state: self, position: position, implied: implied, depth: depth))
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
