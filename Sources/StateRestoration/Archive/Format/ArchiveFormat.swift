/// Constants and small helpers of the standalone value encoding written by ``ArchiveEncoder``.
///
/// Layout (all integers little-endian, see Documentation/ArchiveFormat.md):
///
/// | bytes | meaning |
/// |---|---|
/// | 3 | magic `"SRv"` (0x53 0x52 0x76) |
/// | 1 | format version (1) |
/// | varint | number of field names N |
/// | varint | byte length of the names that follow |
/// | N × (varint length, UTF-8) | the field-name table, in order of first use |
/// | … | the root value (tag byte, payload) |
enum ArchiveFormat {
    /// The magic that starts a standalone value encoding.
    static let magic: (UInt8, UInt8, UInt8) = (0x53, 0x52, 0x76)
    /// The value encoding version this build writes and reads.
    static let version: UInt8 = 1
    /// Bytes before the field-name table.
    static let preambleSize = 4

    /// The number of bytes `value` takes as a LEB128 varint.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        // 1 + floor(bitWidth / 7), with 0 taking one byte.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }

    /// Zigzag-maps a signed integer so that small magnitudes become small varints.
    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// Inverts ``zigzag(_:)``.
    @inline(__always)
    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// 2^41 / 10^7, rounded down: below it every scale's mantissa is under 2^41.
    static let decimalFastPathLimit: Double = 219_902

    /// `10^k` for the scales of the decimal double and date tags.
    @inline(__always)
    static func powerOfTen(_ scale: Int) -> Double {
        switch scale {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        default: 10_000_000
        }
    }

    /// The value a decimal tag with scale `scale` and mantissa `mantissa` stands for:
    /// `Double(mantissa) / 10^scale`, one correctly rounded division.
    @inline(__always)
    static func decimalValue(_ mantissa: Int64, scale: Int) -> Double {
        scale == 0 ? Double(mantissa) : Double(mantissa) / powerOfTen(scale)
    }

    /// The shortest decimal form `(zigzag(m), k)` with `decimalValue(m, k)` bit-for-bit equal
    /// to `value`, or nil when there is none with k <= 7 that is smaller than the 8-byte form
    /// (a zigzag mantissa of at most 6 varint bytes, i.e. below 2^42).
    @inline(__always)
    static func decimalForm(_ value: Double) -> (UInt64, UInt8)? {
        // Below 2^41 / 10^7 in magnitude the scales need not be tried one by one: two
        // decimals with at most 7 places differ by 1e-7 or more, far more than a double's
        // spacing there (under 3e-11), so `value` has a decimal form at some scale k <= 7
        // exactly when it has one at scale 7, with mantissa m * 10^(7 - k); the shortest
        // form is that mantissa without its trailing decimal zeros. One multiplication and
        // one division instead of up to eight of each (NaN fails the comparison).
        if value.magnitude < decimalFastPathLimit {
            let scaled = value * 10_000_000
            var mantissa = Int64(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
            guard decimalValue(mantissa, scale: 7).bitPattern == value.bitPattern else { return nil }
            // Strip up to 7 trailing zeros in steps of 4, 2 and 1 (any count up to 7 is a
            // sum of some of them) rather than one division at a time.
            var scale: UInt8 = 7
            if mantissa % 10_000 == 0 {
                mantissa /= 10_000
                scale = 3
            }
            if mantissa % 100 == 0 {
                mantissa /= 100
                scale &-= 2
            }
            if mantissa % 10 == 0 {
                mantissa /= 10
                scale &-= 1
            }
            return (zigzag(mantissa), scale)
        }
        var scale = 0
        while scale < 8 {
            let scaled = value * powerOfTen(scale)
            // Also rejects NaN and the infinities.
            guard scaled.magnitude < 0x200_0000_0000 else { return nil }
            // Round half away from zero by truncation (`rounded()` is a libm call here);
            // any nearby integer will do, the check below decides.
            let mantissa = Int64(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
            if decimalValue(mantissa, scale: scale).bitPattern == value.bitPattern {
                return (zigzag(mantissa), UInt8(truncatingIfNeeded: scale))
            }
            scale &+= 1
        }
        return nil
    }
}
