package import Foundation

/// The file envelope around one restoration archive: a fixed header that identifies the
/// file, its format version and its body length, and a CRC-32C of the body.
///
/// Layout (all integers little-endian; 24-byte header, then the body):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `89 53 52 41 52 43 0D 0A` (`\x89SRARC\r\n`) |
/// | 8 | 2 | format version (`UInt16`) |
/// | 10 | 2 | flags (`UInt16`, 0; reserved) |
/// | 12 | 8 | body length in bytes (`UInt64`) |
/// | 20 | 4 | CRC-32C of the body (`UInt32`) |
/// | 24 | n | body |
///
/// The magic's first byte has the high bit set and it contains CR LF, so that a text
/// transfer that mangles bytes is detected, as in PNG. Any change to this layout is a
/// format version bump; see `Documentation/ArchiveFormat.md`.
///
/// ```swift
/// let file = ArchiveEnvelope.seal(body, formatVersion: 1)
/// let (version, opened) = try ArchiveEnvelope.open(file, supportedVersions: 1...1)
/// ```
package enum ArchiveEnvelope {
    /// The eight bytes every envelope starts with.
    package static let magic: [UInt8] = [0x89, 0x53, 0x52, 0x41, 0x52, 0x43, 0x0D, 0x0A]
    /// Bytes before the body.
    package static let headerSize = 24

    /// The decoded header of an envelope, for inspection tools.
    package struct Header: Sendable, Equatable {
        /// The first eight bytes as found (equal to ``ArchiveEnvelope/magic`` in a valid file).
        package var magic: [UInt8]
        /// The format version the writer recorded.
        package var formatVersion: UInt16
        /// The reserved flags field.
        package var flags: UInt16
        /// The body length the writer recorded.
        package var bodyLength: UInt64
        /// The bytes actually present after the header.
        package var actualBodyLength: Int
        /// The checksum the writer recorded.
        package var storedChecksum: UInt32
        /// The CRC-32C of the body bytes present (at most ``bodyLength`` of them).
        package var computedChecksum: UInt32
        /// Whether the magic is right.
        package var magicMatches: Bool { magic == ArchiveEnvelope.magic }
        /// Whether the body is complete and its checksum matches the stored one.
        package var checksumMatches: Bool {
            UInt64(actualBodyLength) == bodyLength && storedChecksum == computedChecksum
        }
    }

    /// Wraps `body` in an envelope.
    ///
    /// - Parameters:
    ///   - body: The archive body.
    ///   - formatVersion: The format version to record.
    /// - Returns: The header followed by the body.
    package static func seal(_ body: Data, formatVersion: UInt16) -> Data {
        var file = Data(capacity: headerSize + body.count)
        file.append(contentsOf: magic)
        appendLittleEndian(formatVersion, to: &file)
        appendLittleEndian(UInt16(0), to: &file)
        appendLittleEndian(UInt64(body.count), to: &file)
        appendLittleEndian(CRC32C.checksum(body), to: &file)
        file.append(body)
        return file
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        for shift in stride(from: 0, to: T.bitWidth, by: 8) { data.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// The little-endian integer at `offset` in `data`, which holds it.
    private static func loadLittleEndian<T: FixedWidthInteger>(_ data: Data, at offset: Int, as: T.Type) -> T {
        let start = data.startIndex + offset
        return data[start..<(start + T.bitWidth / 8)].reversed().reduce(0) { $0 << 8 | T($1) }
    }

    /// Checks an envelope and returns its format version and body.
    ///
    /// The checks run in this order, each with its own error code: the data is long
    /// enough for a header (``ArchiveError/Code/truncated``), the magic is right
    /// (``ArchiveError/Code/badMagic``), the version is supported
    /// (``ArchiveError/Code/unsupportedVersion``), the body has exactly the recorded
    /// length (``ArchiveError/Code/truncated`` if shorter,
    /// ``ArchiveError/Code/lengthMismatch`` if longer), and the checksum matches
    /// (``ArchiveError/Code/checksumMismatch``).
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - supportedVersions: The format versions the caller can read.
    /// - Returns: The recorded format version and the body.
    /// - Throws: ``ArchiveError`` for the first check that fails.
    package static func open(
        _ data: Data,
        supportedVersions: ClosedRange<UInt16>
    ) throws(ArchiveError) -> (formatVersion: UInt16, body: Data) {
        let header = try inspectHeader(data)
        guard header.magicMatches else {
            throw ArchiveError(
                .badMagic,
                "not a restoration archive file: bad magic at byte 0: found \(hex(header.magic)), "
                    + "expected \(hex(magic))",
                offset: 0
            )
        }
        guard supportedVersions.contains(header.formatVersion) else {
            throw ArchiveError(
                .unsupportedVersion,
                "unsupported restoration archive format version \(header.formatVersion) at byte 8 "
                    + "(supported: \(supportedVersions.lowerBound)...\(supportedVersions.upperBound))",
                offset: 8
            )
        }
        let actual = UInt64(header.actualBodyLength)
        guard actual >= header.bodyLength else {
            throw ArchiveError(
                .truncated,
                "restoration archive truncated at byte \(data.count): header records a \(header.bodyLength)-byte "
                    + "body, found \(actual) bytes",
                offset: data.count
            )
        }
        guard actual == header.bodyLength else {
            throw ArchiveError(
                .lengthMismatch,
                "restoration archive has \(actual - header.bodyLength) trailing bytes at byte "
                    + "\(UInt64(headerSize) + header.bodyLength) after its \(header.bodyLength)-byte body",
                offset: headerSize + Int(header.bodyLength)
            )
        }
        guard header.storedChecksum == header.computedChecksum else {
            throw ArchiveError(
                .checksumMismatch,
                "restoration archive checksum mismatch: header at byte 20 records CRC-32C "
                    + "0x\(hex32(header.storedChecksum)), body has 0x\(hex32(header.computedChecksum))",
                offset: 20
            )
        }
        let start = data.startIndex + headerSize
        return (header.formatVersion, data.subdata(in: start..<data.endIndex))
    }

    /// Reads an envelope's header and checksums whatever body is present, without
    /// judging it (except that a header must be present).
    ///
    /// - Parameter data: The file's bytes.
    /// - Returns: The header fields and the computed checksum.
    /// - Throws: ``ArchiveError/Code/truncated`` when `data` is shorter than a header.
    package static func inspectHeader(_ data: Data) throws(ArchiveError) -> Header {
        guard data.count >= headerSize else {
            throw ArchiveError(
                .truncated,
                "restoration archive truncated at byte \(data.count): expected a \(headerSize)-byte header",
                offset: data.count
            )
        }
        let bodyLength = loadLittleEndian(data, at: 12, as: UInt64.self)
        let actual = data.count - headerSize
        let body = data.dropFirst(headerSize).prefix(Int(Swift.min(UInt64(actual), bodyLength)))
        return Header(
            magic: Array(data.prefix(8)),
            formatVersion: loadLittleEndian(data, at: 8, as: UInt16.self),
            flags: loadLittleEndian(data, at: 10, as: UInt16.self),
            bodyLength: bodyLength,
            actualBodyLength: actual,
            storedChecksum: loadLittleEndian(data, at: 20, as: UInt32.self),
            computedChecksum: CRC32C.checksum(body)
        )
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map(ArchiveTag.hex).joined(separator: " ")
    }

    private static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

extension ArchiveError.Code {
    /// The stored checksum does not match the checksum of the bytes read.
    public static let checksumMismatch = ArchiveError.Code(rawValue: "checksum-mismatch")
}
