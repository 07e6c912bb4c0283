import Foundation

/// Reads the input of a decode, every read checked against an explicit end offset (the end of
/// the value's container, or of the input for a value whose extent was checked when its
/// container was opened): no input can make a read go out of bounds, and every failure is an
/// ``ArchiveError`` naming the byte offset.
struct ArchiveReader {
    let bytes: [UInt8]
    var size: Int { bytes.count }

    /// Checks the preamble, reads the field-name table, and checks that the root value ends
    /// exactly at the end of the input; returns the names and where the root starts.
    func readPreamble() throws(ArchiveError) -> (names: [String], indices: [String: Int], root: Int) {
        for (offset, byte) in ArchiveFormat.magic.enumerated() {
            guard offset < size else {
                throw truncated(
                    at: offset, "the 4-byte preamble (magic 'SRv' and version), found \(size) bytes")
            }
            guard bytes[offset] == byte else {
                let found = bytes.prefix(3).map(ArchiveTag.hex).joined(separator: " ")
                throw ArchiveError(
                    .badMagic, "not an archive: bad magic at byte 0: found \(found), expected 53 52 76 ('SRv')",
                    offset: 0)
            }
        }
        guard size > 3 else { throw truncated(at: 3, "the format version byte") }
        guard bytes[3] == ArchiveFormat.version else {
            throw ArchiveError(
                .unsupportedVersion,
                "unsupported archive format version \(bytes[3]) at byte 3 (supported: \(ArchiveFormat.version))",
                offset: 3)
        }
        var p = ArchiveFormat.preambleSize
        let countOffset = p
        let nameCount = try readVarint(&p, end: size, "field-name count")
        let tableLength = try readLength(&p, end: size, "field-name table")
        // Every name takes at least its one-byte length.
        guard nameCount <= UInt64(tableLength) else {
            throw ArchiveError(
                .countExceedsInput,
                "archive field-name count \(nameCount) at byte \(countOffset) exceeds the \(tableLength)-byte "
                    + "name table", offset: countOffset)
        }
        let tableEnd = p + tableLength
        var names: [String] = []
        var nameIndices: [String: Int] = [:]
        names.reserveCapacity(Int(nameCount))
        nameIndices.reserveCapacity(Int(nameCount))
        for _ in 0..<nameCount {
            let nameOffset = p
            let name = try readStringPayload(&p, end: tableEnd, "field name")
            guard nameIndices.updateValue(names.count, forKey: name) == nil else {
                throw ArchiveError(
                    .duplicateKey, "duplicate field name '\(name)' at byte \(nameOffset) in the archive's name table",
                    offset: nameOffset)
            }
            names.append(name)
        }
        guard p == tableEnd else {
            throw ArchiveError(
                .lengthMismatch,
                "archive field-name table declares \(tableLength) bytes but its \(nameCount) names end at "
                    + "byte \(p), not \(tableEnd)", offset: p)
        }
        let rootPosition = p
        let rootEnd = try skipValue(at: p, end: size, implied: nil)
        guard rootEnd == size else {
            throw ArchiveError(
                .lengthMismatch, "archive has \(size - rootEnd) trailing bytes at byte \(rootEnd) after the root value",
                offset: rootEnd)
        }
        return (names, nameIndices, rootPosition)
    }

    func truncated(at offset: Int, _ expected: String) -> ArchiveError {
        ArchiveError(.truncated, "archive truncated at byte \(offset): expected \(expected)", offset: offset)
    }

    /// The error for a value of the wrong type: null, an invalid tag, or another type.
    func mismatch(_ expected: String, found tag: UInt8, at offset: Int) -> ArchiveError {
        if tag == ArchiveTag.null {
            return ArchiveError(
                .valueNotFound, "archive value at byte \(offset) is null, expected \(expected)", offset: offset)
        }
        if case .invalid = ArchiveTag.payload(tag) { return invalidTag(tag, at: offset) }
        return ArchiveError(
            .typeMismatch,
            "archive type mismatch at byte \(offset): expected \(expected), found \(ArchiveTag.name(tag))",
            offset: offset)
    }

