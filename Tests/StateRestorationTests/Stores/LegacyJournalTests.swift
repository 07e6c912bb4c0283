import Foundation
import StateRestoration
import Testing

/// What a `FileStore` does with a journal an older build left beside an archive file: the
/// journal holds the newest saves the app confirmed before it was updated, so a read applies it
/// and the next write folds it into the archive file.
@Suite struct LegacyJournalTests {
    // Computed, not stored: a static `Data` lives for the whole process, which the leak check
    // of the AddressSanitizer run reports.

    /// A 4 KiB archive file whose bytes differ from one place to the next.
    static var base: Data { Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }) }

    /// `base` after a save that changed 10 bytes in place.
    static var second: Data {
        var data = base
        data.replaceSubrange(1000..<1010, with: Data(repeating: 0xAA, count: 10))
        return data
    }

    /// `second` after a save that made it 20 bytes longer.
    static var third: Data {
        var data = second
        data.replaceSubrange(2000..<2000, with: Data(repeating: 0xBB, count: 20))
        return data
    }

    /// A journal for `base` with the records of the saves `second` and `third`.
    static var journal: Data {
        LegacyJournalFile.header(for: base)
            + LegacyJournalFile.record(
                sequence: 1, resultLength: second.count, hunks: [(1000, 10, Data(repeating: 0xAA, count: 10))])
            + LegacyJournalFile.record(
                sequence: 2, resultLength: third.count, hunks: [(2000, 0, Data(repeating: 0xBB, count: 20))])
    }

    /// Writes an archive file and, unless `nil`, a journal beside it, as an older build left them.
    static func plant(_ file: Data?, journal: Data?, in directory: URL) throws {
        if let file { try file.write(to: directory.appending(path: "main.restoration")) }
        if let journal { try journal.write(to: directory.appending(path: "main.restoration-journal")) }
    }

    @Test("A read applies an older build's journal: the newest save it confirmed is what a launch restores")
    func readApplies() throws {
        try TestSupport.withTemporaryDirectory { directory in
            try Self.plant(Self.base, journal: Self.journal + Data(count: 1000), in: directory)
            #expect(try FileStore(directory: directory).read(.main) == Self.third)
        }
    }

    @Test("A journal for another archive file is ignored; a torn or damaged record ends the records it applies")
    func damage() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            // Left beside a newer archive file by a kill between its rename and the journal's removal.
            try Self.plant(Self.second, journal: Self.journal, in: directory)
            #expect(try store.read(.main) == Self.second)

            let firstRecordEnd = 28 + 24 + 16 + 10
            try Self.plant(Self.base, journal: Self.journal.prefix(Self.journal.count - 3), in: directory)
            #expect(try store.read(.main) == Self.second, "torn second record")
            var damaged = Self.journal
            damaged[firstRecordEnd + 30] ^= 0x01
            try Self.plant(Self.base, journal: damaged, in: directory)
            #expect(try store.read(.main) == Self.second, "damaged second record")
            damaged = Self.journal
            damaged[5] ^= 0x01
            try Self.plant(Self.base, journal: damaged, in: directory)
            #expect(try store.read(.main) == Self.base, "damaged header")
        }
    }

    @Test("A read applies at most 256 records (32 of version 1), and stops before 32 passes' work over the file")
    func bounds() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            // 300 records, each changing byte 0 in place: one byte of work each.
            for (version, applied) in [(UInt16(2), 256), (UInt16(1), 32)] {
                var journal = LegacyJournalFile.header(for: Self.base, version: version)
                for sequence in 1...300 {
                    let byte = Data([UInt8(sequence % 256)])
                    journal += LegacyJournalFile.record(
                        sequence: sequence, resultLength: Self.base.count, hunks: [(0, 1, byte)])
                }
                try Self.plant(Self.base, journal: journal, in: directory)
                #expect(try store.read(.main)?.first == UInt8(applied % 256), "version \(version)")
            }
            // Records inserting one byte at the start move every byte after it: record k costs
            // 4096 + k, and 31 of them fit in the budget of 32 × 4096.
            var journal = LegacyJournalFile.header(for: Self.base)
            for sequence in 1...40 {
                journal += LegacyJournalFile.record(
                    sequence: sequence, resultLength: Self.base.count + sequence, hunks: [(0, 0, Data([0xCC]))])
            }
            try Self.plant(Self.base, journal: journal, in: directory)
            #expect(try store.read(.main)?.count == Self.base.count + 31)
        }
    }

    @Test("A journal that makes the archive larger than the store reads is a tooLarge error naming the archive")
    func tooLarge() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory, maximumArchiveSize: Self.base.count + 10)
            try Self.plant(Self.base, journal: Self.journal, in: directory)
            let error = try #require(throws: StoreError.self) { try store.read(.main) }
            #expect(error.code == .tooLarge)
            #expect(
                error.description
                    == "cannot read \(store.fileURL(for: .main).path(percentEncoded: false)): the journal beside it "
                    + "makes it 4116 bytes, more than the store's limit of 4106 bytes; it was not read")
        }
    }

    @Test("The next write replaces the archive file, then removes the journal, then flushes the directory once")
    func writeRemovesJournal() throws {
        try TestSupport.withTemporaryDirectory { directory in
            try Self.plant(Self.base, journal: Self.journal, in: directory)
            let recorder = CallRecorder()
            try FileStoreDurabilityTests.store(directory, recorder).write(Data("new".utf8), to: .main)
            var expected = FileStoreDurabilityTests.atomicWrite(of: "main.restoration")
            expected.insert("unlink main.restoration-journal", at: expected.count - 1)
            #expect(recorder.steps(relativeTo: directory) == expected)
            #expect(try FileStore(directory: directory).read(.main) == Data("new".utf8))
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
        }
    }

    @Test("A journal without its archive file is ignored, and removed before the next rename, never applied to it")
    func orphanJournal() throws {
        try TestSupport.withTemporaryDirectory { directory in
            try Self.plant(nil, journal: Self.journal, in: directory)
            let recorder = CallRecorder()
            let store = FileStoreDurabilityTests.store(directory, recorder)
            #expect(try store.read(.main) == nil)
            // The very bytes the journal was written for: had it stayed, a read would apply it.
            try store.write(Self.base, to: .main)
            var expected = FileStoreDurabilityTests.atomicWrite(of: "main.restoration")
            expected.insert("unlink main.restoration-journal", at: expected.count - 2)
            #expect(recorder.steps(relativeTo: directory) == expected)
            #expect(try store.read(.main) == Self.base)
        }
    }

    @Test("A remove removes the archive file and the journal, with one directory flush")
    func remove() throws {
        try TestSupport.withTemporaryDirectory { directory in
            try Self.plant(Self.base, journal: Self.journal, in: directory)
            let recorder = CallRecorder()
            try FileStoreDurabilityTests.store(directory, recorder).remove(.main)
            #expect(
                recorder.steps(relativeTo: directory)
                    == ["unlink main.restoration", "unlink main.restoration-journal", "fsync-directory ."])
            #expect(try TestSupport.fileNames(in: directory).isEmpty)
        }
    }

    @Test("A reject moves the journal beside the copy, which the two still make; the copy alone is listed")
    func reject() throws {
        try TestSupport.withTemporaryDirectory { directory in
            try Self.plant(Self.base, journal: Self.journal, in: directory)
            let recorder = CallRecorder()
            let store = FileStoreDurabilityTests.store(directory, recorder)
            let copy = try #require(try store.reject(.main, reason: "bad"))
            let name = "main.rejected-bad-20231114T221320.250Z.restoration"
            #expect(
                recorder.steps(relativeTo: directory)
                    == [
                        "rename main.restoration \(name)",
                        "rename main.restoration-journal \(name)-journal", "fsync-directory .",
                    ])
            #expect(try store.rejectedArchives(for: .main) == [copy])
            #expect(FileManager.default.contents(atPath: copy) == Self.base)
            #expect(FileManager.default.contents(atPath: copy + "-journal") == Self.journal)
            #expect(try store.read(.main) == nil)
        }
    }
}

