import Foundation
@testable import StateRestoration
import Testing

/// The CRC-32C registers an encoding returns, and the checksums derived from the registers of
/// the earlier encodings it holds, as a save computes them for the nodes it re-encodes.
@Suite struct ArchiveRegisterTests {
    /// A node-like record: fields, then earlier encodings as `Data`, large and small.
    struct Record: Codable, Equatable {
        var name: String
        var parts: [Data]
        var tail: Data?
    }

    /// A record of `parts` with a random name, and the same record's plain encoding.
    static func record(_ parts: [Data], _ random: inout SplitMix64) -> Record {
        Record(
            name: String(repeating: "n", count: Int.random(in: 0...300, using: &random)), parts: parts,
            tail: Bool.random(using: &random)
                ? Data(repeating: 7, count: Int.random(in: 0...9000, using: &random)) : nil)
    }

    /// Looks registers up by value, as the archiver does; counts the lookups that hit.
    final class Registers {
        var known: [(data: Data, register: UInt32)] = []
        var hits = 0

        func register(of data: Data) -> UInt32? {
            for entry in known where entry.data == data {
                hits += 1
                return entry.register
            }
            return nil
        }
    }

    @Test("A register built from known payloads equals the register of the bytes, three levels deep")
    func registersCombine() throws {
        var random = SplitMix64(state: 0xC0C0_2026)
        let encoder = ArchiveEncoder()
        let registers = Registers()
        var level: [Data] = []
        for _ in 0..<12 {
            let leaf = Self.record([Data(repeating: 1, count: Int.random(in: 0...6000, using: &random))], &random)
            let (bytes, register) = try encoder.encodeWithRegister(leaf) { registers.register(of: $0) }
            #expect(bytes == (try encoder.encode(leaf)))
            #expect(register == bytes.withUnsafeBytes { CRC32C.register($0) })
            registers.known.append((bytes, register))
            level.append(bytes)
        }
        for depth in 1...2 {
            var next: [Data] = []
            for start in stride(from: 0, to: level.count, by: 3) {
                let parent = Self.record(Array(level[start..<min(start + 3, level.count)]), &random)
                let (bytes, register) = try encoder.encodeWithRegister(parent) { registers.register(of: $0) }
                #expect(bytes == (try encoder.encode(parent)), "depth \(depth)")
                #expect(register == bytes.withUnsafeBytes { CRC32C.register($0) }, "depth \(depth)")
                registers.known.append((bytes, register))
                next.append(bytes)
            }
            level = next
        }
        #expect(registers.hits > 0, "some payloads were large enough to be folded in")

        // The sealed archive's checksum from the registers equals the one read from its body.
        let top = Self.record(level, &random)
        let sealed = try encoder.encodeSealed(top, formatVersion: 1) { registers.register(of: $0) }
        #expect(sealed == ArchiveEnvelope.seal(try encoder.encode(top), formatVersion: 1))
    }

    @Test("Known payloads are not read again: a wrong register gives a wrong checksum, which the envelope rejects")
    func registersAreTrusted() throws {
        let encoder = ArchiveEncoder()
        let payload = Data(repeating: 0x5A, count: 10_000)
        let record = Record(name: "top", parts: [payload], tail: nil)
        let sealed = try encoder.encodeSealed(record, formatVersion: 1) { _ in 0x1234_5678 }
        #expect(throws: ArchiveError.self) { try ArchiveEnvelope.open(sealed, supportedVersions: 1...1) }
        let honest = try encoder.encodeSealed(record, formatVersion: 1) {
            $0.withUnsafeBytes { CRC32C.register($0) }
        }
        #expect(try ArchiveEnvelope.open(honest, supportedVersions: 1...1).body == (try encoder.encode(record)))
    }
}

/// An encoding written in place by the encoding that holds it (``ArchivePendingEncoding``).
@Suite struct ArchivePendingEncodingTests {
    struct Holder: Encodable {
        var before: String
        var inner: ArchivePendingEncoding
        var after: [Int]
    }

    struct PlainHolder: Encodable {
        var before: String
        var inner: Data
        var after: [Int]
    }

