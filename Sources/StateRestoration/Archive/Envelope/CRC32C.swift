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
    ///
    /// A long buffer is cut into four lanes checksummed in one loop: each step of
    /// slicing-by-8 waits for the previous step's table lookups, so four independent
    /// lanes keep the processor busy about four times as well. The lanes are joined by
    /// ``shift(_:byZeroBytes:)``: running the register over `A` then `B` gives the
    /// register after `A` advanced over `|B|` zero bytes, xor the register over `B` from 0.
    static func update(_ crc: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return crc }
        return tables.withUnsafeBufferPointer { table in
            guard let t = table.baseAddress else { return crc }
            var crc = crc
            var p = base
            var remaining = buffer.count
            if remaining >= 4 * lanesThreshold {
                let lane = (remaining / 4) & ~7
                var c1: UInt32 = 0
                var c2: UInt32 = 0
                var c3: UInt32 = 0
                var q = p
                let end = p + lane
                while q < end {
                    crc = step(crc, q, t)
                    c1 = step(c1, q + lane, t)
                    c2 = step(c2, q + 2 * lane, t)
                    c3 = step(c3, q + 3 * lane, t)
                    q += 8
                }
                crc = shift(crc, byZeroBytes: lane) ^ c1
                crc = shift(crc, byZeroBytes: lane) ^ c2
                crc = shift(crc, byZeroBytes: lane) ^ c3
                p += 4 * lane
                remaining -= 4 * lane
            }
            while remaining >= 8 {
                crc = step(crc, p, t)
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

    /// Buffers of at least four times this many bytes are checksummed in four lanes.
    static let lanesThreshold = 1024

    /// One slicing-by-8 step: folds the eight bytes at `p` into `crc`.
    @inline(__always)
    private static func step(_ crc: UInt32, _ p: UnsafeRawPointer, _ t: UnsafePointer<UInt32>) -> UInt32 {
        let word = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self)) ^ UInt64(crc)
        return t[7 * 256 + Int(word & 0xFF)]
            ^ t[6 * 256 + Int((word >> 8) & 0xFF)]
            ^ t[5 * 256 + Int((word >> 16) & 0xFF)]
            ^ t[4 * 256 + Int((word >> 24) & 0xFF)]
            ^ t[3 * 256 + Int((word >> 32) & 0xFF)]
            ^ t[2 * 256 + Int((word >> 40) & 0xFF)]
            ^ t[1 * 256 + Int((word >> 48) & 0xFF)]
            ^ t[Int(word >> 56)]
    }

    // MARK: - Arithmetic modulo the polynomial (bit-reflected: bit 31 is x^0)

    /// The register `crc` advanced over `count` zero bytes: `crc * x^(8 count)` modulo
    /// the polynomial.
    static func shift(_ crc: UInt32, byZeroBytes count: Int) -> UInt32 {
        powerTables.withUnsafeBufferPointer { tables in
            guard let t = tables.baseAddress else { return crc }
            var result = crc
            var n = count
            var k = 3  // x^(8n) = x^(n * 2^3)
            while n > 0 {
                if n & 1 != 0 { result = multiply(byPower: k, result, t) }
                n >>= 1
                k += 1
            }
            return result
        }
    }

    /// `powers[k] * b` modulo the polynomial, from ``powerTables`` (`t`): eight lookups, one per
    /// nibble of `b`, where ``multiply(_:_:)`` takes 32 dependent steps. A save that reuses
    /// unchanged records joins their registers with a shift each, and the bitwise product
    /// was 7 % of a one-changed save of 500 screens.
    @inline(__always)
    static func multiply(byPower k: Int, _ b: UInt32, _ t: UnsafePointer<UInt32>) -> UInt32 {
        let row = t + k &* 128
        return row[Int(b & 0xF)]
            ^ row[16 &+ Int((b >> 4) & 0xF)]
            ^ row[32 &+ Int((b >> 8) & 0xF)]
            ^ row[48 &+ Int((b >> 12) & 0xF)]
            ^ row[64 &+ Int((b >> 16) & 0xF)]
            ^ row[80 &+ Int((b >> 20) & 0xF)]
            ^ row[96 &+ Int((b >> 24) & 0xF)]
            ^ row[112 &+ Int(b >> 28)]
    }

    /// `powerTables[128 k + 16 i + v]` is `powers[k]` times the register whose only set bits are
    /// the nibble `v` at bits `4i` to `4i + 3`, modulo the polynomial: the product is linear in
    /// the register, so the products of its eight nibbles add up (xor) to the whole one.
    /// 34 KB, built once, lazily, from 32 bitwise products per power.
    static let powerTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: powers.count * 128)
        for k in powers.indices {
            for nibble in 0..<8 {
                let base = k * 128 + nibble * 16
                for bit in 0..<4 {
                    tables[base + (1 << bit)] = multiply(powers[k], 1 << (4 * nibble + bit))
                }
                for value in 3..<16 where value & (value - 1) != 0 {
                    let lowest = value & -value
                    tables[base + value] = tables[base + lowest] ^ tables[base + (value ^ lowest)]
                }
            }
        }
        return tables
    }()

    /// `powers[k]` is x^(2^k) modulo the polynomial, for every k a byte count can need
    /// (3 + 63). No period is assumed: zlib's table of 32 repeats for CRC-32's polynomial,
    /// but the powers of x modulo CRC-32C's repeat with period 31.
    static let powers: [UInt32] = {
        var powers = [UInt32](repeating: 0, count: 3 + Int.bitWidth)
        var p: UInt32 = 1 << 30  // x^1
        for k in powers.indices {
            powers[k] = p
            p = multiply(p, p)
        }
        return powers
    }()

    /// `a * b` modulo the polynomial.
    static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var product: UInt32 = 0
        var b = b
        var mask: UInt32 = 1 << 31
        while mask != 0 {
            if a & mask != 0 { product ^= b }
            mask >>= 1
            b = (b & 1) != 0 ? (b >> 1) ^ 0x82F6_3B78 : b >> 1
        }
        return product
    }
}
