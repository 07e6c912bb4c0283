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
}
