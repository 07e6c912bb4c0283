import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveRoundTripTests {
    @Test("a realistic nested model with every supported type survives a round trip")
    func realisticModel() throws {
        let value = ScreenState.sample(seed: 4, depth: 3)
        let data = try ArchiveEncoder().encode(value)
        let decoded = try ArchiveDecoder().decode(ScreenState.self, from: data)
        #expect(decoded == value)
    }

    @Test("optionals both nil and present, and every enum case, round trip", arguments: 0..<6)
    func optionalsAndEnums(seed: Int) throws {
        let value = ScreenState.sample(seed: seed, depth: 1)
        let decoded = try ArchiveDecoder().decode(ScreenState.self, from: ArchiveEncoder().encode(value))
        #expect(decoded == value)
        #expect(decoded.route == value.route)
        #expect(decoded.draft == value.draft)
        #expect(decoded.expiry == value.expiry)
    }

    @Test("scalars of every width round trip at their extremes")
    func scalarExtremes() throws {
        try expectRoundTrip(Int.min)
        try expectRoundTrip(Int.max)
        try expectRoundTrip(Int8.min)
        try expectRoundTrip(Int16.max)
        try expectRoundTrip(Int32.min)
        try expectRoundTrip(Int64.min)
        try expectRoundTrip(UInt.max)
        try expectRoundTrip(UInt8.max)
        try expectRoundTrip(UInt16.max)
        try expectRoundTrip(UInt32.max)
        try expectRoundTrip(UInt64.max)
        try expectRoundTrip(Float.leastNonzeroMagnitude)
        try expectRoundTrip(-Double.greatestFiniteMagnitude)
        try expectRoundTrip(true)
        try expectRoundTrip("")
        try expectRoundTrip("👩‍👩‍👧 and a long string that is not a small string")
        try expectRoundTrip(Data())
        try expectRoundTrip(Data(repeating: 0xFF, count: 300))
        try expectRoundTrip(Date(timeIntervalSince1970: 0))
        try expectRoundTrip(UUID())
        try expectRoundTrip(URL(string: "file:///tmp/a%20b.txt"))
        let nan = try ArchiveDecoder().decode(Double.self, from: ArchiveEncoder().encode(Double.nan))
        #expect(nan.isNaN)
    }

    @Test("arrays of scalars, including empty ones, round trip")
    func scalarArrays() throws {
        try expectRoundTrip([String]())
        try expectRoundTrip(["a", "", "ü"])
        try expectRoundTrip([Int.min, 0, Int.max])
        try expectRoundTrip([Int64(-1), 1])
        try expectRoundTrip([Int32.min])
        try expectRoundTrip([UInt.max])
        try expectRoundTrip([UInt64.max, 0])
        try expectRoundTrip([UInt32.max])
        try expectRoundTrip([UInt8](0...255))
        try expectRoundTrip([1.5, -0.0])
        try expectRoundTrip([Float(1.25)])
        try expectRoundTrip([UUID(), UUID()])
        try expectRoundTrip([Date(timeIntervalSinceReferenceDate: 1.5)])
        try expectRoundTrip([true, false])
        try expectRoundTrip([Int16(-5), 5])
        try expectRoundTrip([[String]](arrayLiteral: [], ["x"]))
        try expectRoundTrip([String?.none, "x"])
        try expectRoundTrip([Data([1, 2]), Data()])
    }

    @Test("dictionaries keyed by String and by Int, nested and empty, round trip")
    func dictionaries() throws {
        try expectRoundTrip([String: Int]())
        try expectRoundTrip([Int: String]())
        try expectRoundTrip([1: "one", -1: "minus one", Int.max: "max"])
        try expectRoundTrip(["outer": ["inner": [1, 2, 3]]])
        try expectRoundTrip([UUID(): "keyed by UUID: an unkeyed list of pairs"])
        try expectRoundTrip([3: [4: [5: "deep"]]])
    }

    @Test("a subclass stores its superclass with superEncoder and decodes it with superDecoder")
    func classInheritanceWithSuperEncoder() throws {
        let value = Derived(name: "base part", extra: 42, note: nil)
        let data = try ArchiveEncoder().encode(value)
        let decoded = try ArchiveDecoder().decode(Derived.self, from: data)
        #expect(decoded == value)
        // The superclass lives under the "super" key.
        let tree = try ArchiveValue(decoding: data)
        #expect(tree["super"]?["name"] == .string("base part"))
        #expect(tree["extra"] == .int(42))
    }

    @Test("a subclass that shares its encoder with its superclass merges both into one container")
    func classInheritanceSharingEncoder() throws {
        let value = SharedDerived(name: "shared", extra: 7)
        let data = try ArchiveEncoder().encode(value)
        #expect(try ArchiveDecoder().decode(SharedDerived.self, from: data) == value)
        let tree = try ArchiveValue(decoding: data)
        #expect(tree["name"] == .string("shared"))
        #expect(tree["extra"] == .int(7))
    }

    @Test("superEncoder(forKey:), unkeyed superEncoder and nested containers work by hand")
    func manualContainers() throws {
        let value = Manual(a: 1, b: ["x", "y"], c: 2.5, d: "super-ish")
        let data = try ArchiveEncoder().encode(value)
        #expect(try ArchiveDecoder().decode(Manual.self, from: data) == value)
    }

    @Test("a superEncoder that is never used leaves a decodable empty value")
    func unusedSuperEncoder() throws {
        let data = try ArchiveEncoder().encode(UnusedSuper(value: 3))
        let tree = try ArchiveValue(decoding: data)
        #expect(tree["super"] == .object([]))
        #expect(tree["value"] == .int(3))
    }

    @Test("writing to a nested container after its parent moved on throws instead of corrupting")
    func interleavedContainersThrow() {
        #expect(throws: EncodingError.self) {
            try ArchiveEncoder().encode(Interleaved())
        }
    }

    @Test("encoding one key twice in a container throws")
    func duplicateKeyOnEncodeThrows() {
        #expect(throws: EncodingError.self) {
            try ArchiveEncoder().encode(TwiceKeyed())
        }
    }

    /// Writes `width` distinct keys, each also inside a nested container of the same names, then
    /// key `repeated` again when it is set.
    struct Wide: Encodable {
        /// A key of any name.
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        var width: Int
        var repeated: Int?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for index in 0..<width {
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: .init("k\(index)"))
                for inner in 0...index { try nested.encode(inner, forKey: .init("k\(inner)")) }
            }
            if let repeated { try container.encode(0, forKey: .init("k\(repeated)")) }
        }
    }

    @Test("a key written twice is found among the first 64 names and past them; a nested container may reuse names")
    func duplicateKeysBelowAndPast64() throws {
        let data = try ArchiveEncoder().encode(Wide(width: 80, repeated: nil))
        let tree = try ArchiveValue(decoding: data)
        #expect(tree["k79"]?["k79"] == .int(79))
        #expect(tree["k70"]?["k3"] == .int(3))
        for repeated in [0, 5, 63, 64, 79] {
            #expect(throws: EncodingError.self, "k\(repeated)") {
                try ArchiveEncoder().encode(Wide(width: 80, repeated: repeated))
            }
        }
    }

    @Test("a type that encodes nothing round trips as an empty value")
    func emptyValue() throws {
        try expectRoundTrip(EmptyState())
        try expectRoundTrip([EmptyState(), EmptyState()])
    }

    @Test("userInfo reaches encode(to:) and init(from:)")
    func userInfo() throws {
        let key = try #require(CodingUserInfoKey(rawValue: "scale"))
        var encoder = ArchiveEncoder()
        encoder.userInfo[key] = 10
        var decoder = ArchiveDecoder()
        decoder.userInfo[key] = 3
        let data = try encoder.encode(Scaled(value: 2))
        #expect(try decoder.decode(Scaled.self, from: data).value == 60)
    }

    private func expectRoundTrip<T: Codable & Equatable>(
        _ value: T,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let decoded = try ArchiveDecoder().decode(T.self, from: ArchiveEncoder().encode(value))
        #expect(decoded == value, sourceLocation: sourceLocation)
    }
}

