import Foundation

/// The journal that ``FileStore`` keeps beside an archive file, so that a write that changes a
/// few bytes of a large archive writes and flushes those bytes instead of the whole file.
///
/// The journal of `<key>.restoration` is `<key>.restoration-journal`:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `89 53 52 4A 4E 4C 0D 0A` (`\x89SRJNL\r\n`) |
/// | 8 | 2 | version, 2 (version 1 is still read) |
/// | 10 | 2 | flags, 0 |
/// | 12 | 8 | byte length of the archive file it applies to |
/// | 20 | 4 | CRC-32C of that archive file |
/// | 24 | 4 | CRC-32C of bytes 0–23 |
/// | 28 | … | records, each a change from the content before it to a newer one |
///
/// A record:
///
/// | size | field |
/// |---|---|
/// | 4 | payload length P (the bytes from the sequence number to the last hunk) |
/// | 4 | sequence number: 1 for the first record, then 2, 3, … |
/// | 8 | byte length of the content after this record |
/// | 4 | number of hunks |
/// | … | hunks, in increasing offset: offset (8 bytes) in the content before this record, bytes removed there (4), bytes inserted (4), the inserted bytes |
/// | 4 | CRC-32C of the length field and the payload |
///
/// The file is extended in steps of ``allocationStep`` bytes, zeros after the last record, so
/// that appending a record changes neither its size nor its blocks, and flushing it needs no
/// metadata (`fdatasync`). A record's length field is never zero, so the zeros end the records.
///
/// All integers are little-endian. The content a read returns is the archive file with the
/// records applied in order. A journal whose header does not match the archive file (written
/// for an earlier one, and left behind by a process killed before removing it) is ignored. The
/// records are applied up to the first that is torn, damaged or out of sequence, and that one
/// and everything after it are ignored: a write killed while appending its record leaves the
/// content of the write before. Appending a record and flushing the journal makes a write
/// durable; the archive file itself is only rewritten when the journal would pass
/// ``maximumRecords`` records, a quarter of the content or its ``workBudget(baseLength:)``, and
/// the new archive file replaces the journal.
///
/// Version 1 differs only in its bound: a reader applies at most 32 of its records, and has no
/// work bound. A version 1 journal is read as before, but never appended to: the next write
/// rewrites the archive file. (Version 2 raised the bound, so that a store rewrites its 400 KB
/// archive file once in 257 saves of a small change that keeps the archive's length, instead of
/// once in 33; a change of length costs a record the bytes after it, and the work bound comes
/// sooner, after about 32 such saves for a change near the start. A version 1 reader
/// ignores a version 2 journal, as it does any journal it cannot read, and returns the archive
/// file.)
enum FileStoreJournal {
    /// `\x89SRJNL\r\n`: like the archive envelope's magic, a transfer that strips the eighth bit
    /// or rewrites line endings is detected.
    static let magic: [UInt8] = [0x89, 0x53, 0x52, 0x4A, 0x4E, 0x4C, 0x0D, 0x0A]

    /// The version written.
    static let version: UInt16 = 2

    /// The first version, still read: at most 32 records, no work bound.
    static let firstVersion: UInt16 = 1

    /// The bytes of the header.
    static let headerSize = 28

    /// The bytes of a record that are not hunks: length, sequence, result length, hunk count, CRC.
    static let recordOverhead = 4 + 4 + 8 + 4 + 4

    /// The bytes of a hunk before its inserted bytes.
    static let hunkOverhead = 8 + 4 + 4

    /// The most records a journal of the version written holds; the next write rewrites the
    /// archive file. Bounds the number of records a read parses and applies.
    static let maximumRecords = 256

    /// The most records a reader applies from a journal of a version.
    static func maximumRecords(version: UInt16) -> Int {
        version == firstVersion ? 32 : maximumRecords
    }

