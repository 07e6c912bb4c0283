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
        var file = Data(count: headerSize + body.count)
        file.withUnsafeMutableBytes { file in
            let bodyBytes = UnsafeMutableRawBufferPointer(rebasing: file[headerSize...])
            body.withUnsafeBytes { bodyBytes.copyMemory(from: $0) }
            writeHeader(
                into: UnsafeMutableRawBufferPointer(rebasing: file[0..<headerSize]),
                body: UnsafeRawBufferPointer(bodyBytes), formatVersion: formatVersion)
        }
        return file
    }

    /// Writes the header for `body` into the first ``headerSize`` bytes of `header`.
    ///
    /// With `register`, the body's CRC-32C register from 0 (``CRC32C/register(_:)``), the
    /// checksum is derived from it instead of reading the body.
    static func writeHeader(
        into header: UnsafeMutableRawBufferPointer, body: UnsafeRawBufferPointer, formatVersion: UInt16,
        register: UInt32? = nil
    ) {
        precondition(header.count >= headerSize, "an envelope header needs \(headerSize) bytes")
        for (offset, byte) in magic.enumerated() {
            header[offset] = byte
        }
        header.storeBytes(of: formatVersion.littleEndian, toByteOffset: 8, as: UInt16.self)
        header.storeBytes(of: UInt16(0).littleEndian, toByteOffset: 10, as: UInt16.self)
        header.storeBytes(of: UInt64(body.count).littleEndian, toByteOffset: 12, as: UInt64.self)
        let checksum = register.map { CRC32C.checksum(register: $0, count: body.count) } ?? CRC32C.checksum(body)
        header.storeBytes(of: checksum.littleEndian, toByteOffset: 20, as: UInt32.self)
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
        return data.withUnsafeBytes { raw in
            func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
                T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            let bodyLength = load(12, as: UInt64.self)
            let actual = raw.count - headerSize
            let checked = Int(Swift.min(UInt64(actual), bodyLength))
            let body = UnsafeRawBufferPointer(rebasing: raw[headerSize..<(headerSize + checked)])
            return Header(
                magic: Array(raw[0..<8]),
                formatVersion: load(8, as: UInt16.self),
                flags: load(10, as: UInt16.self),
                bodyLength: bodyLength,
                actualBodyLength: actual,
                storedChecksum: load(20, as: UInt32.self),
                computedChecksum: CRC32C.checksum(body)
            )
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ArchiveDecodingState.hex($0) }.joined(separator: " ")
    }

    private static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
