import Foundation

/// Constants and arithmetic of the value encoding that ``ArchiveEncoder`` writes and
/// ``ArchiveDecoder`` reads; `Documentation/ArchiveFormat.md` specifies the bytes.
enum ArchiveFormat {
    /// The bytes that start a standalone value encoding.
    static let magic: [UInt8] = [0x53, 0x52, 0x76]
    /// The value encoding version this build writes and reads.
    static let version: UInt8 = 1
    /// Bytes before the field-name table.
    static let preambleSize = 4

    /// Zigzag-maps a signed integer so that small magnitudes become small varints.
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// Inverts ``zigzag(_:)``.
    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// The number of bytes `value` takes as a LEB128 varint.
    static func varintSize(_ value: UInt64) -> Int {
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }

    /// `10^k` for the scales 0...7 of the decimal double and date tags.
    static func powerOfTen(_ scale: Int) -> Double {
        switch scale {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        default: 10_000_000
        }
    }

    /// The value a decimal tag with scale `scale` and mantissa `mantissa` stands for:
    /// `Double(mantissa) / 10^scale`, one correctly rounded division.
    static func decimalValue(_ mantissa: Int64, scale: Int) -> Double {
        scale == 0 ? Double(mantissa) : Double(mantissa) / powerOfTen(scale)
    }

    /// The shortest decimal form `(zigzag(m), k)` whose ``decimalValue(_:scale:)`` has exactly
    /// the bits of `value`, with k in 0...7 and |m| < 2^41 (so that the form is shorter than the
    /// 8-byte one); nil when there is none (NaN, the infinities, -0.0, `1.0 / 3`…).
    static func decimalForm(_ value: Double) -> (mantissa: UInt64, scale: UInt8)? {
        for scale in 0..<8 {
            let scaled = value * powerOfTen(scale)
            // Also rejects NaN and the infinities.
            guard scaled.magnitude < 0x200_0000_0000 else { return nil }
            // Half away from zero by truncation; any nearby integer will do, the check decides.
            let mantissa = Int64(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
            if decimalValue(mantissa, scale: scale).bitPattern == value.bitPattern {
                return (zigzag(mantissa), UInt8(scale))
            }
        }
        return nil
    }
}

/// The one-byte type tags of the value encoding (see `Documentation/ArchiveFormat.md`).
enum ArchiveTag {
    static let null: UInt8 = 0x00
    static let boolFalse: UInt8 = 0x01
    static let boolTrue: UInt8 = 0x02
    static let int: UInt8 = 0x03
    static let uint: UInt8 = 0x04
    static let float32: UInt8 = 0x05
    static let float64: UInt8 = 0x06
    static let string: UInt8 = 0x07
    static let data: UInt8 = 0x08
    static let date: UInt8 = 0x09
    static let uuid: UInt8 = 0x0A
    static let url: UInt8 = 0x0B
    static let array: UInt8 = 0x0C
    static let typedArray: UInt8 = 0x0D
    static let keyed: UInt8 = 0x0E
    /// The packed tags: each is its base plus a scale (`0x10`, `0x18`), a length (`0x20`,
    /// `0x80`), a zigzag integer (`0x40`) or an element count (`0xC0`).
    static let decimalDouble: UInt8 = 0x10
    static let decimalDate: UInt8 = 0x18
    static let smallKeyed: UInt8 = 0x20
    static let fixInt: UInt8 = 0x40
    static let fixString: UInt8 = 0x80
    static let smallArray: UInt8 = 0xC0

    /// Whether `tag` may be the element tag of a typed array.
    static func isTypedElement(_ tag: UInt8) -> Bool {
        (int...url).contains(tag)
    }

    /// The fewest payload bytes an untagged element with this tag takes.
    static func minimumPayloadSize(_ tag: UInt8) -> Int {
        switch tag {
        case float32: 4
        case float64, date: 8
        case uuid: 16
        default: 1
        }
    }

    /// What follows a tag: a payload of fixed size, a varint, a length and bytes, or a count,
    /// a length and bytes.
    enum Payload {
        case fixed(Int)
        case varint
        case length
        case countAndLength
        case invalid
    }

    /// What follows `tag` in the archive.
    static func payload(_ tag: UInt8) -> Payload {
        switch tag {
        case null, boolFalse, boolTrue, 0x40...0x7F: .fixed(0)
        case int, uint, 0x10...0x1F: .varint
        case float32: .fixed(4)
        case float64, date: .fixed(8)
        case uuid: .fixed(16)
        case string, data, url, keyed, 0xC0...0xDF: .length
        case array, typedArray: .countAndLength
        case 0x20...0x3F: .fixed(Int(tag & 0x1F))
        case 0x80...0xBF: .fixed(Int(tag & 0x3F))
        default: .invalid
        }
    }

    /// A human-readable name for a tag, for error messages.
    static func name(_ tag: UInt8) -> String {
        switch tag {
        case null: "null"
        case boolFalse, boolTrue: "bool"
        case int, uint, 0x40...0x7F: "int"
        case float32: "float"
        case float64, 0x10...0x17: "double"
        case string, 0x80...0xBF: "string"
        case data: "data"
        case date, 0x18...0x1F: "date"
        case uuid: "uuid"
        case url: "url"
        case array, typedArray, 0xC0...0xDF: "array"
        case keyed, 0x20...0x3F: "keyed container"
        default: "invalid tag 0x\(hex(tag))"
        }
    }