    func invalidTag(_ tag: UInt8, at offset: Int) -> ArchiveError {
        ArchiveError(
            .invalidTag, "archive has invalid type tag 0x\(ArchiveTag.hex(tag)) at byte \(offset)", offset: offset)
    }

    func notRepresentable(_ value: String, as type: Any.Type, at offset: Int) -> ArchiveError {
        ArchiveError(.invalidValue, "archive number \(value) at byte \(offset) does not fit in \(type)", offset: offset)
    }

    /// The tag at `p` (advancing past it), or `implied` when the value is an untagged element of
    /// a typed array.
    func readTag(_ p: inout Int, end: Int, implied: UInt8?) throws(ArchiveError) -> UInt8 {
        if let implied { return implied }
        guard p < end else { throw truncated(at: p, "a type tag") }
        p += 1
        return bytes[p - 1]
    }

    func readVarint(_ p: inout Int, end: Int, _ what: @autoclosure () -> String) throws(ArchiveError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var q = p
        while true {
            guard q < end else { throw truncated(at: q, "a varint (\(what()))") }
            let byte = bytes[q]
            q += 1
            guard shift < 63 || byte <= 1 else {
                throw ArchiveError(
                    .invalidValue, "archive varint (\(what())) at byte \(p) overflows 64 bits", offset: p)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        p = q
        return result
    }

    /// Reads a byte length and checks that that many bytes remain before `end`.
    func readLength(_ p: inout Int, end: Int, _ what: @autoclosure () -> String) throws(ArchiveError) -> Int {
        let length = try readVarint(&p, end: end, "\(what()) length")
        guard length <= UInt64(end - p) else {
            throw truncated(at: p, "\(length)-byte \(what()), found \(end - p) bytes")
        }
        return Int(length)
    }

    /// Checks that `count` bytes remain at `p` before `end`.
    func need(_ count: Int, _ p: Int, end: Int, _ what: @autoclosure () -> String) throws(ArchiveError) {
        guard end - p >= count else { throw truncated(at: p, what()) }
    }

    /// The little-endian integer of `count` bytes at `p`, which the caller checked are there.
    func loadInteger(at p: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<count).reversed() { value = value << 8 | UInt64(bytes[p + index]) }
        return value
    }

    /// `length` bytes of UTF-8 at `p`, which must end by `end`.
    func readStringBytes(_ p: inout Int, length: Int, end: Int, _ what: String) throws(ArchiveError) -> String {
        try need(length, p, end: end, "\(length)-byte \(what)")
        let utf8 = bytes[p..<(p + length)]
        // ASCII, the usual case, is valid UTF-8: no need for `String(validating:as:)`, which is
        // generic and looks a type's metadata up at every call.
        let validated =
            utf8.allSatisfy { $0 < 0x80 }
            ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
        guard let string = validated else {
            throw ArchiveError(
                .invalidUTF8, "archive \(what) at byte \(p) (\(length) bytes) is not valid UTF-8", offset: p)
        }
        p += length
        return string
    }

    /// A varint length, then that many bytes of UTF-8.
    func readStringPayload(_ p: inout Int, end: Int, _ what: String) throws(ArchiveError) -> String {
        let length = try readLength(&p, end: end, what)
        return try readStringBytes(&p, length: length, end: end, what)
    }

    /// The offset just past the value at `p`, which must end by `end`; checks only its extent.
    func skipValue(at p: Int, end: Int, implied: UInt8?) throws(ArchiveError) -> Int {
        var q = p
        let tag = try readTag(&q, end: end, implied: implied)
        switch ArchiveTag.payload(tag) {
        case .fixed(let size):
            try need(size, q, end: end, "\(size)-byte \(ArchiveTag.name(tag))")
            return q + size
        case .varint:
            _ = try readVarint(&q, end: end, "integer")
            return q
        case .length:
            let length = try readLength(&q, end: end, ArchiveTag.name(tag))
            return q + length
        case .countAndLength:
            _ = try readVarint(&q, end: end, "element count")
            let length = try readLength(&q, end: end, ArchiveTag.name(tag))
            return q + length
        case .invalid:
            throw invalidTag(tag, at: p)
        }
    }

    /// An array opened: where its elements start and end, how many there are, and the element
    /// tag of a typed array (nil when each element carries its own).
    struct Unkeyed {
        var start: Int
        var end: Int
        var count: Int
        var elementTag: UInt8?
    }

    /// Reads an array or typed array header. An empty array must have no element bytes; a
    /// non-empty one is checked when its last element is read.
    func openUnkeyed(at position: Int, end limit: Int, implied: UInt8?) throws(ArchiveError) -> Unkeyed {
        var p = position
        let tag = try readTag(&p, end: limit, implied: implied)
        let countOffset = p
        let count: UInt64
        if tag & 0xE0 == ArchiveTag.smallArray {
            count = UInt64(tag & 0x1F)
        } else {
            guard tag == ArchiveTag.array || tag == ArchiveTag.typedArray else {
                throw mismatch("an array", found: tag, at: position)
            }
            count = try readVarint(&p, end: limit, "element count")
        }
        let length = try readLength(&p, end: limit, "array")
        let end = p + length
        var elementTag: UInt8?
        var minimumSize = 1
        if tag == ArchiveTag.typedArray {
            try need(1, p, end: end, "the element tag of a typed array")
            guard ArchiveTag.isTypedElement(bytes[p]) else { throw invalidTag(bytes[p], at: p) }
            elementTag = bytes[p]
            minimumSize = ArchiveTag.minimumPayloadSize(bytes[p])
            p += 1
        }
        guard count <= UInt64((end - p) / minimumSize) else {
            throw ArchiveError(
                .countExceedsInput,
                "archive array at byte \(position) declares \(count) elements (at byte \(countOffset)) "
                    + "but holds only \(end - p) bytes", offset: countOffset)
        }
        guard count > 0 || p == end else {
            throw ArchiveError(
                .lengthMismatch,
                "archive array at byte \(position) has no elements but declares \(end - p) bytes of them", offset: p)
        }
        return Unkeyed(start: p, end: end, count: Int(count), elementTag: elementTag)
    }
}

/// What a decode changes as it goes: the index of the keyed containers opened so far, the
/// nesting, the coding path. ``ArchiveDecodingState`` holds it.
struct ArchiveIndex {
    /// For a keyed container whose index starts at `s`, `entries[s]` is the entry to try
    /// first, and `entries[s + 1 + 2i]`, `entries[s + 2 + 2i]` are entry `i`'s name index and
    /// value offset.
    var entries: [Int] = []
    /// `stamps[name] == serial` while a keyed container is indexed: the name was seen in it.
    var stamps: [Int] = []
    var serial = 0
    /// Nested `init(from:)` calls in progress, against the decoder's maximum depth.
    var nesting = 0
    /// The coding-path keys of the value being decoded, one per depth.
    var path: [any CodingKey] = []
    /// Each type decoded so far: an array the decoder reads itself, or nil.
    var arrayTypes = ArchiveTypeTable<(any ArchiveDecodableArray.Type)?>()
}

/// The decode's own parts: its keyed containers, found by name, and its coding path. A keyed
/// container is indexed when it is opened: its entries are scanned once, each value skipped by
/// its length, so the container's length, its names and the extent of every value in it are
/// checked before anything is read.
extension ArchiveDecodingState {
    func depthExceeded(at offset: Int) -> ArchiveError {
        ArchiveError(
            .depthLimitExceeded, "archive nesting at byte \(offset) exceeds the depth limit of \(maximumDepth)",
            offset: offset)
    }

