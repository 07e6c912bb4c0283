import Foundation

extension ArchiveDecodingState {
    /// Parses the value at `p` into an ``ArchiveValue``, validating everything in it.
    func parseValue(_ p: inout Int, end: Int, implied: UInt8, depth: Int) throws(ArchiveError) -> ArchiveValue {
        let start = p
        let tag = try readTag(&p, end: end, implied: implied)
        switch tag {
        case ArchiveTag.null:
            return .null
        case ArchiveTag.boolFalse:
            return .bool(false)
        case ArchiveTag.boolTrue:
            return .bool(true)
        case ArchiveTag.int:
            return .int(ArchiveFormat.unzigzag(try readVarint(&p, end: end, "integer")))
        case ArchiveTag.uint:
            return .uint(try readVarint(&p, end: end, "integer"))
        case 0x40...0x7F:
            return .int(ArchiveFormat.unzigzag(UInt64(tag & 0x3F)))
        case 0x80...0xBF:
            return .string(try readStringBytes(&p, length: Int(tag & 0x3F), end: end, "string"))
        case 0x18...0x1F:
            p = start
            return .date(try readDate(&p, end: end, implied: implied))
        case ArchiveTag.float32, ArchiveTag.float64, 0x10...0x17:
            p = start
            return .double(try readDouble(&p, end: end, implied: implied))
        case ArchiveTag.string:
            return .string(try readStringPayload(&p, end: end, "string"))
        case ArchiveTag.url:
            return .string(try readStringPayload(&p, end: end, "URL"))
        case ArchiveTag.data:
            p = start
            return .data(try readData(&p, end: end, implied: implied))
        case ArchiveTag.date:
            return .date(try readDatePayload(&p, end: end))
        case ArchiveTag.uuid:
            return .uuid(try readUUIDPayload(&p, end: end))
        case ArchiveTag.array, ArchiveTag.typedArray, 0xC0...0xDF:
            try checkDepth(depth, at: start)
            let (elementsStart, elementsEnd, count, elementTag) = try openUnkeyed(at: start, implied: implied)
            var elements: [ArchiveValue] = []
            elements.reserveCapacity(count)
            var q = elementsStart
            for _ in 0..<count {
                elements.append(try parseValue(&q, end: elementsEnd, implied: elementTag, depth: depth + 1))
            }
            guard q == elementsEnd else {
                throw ArchiveError(
                    .lengthMismatch,
                    "archive array at byte \(start) declares \(elementsEnd - elementsStart) bytes of elements "
                        + "but its \(count) elements end at byte \(q)",
                    offset: q
                )
            }
            p = elementsEnd
            return .array(elements)
        case ArchiveTag.keyed, 0x20...0x3F:
            try checkDepth(depth, at: start)
            let (arenaStart, count, containerEnd) = try openKeyed(at: start, implied: implied)
            var fields: [ArchiveValue.Field] = []
            fields.reserveCapacity(count)
            for index in 0..<count {
                let entry = arenaStart + 1 + 2 * index
                let name = names[arena[entry]]
                var q = arena[entry + 1]
                let value = try parseValue(&q, end: containerEnd, implied: ArchiveTag.none, depth: depth + 1)
                fields.append(ArchiveValue.Field(name: name, value: value))
            }
            p = containerEnd
            return .object(fields)
        default:
            throw invalidTag(tag, at: start)
        }
    }

    private func checkDepth(_ depth: Int, at offset: Int) throws(ArchiveError) {
        guard depth < maximumDepth else {
            throw ArchiveError(
                .depthLimitExceeded,
                "archive nesting at byte \(offset) exceeds the depth limit of \(maximumDepth)",
                offset: offset
            )
        }
    }
}
