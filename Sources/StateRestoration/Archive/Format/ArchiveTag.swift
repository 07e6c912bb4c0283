/// The one-byte type tags of the value encoding (see Documentation/ArchiveFormat.md).
///
/// Plain `UInt8` constants rather than an enum so that the hot paths compare bytes
/// without a conversion.
enum ArchiveTag {
    static let null: UInt8 = 0x00
    static let boolFalse: UInt8 = 0x01
    static let boolTrue: UInt8 = 0x02
    /// Signed integer: zigzag LEB128 varint.
    static let int: UInt8 = 0x03
    /// Unsigned integer: LEB128 varint.
    static let uint: UInt8 = 0x04
    /// IEEE 754 binary32, little-endian.
    static let float32: UInt8 = 0x05
    /// IEEE 754 binary64, little-endian.
    static let float64: UInt8 = 0x06
    /// Varint byte length, then UTF-8.
    static let string: UInt8 = 0x07
    /// Varint byte length, then the bytes.
    static let data: UInt8 = 0x08
    /// binary64 seconds since 2001-01-01T00:00:00Z, little-endian.
    static let date: UInt8 = 0x09
    /// 16 bytes in RFC 4122 order.
    static let uuid: UInt8 = 0x0A
    /// Varint byte length, then the URL's absolute string in UTF-8.
    static let url: UInt8 = 0x0B
    /// Varint count, varint byte length, then `count` tagged values.
    static let array: UInt8 = 0x0C
    /// Varint count, varint byte length, one element tag, then `count` untagged payloads.
    static let typedArray: UInt8 = 0x0D
    /// Varint byte length, then (varint name index, tagged value) entries up to that length.
    static let keyed: UInt8 = 0x0E

    /// `0x10 + k`, k in 0...7: a Double that is exactly `m / 10^k`; payload zigzag varint `m`.
    static let decimalDouble: UInt8 = 0x10
    /// `0x18 + k`, k in 0...7: a Date whose seconds are exactly `m / 10^k`; payload zigzag varint `m`.
    static let decimalDate: UInt8 = 0x18
    /// `0x20 + L`, L in 0...31: a keyed container of L bytes (no length varint).
    static let smallKeyed: UInt8 = 0x20
    /// `0x40 + zigzag(n)`, n in -32...31: a signed integer with no payload.
    static let fixInt: UInt8 = 0x40
    /// `0x80 + L`, L in 0...63: a string of L UTF-8 bytes (no length varint).
    static let fixString: UInt8 = 0x80
    /// `0xC0 + n`, n in 0...31: an array of n tagged values; varint byte length, then the values.
    static let smallArray: UInt8 = 0xC0

    /// Whether `tag` is a defined tag.
    @inline(__always)
    static func isValid(_ tag: UInt8) -> Bool {
        tag <= keyed || (tag >= decimalDouble && tag < 0xE0)
    }

    /// Sentinel for "no implied tag": the tag is read from the input.
    static let none: UInt8 = 0xFF

    // MARK: Skipping

    /// ``skipRule(_:)``: a varint payload follows the tag.
    static let skipVarint: UInt8 = 0x80
    /// ``skipRule(_:)``: a varint byte length, then that many bytes.
    static let skipLength: UInt8 = 0x81
    /// ``skipRule(_:)``: a varint element count, a varint byte length, then that many bytes.
    static let skipCountAndLength: UInt8 = 0x82
    /// ``skipRule(_:)``: not a tag.
    static let skipInvalid: UInt8 = 0xFF

    /// What follows each tag in the archive, by tag: below ``skipVarint``, a payload of that
    /// many bytes; otherwise one of the `skip` rules above. From the table at the top of
    /// ArchiveFormat.md.
    ///
    /// A pointer that a decoding state loads once (``ArchiveDecodingState/skipRule(_:)``): a
    /// `static let` is checked for initialization (a `swift_once` call) at every read, and the
    /// decoder reads it for every value it steps over, 1,400 times per decode of the benchmark's
    /// medium tree. Allocated once per process and never freed; `nonisolated(unsafe)` because
    /// nothing writes it after the initializer (which `static let` runs once, thread-safely).
    nonisolated(unsafe) static let skipRuleTable: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for tag in 0...255 {
            let rule: UInt8 =
                switch tag {
                case 0x00...0x02, 0x40...0x7F: 0
                case 0x03, 0x04, 0x10...0x1F: skipVarint
                case 0x05: 4
                case 0x06, 0x09: 8
                case 0x0A: 16
                case 0x07, 0x08, 0x0B, 0x0E, 0xC0...0xDF: skipLength
                case 0x0C, 0x0D: skipCountAndLength
                case 0x20...0x3F: UInt8(tag & 0x1F)
                case 0x80...0xBF: UInt8(tag & 0x3F)
                default: skipInvalid
                }
            (table + tag).initialize(to: rule)
        }
        return UnsafePointer(table)
    }()

    /// What follows `tag` in the archive (``skipRuleTable``).
    static func skipRule(_ tag: UInt8) -> UInt8 {
        skipRuleTable[Int(tag)]
    }

    /// Whether `tag` may be the element tag of a typed array.
    @inline(__always)
    static func isTypedElement(_ tag: UInt8) -> Bool {
        switch tag {
        case int, uint, float32, float64, string, data, date, uuid, url: true
        default: false
        }
    }

    /// The fewest payload bytes an untagged element with this tag can take.
    @inline(__always)
    static func minimumPayloadSize(_ tag: UInt8) -> Int {
        switch tag {
        case float32: 4
        case float64, date: 8
        case uuid: 16
        default: 1
        }
    }

    /// A human-readable name for a tag, for error messages.
    static func name(_ tag: UInt8) -> String {
        switch tag {
        case null: "null"
        case boolFalse, boolTrue: "bool"
        case int: "int"
        case uint: "uint"
        case float32: "float"
        case float64: "double"
        case string: "string"
        case data: "data"
        case date: "date"
        case uuid: "uuid"
        case url: "url"
        case array, typedArray: "array"
        case keyed, 0x20...0x3F: "keyed container"
        case 0x10...0x17: "double"
        case 0x18...0x1F: "date"
        case 0x40...0x7F: "int"
        case 0x80...0xBF: "string"
        case 0xC0...0xDF: "array"
        default: "invalid tag 0x\(String(tag, radix: 16, uppercase: true))"
        }
    }
}
