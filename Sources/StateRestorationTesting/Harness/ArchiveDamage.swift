public import Foundation
import StateRestoration
public import Testing

/// A way to damage a saved archive, for testing that a launch survives it:
/// flip a byte, cut the archive short, replace its magic.
///
/// A damaged archive must be a fresh launch that names the check that failed,
/// never a crash. ``expectedCheck`` is the name the launch report gives that check
/// (in `LaunchReport.freshReason`'s message:
/// `archive main rejected (checksum-mismatch): …`).
///
/// ```swift
/// let relaunched = try await harness.relaunch(saving: tree, damagedBy: .flippedBodyByte(at: 3))
/// #expect(relaunched.report.freshReason?.code == .archiveRejected)
/// #expect(relaunched.rejectedCheck == ArchiveDamage.flippedBodyByte(at: 3).expectedCheck)
/// ```
///
/// `ArchiveDamage` is `Sendable`.
public struct ArchiveDamage: Sendable, CustomStringConvertible {
    /// The number of bytes before an archive's body: its envelope header.
    public static var headerSize: Int { ArchiveEnvelope.headerSize }

    /// What the damage does, such as `flip byte 3 of the body`.
    public let description: String
    /// The check the launch report names for this damage (`truncated`,
    /// `checksum-mismatch`, `bad-magic`, …), when it is known in advance.
    public let expectedCheck: String?
    private let transform: @Sendable (Data) throws(HarnessError) -> Data

    /// Creates a damage from any transformation of the archive's bytes.
    ///
    /// ```swift
    /// let doubled = ArchiveDamage("append a second copy", expectedCheck: "length-mismatch") { $0 + $0 }
    /// ```
    ///
    /// - Parameters:
    ///   - description: What the damage does, for messages.
    ///   - expectedCheck: The check a launch should report, if known.
    ///   - transform: Returns the damaged bytes.
    public init(
        _ description: String, expectedCheck: String? = nil,
        transform: @escaping @Sendable (Data) throws(HarnessError) -> Data
    ) {
        self.description = description
        self.expectedCheck = expectedCheck
        self.transform = transform
    }

    /// Applies the damage to an archive's bytes.
    ///
    /// ```swift
    /// let damaged = try ArchiveDamage.truncated(toByteCount: 10).apply(to: archive)
    /// ```
    ///
    /// - Parameter archive: The archive's bytes.
    /// - Returns: The damaged bytes.
    /// - Throws: ``HarnessError`` when the damage does not fit the archive (a byte
    ///   offset past its end, say).
    public func apply(to archive: Data) throws(HarnessError) -> Data {
        try transform(archive)
    }

    /// Inverts the bits of one byte of the body, so the checksum no longer matches.
    ///
    /// ```swift
    /// try harness.damageArchive(.flippedBodyByte(at: 0))
    /// ```
    ///
    /// - Parameter offset: The byte's offset from the start of the body (after
    ///   the ``headerSize``-byte header).
    /// - Returns: The damage; its check is `checksum-mismatch`.
    public static func flippedBodyByte(at offset: Int) -> ArchiveDamage {
        ArchiveDamage("flip byte \(offset) of the body", expectedCheck: "checksum-mismatch") {
            (archive) throws(HarnessError) -> Data in
            let index = headerSize + offset
            guard offset >= 0, index < archive.count else {
                throw HarnessError(
                    "cannot flip byte \(offset) of the body: the archive has a \(max(0, archive.count - headerSize))-byte body"
                )
            }
            var bytes = [UInt8](archive)
            bytes[index] ^= 0xFF
            return Data(bytes)
        }
    }

    /// Cuts the archive to its first `count` bytes, as a write cut short would.
    ///
    /// ```swift
    /// try harness.damageArchive(.truncated(toByteCount: 10))   // half a header
    /// ```
    ///
    /// - Parameter count: How many bytes to keep; 0 leaves an empty archive.
    /// - Returns: The damage; its check is `truncated`.
    public static func truncated(toByteCount count: Int) -> ArchiveDamage {
        ArchiveDamage("cut to \(count) bytes", expectedCheck: "truncated") { (archive) throws(HarnessError) -> Data in
            guard count >= 0, count < archive.count else {
                throw HarnessError("cannot cut a \(archive.count)-byte archive to \(count) bytes")
            }
            return Data(archive.prefix(count))
        }
    }

    /// Replaces the archive's eight-byte magic, as when another file took its place.
    ///
    /// ```swift
    /// try harness.damageArchive(.replacedMagic(with: Array("{\"tabs\":".utf8)))
    /// ```
    ///
    /// - Parameter bytes: The new first eight bytes; the default is `{"root":`, JSON
    ///   written where the archive was.
    /// - Returns: The damage; its check is `bad-magic`.
    public static func replacedMagic(with bytes: [UInt8] = Array("{\"root\":".utf8)) -> ArchiveDamage {
        ArchiveDamage("replace the magic", expectedCheck: "bad-magic") { (archive) throws(HarnessError) -> Data in
            guard bytes.count == 8, bytes != ArchiveEnvelope.magic else {
                throw HarnessError("the replacement magic must be 8 bytes that differ from the archive's magic")
            }
            guard archive.count >= 8 else {
                throw HarnessError("a \(archive.count)-byte archive has no magic to replace")
            }
            return Data(bytes + archive.dropFirst(8))
        }
    }
}

extension ArchiveDamage: CustomTestStringConvertible {
    /// The description, so a parameterized test names each damage in its results:
    /// `@Test(arguments: [ArchiveDamage.truncated(toByteCount: 10), .replacedMagic()])`.
    public var testDescription: String { description }
}
