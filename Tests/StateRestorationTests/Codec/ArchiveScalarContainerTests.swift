import Foundation
import StateRestoration
import Testing

/// Every scalar type through the typed `encode`/`decode` overloads of each kind of container,
/// and through the keyed container's `decodeIfPresent` overloads.
///
/// Synthesized `Codable` reaches the keyed containers' typed overloads, and arrays of scalars the
/// encoder's own typed arrays; the unkeyed and single-value containers' typed overloads are reached
/// only by hand-written `Codable` (an enum with a `UInt8` raw value, a type that writes its fields
/// in order). No other test called most of them, nor the `decodeIfPresent` of an optional
/// `Double`, `Float` or sized integer (coverage showed it): a typo in one of them, a wrong tag or
/// a lossy conversion, would have gone unseen.
@Suite struct ArchiveScalarContainerTests {
    /// One value of every scalar type a container has an overload for.
    struct Scalars: Sendable, CustomStringConvertible {
        var bool: Bool
        var string: String
        var double: Double
        var float: Float
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64

        static let minimum = Scalars(
            bool: false, string: "", double: -.greatestFiniteMagnitude, float: -.greatestFiniteMagnitude,
            int: .min, int8: .min, int16: .min, int32: .min, int64: .min, uint: .min, uint8: .min, uint16: .min,
            uint32: .min, uint64: .min)
        static let maximum = Scalars(
            bool: true, string: "Zürich 🚋", double: .greatestFiniteMagnitude, float: .greatestFiniteMagnitude,
            int: .max, int8: .max, int16: .max, int32: .max, int64: .max, uint: .max, uint8: .max, uint16: .max,
            uint32: .max, uint64: .max)
        /// Small, negative, fractional and special values: the encodings that pack them short.
        static let mixed = Scalars(
            bool: true, string: "a", double: -0.0, float: 0.1, int: -1, int8: -64, int16: 300, int32: -70_000,
            int64: 1 << 40, uint: 63, uint8: 64, uint16: 65_535, uint32: 1 << 31, uint64: 1 << 63)
        static let special = Scalars(
            bool: false, string: String(repeating: "x", count: 300), double: .nan, float: -.infinity, int: 0,
            int8: 0, int16: 0, int32: 0, int64: 0, uint: 0, uint8: 0, uint16: 0, uint32: 0, uint64: 0)

        /// Every field equal, floating-point ones bit for bit (so `-0.0` and NaN count).
        func isIdentical(to other: Scalars) -> Bool {
            bool == other.bool && string == other.string && double.bitPattern == other.double.bitPattern
                && float.bitPattern == other.float.bitPattern && int == other.int && int8 == other.int8
                && int16 == other.int16 && int32 == other.int32 && int64 == other.int64 && uint == other.uint
                && uint8 == other.uint8 && uint16 == other.uint16 && uint32 == other.uint32
                && uint64 == other.uint64
        }

        var description: String {
            "\(bool) \(string.prefix(10)) \(double) \(float) \(int) \(int8) \(int16) \(int32) \(int64) \(uint) "
                + "\(uint8) \(uint16) \(uint32) \(uint64)"
        }
    }

    /// The kind of container the scalars go through.
    enum Route: String, Codable, CaseIterable, Sendable {
        /// A keyed container's `encode(_:forKey:)` and `decode(_:forKey:)`.
        case keyed
        /// An unkeyed container's `encode(_:)` and `decode(_:)`, in order.
        case unkeyed
        /// One single-value container per value, from a keyed container's `superEncoder(forKey:)`
        /// and `superDecoder(forKey:)`.
        case singleValue
    }

    enum Key: String, CodingKey {
        case route, values, nothing
        case bool, string, double, float, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64
    }

    /// A value written in place of one field, to see what decoding it as that field's type does.
    enum Replacement {
        case int64(Int64)
        case uint64(UInt64)
        case double(Double)
    }

    /// `Scalars` written and read through one route, with a nil after the values.
    struct Routed: Codable {
        var route: Route
        var scalars: Scalars
        /// Written in place of one field (encoding only).
        var replacement: (key: Key, value: Replacement)?

