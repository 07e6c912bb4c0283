import Foundation
import StateRestoration
import Testing

/// Key types of every shape (enums of one or many cases, one-byte structs, dictionaries'
/// string keys) across archives that number their names differently: every key must get its
/// own name, and every coding path its own keys.
@Suite struct ArchiveKeyTypeTests {
    /// Encodes `a` then `b`: the archive's name table has `a` first.
    struct InOrder: Codable, Equatable {
        var a: Int
        var b: Int
    }

    /// Encodes `b` then `a`: the archive's name table has `b` first.
    struct Reversed: Codable, Equatable {
        var b: Int
        var a: Int
    }

    /// Keys whose names are not their case names, in another order than the names sort.
    struct Renamed: Codable, Equatable {
        var first: Int
        var second: String

        enum CodingKeys: String, CodingKey {
            case first = "zeta"
            case second = "alpha"
        }
    }

    /// The fields of ``Renamed`` under the names its keys give them.
    struct Plain: Codable, Equatable {
        var alpha: String
        var zeta: Int
    }

    /// A key type of one case: its values have no bytes.
    struct OneField: Codable, Equatable {
        var only: [Int]
    }

    /// A key type that is a one-byte struct rather than an enum.
    struct Switch: Codable, Equatable {
        var on: String
        var off: Double

        struct Key: CodingKey {
            var isOn: Bool
            init(isOn: Bool) { self.isOn = isOn }
            init?(stringValue: String) {
                guard stringValue == "on" || stringValue == "off" else { return nil }
                isOn = stringValue == "on"
            }
            init?(intValue: Int) { nil }
            var stringValue: String { isOn ? "on" : "off" }
            var intValue: Int? { nil }
        }

        init(on: String, off: Double) {
            self.on = on
            self.off = off
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            off = try container.decode(Double.self, forKey: Key(isOn: false))
            on = try container.decode(String.self, forKey: Key(isOn: true))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(on, forKey: Key(isOn: true))
            try container.encode(off, forKey: Key(isOn: false))
        }
    }

    /// A key type with 70 cases.
    struct Wide: Codable, Equatable {
        var values: [Int]

        struct Key: CodingKey {
            var stringValue: String
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
            var intValue: Int? { nil }
        }

        enum Field: CaseIterable, CodingKey {
            case f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19
            case f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37
            case f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55
            case f56, f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69
        }