// MARK: - Types with hand-written Codable

class Base: Codable, Equatable {
    var name: String

    init(name: String) {
        self.name = name
    }

    static func == (lhs: Base, rhs: Base) -> Bool {
        lhs.name == rhs.name && type(of: lhs) == type(of: rhs) && lhs.isEqual(to: rhs)
    }

    func isEqual(to other: Base) -> Bool { true }
}

final class Derived: Base {
    var extra: Int
    var note: String?

    private enum CodingKeys: String, CodingKey {
        case extra, note
    }

    init(name: String, extra: Int, note: String?) {
        self.extra = extra
        self.note = note
        super.init(name: name)
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        extra = try container.decode(Int.self, forKey: .extra)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(extra, forKey: .extra)
        try container.encodeIfPresent(note, forKey: .note)
        try super.encode(to: container.superEncoder())
    }

    override func isEqual(to other: Base) -> Bool {
        guard let other = other as? Derived else { return false }
        return extra == other.extra && note == other.note
    }
}

final class SharedDerived: Base {
    var extra: Int

    private enum CodingKeys: String, CodingKey {
        case extra
    }

    init(name: String, extra: Int) {
        self.extra = extra
        super.init(name: name)
    }

    required init(from decoder: any Decoder) throws {
        extra = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .extra)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(extra, forKey: .extra)
    }

    override func isEqual(to other: Base) -> Bool {
        (other as? SharedDerived)?.extra == extra
    }
}

