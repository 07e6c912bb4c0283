import Foundation

extension ArchiveDecodingState {
    @inline(__always)
    func readBool(_ p: inout Int, end: Int, implied: UInt8) throws(ArchiveError) -> Bool {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        if tag == ArchiveTag.boolTrue { return true }
        if tag == ArchiveTag.boolFalse { return false }
        throw mismatch("Bool", found: tag, at: start)
    }

    @inline(__always)
    func readInteger<I: FixedWidthInteger>(
        _ type: I.Type,
        _ p: inout Int,
        end: Int,
        implied: UInt8
    ) throws(ArchiveError) -> I {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        if tag & 0xC0 == ArchiveTag.fixInt {
            let value = ArchiveFormat.unzigzag(UInt64(tag & 0x3F))
            guard let result = I(exactly: value) else {
                throw notRepresentable(String(value), as: I.self, at: start)
            }
            return result
        }
        if tag == ArchiveTag.int {
            let value = ArchiveFormat.unzigzag(try readVarint(&p, end: end, "integer"))
            guard let result = I(exactly: value) else {
                throw notRepresentable(String(value), as: I.self, at: start)
            }
            return result
        }
        if tag == ArchiveTag.uint {
            let value = try readVarint(&p, end: end, "integer")
            guard let result = I(exactly: value) else {
                throw notRepresentable(String(value), as: I.self, at: start)
            }
            return result
        }
        throw mismatch(String(describing: I.self), found: tag, at: start)
    }

    @inline(__always)
    func readDouble(_ p: inout Int, end: Int, implied: UInt8) throws(ArchiveError) -> Double {
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
            let value = Double(bitPattern: loadUInt64(at: p))
            p &+= 8
            return value
        case ArchiveTag.float32:
            try need(4, p, end: end, "4-byte float")
            let value = Float(bitPattern: loadUInt32(at: p))
            p &+= 4
            return Double(value)
        case ArchiveTag.int:
            return Double(ArchiveFormat.unzigzag(try readVarint(&p, end: end, "integer")))
        case ArchiveTag.uint:
            return Double(try readVarint(&p, end: end, "integer"))
        default:
            throw mismatch("Double", found: tag, at: start)
        }
    }

    @inline(__always)
    func readFloat(_ p: inout Int, end: Int, implied: UInt8) throws(ArchiveError) -> Float {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        if tag == ArchiveTag.float32 {
            try need(4, p, end: end, "4-byte float")
            let value = Float(bitPattern: loadUInt32(at: p))
            p &+= 4
            return value
        }
        p = start
        let value = try readDouble(&p, end: end, implied: implied)
        let narrowed = Float(value)
        guard narrowed.isFinite || !value.isFinite else {
            throw notRepresentable(String(value), as: Float.self, at: start)
        }
        return narrowed
    }

    @inline(__always)
    func readStringPayload(_ p: inout Int, end: Int, _ what: String) throws(ArchiveError) -> String {
        let length = try readLength(&p, end: end, what)
        guard let string = ArchiveUTF8.string(bytes + p, count: length) else {
            throw ArchiveError(
                .invalidUTF8,
                "archive \(what) at byte \(p) (\(length) bytes) is not valid UTF-8",
                offset: p
            )
        }
        p &+= length
        return string
    }

    @inline(__always)
    func readString(_ p: inout Int, end: Int, implied: UInt8) throws(ArchiveError) -> String {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        if tag & 0xC0 == ArchiveTag.fixString {
            return try readStringBytes(&p, length: Int(tag & 0x3F), end: end, "string")
        }
        guard tag == ArchiveTag.string else { throw mismatch("String", found: tag, at: start) }
        return try readStringPayload(&p, end: end, "string")
    }

    /// Reads `length` bytes of UTF-8 at `p` (the length came from a tag).
    @inline(__always)
    func readStringBytes(_ p: inout Int, length: Int, end: Int, _ what: String) throws(ArchiveError) -> String {
        try need(length, p, end: end, "\(length)-byte \(what)")
        guard let string = ArchiveUTF8.string(bytes + p, count: length) else {
            throw ArchiveError(
                .invalidUTF8,
                "archive \(what) at byte \(p) (\(length) bytes) is not valid UTF-8",
                offset: p
            )
        }
        p &+= length
        return string
    }

    func readData(_ p: inout Int, end: Int, implied: UInt8) throws(ArchiveError) -> Data {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        guard tag == ArchiveTag.data else { throw mismatch("Data", found: tag, at: start) }
        let length = try readLength(&p, end: end, "data")
        let data = Data(bytes: bytes + p, count: length)
        p &+= length
        return data
    }

    @inline(__always)
    func readDatePayload(_ p: inout Int, end: Int) throws(ArchiveError) -> Date {
        try need(8, p, end: end, "8-byte date")
        let seconds = Double(bitPattern: loadUInt64(at: p))
        guard seconds.isFinite else {
            throw ArchiveError(
                .invalidValue,
                "archive date at byte \(p) is not a finite number of seconds (\(seconds))",
                offset: p
            )
        }
        p &+= 8
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    @inline(__always)
    func readDate(_ p: inout Int, end: Int, implied: UInt8) throws(ArchiveError) -> Date {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        if tag & 0xF8 == ArchiveTag.decimalDate {
            let mantissa = ArchiveFormat.unzigzag(try readVarint(&p, end: end, "decimal mantissa"))
            return Date(timeIntervalSinceReferenceDate: ArchiveFormat.decimalValue(mantissa, scale: Int(tag & 7)))
        }
        guard tag == ArchiveTag.date else { throw mismatch("Date", found: tag, at: start) }
        return try readDatePayload(&p, end: end)
    }

    @inline(__always)
    func readUUIDPayload(_ p: inout Int, end: Int) throws(ArchiveError) -> UUID {
        try need(16, p, end: end, "16-byte UUID")
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: bytes + p, count: 16))
        }
        p &+= 16
        return UUID(uuid: raw)
    }

    @inline(__always)
    func readUUID(_ p: inout Int, end: Int, implied: UInt8) throws(ArchiveError) -> UUID {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        guard tag == ArchiveTag.uuid else { throw mismatch("UUID", found: tag, at: start) }
        return try readUUIDPayload(&p, end: end)
    }

    func readURL(_ p: inout Int, end: Int, implied: UInt8) throws(ArchiveError) -> URL {
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
}