/// Journals as older builds of `FileStore` wrote them (`Documentation/ArchiveFormat.md`).
enum LegacyJournalFile {
    /// The header of a journal for an archive file.
    static func header(for base: Data, version: UInt16 = 2) -> Data {
        var bytes = Data([0x89, 0x53, 0x52, 0x4A, 0x4E, 0x4C, 0x0D, 0x0A])
        append(version, to: &bytes)
        append(UInt16(0), to: &bytes)
        append(UInt64(base.count), to: &bytes)
        append(CRC32C.checksum(base), to: &bytes)
        append(CRC32C.checksum(bytes), to: &bytes)
        return bytes
    }

    /// A record: at each hunk's offset, `removed` bytes become `inserted`.
    static func record(
        sequence: Int, resultLength: Int, hunks: [(offset: Int, removed: Int, inserted: Data)]
    ) -> Data {
        var payload = Data()
        append(UInt32(sequence), to: &payload)
        append(UInt64(resultLength), to: &payload)
        append(UInt32(hunks.count), to: &payload)
        for hunk in hunks {
            append(UInt64(hunk.offset), to: &payload)
            append(UInt32(hunk.removed), to: &payload)
            append(UInt32(hunk.inserted.count), to: &payload)
            payload += hunk.inserted
        }
        var record = Data()
        append(UInt32(payload.count), to: &record)
        record += payload
        append(CRC32C.checksum(record), to: &record)
        return record
    }

    /// A journal whose one record turns `base` into `content`, replacing every byte.
    static func journal(from base: Data, to content: Data) -> Data {
        header(for: base) + record(sequence: 1, resultLength: content.count, hunks: [(0, base.count, content)])
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