        init(_ scalars: Scalars, through route: Route, replacing key: Key? = nil, with value: Replacement? = nil) {
            self.route = route
            self.scalars = scalars
            if let key, let value { replacement = (key, value) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(route, forKey: .route)
            let s = scalars
            let replacement = replacement
            switch route {
            case .keyed:
                var keyed = container.nestedContainer(keyedBy: Key.self, forKey: .values)
                // The field `key` through `write`, unless it is the replaced one.
                func put(_ key: Key, _ write: () throws -> Void) throws {
                    guard let replacement, replacement.key == key else { return try write() }
                    switch replacement.value {
                    case .int64(let value): try keyed.encode(value, forKey: key)
                    case .uint64(let value): try keyed.encode(value, forKey: key)
                    case .double(let value): try keyed.encode(value, forKey: key)
                    }
                }
                try put(.bool) { try keyed.encode(s.bool, forKey: .bool) }
                try put(.string) { try keyed.encode(s.string, forKey: .string) }
                try put(.double) { try keyed.encode(s.double, forKey: .double) }
                try put(.float) { try keyed.encode(s.float, forKey: .float) }
                try put(.int) { try keyed.encode(s.int, forKey: .int) }
                try put(.int8) { try keyed.encode(s.int8, forKey: .int8) }
                try put(.int16) { try keyed.encode(s.int16, forKey: .int16) }
                try put(.int32) { try keyed.encode(s.int32, forKey: .int32) }
                try put(.int64) { try keyed.encode(s.int64, forKey: .int64) }
                try put(.uint) { try keyed.encode(s.uint, forKey: .uint) }
                try put(.uint8) { try keyed.encode(s.uint8, forKey: .uint8) }
                try put(.uint16) { try keyed.encode(s.uint16, forKey: .uint16) }
                try put(.uint32) { try keyed.encode(s.uint32, forKey: .uint32) }
                try put(.uint64) { try keyed.encode(s.uint64, forKey: .uint64) }
                try keyed.encodeNil(forKey: .nothing)
            case .unkeyed:
                var unkeyed = container.nestedUnkeyedContainer(forKey: .values)
                func put(_ key: Key, _ write: () throws -> Void) throws {
                    guard let replacement, replacement.key == key else { return try write() }
                    switch replacement.value {
                    case .int64(let value): try unkeyed.encode(value)
                    case .uint64(let value): try unkeyed.encode(value)
                    case .double(let value): try unkeyed.encode(value)
                    }
                }
                try put(.bool) { try unkeyed.encode(s.bool) }
                try put(.string) { try unkeyed.encode(s.string) }
                try put(.double) { try unkeyed.encode(s.double) }
                try put(.float) { try unkeyed.encode(s.float) }
                try put(.int) { try unkeyed.encode(s.int) }
                try put(.int8) { try unkeyed.encode(s.int8) }
                try put(.int16) { try unkeyed.encode(s.int16) }
                try put(.int32) { try unkeyed.encode(s.int32) }
                try put(.int64) { try unkeyed.encode(s.int64) }
                try put(.uint) { try unkeyed.encode(s.uint) }
                try put(.uint8) { try unkeyed.encode(s.uint8) }
                try put(.uint16) { try unkeyed.encode(s.uint16) }
                try put(.uint32) { try unkeyed.encode(s.uint32) }
                try put(.uint64) { try unkeyed.encode(s.uint64) }
                try unkeyed.encodeNil()
            case .singleValue:
                var keyed = container.nestedContainer(keyedBy: Key.self, forKey: .values)
                func put(_ key: Key, _ write: (inout any SingleValueEncodingContainer) throws -> Void) throws {
                    var one = keyed.superEncoder(forKey: key).singleValueContainer()
                    guard let replacement, replacement.key == key else { return try write(&one) }
                    switch replacement.value {
                    case .int64(let value): try one.encode(value)
                    case .uint64(let value): try one.encode(value)
                    case .double(let value): try one.encode(value)
                    }
                }
                try put(.bool) { try $0.encode(s.bool) }
                try put(.string) { try $0.encode(s.string) }
                try put(.double) { try $0.encode(s.double) }
                try put(.float) { try $0.encode(s.float) }
                try put(.int) { try $0.encode(s.int) }
                try put(.int8) { try $0.encode(s.int8) }
                try put(.int16) { try $0.encode(s.int16) }
                try put(.int32) { try $0.encode(s.int32) }
                try put(.int64) { try $0.encode(s.int64) }
                try put(.uint) { try $0.encode(s.uint) }
                try put(.uint8) { try $0.encode(s.uint8) }
                try put(.uint16) { try $0.encode(s.uint16) }
                try put(.uint32) { try $0.encode(s.uint32) }
                try put(.uint64) { try $0.encode(s.uint64) }
                try put(.nothing) { try $0.encodeNil() }
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            route = try container.decode(Route.self, forKey: .route)
            switch route {
            case .keyed:
                let keyed = try container.nestedContainer(keyedBy: Key.self, forKey: .values)
                scalars = Scalars(
                    bool: try keyed.decode(Bool.self, forKey: .bool),
                    string: try keyed.decode(String.self, forKey: .string),
                    double: try keyed.decode(Double.self, forKey: .double),
                    float: try keyed.decode(Float.self, forKey: .float),
                    int: try keyed.decode(Int.self, forKey: .int),
                    int8: try keyed.decode(Int8.self, forKey: .int8),
                    int16: try keyed.decode(Int16.self, forKey: .int16),
                    int32: try keyed.decode(Int32.self, forKey: .int32),
                    int64: try keyed.decode(Int64.self, forKey: .int64),
                    uint: try keyed.decode(UInt.self, forKey: .uint),
                    uint8: try keyed.decode(UInt8.self, forKey: .uint8),
                    uint16: try keyed.decode(UInt16.self, forKey: .uint16),
                    uint32: try keyed.decode(UInt32.self, forKey: .uint32),
                    uint64: try keyed.decode(UInt64.self, forKey: .uint64))
                guard try keyed.decodeNil(forKey: .nothing) else { throw Self.missingNil }
            case .unkeyed:
                var unkeyed = try container.nestedUnkeyedContainer(forKey: .values)
                scalars = Scalars(
                    bool: try unkeyed.decode(Bool.self), string: try unkeyed.decode(String.self),
                    double: try unkeyed.decode(Double.self), float: try unkeyed.decode(Float.self),
                    int: try unkeyed.decode(Int.self), int8: try unkeyed.decode(Int8.self),
                    int16: try unkeyed.decode(Int16.self), int32: try unkeyed.decode(Int32.self),
                    int64: try unkeyed.decode(Int64.self), uint: try unkeyed.decode(UInt.self),
                    uint8: try unkeyed.decode(UInt8.self), uint16: try unkeyed.decode(UInt16.self),
                    uint32: try unkeyed.decode(UInt32.self), uint64: try unkeyed.decode(UInt64.self))
                guard try unkeyed.decodeNil(), unkeyed.isAtEnd else { throw Self.missingNil }
            case .singleValue:
                let keyed = try container.nestedContainer(keyedBy: Key.self, forKey: .values)
                func single(_ key: Key) throws -> any SingleValueDecodingContainer {
                    try keyed.superDecoder(forKey: key).singleValueContainer()
                }
                scalars = Scalars(
                    bool: try single(.bool).decode(Bool.self), string: try single(.string).decode(String.self),
                    double: try single(.double).decode(Double.self), float: try single(.float).decode(Float.self),
                    int: try single(.int).decode(Int.self), int8: try single(.int8).decode(Int8.self),
                    int16: try single(.int16).decode(Int16.self), int32: try single(.int32).decode(Int32.self),
                    int64: try single(.int64).decode(Int64.self), uint: try single(.uint).decode(UInt.self),
                    uint8: try single(.uint8).decode(UInt8.self), uint16: try single(.uint16).decode(UInt16.self),
                    uint32: try single(.uint32).decode(UInt32.self), uint64: try single(.uint64).decode(UInt64.self))
                guard try single(.nothing).decodeNil() else { throw Self.missingNil }
            }
        }

        static let missingNil = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no nil"))
    }

    @Test(
        "every scalar type round-trips through the typed overloads of each kind of container",
        arguments: Route.allCases, [Scalars.minimum, .maximum, .mixed, .special])
    func roundTrip(route: Route, scalars: Scalars) throws {
        let data = try ArchiveEncoder().encode(Routed(scalars, through: route))
        let decoded = try ArchiveDecoder().decode(Routed.self, from: data)
        #expect(decoded.route == route)
        #expect(decoded.scalars.isIdentical(to: scalars), "\(decoded.scalars)")
    }

    @Test(
        "the typed overloads write the values the generic path writes for the same scalars",
        arguments: Route.allCases)
    func sameValuesAsGeneric(route: Route) throws {
        // An `Int8` through `encode(_: Int8)` must read back as what `encode(Int8(...))` makes as a
        // root value (the generic path): the same kind of value (signed, unsigned, floating point).
        let data = try ArchiveEncoder().encode(Routed(.mixed, through: route))
        let value = try ArchiveValue(decoding: data)
        let values = try #require(value["values"])
        let expected: [ArchiveValue] = try [
            Scalars.mixed.bool as any Encodable, Scalars.mixed.string, Scalars.mixed.double, Scalars.mixed.float,
            Scalars.mixed.int, Scalars.mixed.int8, Scalars.mixed.int16, Scalars.mixed.int32, Scalars.mixed.int64,
            Scalars.mixed.uint, Scalars.mixed.uint8, Scalars.mixed.uint16, Scalars.mixed.uint32, Scalars.mixed.uint64,
        ].map { (scalar: any Encodable) in try Self.rootValue(scalar) }
        let keys: [Key] = [
            .bool, .string, .double, .float, .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32,
            .uint64,
        ]
        var found: [ArchiveValue?] = keys.map { values[$0.stringValue] } + [values["nothing"]]
        if route == .unkeyed {
            guard case .array(let elements) = values else {
                Issue.record("the unkeyed route wrote \(values)")
                return
            }
            found = elements
        }
        try #require(found.count == keys.count + 1, "\(found)")
        for (index, key) in keys.enumerated() {
            #expect(found[index] == expected[index], "\(route) \(key.stringValue)")
        }
        #expect(found[keys.count] == .null)
    }

    /// Optional fields of every scalar type, as an app's state has them: synthesized `Codable`
    /// writes them with `encodeIfPresent` and reads them with the keyed container's typed
    /// `decodeIfPresent` overloads.
    struct Optionals: Codable, Equatable {
        var bool: Bool?
        var string: String?
        var double: Double?
        var float: Float?
        var int: Int?
        var int8: Int8?
        var int16: Int16?
        var int32: Int32?
        var int64: Int64?
        var uint: UInt?
        var uint8: UInt8?
        var uint16: UInt16?
        var uint32: UInt32?
        var uint64: UInt64?

        init(_ s: Scalars) {
            (bool, string, double, float, int, int8, int16, int32) =
                (s.bool, s.string, s.double, s.float, s.int, s.int8, s.int16, s.int32)
            (int64, uint, uint8, uint16, uint32, uint64) = (s.int64, s.uint, s.uint8, s.uint16, s.uint32, s.uint64)
        }

        init() {}
    }

    @Test(
        "optional fields of every scalar type round-trip present, at the ends of their ranges, and absent",
        arguments: [Optionals(.minimum), Optionals(.maximum), Optionals(.mixed), Optionals()])
    func optionalFields(value: Optionals) throws {
        let data = try ArchiveEncoder().encode(value)
        let decoded = try ArchiveDecoder().decode(Optionals.self, from: data)
        #expect(decoded == value)
        // `==` takes -0.0 for 0.0.
        #expect(decoded.double?.bitPattern == value.double?.bitPattern)
        #expect(decoded.float?.bitPattern == value.float?.bitPattern)
        if value == Optionals() {
            // Absent fields are not written at all.
            #expect(try ArchiveValue(decoding: data) == .object([]))
        }
    }

    @Test("an optional field written as null reads as nil, and one of the wrong type throws, not nil")
    func optionalFieldNullAndMismatch() throws {
        struct Written: Encodable {
            var key: Key
            var null: Bool
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                if null { try container.encodeNil(forKey: key) } else { try container.encode("text", forKey: key) }
            }
        }
        for key in Self.integers + [.bool, .double, .float] {
            let null = try ArchiveEncoder().encode(Written(key: key, null: true))
            #expect(try ArchiveDecoder().decode(Optionals.self, from: null) == Optionals(), "\(key)")
            let text = try ArchiveEncoder().encode(Written(key: key, null: false))
            #expect(throws: DecodingError.self, "\(key)") { try ArchiveDecoder().decode(Optionals.self, from: text) }
        }
    }

