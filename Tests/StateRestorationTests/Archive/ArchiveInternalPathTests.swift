import Foundation
import Testing

@testable import StateRestoration

/// The coordinator's internal encoding paths write exactly what the public ones do.
@Suite struct ArchiveInternalPathTests {
    struct Blobs: Codable, Equatable {
        var small: Data
        var list: [Data]
        var nested: [String: [Data]]
        var after: [String]
    }

    private func blobs() -> Blobs {
        let sizes = [0, 1, 1_023, 1_024, 1_025, 5_000, 70_000]
        let payloads = sizes.map { size in Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) }) }
        return Blobs(
            small: payloads[1], list: payloads, nested: ["a": Array(payloads.reversed()), "b": [], "c": [payloads[4]]],
            after: (0..<40).map { "after \($0)" })
    }

    @Test("Data payloads copied straight into the output give the bytes the copying encoder gives")
    func largePayloadsByReference() throws {
        let value = blobs()
        let copied = try ArchiveEncoder().encode(value)
        let referenced = try ArchiveEncoder().encode(value, owningLargePayloads: true)
        #expect(referenced == copied)
        #expect(try ArchiveDecoder().decode(Blobs.self, from: referenced) == value)
        let top = Data(repeating: 7, count: 2_000)
        #expect(try ArchiveEncoder().encode(top, owningLargePayloads: true) == ArchiveEncoder().encode(top))
    }

    @Test("encodeSealed writes the envelope seal(encode(value)) writes")
    func sealedInPlace() throws {
        let value = blobs()
        let sealed = try ArchiveEncoder().encodeSealed(value, formatVersion: 3)
        #expect(sealed == ArchiveEnvelope.seal(try ArchiveEncoder().encode(value), formatVersion: 3))
        let (version, body) = try ArchiveEnvelope.open(sealed, supportedVersions: 1...3)
        #expect(version == 3)
        #expect(try ArchiveDecoder().decode(Blobs.self, from: body) == value)
    }

    @Test("CRC-32C shifts compose for byte counts up to 2^62, past the powers' period")
    func crcShiftsCompose() {
        var generator = SplitMix64(state: 99)
        for _ in 0..<200 {
            let crc = UInt32(truncatingIfNeeded: generator.next())
            let a = Int(generator.next() >> 3)
            let b = Int(generator.next() >> 3)
            #expect(
                CRC32C.shift(CRC32C.shift(crc, byZeroBytes: a), byZeroBytes: b)
                    == CRC32C.shift(crc, byZeroBytes: a &+ b))
        }
        let crc: UInt32 = 0x1234_5678
        #expect(
            CRC32C.shift(crc, byZeroBytes: 1 << 29)
                == CRC32C.shift(CRC32C.shift(crc, byZeroBytes: 1 << 28), byZeroBytes: 1 << 28))
        // Shifting by one zero byte is one step of the bytewise algorithm.
        var register = crc
        for _ in 0..<8 {
            register = (register & 1) != 0 ? (register >> 1) ^ 0x82F6_3B78 : register >> 1
        }
        #expect(CRC32C.shift(crc, byZeroBytes: 1) == register)
    }

    @Test("CRC-32C shifts by table agree with the bitwise product and with running the bytewise algorithm over zeros")
    func crcShiftsByTable() {
        var generator = SplitMix64(state: 7)
        CRC32C.powerTables.withUnsafeBufferPointer { tables in
            let t = tables.baseAddress.unsafelyUnwrapped
            for k in CRC32C.powers.indices {
                for _ in 0..<64 {
                    let b = UInt32(truncatingIfNeeded: generator.next())
                    #expect(CRC32C.multiply(byPower: k, b, t) == CRC32C.multiply(CRC32C.powers[k], b), "power \(k)")
                }
            }
        }
        for _ in 0..<8 {
            let crc = UInt32(truncatingIfNeeded: generator.next())
            var register = crc
            for count in 0..<600 {
                #expect(CRC32C.shift(crc, byZeroBytes: count) == register, "\(count) zero bytes")
                for _ in 0..<8 {
                    register = (register & 1) != 0 ? (register >> 1) ^ 0x82F6_3B78 : register >> 1
                }
            }
        }
    }
}