struct Manual: Codable, Equatable {
    var a: Int
    var b: [String]
    var c: Double
    var d: String

    enum Keys: String, CodingKey {
        case a, nested, parent
    }

    enum NestedKeys: String, CodingKey {
        case c, list
    }

    init(a: Int, b: [String], c: Double, d: String) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(a, forKey: .a)
        var nested = container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
        try nested.encode(c, forKey: .c)
        var list = nested.nestedUnkeyedContainer(forKey: .list)
        for item in b {
            try list.encode(item)
        }
        var inner = list.nestedUnkeyedContainer()
        try inner.encodeNil()
        var parent = container.superEncoder(forKey: .parent).unkeyedContainer()
        try d.encode(to: parent.superEncoder())
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        a = try container.decode(Int.self, forKey: .a)
        let nested = try container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
        c = try nested.decode(Double.self, forKey: .c)
        var list = try nested.nestedUnkeyedContainer(forKey: .list)
        var items: [String] = []
        while items.count < 2 {
            items.append(try list.decode(String.self))
        }
        var inner = try list.nestedUnkeyedContainer()
        guard try inner.decodeNil(), list.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: list, debugDescription: "unexpected list shape")
        }
        b = items
        var parent = try container.superDecoder(forKey: .parent).unkeyedContainer()
        d = try String(from: parent.superDecoder())
    }
}

struct UnusedSuper: Encodable {
    var value: Int

    enum Keys: String, CodingKey {
        case value
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        _ = container.superEncoder()
        try container.encode(value, forKey: .value)
    }
}

struct Interleaved: Encodable {
    enum Keys: String, CodingKey {
        case nested, later, inner
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
        try container.encode(1, forKey: .later)
        try nested.encode(2, forKey: .inner)
    }
}

struct TwiceKeyed: Encodable {
    enum Keys: String, CodingKey {
        case once
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .once)
        try container.encode(2, forKey: .once)
    }
}

struct Scaled: Codable {
    var value: Int

    init(value: Int) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        let scale = try #require(encoder.userInfo.first?.value as? Int)
        var container = encoder.singleValueContainer()
        try container.encode(value * scale)
    }

    init(from decoder: any Decoder) throws {
        let scale = try #require(decoder.userInfo.first?.value as? Int)
        value = try decoder.singleValueContainer().decode(Int.self) * scale
    }
}