    /// The `DecodingError` a Codable caller expects for `error`, with the coding path (and
    /// `key`, when the error is in the value under it) appended to the message.
    func decodingError(_ error: ArchiveError, type: Any.Type, depth: Int, key: (any CodingKey)? = nil)
        -> DecodingError
    {
        var path = codingPath(depth)
        if let key { path.append(key) }
        var located = error
        if !path.isEmpty { located.message += " (coding path: \(Self.render(path)))" }
        let context = DecodingError.Context(
            codingPath: path, debugDescription: located.message, underlyingError: located)
        switch error.code {
        case .typeMismatch: return .typeMismatch(type, context)
        case .valueNotFound: return .valueNotFound(type, context)
        default: return .dataCorrupted(context)
        }
    }

    /// A coding path as `children.0.title`.
    static func render(_ path: [any CodingKey]) -> String {
        path.map { ($0 as? ArchiveIndexKey).map { String($0.index) } ?? $0.stringValue }.joined(separator: ".")
    }

    /// Records `key` as the coding-path component at `depth`.
    func setPath(_ key: any CodingKey, at depth: Int) {
        while index.path.count < depth { index.path.append(ArchiveIndexKey(-1)) }
        if depth < index.path.count { index.path[depth] = key } else { index.path.append(key) }
    }

