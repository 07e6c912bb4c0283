public import Foundation

/// A parsed, type-free view of any archive written by ``ArchiveEncoder``.
///
/// Because the archive format is self-describing, a tool can parse and print an archive
/// without the app's types: every value carries its type and every keyed container its
/// field names. `ArchiveValue` is for such tools (an inspector, a diff, a test); the
/// Codable path of ``ArchiveDecoder`` does not build it.
///
/// Parsing validates the whole archive, including values a particular type would never
/// read: strings must be valid UTF-8, keyed containers must not repeat a key, dates must
/// be finite, and nesting is limited.
///
/// ```swift
/// let value = try ArchiveValue(decoding: data)
/// print(value.jsonString(prettyPrinted: true))
/// if case .object(let fields) = value { print(fields.map(\.name)) }
/// ```
public enum ArchiveValue: Sendable, Equatable {
    /// An encoded `nil`.
    case null
    /// A Boolean.
    case bool(Bool)
    /// A signed integer of any width.
    case int(Int64)
    /// An unsigned integer of any width.
    case uint(UInt64)
    /// A `Double` or `Float`.
    case double(Double)
    /// A string (URLs are reported as their absolute string).
    case string(String)
    /// Raw bytes.
    case data(Data)
    /// A point in time.
    case date(Date)
    /// A UUID.
    case uuid(UUID)
    /// An unkeyed container, in order.
    case array([ArchiveValue])
    /// A keyed container: its fields in archive order.
    case object([Field])

    /// One named field of a keyed container.
    public struct Field: Sendable, Equatable {
        /// The field's key, as the encoding type named it.
        public var name: String
        /// The field's value.
        public var value: ArchiveValue

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The field's key.
        ///   - value: The field's value.
        public init(name: String, value: ArchiveValue) {
            self.name = name
            self.value = value
        }
    }

    /// Parses a whole archive written by ``ArchiveEncoder/encode(_:)``.
    ///
    /// ```swift
    /// let value = try ArchiveValue(decoding: try ArchiveEncoder().encode([1, 2, 3]))
    /// // value == .array([.int(1), .int(2), .int(3)])
    /// ```
    ///
    /// - Parameters:
    ///   - data: The archive bytes.
    ///   - maximumDepth: How deeply containers may nest; defaults to
    ///     ``ArchiveDecoder/defaultMaximumDepth``.
    /// - Throws: ``ArchiveError`` naming what failed and the byte offset when the bytes
    ///   are not a well-formed archive.
    public init(decoding data: Data, maximumDepth: Int = ArchiveDecoder.defaultMaximumDepth) throws(ArchiveError) {
        let state = try ArchiveDecodingState(data, maximumDepth: maximumDepth, userInfo: [:])
        var p = state.rootPosition
        self = try state.parseValue(&p, end: state.reader.size, implied: nil, depth: 0)
    }

    /// The field named `name` of a keyed container, or nil.
    ///
    /// - Parameter name: The field's key.
    /// - Returns: The field's value, or nil when this is not a keyed container or has no such field.
    public subscript(name: String) -> ArchiveValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.name == name }?.value
    }
}

extension ArchiveDecodingState {
    /// Parses the value at `p`, which ends by `end`, validating everything in it.
    func parseValue(_ p: inout Int, end: Int, implied: UInt8?, depth: Int) throws(ArchiveError) -> ArchiveValue {
        let start = p
        let tag = try reader.readTag(&p, end: end, implied: implied)
        switch tag {
        case ArchiveTag.null:
            return .null
        case ArchiveTag.boolFalse, ArchiveTag.boolTrue:
            return .bool(tag == ArchiveTag.boolTrue)
        case ArchiveTag.int, 0x40...0x7F:
            p = start
            return .int(try reader.readInteger(Int64.self, &p, end: end, implied: implied))
        case ArchiveTag.uint:
            return .uint(try reader.readVarint(&p, end: end, "integer"))
        case ArchiveTag.float32, ArchiveTag.float64, 0x10...0x17:
            p = start
            return .double(try reader.readDouble(&p, end: end, implied: implied))
        case ArchiveTag.string, 0x80...0xBF:
            p = start
            return .string(try reader.readString(&p, end: end, implied: implied))
        case ArchiveTag.url:
            return .string(try reader.readStringPayload(&p, end: end, "URL"))
        case ArchiveTag.data:
            p = start
            return .data(try reader.readData(&p, end: end, implied: implied))
        case ArchiveTag.date, 0x18...0x1F:
            p = start
            return .date(try reader.readDate(&p, end: end, implied: implied))
        case ArchiveTag.uuid:
            p = start
            return .uuid(try reader.readUUID(&p, end: end, implied: implied))
        case ArchiveTag.array, ArchiveTag.typedArray, 0xC0...0xDF:
            guard depth < maximumDepth else { throw depthExceeded(at: start) }
            let array = try reader.openUnkeyed(at: start, end: end, implied: implied)
            var elements: [ArchiveValue] = []
            var q = array.start
            for _ in 0..<array.count {
                elements.append(try parseValue(&q, end: array.end, implied: array.elementTag, depth: depth + 1))
            }
            guard q == array.end else {
                throw ArchiveError(
                    .lengthMismatch,
                    "archive array at byte \(start) declares \(array.end - array.start) bytes of elements "
                        + "but its \(array.count) elements end at byte \(q)", offset: q)
            }
            p = array.end
            return .array(elements)
        case ArchiveTag.keyed, 0x20...0x3F:
            guard depth < maximumDepth else { throw depthExceeded(at: start) }
            let keyed = try openKeyed(at: start, end: end, implied: implied)
            var fields: [ArchiveValue.Field] = []
            for index in 0..<keyed.count {
                var q = self.index.entries[keyed.start + 2 + 2 * index]
                let value = try parseValue(&q, end: keyed.end, implied: nil, depth: depth + 1)
                fields.append(ArchiveValue.Field(name: name(ofEntry: index, in: keyed), value: value))
            }
            p = keyed.end
            return .object(fields)
        default:
            throw reader.invalidTag(tag, at: start)
        }
    }
}