    /// The most work, in bytes, that the records of a journal may cost a read: 32 passes over the
    /// archive file (of at least 4 KiB). A record's work is ``work(of:contentLength:)``; a writer
    /// appends no record that would pass the budget, and a reader stops before one, so that a
    /// hostile journal cannot make a read cost more than that. Records of the same length as the
    /// bytes they replace, as when a state changes but keeps its size, cost only their bytes.
    static func workBudget(baseLength: Int) -> Int {
        let (budget, overflow) = Swift.max(baseLength, 4096).multipliedReportingOverflow(by: 32)
        return overflow ? .max : budget
    }

    /// The work of applying a record's hunks to content of `contentLength` bytes: the bytes each
    /// hunk inserts, plus, for each hunk that changes the length, the bytes after it, which move.
    /// `Int.max` if the sum would not fit: a hostile journal's record never traps a reader.
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

    /// The journal file grows in steps of this many bytes, filled with zeros.
    static let allocationStep = 32 * 1024

    /// The size of a journal file that holds `length` bytes of header and records.
    static func allocatedSize(for length: Int) -> Int {
        (length + allocationStep - 1) / allocationStep * allocationStep
    }

    /// Equal runs are skipped this many bytes at a time with `memcmp`.
    static let compareBlock = 4096

    /// Differing bytes closer than this are sent as one hunk: a hunk's own overhead is 16 bytes.
    static let mergeDistance = 16

    /// The largest journal, in bytes, for content of a size: a quarter of it, and at least 4 KiB
    /// so that small archives also get journals.
    static func maximumJournalSize(forContentOf count: Int) -> Int {
        Swift.max(count / 4, 4096)
    }

    /// The name of a key's journal, `<key>.restoration-journal`.
    static func name(for key: StoreKey) -> String {
        ArchiveNaming.archiveName(for: key) + "-journal"
    }

    // MARK: Writing

    /// The header of a journal for an archive file (of the version written, unless told).
    static func header(baseLength: Int, baseChecksum: UInt32, version: UInt16 = version) -> Data {
        var bytes = Data(magic)
        append(version, to: &bytes)
        append(UInt16(0), to: &bytes)
        append(UInt64(baseLength), to: &bytes)
        append(baseChecksum, to: &bytes)
        append(CRC32C.checksum(bytes), to: &bytes)
        return bytes
    }

    /// The record that changes `old` into `new`, or nil if it would take more than `budget`
    /// bytes (a full write is cheaper then) or a length does not fit its field.
    static func record(from old: Data, to new: Data, sequence: Int, budget: Int) -> Data? {
        record(from: old, to: new, sequence: sequence, budget: budget, workBudget: .max)?.bytes
    }

    /// The record that changes `old` into `new` and its ``work(of:contentLength:)``, or nil if
    /// it would take more than `budget` bytes or more than `workBudget` work, or a length does
    /// not fit its field.
    static func record(
        from old: Data, to new: Data, sequence: Int, budget: Int, workBudget: Int
    ) -> (bytes: Data, work: Int)? {
        guard sequence <= Int(UInt32.max), old.count <= UInt32.max, new.count <= UInt32.max else { return nil }
        return old.withUnsafeBytes { oldBytes in
            new.withUnsafeBytes { newBytes -> (bytes: Data, work: Int)? in
                guard
                    let hunks = Self.hunks(
                        from: oldBytes, to: newBytes, budget: budget - recordOverhead)
                else { return nil }
                let size = recordOverhead + hunks.reduce(0) { $0 + hunkOverhead + $1.inserted }
                let work = Self.work(of: hunks, contentLength: old.count)
                guard size <= budget, work <= workBudget else { return nil }
                var record = Data(capacity: size)
                append(UInt32(size - 8), to: &record)
                append(UInt32(sequence), to: &record)
                append(UInt64(new.count), to: &record)
                append(UInt32(hunks.count), to: &record)
                for hunk in hunks {
                    append(UInt64(hunk.offset), to: &record)
                    append(UInt32(hunk.removed), to: &record)
                    append(UInt32(hunk.inserted), to: &record)
                    if hunk.inserted > 0 {
                        record.append(
                            contentsOf: UnsafeRawBufferPointer(
                                rebasing: newBytes[hunk.offset..<(hunk.offset + hunk.inserted)]))
                    }
                }
                append(CRC32C.checksum(record), to: &record)
                return (record, work)
            }
        }
    }

