import Foundation

/// The journal that older builds of ``FileStore`` kept beside an archive file, read so that the
/// saves it holds are not lost; ``FileStore`` reads one but never writes one.
///
/// Older builds appended a small save to `<key>.restoration-journal`, a list of binary diffs
/// against the archive file, instead of rewriting the file. Such a journal holds the newest saves
/// an app confirmed before it was updated, so ``FileStore/read(_:)`` applies it; the next write of
/// the key replaces the archive file and removes the journal. The format is described in
/// `Documentation/ArchiveFormat.md`:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `89 53 52 4A 4E 4C 0D 0A` (`\x89SRJNL\r\n`) |
/// | 8 | 2 | version, 1 or 2 |
/// | 10 | 2 | flags, 0 |
/// | 12 | 8 | byte length of the archive file it applies to |
/// | 20 | 4 | CRC-32C of that archive file |
/// | 24 | 4 | CRC-32C of bytes 0–23 |
/// | 28 | … | records, then zeros |
///
/// A record: payload length P (4 bytes), then the payload: sequence number (4, from 1), byte
/// length of the content after the record (8), number of hunks (4), the hunks in increasing
/// offset (offset 8, bytes removed 4, bytes inserted 4, the inserted bytes); then the CRC-32C of
/// the length field and the payload (4). All integers are little-endian.
///
/// A journal whose header does not match the archive file is ignored: it was written for an
/// earlier file and left behind by a kill. Records apply in order up to the first that is torn,
/// damaged or out of sequence, at most 256 of them (32 of version 1), and no more than 32
/// passes over the archive file of work (``workBudget(baseLength:)``), so that a hostile
/// journal cannot make a read cost more than that. Nothing in a journal traps.
enum LegacyJournal {
    /// `\x89SRJNL\r\n`.
    static let magic: [UInt8] = [0x89, 0x53, 0x52, 0x4A, 0x4E, 0x4C, 0x0D, 0x0A]

    /// The bytes of the header.
    static let headerSize = 28

    /// The bytes of a record that are not hunks: length, sequence, result length, hunk count, CRC.
    static let recordOverhead = 4 + 4 + 8 + 4 + 4

    /// The bytes of a hunk before its inserted bytes.
    static let hunkOverhead = 8 + 4 + 4

    /// The journal file grew in steps of this many bytes, zeros after the records.
    static let allocationStep = 32 * 1024

    /// What follows the name of an archive file in the name of its journal.
    static let suffix = "-journal"

    /// The name of a key's journal, `<key>.restoration-journal`.
    static func name(for key: StoreKey) -> String {
        ArchiveNaming.archiveName(for: key) + suffix
    }

    /// The largest journal a store with this archive size limit reads: an older store's records
    /// were at most a quarter of the content (or 4 KiB), and its file grew in steps of 32 KiB.
    static func readLimit(maximumArchiveSize: Int) -> Int {
        Swift.max(maximumArchiveSize / 4, 4096) + headerSize + allocationStep
    }

    /// The most records a reader applies from a journal of a version: 32 of version 1, 256 of 2.
    static func maximumRecords(version: UInt16) -> Int {
        version == 1 ? 32 : 256
    }

    /// The most work, in bytes, that the records of a version 2 journal may cost: 32 passes over
    /// the archive file (of at least 4 KiB). A record's work is ``work(of:contentLength:)``.
    static func workBudget(baseLength: Int) -> Int {
        let (budget, overflow) = Swift.max(baseLength, 4096).multipliedReportingOverflow(by: 32)
        return overflow ? .max : budget
    }

    /// The work of applying hunks to content of `contentLength` bytes: the bytes each hunk
    /// inserts, plus, for each hunk that changes the length, the bytes after it, which move.
    /// `Int.max` if the sum would not fit.
    static func work(of hunks: some Sequence<Hunk>, contentLength: Int) -> Int {
        var total = 0
        for hunk in hunks {
            let moved = hunk.removed == hunk.inserted ? 0 : Swift.max(contentLength - hunk.offset - hunk.removed, 0)
            let (withInserted, overflowed) = total.addingReportingOverflow(hunk.inserted)
            let (withMoved, overflowedAgain) = withInserted.addingReportingOverflow(moved)
            guard !overflowed, !overflowedAgain else { return .max }
            total = withMoved
        }
        return total
    }

    /// A change: at `offset`, `removed` bytes of the content before the record become `inserted`
    /// bytes.
    struct Hunk: Equatable {
        var offset: Int
        var removed: Int
        var inserted: Int
    }

    /// Why a journal cannot be applied: its content would be larger than the store reads.
    struct ContentTooLarge: Error {
        /// The length a valid record gives the content.
        var length: Int
    }

