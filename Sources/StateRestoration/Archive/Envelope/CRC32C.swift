package import Foundation

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), computed with slicing-by-8.
///
/// The eight 256-entry tables are built once, lazily, on first use. Slicing-by-8 folds
/// eight input bytes per step with eight table lookups, which runs at well over a
/// gigabyte per second in release builds, far faster than a bytewise loop.
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

    /// The CRC-32C of the raw bytes.
    ///
    /// - Parameter buffer: The bytes to checksum.
    /// - Returns: The checksum.
    package static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
        ~update(0xFFFF_FFFF, buffer)
    }

    /// Folds `buffer` into a running (pre-inverted) CRC.
    static func update(_ crc: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return crc }
        return tables.withUnsafeBufferPointer { table in
            guard let t = table.baseAddress else { return crc }
            var crc = crc
            var p = base
            var remaining = buffer.count
            while remaining >= 8 {
                let word = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self)) ^ UInt64(crc)
                crc =
                    t[7 * 256 + Int(word & 0xFF)]
                    ^ t[6 * 256 + Int((word >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((word >> 16) & 0xFF)]
                    ^ t[4 * 256 + Int((word >> 24) & 0xFF)]
                    ^ t[3 * 256 + Int((word >> 32) & 0xFF)]
                    ^ t[2 * 256 + Int((word >> 40) & 0xFF)]
                    ^ t[1 * 256 + Int((word >> 48) & 0xFF)]
                    ^ t[Int(word >> 56)]
                p += 8
                remaining -= 8
            }
            while remaining > 0 {
                crc = (crc >> 8) ^ t[Int((crc ^ UInt32(p.load(as: UInt8.self))) & 0xFF)]
                p += 1
                remaining -= 1
            }
            return crc
        }
    }
}