    /// A change: at `offset` (the same in the old and the new content, since every hunk before
    /// it keeps its length), `removed` old bytes become the `inserted` new bytes at `offset`.
    struct Hunk: Equatable {
        var offset: Int
        var removed: Int
        var inserted: Int
    }

    /// The hunks that turn `old` into `new`, or nil once their inserted bytes pass `budget`.
    ///
    /// The common suffix is found first, from the end; before it, the two are compared byte for
    /// byte at the same offsets, where the archive's changes are (its checksum and body length in
    /// the header, the length fields of the containers around a changed state, the state
    /// itself). Whatever is left between the compared part and the suffix, when the lengths
    /// differ, is one last hunk. The result is correct for any two inputs; it is small when the
    /// changes keep their lengths or only one of them does not.
    static func hunks(from old: UnsafeRawBufferPointer, to new: UnsafeRawBufferPointer, budget: Int) -> [Hunk]? {
        let oldCount = old.count
        let newCount = new.count
        guard budget >= 0 else { return nil }
        guard let oldBase = old.baseAddress, let newBase = new.baseAddress else {
            // One of them is empty: everything of the other is one hunk.
            if oldCount == 0 && newCount == 0 { return [] }
            return newCount <= budget ? [Hunk(offset: 0, removed: oldCount, inserted: newCount)] : nil
        }
        // The common suffix: blocks compared with memcmp (vectorized) while equal, then eight
        // bytes at a time, then byte by byte.
        let longest = Swift.min(oldCount, newCount)
        var suffix = 0
        while suffix + compareBlock <= longest
            && memcmp(
                oldBase + (oldCount - suffix - compareBlock), newBase + (newCount - suffix - compareBlock),
                compareBlock) == 0
        {
            suffix += compareBlock
        }
        while suffix + 8 <= longest
            && oldBase.loadUnaligned(fromByteOffset: oldCount - suffix - 8, as: UInt64.self)
                == newBase.loadUnaligned(fromByteOffset: newCount - suffix - 8, as: UInt64.self)
        {
            suffix += 8
        }
        while suffix < longest && old[oldCount - suffix - 1] == new[newCount - suffix - 1] {
            suffix += 1
        }
        let oldEnd = oldCount - suffix
        let newEnd = newCount - suffix
        let aligned = Swift.min(oldEnd, newEnd)

        var hunks: [Hunk] = []
        var spent = 0
        var index = 0
        while index < aligned {
            // Skip equal bytes, a block at a time, then eight at a time.
            while index + compareBlock <= aligned && memcmp(oldBase + index, newBase + index, compareBlock) == 0 {
                index += compareBlock
            }
            while index + 8 <= aligned
                && oldBase.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    == newBase.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            {
                index += 8
            }
            while index < aligned && old[index] == new[index] {
                index += 1
            }
            guard index < aligned else { break }
            // A run of differences, up to the first `mergeDistance` equal bytes in a row.
            let start = index
            var lastDifference = index
            index += 1
            while index < aligned && index - lastDifference <= mergeDistance {
                if old[index] != new[index] { lastDifference = index }
                index += 1
            }
            let length = lastDifference + 1 - start
            spent += hunkOverhead + length
            guard spent <= budget else { return nil }
            hunks.append(Hunk(offset: start, removed: length, inserted: length))
            index = lastDifference + 1
        }
        if oldEnd != newEnd {
            // The lengths differ: the rest before the common suffix is replaced whole, and
            // joins the last hunk when that ends close by.
            var start = aligned
            if let last = hunks.last, aligned - (last.offset + last.removed) <= mergeDistance {
                start = last.offset
                spent -= hunkOverhead + last.inserted
                hunks.removeLast()
            }
            let inserted = newEnd - start
            spent += hunkOverhead + inserted
            guard spent <= budget else { return nil }
            hunks.append(Hunk(offset: start, removed: oldEnd - start, inserted: inserted))
        }
        return hunks
    }