    /// `value` encoded alone (the generic path) and read back as an archive value.
    static func rootValue(_ value: some Encodable) throws -> ArchiveValue {
        try ArchiveValue(decoding: ArchiveEncoder().encode(value))
    }

    /// The integer fields, in the order `Routed` writes them.
    static let integers: [Key] = [.int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64]

    /// The narrower integer types, with a value just past each end of their range.
    static let narrowing: [(Key, [Int64])] = [
        (.int8, [Int64(Int8.min) - 1, Int64(Int8.max) + 1]),
        (.int16, [Int64(Int16.min) - 1, Int64(Int16.max) + 1]),
        (.int32, [Int64(Int32.min) - 1, Int64(Int32.max) + 1]),
        (.uint, [-1]),
        (.uint8, [-1, Int64(UInt8.max) + 1]),
        (.uint16, [-1, Int64(UInt16.max) + 1]),
        (.uint32, [-1, Int64(UInt32.max) + 1]),
        (.uint64, [-1]),
    ]

    @Test(
        "an integer past a narrower type's range is a DecodingError naming the field, through each container",
        arguments: Route.allCases)
    func integerOutOfRange(route: Route) throws {
        // The signed types' ranges from below and above, the unsigned ones' from above, and past
        // `Int64.max` (written unsigned) for `Int` and `Int64`.
        let cases: [(Key, Replacement)] =
            Self.narrowing.flatMap { key, values in values.map { (key, Replacement.int64($0)) } }
            + [Key.int, .int64].map { ($0, Replacement.uint64(UInt64(Int64.max) + 1)) }
        for (key, replacement) in cases {
            let value: String
            switch replacement {
            case .int64(let number): value = "\(number)"
            case .uint64(let number): value = "\(number)"
            case .double(let number): value = "\(number)"
            }
            let data = try ArchiveEncoder().encode(Routed(.mixed, through: route, replacing: key, with: replacement))
            let error = try #require(throws: DecodingError.self, "\(route) \(key) \(value)") {
                try ArchiveDecoder().decode(Routed.self, from: data)
            }
            guard case .dataCorrupted(let context) = error else {
                Issue.record("\(route) \(key) \(value): \(error)")
                continue
            }
            #expect(context.debugDescription.contains(value), "\(context.debugDescription)")
            let path = context.codingPath.map(\.stringValue)
            if route == .unkeyed {
                // The integers follow Bool, String, Double and Float, in `Key`'s order.
                let position = 4 + (Self.integers.firstIndex(of: key) ?? 0)
                #expect(context.codingPath.last?.intValue == position, "\(path)")
            } else {
                #expect(path.last == key.stringValue, "\(path)")
            }
        }
        // In range, the same layout decodes.
        for key in Self.integers {
            let fits = try ArchiveEncoder().encode(Routed(.mixed, through: route, replacing: key, with: .int64(1)))
            #expect(try ArchiveDecoder().decode(Routed.self, from: fits).route == route)
        }
    }

    @Test(
        "a Double too large for a Float is a DecodingError, not infinity, through each container",
        arguments: Route.allCases)
    func floatOutOfRange(route: Route) throws {
        let data = try ArchiveEncoder().encode(Routed(.mixed, through: route, replacing: .float, with: .double(1e300)))
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Routed.self, from: data) }
        // The same layout with a Double a Float holds decodes.
        let small = try ArchiveEncoder().encode(Routed(.mixed, through: route, replacing: .float, with: .double(0.5)))
        #expect(try ArchiveDecoder().decode(Routed.self, from: small).scalars.float == 0.5)
    }
}