        init(values: [Int]) { self.values = values }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Field.self)
            values = try Field.allCases.reversed().map { try container.decode(Int.self, forKey: $0) }.reversed()
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Field.self)
            for (field, value) in zip(Field.allCases, values) {
                try container.encode(value, forKey: field)
            }
        }

        /// The names in the archive, read with string keys.
        struct Names: Decodable {
            var names: Set<String>
            init(from decoder: any Decoder) throws {
                names = Set(try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue))
            }
        }
    }

    @Test("a key type's names are looked up in each archive's own name table")
    func tablesFollowTheArchive() throws {
        let inOrder = try ArchiveEncoder().encode(InOrder(a: 1, b: 2))
        let reversed = try ArchiveEncoder().encode(Reversed(b: 20, a: 10))
        // The two archives number `a` and `b` the other way round: a numbering carried from
        // one decode to the next would read the other field.
        for _ in 0..<3 {
            #expect(try ArchiveDecoder().decode(InOrder.self, from: inOrder) == InOrder(a: 1, b: 2))
            #expect(try ArchiveDecoder().decode(InOrder.self, from: reversed) == InOrder(a: 10, b: 20))
            #expect(try ArchiveDecoder().decode(Reversed.self, from: inOrder) == Reversed(b: 2, a: 1))
            #expect(try ArchiveDecoder().decode(Reversed.self, from: reversed) == Reversed(b: 20, a: 10))
        }
    }

    @Test("concurrent coding calls each get their own names")
    func concurrentCalls() async throws {
        let inOrder = try ArchiveEncoder().encode(InOrder(a: 1, b: 2))
        let reversed = try ArchiveEncoder().encode(Reversed(b: 20, a: 10))
        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failures = 0
                    for round in 0..<200 {
                        let value = InOrder(a: task, b: round)
                        let decoded = try? ArchiveDecoder().decode(
                            Reversed.self, from: ArchiveEncoder().encode(value))
                        if decoded != Reversed(b: round, a: task) { failures += 1 }
                        let data = round % 2 == 0 ? inOrder : reversed
                        let expected = round % 2 == 0 ? InOrder(a: 1, b: 2) : InOrder(a: 10, b: 20)
                        if (try? ArchiveDecoder().decode(InOrder.self, from: data)) != expected { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    @Test("a key's name is its stringValue, whatever its case's position")
    func renamedKeys() throws {
        let value = Renamed(first: 7, second: "seven")
        for _ in 0..<3 {
            let data = try ArchiveEncoder().encode(value)
            #expect(try ArchiveDecoder().decode(Plain.self, from: data) == Plain(alpha: "seven", zeta: 7))
            #expect(try ArchiveDecoder().decode(Renamed.self, from: data) == value)
            let plain = try ArchiveEncoder().encode(Plain(alpha: "eight", zeta: 8))
            #expect(try ArchiveDecoder().decode(Renamed.self, from: plain) == Renamed(first: 8, second: "eight"))
        }
    }

    @Test("a one-case key type, a one-byte struct key type, and a key type of 70 cases round-trip")
    func otherKeyTypes() throws {
        for round in 0..<3 {
            let one = OneField(only: [round, 2, 3])
            #expect(try ArchiveDecoder().decode(OneField.self, from: ArchiveEncoder().encode(one)) == one)

            let toggle = Switch(on: "lamp \(round)", off: 0.5 + Double(round))
            let switchData = try ArchiveEncoder().encode(toggle)
            #expect(try ArchiveDecoder().decode(Switch.self, from: switchData) == toggle)

            let wide = Wide(values: (0..<70).map { $0 * 10 + round })
            let wideData = try ArchiveEncoder().encode(wide)
            #expect(try ArchiveDecoder().decode(Wide.self, from: wideData) == wide)
            let names = try ArchiveDecoder().decode(Wide.Names.self, from: wideData).names
            #expect(names == Set(Wide.Field.allCases.map(\.stringValue)))
        }
    }

    @Test("an encode after one of many names numbers its names afresh")
    func tablesFollowTheBook() throws {
        let value = Renamed(first: 1, second: "one")
        let before = try ArchiveEncoder().encode(value)
        // An encode of many names, then one of few: the second numbers its own names from 0.
        var many: [String: Int] = [:]
        for index in 0..<1_500 { many["name\(index)"] = index }
        let manyData = try ArchiveEncoder().encode(many)
        #expect(try ArchiveDecoder().decode([String: Int].self, from: manyData) == many)
        let after = try ArchiveEncoder().encode(value)
        #expect(after == before)
        #expect(try ArchiveDecoder().decode(Plain.self, from: after) == Plain(alpha: "one", zeta: 1))
    }

    // MARK: - Coding paths

    /// Throws its coder's coding path, rendered, when encoded or decoded.
    struct Probe: Codable {
        struct Path: Error, Equatable {
            var keys: [String]
        }

        static func render(_ path: [any CodingKey]) -> [String] {
            path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
        }

        init() {}

        init(from decoder: any Decoder) throws {
            throw Path(keys: Self.render(decoder.codingPath))
        }

        func encode(to encoder: any Encoder) throws {
            throw Path(keys: Self.render(encoder.codingPath))
        }
    }

    /// Enum keys, array indices, a dictionary's string keys, a one-case key type and a
    /// one-byte struct key type on the way to a value.
    struct Outer<Leaf: Codable>: Codable {
        var items: [Middle<Leaf>]
    }

    struct Middle<Leaf: Codable>: Codable {
        var byName: [String: Inner<Leaf>]
    }

    struct Inner<Leaf: Codable>: Codable {
        var only: Flagged<Leaf>
    }

    struct Flagged<Leaf: Codable>: Codable {
        var leaf: Leaf

        init(leaf: Leaf) { self.leaf = leaf }

        init(from decoder: any Decoder) throws {
            leaf = try decoder.container(keyedBy: Switch.Key.self).decode(Leaf.self, forKey: Switch.Key(isOn: true))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Switch.Key.self)
            try container.encode(leaf, forKey: Switch.Key(isOn: true))
        }
    }

    func tree<Leaf>(_ leaf: Leaf, other: Leaf) -> Outer<Leaf> {
        Outer(items: [
            Middle(byName: ["x": Inner(only: Flagged(leaf: other))]),
            Middle(byName: ["deep": Inner(only: Flagged(leaf: leaf))]),
        ])
    }

    @Test("encoders and decoders report the path of every kind of key on the way to a value")
    func codingPaths() throws {
        let expected = ["items", "[1]", "byName", "deep", "only", "on"]
        // Paths of other shapes first, so that stale components sit where this one's go.
        _ = try? ArchiveEncoder().encode([[["a": [Probe()]]]])
        let encoding = #expect(throws: Probe.Path.self) {
            try ArchiveEncoder().encode(tree(Probe(), other: Probe()))
        }
        // The first item's probe throws first.
        #expect(encoding?.keys == ["items", "[0]", "byName", "x", "only", "on"])

        let data = try ArchiveEncoder().encode(tree(1, other: 2))
        let decoding = #expect(throws: Probe.Path.self) {
            try ArchiveDecoder().decode(Outer<OnlySecond>.self, from: data)
        }
        #expect(decoding?.keys == expected)

        let mismatch = #expect(throws: DecodingError.self) {
            try ArchiveDecoder().decode(Outer<String>.self, from: data)
        }
        guard case .typeMismatch(_, let context) = mismatch else {
            Issue.record("expected a type mismatch, got \(String(describing: mismatch))")
            return
        }
        #expect(Probe.render(context.codingPath) == ["items", "[0]", "byName", "x", "only", "on"])
    }

    /// A dictionary's string key, then a one-byte key, at the same depth.
    struct DictionaryThenProbe: Encodable {
        var first = ["k": 1]
        var second = Holder()

        struct Holder: Encodable {
            var probe = Probe()
        }
    }

    @Test("a depth that held a boxed key reports the one-byte key written there later")
    func boxedThenByte() throws {
        let thrown = #expect(throws: Probe.Path.self) {
            try ArchiveEncoder().encode(DictionaryThenProbe())
        }
        #expect(thrown?.keys == ["second", "probe"])
    }

    /// A key whose name is read from a setting that changes between encodes.
    struct Prefixed: Codable, Equatable {
        nonisolated(unsafe) static var prefix = "v1_"
        var a: Int

        enum CodingKeys: CodingKey {
            case a
            var stringValue: String { Prefixed.prefix + "a" }
            var intValue: Int? { nil }
            init?(stringValue: String) {
                guard stringValue == Prefixed.prefix + "a" else { return nil }
                self = .a
            }
            init?(intValue: Int) { nil }
        }
    }

    /// The names in an archive, read with string keys.
    struct Names: Decodable {
        var names: [String]
        init(from decoder: any Decoder) throws {
            names = try decoder.container(keyedBy: Wide.Key.self).allKeys.map(\.stringValue)
        }
    }

    @Test("a key's name is asked again in every encode and decode")
    func namesPerCall() throws {
        Prefixed.prefix = "v1_"
        let first = try ArchiveEncoder().encode(Prefixed(a: 1))
        Prefixed.prefix = "v2_"
        let second = try ArchiveEncoder().encode(Prefixed(a: 2))
        #expect(try ArchiveDecoder().decode(Names.self, from: first).names == ["v1_a"])
        #expect(try ArchiveDecoder().decode(Names.self, from: second).names == ["v2_a"])
        #expect(try ArchiveDecoder().decode(Prefixed.self, from: second) == Prefixed(a: 2))
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Prefixed.self, from: first) }
        Prefixed.prefix = "v1_"
        #expect(try ArchiveDecoder().decode(Prefixed.self, from: first) == Prefixed(a: 1))
    }

    /// Decodes an Int, but throws its path when it reads the 1 of the second item.
    struct OnlySecond: Codable {
        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer().decode(Int.self)
            if value == 1 { throw Probe.Path(keys: Probe.render(decoder.codingPath)) }
        }

        func encode(to encoder: any Encoder) throws {}
    }
}