/// The decoder's inline skip of a value (``ArchiveDecodingState/skipSimpleValue(at:end:)``), which
/// indexes keyed containers, agrees with the full one.
@Suite struct ArchiveSkipTests {
    @Test("Wherever the inline skip answers, skipValue gives the same end; it never answers past the end")
    func inlineSkipAgrees() throws {
        var random = SplitMix64(state: 0x5C1B_2026)
        var answered = 0
        for _ in 0..<400 {
            let count = Int.random(in: 1...300, using: &random)
            // Mostly small bytes, so that lengths and varints often fit.
            let payload = (0..<count).map { _ in
                Bool.random(using: &random)
                    ? UInt8.random(in: 0...20, using: &random) : UInt8.random(in: 0...255, using: &random)
            }
            let state = try ArchiveDecodingState(
                copying: ArchiveEncoder().encode(Data(payload)), maximumDepth: 10, userInfo: [:])
            let end = state.size
            for position in (end - count)..<end {
                guard let simple = state.skipSimpleValue(at: position, end: end) else { continue }
                answered += 1
                #expect(simple <= end)
                #expect((try? state.skipValue(at: position, end: end, implied: ArchiveTag.none)) == simple)
            }
        }
        #expect(answered > 10_000, "the inline skip answered for most positions")
    }

    @Test("The skip table gives every tag of the format its payload rule, and rejects the rest")
    func skipRules() {
        for tag in 0...255 {
            let rule = ArchiveTag.skipRule(UInt8(tag))
            #expect((rule == ArchiveTag.skipInvalid) == !ArchiveTag.isValid(UInt8(tag)), "tag \(tag)")
        }
        #expect(ArchiveTag.skipRule(ArchiveTag.float64) == 8)
        #expect(ArchiveTag.skipRule(ArchiveTag.uuid) == 16)
        #expect(ArchiveTag.skipRule(0x25) == 5, "a keyed container of 5 bytes")
        #expect(ArchiveTag.skipRule(0x83) == 3, "a string of 3 bytes")
        #expect(ArchiveTag.skipRule(0x13) == ArchiveTag.skipVarint, "a decimal double")
        #expect(ArchiveTag.skipRule(0xC2) == ArchiveTag.skipLength, "an array of 2 elements")
        #expect(ArchiveTag.skipRule(ArchiveTag.typedArray) == ArchiveTag.skipCountAndLength)
    }

    /// Every kind of scalar a keyed container writes, at its widest, and a nil.
    struct WideScalars: Codable, Equatable {
        var pad: String
        var int = Int.min
        var int64 = Int64.max
        var uint = UInt.max
        var uint64 = UInt64.max
        var int8 = Int8.min
        var uint32 = UInt32.max
        var double = Double.pi
        var decimal = -123_456.789_012_3
        var float = Float.pi
        var flag = true
        var none: Int?

        init(pad: String) { self.pad = pad }

        enum CodingKeys: String, CodingKey {
            case pad, int, int64, uint, uint64, int8, uint32, double, decimal, float, flag, none
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pad, forKey: .pad)
            try container.encode(int, forKey: .int)
            try container.encode(int64, forKey: .int64)
            try container.encode(uint, forKey: .uint)
            try container.encode(uint64, forKey: .uint64)
            try container.encode(int8, forKey: .int8)
            try container.encode(uint32, forKey: .uint32)
            try container.encode(double, forKey: .double)
            try container.encode(decimal, forKey: .decimal)
            try container.encode(float, forKey: .float)
            try container.encode(flag, forKey: .flag)
            try container.encodeNil(forKey: .none)
        }
    }

    // The keyed container writes a key's name index and a scalar value after one capacity
    // check for both. States whose buffers start at each of 1 to 96 bytes and double as they
    // fill run out of room at many different offsets among such entries. A scalar written
    // without its room fails the writers' assertion in a debug build, and stops the test
    // under AddressSanitizer; the bytes alone could not show it (growing copies them all).
    @Test("encodes from small buffers grow them at keyed scalar entries of every width and write the same bytes")
    func growthInsideKeyedEntries() throws {
        let value = (0..<48).map { WideScalars(pad: String(repeating: "x", count: $0)) }
        let expected = try ArchiveEncoder().encode(value)
        for capacity in 1...96 {
            let state = ArchiveEncodingState(userInfo: [:], capacity: capacity)
            state.takeNameBook()
            try state.encodeGeneric(value, parent: -1, depth: 0)
            let grown = state.finish()
            state.returnNameBook()
            #expect(grown == expected, "starting from \(capacity) bytes")
        }
        #expect(try ArchiveDecoder().decode([WideScalars].self, from: expected) == value)
    }
}
