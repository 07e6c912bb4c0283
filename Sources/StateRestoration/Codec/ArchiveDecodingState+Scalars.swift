import Foundation

// Reads of the values with an encoding of their own. Each takes the offset of the value's tag
// (or of its payload, when `implied` gives the tag of a typed array's elements) and the end of
// its container, and accepts every form the format allows for the type: a wider type reads a
// narrower one when the value fits.
extension ArchiveReader {
    func readBool(_ p: inout Int, end: Int, implied: UInt8? = nil) throws(ArchiveError) -> Bool {
        let start = p
        switch try readTag(&p, end: end, implied: implied) {
        case ArchiveTag.boolTrue: return true
        case ArchiveTag.boolFalse: return false
        case let tag: throw mismatch("Bool", found: tag, at: start)
        }
    }

    func readInteger<I: FixedWidthInteger>(_: I.Type, _ p: inout Int, end: Int, implied: UInt8? = nil)
        throws(ArchiveError) -> I
    {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        if tag == ArchiveTag.uint {
            let value = try readVarint(&p, end: end, "integer")
            guard let result = I(exactly: value) else { throw notRepresentable(String(value), as: I.self, at: start) }
            return result
        }
        let value: Int64
        switch tag {
        case 0x40...0x7F: value = ArchiveFormat.unzigzag(UInt64(tag & 0x3F))
        case ArchiveTag.int: value = ArchiveFormat.unzigzag(try readVarint(&p, end: end, "integer"))
        default: throw mismatch(String(describing: I.self), found: tag, at: start)
        }
        guard let result = I(exactly: value) else { throw notRepresentable(String(value), as: I.self, at: start) }
        return result
    }

    func readDouble(_ p: inout Int, end: Int, implied: UInt8? = nil) throws(ArchiveError) -> Double {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        switch tag {
        case 0x10...0x17:
            let mantissa = ArchiveFormat.unzigzag(try readVarint(&p, end: end, "decimal mantissa"))
            return ArchiveFormat.decimalValue(mantissa, scale: Int(tag & 7))
        case 0x40...0x7F:
            return Double(ArchiveFormat.unzigzag(UInt64(tag & 0x3F)))
        case ArchiveTag.float64:
            try need(8, p, end: end, "8-byte double")
            p += 8
            return Double(bitPattern: loadInteger(at: p - 8, count: 8))
        case ArchiveTag.float32:
            try need(4, p, end: end, "4-byte float")
            p += 4
            return Double(Float(bitPattern: UInt32(loadInteger(at: p - 4, count: 4))))
        case ArchiveTag.int:
            return Double(ArchiveFormat.unzigzag(try readVarint(&p, end: end, "integer")))
        case ArchiveTag.uint:
            return Double(try readVarint(&p, end: end, "integer"))
        default:
            throw mismatch("Double", found: tag, at: start)
        }
    }

    func readFloat(_ p: inout Int, end: Int, implied: UInt8? = nil) throws(ArchiveError) -> Float {
        let start = p
        if (implied ?? (p < end ? bytes[p] : 0)) == ArchiveTag.float32 {
            // Read as itself, every bit kept (a NaN's payload included).
            p += implied == nil ? 1 : 0
            try need(4, p, end: end, "4-byte float")
            p += 4
            return Float(bitPattern: UInt32(loadInteger(at: p - 4, count: 4)))
        }
        let value = try readDouble(&p, end: end, implied: implied)
        let narrowed = Float(value)
        guard narrowed.isFinite || !value.isFinite else {
            throw notRepresentable(String(value), as: Float.self, at: start)
        }
        return narrowed
    }

    func readString(_ p: inout Int, end: Int, implied: UInt8? = nil) throws(ArchiveError) -> String {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        if tag & 0xC0 == ArchiveTag.fixString {
            return try readStringBytes(&p, length: Int(tag & 0x3F), end: end, "string")
        }
        guard tag == ArchiveTag.string else { throw mismatch("String", found: tag, at: start) }
        return try readStringPayload(&p, end: end, "string")
    }

    func readData(_ p: inout Int, end: Int, implied: UInt8?) throws(ArchiveError) -> Data {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        guard tag == ArchiveTag.data else { throw mismatch("Data", found: tag, at: start) }
        let length = try readLength(&p, end: end, "data")
        p += length
        return Data(bytes[(p - length)..<p])
    }

    func readDate(_ p: inout Int, end: Int, implied: UInt8?) throws(ArchiveError) -> Date {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        if tag & 0xF8 == ArchiveTag.decimalDate {
            let mantissa = ArchiveFormat.unzigzag(try readVarint(&p, end: end, "decimal mantissa"))
            return Date(timeIntervalSinceReferenceDate: ArchiveFormat.decimalValue(mantissa, scale: Int(tag & 7)))
        }
        guard tag == ArchiveTag.date else { throw mismatch("Date", found: tag, at: start) }
        try need(8, p, end: end, "8-byte date")
        let seconds = Double(bitPattern: loadInteger(at: p, count: 8))
        guard seconds.isFinite else {
            throw ArchiveError(
                .invalidValue, "archive date at byte \(p) is not a finite number of seconds (\(seconds))", offset: p)
        }
        p += 8
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    func readUUID(_ p: inout Int, end: Int, implied: UInt8?) throws(ArchiveError) -> UUID {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        guard tag == ArchiveTag.uuid else { throw mismatch("UUID", found: tag, at: start) }
        try need(16, p, end: end, "16-byte UUID")
        let b = bytes[p..<(p + 16)]
        p += 16
        let i = b.startIndex
        return UUID(
            uuid: (
                b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5], b[i + 6], b[i + 7], b[i + 8], b[i + 9],
                b[i + 10], b[i + 11], b[i + 12], b[i + 13], b[i + 14], b[i + 15]
            ))
    }