    /// Two uppercase hexadecimal digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 16 ? "0" + digits : digits
    }
}

/// The key `"super"` under which `superEncoder()` and `superDecoder()` store a superclass.
struct ArchiveSuperKey: CodingKey {
    init() {}
    init?(stringValue: String) {
        guard stringValue == "super" else { return nil }
    }
    init?(intValue: Int) { nil }
    var stringValue: String { "super" }
    var intValue: Int? { nil }
}

/// The coding-path key of an element of an unkeyed container.
struct ArchiveIndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// The types with an encoding of their own, which the coders write and read directly rather
/// than through their `Codable` conformance.
enum ArchiveKnownType: Sendable {
    case string, int, double, bool, uuid, date, int64, int32, int16, int8, uint, uint64, uint32, uint16, uint8
    case float, data, url, decimal
    case stringArray, intArray, int64Array, int32Array, uintArray, uint64Array, uint32Array
    case doubleArray, floatArray, uuidArray, dateArray, boolArray

    private static let types: ArchiveTypeTable<ArchiveKnownType> = [
        ObjectIdentifier(String.self): .string, ObjectIdentifier(Int.self): .int,
        ObjectIdentifier(Double.self): .double, ObjectIdentifier(Bool.self): .bool,
        ObjectIdentifier(UUID.self): .uuid, ObjectIdentifier(Date.self): .date,
        ObjectIdentifier(Int64.self): .int64, ObjectIdentifier(Int32.self): .int32,
        ObjectIdentifier(Int16.self): .int16, ObjectIdentifier(Int8.self): .int8,
        ObjectIdentifier(UInt.self): .uint, ObjectIdentifier(UInt64.self): .uint64,
        ObjectIdentifier(UInt32.self): .uint32, ObjectIdentifier(UInt16.self): .uint16,
        ObjectIdentifier(UInt8.self): .uint8, ObjectIdentifier(Float.self): .float,
        ObjectIdentifier(Data.self): .data, ObjectIdentifier(URL.self): .url,
        ObjectIdentifier(Decimal.self): .decimal,
        ObjectIdentifier([String].self): .stringArray, ObjectIdentifier([Int].self): .intArray,
        ObjectIdentifier([Int64].self): .int64Array, ObjectIdentifier([Int32].self): .int32Array,
        ObjectIdentifier([UInt].self): .uintArray, ObjectIdentifier([UInt64].self): .uint64Array,
        ObjectIdentifier([UInt32].self): .uint32Array, ObjectIdentifier([Double].self): .doubleArray,
        ObjectIdentifier([Float].self): .floatArray, ObjectIdentifier([UUID].self): .uuidArray,
        ObjectIdentifier([Date].self): .dateArray, ObjectIdentifier([Bool].self): .boolArray,
    ]

    /// The kind of `type`, or nil for a type encoded through its `Codable` conformance.
    static func of(_ type: Any.Type) -> ArchiveKnownType? {
        types[type]
    }
}

/// A table keyed by type, for the lookups the coders make for every value: a type's address,
/// multiplied by a large odd constant, picks its slot (linear probing), where a dictionary
/// hashes it with SipHash ("Kept optimisations" in `Documentation/ArchiveFormat.md` says what it saves).
struct ArchiveTypeTable<Value>: ExpressibleByDictionaryLiteral {
    private var keys: [ObjectIdentifier?] = Array(repeating: nil, count: 64)
    private var values: [Value?] = Array(repeating: nil, count: 64)
    private var count = 0

    init(dictionaryLiteral elements: (ObjectIdentifier, Value)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// The slot where a search for `key` starts.
    private func home(_ key: ObjectIdentifier) -> Int {
        let address = UInt(bitPattern: Int(bitPattern: key))
        return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 32) & (keys.count - 1)
    }

    subscript(type: Any.Type) -> Value? {
        get { self[ObjectIdentifier(type)] }
        set { self[ObjectIdentifier(type)] = newValue }
    }

    subscript(key: ObjectIdentifier) -> Value? {
        get {
            var slot = home(key)
            while let found = keys[slot] {
                if found == key { return values[slot] }
                slot = (slot + 1) & (keys.count - 1)
            }
            return nil
        }
        set {
            if count * 2 >= keys.count { grow() }
            var slot = home(key)
            while let found = keys[slot], found != key { slot = (slot + 1) & (keys.count - 1) }
            if keys[slot] == nil { count += 1 }
            keys[slot] = key
            values[slot] = newValue
        }
    }

    /// Doubles the slots, putting every entry back.
    private mutating func grow() {
        let entries = zip(keys, values).compactMap { key, value in key.map { ($0, value) } }
        keys = Array(repeating: nil, count: keys.count * 2)
        values = Array(repeating: nil, count: keys.count)
        count = 0
        for (key, value) in entries { self[key] = value }
    }
}

extension ArchiveTypeTable: Sendable where Value: Sendable {}
