import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveFormatTests {
    struct P: Codable, Equatable {
        var x = 1
        var name = "a"
    }

    @Test("the documented example encodes to exactly the documented bytes")
    func documentedExample() throws {
        let expected: [UInt8] = [
            0x53, 0x52, 0x76, 0x01,
            0x02, 0x07,
            0x01, 0x78,
            0x04, 0x6E, 0x61, 0x6D, 0x65,
            0x25,
            0x00, 0x42,
            0x01, 0x81, 0x61,
        ]
        #expect(Array(try ArchiveEncoder().encode(P())) == expected)
        #expect(try ArchiveDecoder().decode(P.self, from: Data(expected)) == P())
    }

    @Test("typed arrays and plain arrays both decode as arrays of scalars")
    func bothArrayForms() throws {
        let typed = Bytes.archive(root: Bytes.container(Bytes.typedArray, count: 2, [Bytes.int, 0x02, 0x03]))
        let plain = Bytes.archive(root: Bytes.container(Bytes.array, count: 2, Bytes.int(1) + Bytes.int(-2)))
        #expect(try ArchiveDecoder().decode([Int].self, from: typed) == [1, -2])
        #expect(try ArchiveDecoder().decode([Int].self, from: plain) == [1, -2])
        #expect(try ArchiveDecoder().decode([Int64?].self, from: typed) == [1, -2])
        #expect(try ArchiveValue(decoding: typed) == ArchiveValue(decoding: plain))
    }

    @Test("a container header longer than one byte is spliced in correctly")
    func largeContainers() throws {
        let long = (0..<300).map { "item \($0)" }
        let nested = [long, [], long]
        #expect(try ArchiveDecoder().decode([[String]].self, from: ArchiveEncoder().encode(nested)) == nested)
        let many = Dictionary(uniqueKeysWithValues: (0..<500).map { ($0, String(repeating: "x", count: $0 % 7)) })
        #expect(try ArchiveDecoder().decode([Int: String].self, from: ArchiveEncoder().encode(many)) == many)
    }

    @Test("Data payloads of every size round-trip, and lengthen the headers of the containers around them")
    func dataPayloadSizes() throws {
        let sizes = [0, 1, 63, 64, 1_023, 1_024, 70_000]
        let payloads = sizes.map { Data(repeating: UInt8(truncatingIfNeeded: $0), count: $0) }
        let nested = ["a": payloads, "b": [], "c": Array(payloads.reversed())]
        #expect(try ArchiveDecoder().decode([String: [Data]].self, from: ArchiveEncoder().encode(nested)) == nested)
        let top = Data(repeating: 7, count: 2_000)
        #expect(try rootBytes(top) == [0x08, 0xD0, 0x0F] + Array(top))
    }

    /// The canonical headers, written independently of the encoder: the short forms
    /// wherever the count and length allow them.
    private enum Canonical {
        static func array(count: Int, _ content: [UInt8]) -> [UInt8] {
            count < 32
                ? [Bytes.smallArray | UInt8(count)] + Bytes.varint(UInt64(content.count)) + content
                : Bytes.container(Bytes.array, count: count, content)
        }

        static func keyed(_ content: [UInt8]) -> [UInt8] {
            content.count < 32
                ? [Bytes.smallKeyed | UInt8(content.count)] + content
                : [Bytes.keyed] + Bytes.varint(UInt64(content.count)) + content
        }
    }

    struct Named: Codable, Equatable {
        var s: String
    }

    struct Holder: Codable, Equatable {
        var inner: Named
    }

    @Test("containers on either side of every short-header limit get the canonical header, nested ones too")
    func headerLimits() throws {
        for n in 0...140 {
            // Plain arrays of one-byte elements: count 31/32, length 127/128.
            let bools = (0..<n).map { $0 % 3 == 0 }
            let boolBytes = bools.map { $0 ? Bytes.boolTrue : Bytes.boolFalse }
            let array = Canonical.array(count: n, boolBytes)
            #expect(try ArchiveEncoder().encode(bools) == Bytes.archive(root: array), "\(n) booleans")
            #expect(try ArchiveEncoder().encode(ProtocolArray(bools)) == Bytes.archive(root: array))
            // Typed arrays of one-byte varints after the element tag: length 127/128.
            let ints = (0..<n).map { $0 % 60 }
            let typed = Bytes.container(
                Bytes.typedArray, count: n, [Bytes.int] + ints.map { UInt8($0 * 2) })
            #expect(try ArchiveEncoder().encode(ints) == Bytes.archive(root: typed), "\(n) integers")
            // Two of the plain arrays inside another: its length counts their headers.
            let outer = Canonical.array(count: 2, array + array)
            #expect(try ArchiveEncoder().encode([bools, bools]) == Bytes.archive(root: outer), "2 x \(n)")
            #expect(try ArchiveDecoder().decode([[Bool]].self, from: Bytes.archive(root: outer)) == [bools, bools])
        }
        for length in 0...40 {
            // Keyed containers of 2 to 42 payload bytes: length 31/32.
            let text = String(repeating: "k", count: length)
            let entry = [0x00, Bytes.fixString | UInt8(length)] + Array(text.utf8)
            let keyed = Canonical.keyed(entry)
            #expect(try ArchiveEncoder().encode(Named(s: text)) == Bytes.archive(names: ["s"], root: keyed))
            let inArray = Canonical.array(count: 3, keyed + keyed + keyed)
            let three = [Named(s: text), Named(s: text), Named(s: text)]
            #expect(try ArchiveEncoder().encode(three) == Bytes.archive(names: ["s"], root: inArray), "\(length)")
            // Inside another keyed container, whose length crosses 32 one byte later.
            let inner = Canonical.keyed([0x01, Bytes.fixString | UInt8(length)] + Array(text.utf8))
            let holder = Bytes.archive(names: ["inner", "s"], root: Canonical.keyed([0x00] + inner))
            #expect(try ArchiveEncoder().encode(Holder(inner: Named(s: text))) == holder, "\(length) inside")
            #expect(try ArchiveDecoder().decode(Holder.self, from: holder) == Holder(inner: Named(s: text)))
        }
    }

    /// An array coded the way the standard library's `Array` codes itself, element by
    /// element through the Encoder and Decoder protocols.
    struct ProtocolArray<Element: Codable & Equatable>: Codable, Equatable {
        var elements: [Element]

        init(_ elements: [Element]) { self.elements = elements }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            elements = []
            while !container.isAtEnd { elements.append(try container.decode(Element.self)) }
        }
    }

    struct Empty: Codable, Equatable {}

    @Test("arrays of structs read and write the bytes of an unkeyed container coded element by element")
    func arrayPathMatchesProtocolPath() throws {
        let points = (0..<40).map { P(x: $0 - 20, name: String(repeating: "p", count: $0)) }
        try expectSameBytes(points, ProtocolArray(points))
        try expectSameBytes([P](), ProtocolArray([P]()))
        try expectSameBytes(
            [[P]]([points, [], [P()]]), [ProtocolArray(points), ProtocolArray([]), ProtocolArray([P()])])
        try expectSameBytes([Empty(), Empty()], ProtocolArray([Empty(), Empty()]))
        try expectSameBytes([P?]([P(), nil]), ProtocolArray([P?]([P(), nil])))
    }

    /// `direct` and `viaProtocols` encode to the same bytes, and each decodes from the other's.
    private func expectSameBytes<A: Codable & Equatable, B: Codable & Equatable>(
        _ direct: A, _ viaProtocols: B, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directBytes = try ArchiveEncoder().encode(direct)
        let protocolBytes = try ArchiveEncoder().encode(viaProtocols)
        #expect(directBytes == protocolBytes, sourceLocation: sourceLocation)
        #expect(try ArchiveDecoder().decode(A.self, from: protocolBytes) == direct, sourceLocation: sourceLocation)
        #expect(try ArchiveDecoder().decode(B.self, from: directBytes) == viaProtocols, sourceLocation: sourceLocation)
    }

    /// The root value's bytes (after the 4-byte preamble and an empty name table).
    private func rootBytes(_ value: some Encodable) throws -> [UInt8] {
        Array(try ArchiveEncoder().encode(value).dropFirst(6))
    }

    @Test("small integers are one tag byte; larger ones a tag and a zigzag varint")
    func fixInt() throws {
        #expect(try rootBytes(0) == [0x40])
        #expect(try rootBytes(-1) == [0x41])
        #expect(try rootBytes(31) == [0x7E])
        #expect(try rootBytes(-32) == [0x7F])
        #expect(try rootBytes(32) == [0x03, 0x40])
        #expect(try rootBytes(-33) == [0x03, 0x41])
        for value in [Int.min, -33, -32, -1, 0, 31, 32, Int.max] {
            #expect(try ArchiveDecoder().decode(Int.self, from: ArchiveEncoder().encode(value)) == value)
            #expect(try ArchiveDecoder().decode(Double.self, from: ArchiveEncoder().encode(value)) == Double(value))
        }
        #expect(throws: DecodingError.self) {
            try ArchiveDecoder().decode(UInt.self, from: ArchiveEncoder().encode(-1))
        }
    }

    @Test("strings under 64 bytes carry their length in the tag")
    func fixString() throws {
        #expect(try rootBytes("") == [0x80])
        #expect(try rootBytes("ab") == [0x82, 0x61, 0x62])
        let short = String(repeating: "x", count: 63)
        let long = String(repeating: "x", count: 64)
        #expect(try rootBytes(short) == [0xBF] + Array(short.utf8))
        #expect(try rootBytes(long) == [0x07, 0x40] + Array(long.utf8))
        for text in [short, long, "", "naïve"] {
            #expect(try ArchiveDecoder().decode(String.self, from: ArchiveEncoder().encode(text)) == text)
        }
    }

    @Test("a double that is a short decimal is a scale tag and a zigzag mantissa; others stay 8 bytes")
    func decimalDoubles() throws {
        // 47.123 = 47123 / 10^3; zigzag(47123) = 94246 = varint A6 E0 05.
        #expect(try rootBytes(47.123) == [0x13, 0xA6, 0xE0, 0x05])
        #expect(try rootBytes(2.0) == [0x10, 0x04])
        #expect(try rootBytes(-0.5) == [0x11, 0x09])
        let third = 1.0 / 3.0
        #expect(try rootBytes(third) == [0x06] + withUnsafeBytes(of: third.bitPattern.littleEndian, Array.init))
        #expect(try rootBytes(-0.0).first == 0x06)
        #expect(try rootBytes(Double.nan).first == 0x06)
        #expect(try rootBytes(Double.infinity).first == 0x06)
        #expect(try rootBytes(1e300).first == 0x06)
        var generator = SplitMix64(state: 7)
        var samples: [Double] = [0, -0.0, 0.1, 0.2 + 0.1, 1e-7, 1.2345678, 123_456.789, -47.000_001, .pi]
        for _ in 0..<2000 {
            samples.append(Double(bitPattern: generator.next()))
            samples.append(Double(Int64(bitPattern: generator.next()) % 10_000_000) / 1000)
        }
        for value in samples {
            let decoded = try ArchiveDecoder().decode(Double.self, from: ArchiveEncoder().encode(value))
            #expect(decoded.bitPattern == value.bitPattern || (decoded.isNaN && value.isNaN))
        }
    }

    @Test("a date with a short decimal number of seconds is a scale tag and a zigzag mantissa")
    func decimalDates() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1.5)
        #expect(try rootBytes(date) == [0x19, 0x1E])
        let precise = Date(timeIntervalSinceReferenceDate: 1.0 / 3.0)
        #expect(try rootBytes(precise).first == 0x09)
        for value in [date, precise, Date(timeIntervalSinceReferenceDate: 788_918_400.123)] {
            #expect(try ArchiveDecoder().decode(Date.self, from: ArchiveEncoder().encode(value)) == value)
        }
    }

    @Test(
        "small containers: a keyed container under 32 bytes has its length in the tag, an array under 32 elements its count"
    )
    func smallContainers() throws {
        struct Empty: Codable, Equatable {}
        #expect(try rootBytes(Empty()) == [0x20])
        #expect(try rootBytes([true, false]) == [0xC2, 0x02, 0x02, 0x01])
        let bools = Array(repeating: true, count: 32)
        #expect(try rootBytes(bools) == [0x0C, 0x20, 0x20] + Array(repeating: 0x02, count: 32))
        let nested = [[1, 2], [], Array(0..<40)]
        #expect(try ArchiveDecoder().decode([[Int]].self, from: ArchiveEncoder().encode(nested)) == nested)
        let big = Dictionary(uniqueKeysWithValues: (0..<40).map { ("k\($0)", $0) })
        #expect(try ArchiveDecoder().decode([String: Int].self, from: ArchiveEncoder().encode(big)) == big)
        #expect(try ArchiveDecoder().decode(Empty.self, from: ArchiveEncoder().encode(Empty())) == Empty())
    }
}
