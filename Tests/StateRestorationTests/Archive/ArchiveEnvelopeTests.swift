import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveEnvelopeTests {
    let body = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    private func openError(_ data: Data, supported: ClosedRange<UInt16> = 1...1) -> ArchiveError? {
        #expect(throws: ArchiveError.self) {
            try ArchiveEnvelope.open(data, supportedVersions: supported)
        }
    }

    @Test("a sealed body opens to the same body and version")
    func roundTrip() throws {
        for length in [0, 1, 7, 8, 9, 1000] {
            let sealed = ArchiveEnvelope.seal(body.prefix(length), formatVersion: 3)
            #expect(sealed.count == ArchiveEnvelope.headerSize + length)
            let (version, opened) = try ArchiveEnvelope.open(sealed, supportedVersions: 1...3)
            #expect(version == 3)
            #expect(opened == body.prefix(length))
        }
    }

    @Test("an encoded archive survives sealing and opening")
    func archiveInEnvelope() throws {
        let value = ScreenState.sample(seed: 2, depth: 1)
        let sealed = ArchiveEnvelope.seal(try ArchiveEncoder().encode(value), formatVersion: 1)
        let (_, opened) = try ArchiveEnvelope.open(sealed, supportedVersions: 1...1)
        #expect(try ArchiveDecoder().decode(ScreenState.self, from: opened) == value)
    }

    @Test("data shorter than a header is truncated", arguments: [0, 1, 23])
    func tooShort(length: Int) {
        let sealed = ArchiveEnvelope.seal(body, formatVersion: 1)
        let error = openError(sealed.prefix(length))
        #expect(error?.code == .truncated)
        #expect(error?.message.contains("expected a 24-byte header") == true)
    }

    @Test("a wrong magic is badMagic, checked before the version")
    func wrongMagic() {
        var sealed = ArchiveEnvelope.seal(body, formatVersion: 99)
        sealed[1] ^= 0x20
        let error = openError(sealed)
        #expect(error?.code == .badMagic)
        #expect(error?.message.contains("bad magic at byte 0") == true)
        // A standalone value archive is not an envelope.
        #expect(
            openError((try? ArchiveEncoder().encode(ScreenState.sample(seed: 1, depth: 0))) ?? Data())?.code
                == .badMagic)
    }

    @Test("a newer format version is unsupported, and the message says found vs supported")
    func newerVersion() {
        let sealed = ArchiveEnvelope.seal(body, formatVersion: 7)
        let error = openError(sealed, supported: 1...2)
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.message.contains("version 7") == true)
        #expect(error?.message.contains("supported: 1...2") == true)
        #expect(openError(ArchiveEnvelope.seal(body, formatVersion: 0), supported: 1...2)?.code == .unsupportedVersion)
    }

    @Test("a body shorter than recorded is truncated; a longer one has trailing bytes")
    func bodyLength() {
        let sealed = ArchiveEnvelope.seal(body, formatVersion: 1)
        let short = openError(sealed.dropLast())
        #expect(short?.code == .truncated)
        #expect(short?.message.contains("1000-byte body, found 999 bytes") == true)
        let long = openError(sealed + Data([0, 0]))
        #expect(long?.code == .lengthMismatch)
        #expect(long?.message.contains("2 trailing bytes") == true)
    }

    @Test("a changed checksum is a mismatch naming both values in hex")
    func checksumMismatch() throws {
        var sealed = ArchiveEnvelope.seal(body, formatVersion: 1)
        let header = try ArchiveEnvelope.inspectHeader(sealed)
        sealed[20] ^= 0xFF
        let error = openError(sealed)
        #expect(error?.code == .checksumMismatch)
        let stored = header.storedChecksum ^ 0xFF
        #expect(error?.message.contains(String(stored, radix: 16, uppercase: true)) == true)
        #expect(error?.message.contains(String(header.computedChecksum, radix: 16, uppercase: true)) == true)
    }

    @Test(
        "a single flipped bit anywhere in the body is caught by the checksum",
        arguments: [0, 1, 7, 8, 255, 500, 998, 999])
    func flippedBit(position: Int) {
        for bit in [0, 3, 7] {
            var sealed = ArchiveEnvelope.seal(body, formatVersion: 1)
            sealed[ArchiveEnvelope.headerSize + position] ^= UInt8(1 << bit)
            #expect(openError(sealed)?.code == .checksumMismatch)
        }
    }

    @Test("inspectHeader reports every field, even for a damaged body")
    func inspect() throws {
        var sealed = ArchiveEnvelope.seal(body, formatVersion: 5)
        let intact = try ArchiveEnvelope.inspectHeader(sealed)
        #expect(intact.magicMatches)
        #expect(intact.formatVersion == 5)
        #expect(intact.flags == 0)
        #expect(intact.bodyLength == 1000)
        #expect(intact.actualBodyLength == 1000)
        #expect(intact.storedChecksum == CRC32C.checksum(body))
        #expect(intact.checksumMatches)
        sealed[100] ^= 1
        let damaged = try ArchiveEnvelope.inspectHeader(sealed)
        #expect(!damaged.checksumMatches)
        #expect(damaged.storedChecksum == intact.storedChecksum)
        #expect(try !ArchiveEnvelope.inspectHeader(sealed.dropLast()).checksumMatches)
    }

    @Test("CRC-32C matches the standard check value and a bytewise reference")
    func crcMatchesReference() {
        #expect(CRC32C.checksum(Data("123456789".utf8)) == 0xE306_9283)
        var generator = SplitMix64(state: 42)
        // From 4,096 bytes the checksum runs in four lanes joined at the end: lengths around
        // that threshold, 4,096…4,160 for a tail of every size after the lanes, and a long one.
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4095] + Array(4096...4160) + [65_543] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Unaligned starts too: slice off a leading byte.
            let data = Data([0] + bytes).dropFirst()
            #expect(CRC32C.checksum(data) == bytewiseCRC32C(bytes), "length \(length)")
        }
    }

    private func bytewiseCRC32C(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
            }
        }
        return ~crc
    }
}