    /// The archive file with the journal's valid records applied; the file as it is if the
    /// journal's header does not match it.
    ///
    /// - Throws: ``ContentTooLarge`` if a valid record makes the content longer than `limit`.
    static func apply(_ journal: Data, to base: Data, limit: Int) throws(ContentTooLarge) -> Data {
        let bytes = [UInt8](journal)
        guard bytes.count >= headerSize, Array(bytes[0..<8]) == magic else { return base }
        let version = read(UInt16.self, bytes, at: 8)
        guard version == 1 || version == 2,
            read(UInt32.self, bytes, at: 24) == CRC32C.checksum(bytes[0..<24]),
            read(UInt64.self, bytes, at: 12) == UInt64(base.count),
            read(UInt32.self, bytes, at: 20) == CRC32C.checksum(base)
        else { return base }

        var content = base
        var offset = headerSize
        var records = 0
        var work = 0
        let budget = version == 1 ? Int.max : workBudget(baseLength: base.count)
        while records < maximumRecords(version: version),
            let record = parseRecord(bytes, at: offset, sequence: records + 1, against: content.count)
        {
            // A record past the budget is one no writer appended: it ends the records, even if
            // it would also make the content too large.
            let cost = Self.work(of: record.hunks.lazy.map(\.hunk), contentLength: content.count)
            guard cost <= budget - work else { break }
            guard record.length <= limit else { throw ContentTooLarge(length: record.length) }
            work += cost
            for (hunk, inserted) in record.hunks.reversed() {
                // Last first, so that the offsets of the earlier hunks stay valid.
                let start = content.startIndex + hunk.offset
                content.replaceSubrange(
                    start..<(start + hunk.removed), with: bytes[inserted..<(inserted + hunk.inserted)])
            }
            offset = record.end
            records += 1
        }
        return content
    }

    /// A record checked against the content it applies to.
    private struct Record {
        /// The hunks, with the offset of their inserted bytes in the journal.
        var hunks: [(hunk: Hunk, bytes: Int)]
        /// The offset just past the record.
        var end: Int
        /// The length of the content with the record applied.
        var length: Int
    }

    /// The record at `offset` if it is whole, undamaged, the expected one in sequence, and fits
    /// content of `count` bytes; nil otherwise.
    private static func parseRecord(_ bytes: [UInt8], at offset: Int, sequence: Int, against count: Int) -> Record? {
        let remaining = bytes.count - offset
        guard remaining >= recordOverhead else { return nil }
        let payload = Int(read(UInt32.self, bytes, at: offset))
        guard payload >= recordOverhead - 8, payload <= remaining - 8 else { return nil }
        let end = offset + 4 + payload + 4
        guard read(UInt32.self, bytes, at: end - 4) == CRC32C.checksum(bytes[offset..<(end - 4)]),
            read(UInt32.self, bytes, at: offset + 4) == sequence
        else { return nil }
        let resultLength = read(UInt64.self, bytes, at: offset + 8)
        let hunkCount = Int(read(UInt32.self, bytes, at: offset + 16))
        // Each hunk takes at least its overhead: a count the payload cannot hold is damage.
        guard hunkCount <= (payload - 16) / hunkOverhead else { return nil }
        var hunks: [(hunk: Hunk, bytes: Int)] = []
        hunks.reserveCapacity(hunkCount)
        var cursor = offset + 20
        var previousEnd = 0
        var length = count
        for _ in 0..<hunkCount {
            guard end - 4 - cursor >= hunkOverhead else { return nil }
            let start = read(UInt64.self, bytes, at: cursor)
            let removed = Int(read(UInt32.self, bytes, at: cursor + 8))
            let inserted = Int(read(UInt32.self, bytes, at: cursor + 12))
            cursor += hunkOverhead
            guard start >= UInt64(previousEnd), start <= UInt64(count), removed <= count - Int(start),
                inserted <= end - 4 - cursor
            else { return nil }
            let hunk = Hunk(offset: Int(start), removed: removed, inserted: inserted)
            hunks.append((hunk, cursor))
            cursor += inserted
            previousEnd = hunk.offset + removed
            length += inserted - removed
        }
        guard cursor == end - 4, UInt64(length) == resultLength else { return nil }
        return Record(hunks: hunks, end: end, length: length)
    }

    /// The little-endian integer at `offset`.
    private static func read<Integer: FixedWidthInteger>(_: Integer.Type, _ bytes: [UInt8], at offset: Int) -> Integer {
        bytes.withUnsafeBytes { Integer(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Integer.self)) }
    }
}