    func readURL(_ p: inout Int, end: Int, implied: UInt8?) throws(ArchiveError) -> URL {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        let text: String
        if tag & 0xC0 == ArchiveTag.fixString {
            text = try readStringBytes(&p, length: Int(tag & 0x3F), end: end, "URL")
        } else {
            guard tag == ArchiveTag.url || tag == ArchiveTag.string else {
                throw mismatch("URL", found: tag, at: start)
            }
            text = try readStringPayload(&p, end: end, "URL")
        }
        guard let url = URL(string: text) else {
            throw ArchiveError(.invalidValue, "archive URL at byte \(start) is not a valid URL: \(text)", offset: start)
        }
        return url
    }

    func readDecimal(_ p: inout Int, end: Int, implied: UInt8?) throws(ArchiveError) -> Decimal {
        let start = p
        let text = try readString(&p, end: end, implied: implied)
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw ArchiveError(
                .invalidValue, "archive decimal at byte \(start) is not a number: \(text)", offset: start)
        }
        return decimal
    }

    /// Reads every element of the array at `position` with `read`, checking that the elements
    /// fill the array's declared length exactly.
    func readArray<Element>(
        at position: Int, end limit: Int, implied: UInt8?,
        _ read: (inout Int, Int, UInt8?) throws(ArchiveError) -> Element
    ) throws(ArchiveError) -> [Element] {
        let array = try openUnkeyed(at: position, end: limit, implied: implied)
        var result: [Element] = []
        result.reserveCapacity(array.count)
        var p = array.start
        for _ in 0..<array.count { result.append(try read(&p, array.end, array.elementTag)) }
        guard p == array.end else {
            throw ArchiveError(
                .lengthMismatch,
                "archive array at byte \(position) declares \(array.end - array.start) bytes of elements but its "
                    + "\(array.count) elements end at byte \(p), not \(array.end)", offset: p)
        }
        return result
    }

    /// Reads a value of `type`, of kind `kind`: the kind of `T` (``ArchiveKnownType/of(_:)``), so
    /// each case reads a `T` and its cast cannot fail.
    // swift-format-ignore: NeverForceUnwrap
    func read<T>(_ kind: ArchiveKnownType, as type: T.Type, _ p: inout Int, end: Int, implied: UInt8?)
        throws(ArchiveError) -> T
    {
        switch kind {
        case .string: return try readString(&p, end: end, implied: implied) as! T
        case .int: return try readInteger(Int.self, &p, end: end, implied: implied) as! T
        case .double: return try readDouble(&p, end: end, implied: implied) as! T
        case .bool: return try readBool(&p, end: end, implied: implied) as! T
        case .uuid: return try readUUID(&p, end: end, implied: implied) as! T
        case .date: return try readDate(&p, end: end, implied: implied) as! T
        case .int64: return try readInteger(Int64.self, &p, end: end, implied: implied) as! T
        case .int32: return try readInteger(Int32.self, &p, end: end, implied: implied) as! T
        case .int16: return try readInteger(Int16.self, &p, end: end, implied: implied) as! T
        case .int8: return try readInteger(Int8.self, &p, end: end, implied: implied) as! T
        case .uint: return try readInteger(UInt.self, &p, end: end, implied: implied) as! T
        case .uint64: return try readInteger(UInt64.self, &p, end: end, implied: implied) as! T
        case .uint32: return try readInteger(UInt32.self, &p, end: end, implied: implied) as! T
        case .uint16: return try readInteger(UInt16.self, &p, end: end, implied: implied) as! T
        case .uint8: return try readInteger(UInt8.self, &p, end: end, implied: implied) as! T
        case .float: return try readFloat(&p, end: end, implied: implied) as! T
        case .data: return try readData(&p, end: end, implied: implied) as! T
        case .url: return try readURL(&p, end: end, implied: implied) as! T
        case .decimal: return try readDecimal(&p, end: end, implied: implied) as! T
        case .stringArray: return try readArray(at: p, end: end, implied: implied, readString) as! T
        case .intArray: return try readIntegers(Int.self, at: p, end: end, implied: implied) as! T
        case .int64Array: return try readIntegers(Int64.self, at: p, end: end, implied: implied) as! T
        case .int32Array: return try readIntegers(Int32.self, at: p, end: end, implied: implied) as! T
        case .uintArray: return try readIntegers(UInt.self, at: p, end: end, implied: implied) as! T
        case .uint64Array: return try readIntegers(UInt64.self, at: p, end: end, implied: implied) as! T
        case .uint32Array: return try readIntegers(UInt32.self, at: p, end: end, implied: implied) as! T
        case .doubleArray: return try readArray(at: p, end: end, implied: implied, readDouble) as! T
        case .floatArray: return try readArray(at: p, end: end, implied: implied, readFloat) as! T
        case .uuidArray: return try readArray(at: p, end: end, implied: implied, readUUID) as! T
        case .dateArray: return try readArray(at: p, end: end, implied: implied, readDate) as! T
        case .boolArray: return try readArray(at: p, end: end, implied: implied, readBool) as! T
        }
    }

    private func readIntegers<I: FixedWidthInteger>(_: I.Type, at p: Int, end: Int, implied: UInt8?)
        throws(ArchiveError) -> [I]
    {
        try readArray(at: p, end: end, implied: implied) { (p, end, tag) throws(ArchiveError) in
            try readInteger(I.self, &p, end: end, implied: tag)
        }
    }
}
