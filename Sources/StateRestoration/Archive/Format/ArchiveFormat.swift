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
}