    // MARK: Reading

    /// A journal read against its archive file.
    struct Replay {
        /// The archive file with every valid record applied.
        var content: Data
        /// Whether the header matches the archive file; if not, the journal is ignored.
        var matchesBase: Bool
        /// The CRC-32C of the archive file, when computed.
        var baseChecksum: UInt32?
        /// The bytes of the header and the valid records; what follows is zeros, or a torn or
        /// damaged record.
        var validLength: Int
        /// Whether only zeros follow the valid records.
        var tailIsClean: Bool
        /// The number of valid records.
        var records: Int
        /// The journal's version, when its header is valid.
        var version: UInt16?
        /// The ``work(of:contentLength:)`` of the valid records, together.
        var work: Int
    }

    /// Why a journal cannot be applied at all: its content would be larger than the store reads.
    struct ContentTooLarge: Error {
        var length: UInt64
    }

    /// Applies a journal's valid records to its archive file.
    ///
    /// Never traps: the header and every record are checked before anything is applied.
    ///
    /// - Throws: ``ContentTooLarge`` if a valid record makes the content longer than `limit`.
    static func replay(base: Data, journal: Data, limit: Int) throws(ContentTooLarge) -> Replay {
        var replay = Replay(
            content: base, matchesBase: false, baseChecksum: nil, validLength: 0, tailIsClean: false, records: 0,
            version: nil, work: 0)
        guard journal.count >= headerSize else { return replay }
        let bytes = [UInt8](journal)
        let version = read(UInt16.self, bytes, at: 8)
        guard Array(bytes[0..<8]) == magic, version == Self.version || version == firstVersion,
            read(UInt32.self, bytes, at: 24)
                == bytes.withUnsafeBytes({ CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<24])) }),
            read(UInt64.self, bytes, at: 12) == UInt64(base.count)
        else { return replay }
        let checksum = CRC32C.checksum(base)
        replay.baseChecksum = checksum
        guard read(UInt32.self, bytes, at: 20) == checksum else { return replay }
        replay.matchesBase = true
        replay.version = version
        replay.validLength = headerSize

        var offset = headerSize
        // No more records, nor more work, than a writer appends.
        let records = maximumRecords(version: version)
        let budget = version == firstVersion ? Int.max : workBudget(baseLength: base.count)
        while replay.records < records,
            let record = parseRecord(bytes, at: offset, sequence: replay.records + 1, against: replay.content.count)
        {
            // A record past the budget is one no writer appended: it ends the records, even if it
            // would also make the content too large.
            let work = Self.work(of: record.hunks.lazy.map(\.hunk), contentLength: replay.content.count)
            guard work <= budget - replay.work else { break }
            guard record.length <= limit else { throw ContentTooLarge(length: UInt64(record.length)) }
            replay.work += work
            apply(record.hunks, from: bytes, to: &replay.content)
            offset = record.end
            replay.validLength = offset
            replay.records += 1
        }
        replay.tailIsClean = bytes[offset...].allSatisfy { $0 == 0 }
        return replay
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
        let stored = read(UInt32.self, bytes, at: end - 4)
        let computed = bytes.withUnsafeBytes {
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[offset..<(end - 4)]))
        }
        guard stored == computed, read(UInt32.self, bytes, at: offset + 4) == sequence else { return nil }
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

    /// Applies checked hunks, last first, so that the offsets of the earlier ones stay valid.
    private static func apply(_ hunks: [(hunk: Hunk, bytes: Int)], from journal: [UInt8], to content: inout Data) {
        for (hunk, bytes) in hunks.reversed() {
            let start = content.startIndex + hunk.offset
            content.replaceSubrange(
                start..<(start + hunk.removed), with: journal[bytes..<(bytes + hunk.inserted)])
        }
    }

    // MARK: Integers

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func read<Integer: FixedWidthInteger>(_: Integer.Type, _ bytes: [UInt8], at offset: Int) -> Integer {
        bytes.withUnsafeBytes { Integer(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Integer.self)) }
    }
}