    @Test("Written in place, an encoding gives the bytes and register of its Data, and is a view of the output")
    func writtenInPlace() throws {
        var random = SplitMix64(state: 0xFEED_2026)
        let encoder = ArchiveEncoder()
        let registers = ArchiveRegisterTests.Registers()
        for size in [0, 900, 5000, 70_000] {
            let part = try encoder.encode(Data(repeating: 3, count: size))
            let partRegister = part.withUnsafeBytes { CRC32C.register($0) }
            registers.known.append((part, partRegister))
            let record = ArchiveRegisterTests.record([part, part], &random)
            let plain = try encoder.encode(record)
            let pending = try encoder.encodePending(record) { registers.register(of: $0) }
            #expect(pending.size == plain.count, "\(size)")

            let holder = Holder(before: "x", inner: pending, after: [1, 2, 3])
            let sealed = try encoder.encodeSealed(holder, formatVersion: 1) { registers.register(of: $0) }
            let expected = try encoder.encode(PlainHolder(before: "x", inner: plain, after: [1, 2, 3]))
            #expect(sealed == ArchiveEnvelope.seal(expected, formatVersion: 1), "\(size)")

            let (bytes, register) = try #require(pending.bytes(in: sealed))
            #expect(bytes == plain)
            #expect(register == plain.withUnsafeBytes { CRC32C.register($0) })
            #expect(bytes.withUnsafeBytes { $0.baseAddress } != nil)
            let inside = sealed.withUnsafeBytes { whole in
                bytes.withUnsafeBytes { view in
                    guard let start = whole.baseAddress, let address = view.baseAddress else { return false }
                    return address >= start && address + view.count <= start + whole.count
                }
            }
            #expect(inside, "the bytes are the archive's, not a copy (\(size))")
            #expect(pending.bytes(in: plain) == nil, "not written into another Data")
        }
    }

    @Test("An encoding waiting to be written keeps its own state while other encodes run")
    func pendingSurvivesOtherEncodes() throws {
        let encoder = ArchiveEncoder()
        let record = ArchiveRegisterTests.Record(
            name: "pending", parts: [Data(repeating: 9, count: 5000), Data([1, 2])], tail: nil)
        let plain = try encoder.encode(record)
        let pending = try encoder.encodePending(record) { _ in nil }
        // Later encodes take states from the pool; none may be the pending one's.
        for index in 0..<20 {
            let other = ArchiveRegisterTests.Record(name: "other \(index)", parts: [Data(count: index)], tail: nil)
            #expect(try ArchiveDecoder().decode(ArchiveRegisterTests.Record.self, from: encoder.encode(other)) == other)
        }
        #expect(pending.data() == plain)
        let sealed = try encoder.encodeSealed(Holder(before: "", inner: pending, after: []), formatVersion: 1)
        #expect(pending.bytes(in: sealed)?.data == plain)
    }

    @Test("Another encoder gets the Data itself")
    func otherEncodersGetTheData() throws {
        let encoder = ArchiveEncoder()
        let value = ["a": [1, 2], "b": [3]]
        let pending = try encoder.encodePending(value) { _ in nil }
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        #expect(
            try json.encode(Holder(before: "x", inner: pending, after: []))
                == json.encode(PlainHolder(before: "x", inner: try encoder.encode(value), after: [])))
        #expect(pending.bytes(in: try encoder.encode(value)) == nil, "never written in place")
        #expect(pending.data() == (try encoder.encode(value)))
    }
}

/// Large outputs come from a pool of kept buffers (``ArchiveOutputPool``).
@Suite struct ArchiveOutputPoolTests {
    @Test("An output still in use is never handed out again; freed outputs are, and their bytes are rewritten")
    func liveOutputsAreNotReused() throws {
        let encoder = ArchiveEncoder()
        let kept = try encoder.encode([Data(repeating: 0x11, count: 200_000)])
        let copy = Data(kept)  // a copy of the bytes, not of the storage
        var seen = Set<UInt>()
        for round in 0..<20 {
            let other = try encoder.encode([Data(repeating: UInt8(round), count: 200_000)])
            #expect(other.count == kept.count)
            #expect(other.last == UInt8(round), "round \(round)")
            seen.insert(other.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) })
            #expect(!seen.contains(kept.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }))
        }
        #expect(kept == copy, "the live output was not written over")
        #expect(try ArchiveDecoder().decode([Data].self, from: kept) == [Data(repeating: 0x11, count: 200_000)])
    }

    @Test("A buffer is at least the size asked and at most twice it; small and huge ones are not pooled")
    func bufferSizes() {
        for count in [1, 1000, ArchiveOutputPool.minimumSize, 300_000, ArchiveOutputPool.maximumSize + 1] {
            let (pointer, capacity) = ArchiveOutputPool.take(count)
            #expect(capacity >= count && capacity / ArchiveOutputPool.minimumFill <= count, "\(count)")
            if count < ArchiveOutputPool.minimumSize || count > ArchiveOutputPool.maximumSize {
                #expect(capacity == count)
            }
            ArchiveOutputPool.recycle(pointer, capacity: capacity)
        }
    }
}
