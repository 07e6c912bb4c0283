package import Foundation

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), computed with slicing-by-8.
///
/// The eight 256-entry tables are built once, lazily, on first use. Slicing-by-8 folds
/// eight input bytes per step with eight table lookups, several times faster than a
/// bytewise loop.
///
/// Check value: `CRC32C.checksum("123456789")` is `0xE3069283`.
package enum CRC32C {
    /// `tables[k * 256 + b]`: the CRC of byte `b` followed by `k` zero bytes.
    static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
            }
            tables[byte] = crc
        }
        for byte in 0..<256 {
            var crc = tables[byte]
            for slice in 1..<8 {
                crc = (crc >> 8) ^ tables[Int(crc & 0xFF)]
                tables[slice * 256 + byte] = crc
            }
        }
        return tables
    }()

    /// The CRC-32C of `bytes`.
    ///
    /// ```swift
    /// let crc = CRC32C.checksum(Data("123456789".utf8)) // 0xE3069283
    /// ```
    ///
    /// - Parameter bytes: The bytes to checksum.
    /// - Returns: The checksum.
    package static func checksum(_ bytes: some DataProtocol) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for region in bytes.regions {
            crc = region.withUnsafeBytes { update(crc, $0) }
        }
        return ~crc
    }

    /// Folds `buffer` into a running (pre-inverted) CRC: eight bytes a step, then the rest one
    /// by one. Every read is within `buffer`: the loops' conditions keep each eight-byte load and
    /// each byte inside it.
    static func update(_ crc: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32 {
        var crc = crc
        var offset = 0
        while buffer.count - offset >= 8 {
            let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ UInt64(crc)
            crc =
                tables[7 * 256 + Int(word & 0xFF)]
                ^ tables[6 * 256 + Int((word >> 8) & 0xFF)]
                ^ tables[5 * 256 + Int((word >> 16) & 0xFF)]
                ^ tables[4 * 256 + Int((word >> 24) & 0xFF)]
                ^ tables[3 * 256 + Int((word >> 32) & 0xFF)]
                ^ tables[2 * 256 + Int((word >> 40) & 0xFF)]
                ^ tables[1 * 256 + Int((word >> 48) & 0xFF)]
                ^ tables[Int(word >> 56)]
            offset += 8
        }
        while offset < buffer.count {
            crc = (crc >> 8) ^ tables[Int((crc ^ UInt32(buffer[offset])) & 0xFF)]
            offset += 1
        }
        return crc
    }
}