    /// The first `depth` coding-path components.
    func codingPath(_ depth: Int) -> [any CodingKey] {
        Array(index.path.prefix(depth))
    }

    /// A keyed container opened: where its index starts in ``ArchiveIndex/entries``, its entry
    /// count, the offset just past it, and its own offset.
    struct Keyed {
        var start: Int
        var count: Int
        var end: Int
        var offset: Int
    }

    /// Reads a keyed container's header and indexes its entries, rejecting unknown name
    /// indices, duplicate keys and values that run past its end.
    func openKeyed(at position: Int, end limit: Int, implied: UInt8?) throws(ArchiveError) -> Keyed {
        var p = position
        let tag = try reader.readTag(&p, end: limit, implied: implied)
        let length: Int
        if tag & 0xE0 == ArchiveTag.smallKeyed {
            length = Int(tag & 0x1F)
            try reader.need(length, p, end: limit, "\(length)-byte keyed container")
        } else {
            guard tag == ArchiveTag.keyed else { throw reader.mismatch("a keyed container", found: tag, at: position) }
            length = try reader.readLength(&p, end: limit, "keyed container")
        }
        let end = p + length
        index.serial += 1
        let start = index.entries.count
        index.entries.append(0)
        var count = 0
        while p < end {
            let nameOffset = p
            let name = try reader.readVarint(&p, end: end, "field-name index")
            guard name < UInt64(names.count) else {
                throw ArchiveError(
                    .invalidTag,
                    "archive field-name index \(name) at byte \(nameOffset) is outside the name table "
                        + "(\(names.count) names)", offset: nameOffset)
            }
            let nameIndex = Int(name)
            guard index.stamps[nameIndex] != index.serial else {
                throw ArchiveError(
                    .duplicateKey,
                    "archive keyed container at byte \(position) has duplicate key '\(names[nameIndex])' "
                        + "at byte \(nameOffset)", offset: nameOffset)
            }
            index.stamps[nameIndex] = index.serial
            index.entries.append(nameIndex)
            index.entries.append(p)
            p = try reader.skipValue(at: p, end: end, implied: nil)
            count += 1
        }
        return Keyed(start: start, count: count, end: end, offset: position)
    }

    /// The value offset of the entry named `name` in a keyed container, or nil. Tries the entry
    /// after the previous hit first: a type decodes its fields in the order it encoded them.
    func findEntry(_ name: String, in container: Keyed) -> Int? {
        let cursor = index.entries[container.start]
        if cursor < container.count {
            let entry = container.start + 1 + 2 * cursor
            if names[index.entries[entry]] == name {
                index.entries[container.start] = cursor + 1
                return index.entries[entry + 1]
            }
        }
        guard let nameIndex = nameIndices[name] else { return nil }
        for entry in 0..<container.count where index.entries[container.start + 1 + 2 * entry] == nameIndex {
            index.entries[container.start] = entry + 1
            return index.entries[container.start + 2 + 2 * entry]
        }
        return nil
    }

    /// The name of entry `entry` of a keyed container (entries are in archive order).
    func name(ofEntry entry: Int, in container: Keyed) -> String {
        names[index.entries[container.start + 1 + 2 * entry]]
    }
}
