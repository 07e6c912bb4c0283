import Foundation
import Synchronization
@testable import StateRestoration
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal ``FileStore`` appends to instead of rewriting a large archive file for a small change.
@Suite struct FileStoreJournalTests {
    /// `<directory>/<name>` as a path.
    func path(_ directory: URL, _ name: String) -> String {
        directory.appending(path: name, directoryHint: .notDirectory).path(percentEncoded: false)
    }

    func contents(_ directory: URL, _ name: String) -> Data? {
        FileManager.default.contents(atPath: path(directory, name))
    }

    /// Random bytes, the same for the same generator state.
    static func bytes(_ count: Int, _ random: inout SplitMix64) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// A random edit: bytes changed in place, inserted or removed, at one to four places.
    static func edit(_ data: Data, _ random: inout SplitMix64) -> Data {
        var edited = [UInt8](data)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = Int.random(in: 0...edited.count, using: &random)
            let length = Int.random(in: 0...40, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                for index in at..<min(at + length, edited.count) { edited[index] &+= 1 }
            case 1:
                edited.insert(contentsOf: bytes(length, &random), at: at)
            default:
                edited.removeSubrange(at..<min(at + length, edited.count))
            }
        }
        return Data(edited)
    }

    /// A store over `directory` that wrote `largeArchive(1)` to the archive file, then
    /// `largeArchive(2)` as the journal's first record.
    static func storeWithOneRecord(in directory: URL) throws -> FileStore {
        let store = FileStore(directory: directory)
        try store.write(largeArchive(1), to: .main)
        try store.write(largeArchive(2), to: .main)
        return store
    }

    /// A 100 KB content with one state-sized change: what a save of one changed screen does.
    static func largeArchive(_ marker: UInt8) -> Data {
        var data = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        data.replaceSubrange(60_000..<60_010, with: Data(repeating: marker, count: 10 + Int(marker % 3)))
        return data
    }

    // MARK: The format

    @Test("Records chained on random contents give back every content exactly, whatever the edits")
    func randomEditsReplay() throws {
        var random = SplitMix64(state: 0x10A7_2026)
        for round in 0..<300 {
            // Every tenth content is larger than the blocks the comparison skips at a time.
            let size =
                round % 10 == 0
                ? Int.random(in: 5000...20_000, using: &random) : Int.random(in: 0...3000, using: &random)
            let base = Self.bytes(size, &random)
            var journal = FileStoreJournal.header(baseLength: base.count, baseChecksum: CRC32C.checksum(base))
            var content = base
            for sequence in 1...Int.random(in: 1...5, using: &random) {
                let next =
                    Bool.random(using: &random)
                    ? Self.edit(content, &random)
                    : Self.bytes(
                        Int.random(in: 0...200, using: &random), &random)
                let record = try #require(
                    FileStoreJournal.record(from: content, to: next, sequence: sequence, budget: .max / 2),
                    "round \(round)")
                journal.append(record)
                content = next
                let replay = try FileStoreJournal.replay(base: base, journal: journal, limit: .max)
                #expect(replay.content == content, "round \(round), record \(sequence)")
                #expect(replay.records == sequence && replay.validLength == journal.count, "round \(round)")
            }
        }
    }

    @Test("A change of a few bytes in 100 KB, even one that changes the length, is a record of under 100 bytes")
    func smallChangeSmallRecord() throws {
        let old = Self.largeArchive(1)
        var new = Self.largeArchive(2)  // one byte longer at 60,000
        new[new.startIndex + 20] = 0xEE  // and a header field changed in place
        let record = try #require(FileStoreJournal.record(from: old, to: new, sequence: 1, budget: 1000))
        #expect(record.count < 100, "\(record.count) bytes")
        #expect(FileStoreJournal.record(from: old, to: new, sequence: 1, budget: record.count - 1) == nil)
        var random = SplitMix64(state: 7)
        let unrelated = Self.bytes(50_000, &random)
        #expect(FileStoreJournal.record(from: old, to: unrelated, sequence: 1, budget: 25_000) == nil)
    }

    @Test("A header for another archive file, a damaged header or a torn or damaged record is not applied")
    func damagedJournalsAreNotApplied() throws {
        let base = Data("the archive file".utf8)
        let next = Data("the archive, changed".utf8)
        let header = FileStoreJournal.header(baseLength: base.count, baseChecksum: CRC32C.checksum(base))
        let record = try #require(FileStoreJournal.record(from: base, to: next, sequence: 1, budget: 1000))
        let whole = header + record
        #expect(try FileStoreJournal.replay(base: base, journal: whole, limit: 1000).content == next)

        let other = Data("another archive file".utf8)
        let otherHeader = FileStoreJournal.header(baseLength: base.count, baseChecksum: CRC32C.checksum(other))
        let cases: [(String, Data)] = [
            ("a header for another archive file", otherHeader + record),
            ("a damaged header", Data(whole.prefix(12)) + Data([whole[12] ^ 1]) + whole.dropFirst(13)),
            ("a torn record", whole.dropLast(3)),
            (
                "a damaged record",
                whole.prefix(whole.count - 6) + Data([whole[whole.count - 6] ^ 0x40]) + whole.suffix(5)
            ),
            (
                "a record out of sequence",
                header
                    + (try #require(
                        FileStoreJournal.record(from: base, to: next, sequence: 2, budget: 1000)))
            ),
            ("a header alone, torn", whole.prefix(20)),
        ]
        for (name, journal) in cases {
            let replay = try FileStoreJournal.replay(base: base, journal: Data(journal), limit: 1000)
            #expect(replay.content == base, "\(name)")
            #expect(replay.records == 0, "\(name)")
        }
        // Every prefix and every single flipped bit of a valid journal: never a trap, never a
        // content that is neither the archive file nor the written change.
        for length in 0...whole.count {
            let content = try FileStoreJournal.replay(base: base, journal: Data(whole.prefix(length)), limit: 1000)
                .content
            #expect(content == (length == whole.count ? next : base), "prefix of \(length) bytes")
        }
        for bit in 0..<(whole.count * 8) {
            var flipped = whole
            flipped[bit / 8] ^= UInt8(1 << (bit % 8))
            let content = try FileStoreJournal.replay(base: base, journal: flipped, limit: 1000).content
            #expect(content == base || content == next, "bit \(bit)")
        }
        // A valid record whose content would be larger than the store reads.
        #expect(throws: FileStoreJournal.ContentTooLarge.self) {
            try FileStoreJournal.replay(base: base, journal: whole, limit: next.count - 1)
        }
    }

    // MARK: The store

    @Test("A small change to a large archive appends to the journal, leaves the archive file, and reads back")
    func smallWritesAppend() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            let first = Self.largeArchive(1)
            try store.write(first, to: .main)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            var latest = first
            for marker in UInt8(2)...6 {
                latest = Self.largeArchive(marker)
                try store.write(latest, to: .main)
                #expect(try store.read(.main) == latest)
            }
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration", "main.restoration-journal"])
            #expect(contents(directory, "main.restoration") == first, "the archive file is not rewritten")
            let journal = try #require(contents(directory, "main.restoration-journal"))
            let replay = try FileStoreJournal.replay(base: first, journal: journal, limit: .max)
            #expect(replay.records == 5 && replay.content == latest)
            #expect(replay.validLength < 600, "5 records of about 60 bytes, not 5 × 100 KB: \(replay.validLength)")
            // Zeros after the records: appending fills them, without growing the file.
            #expect(journal.count == FileStoreJournal.allocationStep && replay.tailIsClean)
            #expect(try TestSupport.permissions(of: path(directory, "main.restoration-journal")) == 0o600)
            // Another store, as at the next launch, reads the same.
            #expect(try FileStore(directory: directory).read(.main) == latest)
            #expect(try FileStore(directory: directory).keys() == [.main])
        }
    }

    @Test("A store that read the archive appends, as a launch's read lets the next save append")
    func readThenAppend() throws {
        try TestSupport.withTemporaryDirectory { directory in
            try FileStore(directory: directory).write(Self.largeArchive(1), to: .main)
            try FileStore(directory: directory).write(Self.largeArchive(2), to: .main)  // no read: a file write
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            let relaunched = FileStore(directory: directory)
            #expect(try relaunched.read(.main) == Self.largeArchive(2))
            try relaunched.write(Self.largeArchive(3), to: .main)
            #expect(contents(directory, "main.restoration") == Self.largeArchive(2))
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(3))
        }
    }

    /// The 100 KB content of ``largeArchive(_:)`` with a two-byte count in place of its change:
    /// contents of the same length that differ in two bytes at most.
    static func sameLengthArchive(_ count: Int) -> Data {
        var data = largeArchive(0)
        data[60_000] = UInt8(truncatingIfNeeded: count)
        data[60_001] = UInt8(truncatingIfNeeded: count >> 8)
        return data
    }

    @Test("After 256 records, or a quarter of the content in records, the next write rewrites the archive file")
    func journalIsCompacted() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            try store.write(Self.sameLengthArchive(0), to: .main)
            for count in 1...FileStoreJournal.maximumRecords {
                try store.write(Self.sameLengthArchive(count), to: .main)
            }
            #expect(contents(directory, "main.restoration") == Self.sameLengthArchive(0))
            let journal = try #require(contents(directory, "main.restoration-journal"))
            let replay = try FileStoreJournal.replay(base: Self.sameLengthArchive(0), journal: journal, limit: .max)
            #expect(replay.records == FileStoreJournal.maximumRecords)
            #expect(replay.content == Self.sameLengthArchive(FileStoreJournal.maximumRecords))
            try store.write(Self.largeArchive(100), to: .main)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            #expect(contents(directory, "main.restoration") == Self.largeArchive(100))

            // Changes of 20 KB each: the second no longer fits in 25 KB of journal.
            var random = SplitMix64(state: 3)
            var content = Self.largeArchive(100)
            content.replaceSubrange(0..<20_000, with: Self.bytes(20_000, &random))
            try store.write(content, to: .main)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration", "main.restoration-journal"])
            content.replaceSubrange(40_000..<60_000, with: Self.bytes(20_000, &random))
            try store.write(content, to: .main)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            #expect(try FileStore(directory: directory).read(.main) == content)
        }
    }

    @Test("A torn or damaged last record is ignored by the read, and the next write replaces it")
    func tornRecordIgnored() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = try Self.storeWithOneRecord(in: directory)
            var large = Self.largeArchive(2)  // a record of 3 KB
            large.replaceSubrange(10_000..<13_000, with: Data(repeating: 0xAB, count: 3000))
            try store.write(large, to: .main)
            let journal = URL(filePath: path(directory, "main.restoration-journal"))
            let whole = try Data(contentsOf: journal)
            let valid = try FileStoreJournal.replay(base: Self.largeArchive(1), journal: whole, limit: .max).validLength
            // As if killed while appending record 2: its last bytes never reached the file.
            var torn = whole
            torn.replaceSubrange((valid - 7)..<valid, with: Data(count: 7))
            try torn.write(to: journal)
            let relaunched = FileStore(directory: directory)
            #expect(try relaunched.read(.main) == Self.largeArchive(2))
            try relaunched.write(Self.largeArchive(4), to: .main)
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(4))
            // The torn record 2 was cut off and a shorter record 2 took its place: only zeros
            // trail it, none of the torn record's bytes.
            let rewritten = try Data(contentsOf: journal)
            let replay = try FileStoreJournal.replay(
                base: try #require(contents(directory, "main.restoration")), journal: rewritten, limit: .max)
            #expect(replay.records == 2 && replay.tailIsClean)

            // A damaged byte in the middle of the last record.
            var damaged = rewritten
            damaged[replay.validLength - 20] ^= 0x01
            try damaged.write(to: journal)
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(2))
        }
    }

    @Test("A journal left by a kill between the rename and its removal does not apply to the new archive file")
    func staleJournalIgnored() throws {
        try TestSupport.withTemporaryDirectory { directory in
            _ = try Self.storeWithOneRecord(in: directory)
            let journal = URL(filePath: path(directory, "main.restoration-journal"))
            let stale = try Data(contentsOf: journal)
            try FileStore(directory: directory).write(Self.largeArchive(3), to: .main)  // a file write
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            try stale.write(to: journal)
            let relaunched = FileStore(directory: directory)
            #expect(try relaunched.read(.main) == Self.largeArchive(3))
            // The next write does not trust a journal it did not write: it rewrites the archive
            // file, which removes the stale journal; the write after it starts a journal of its own.
            try relaunched.write(Self.largeArchive(4), to: .main)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            #expect(contents(directory, "main.restoration") == Self.largeArchive(4))
            try relaunched.write(Self.largeArchive(5), to: .main)
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(5))
            #expect(contents(directory, "main.restoration") == Self.largeArchive(4))
        }
    }

    @Test("A store whose files another store changed writes the archive file instead of appending")
    func twoStoresOneDirectory() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let first = FileStore(directory: directory)
            let second = FileStore(directory: directory)
            try first.write(Self.largeArchive(1), to: .main)
            try second.write(Self.largeArchive(2), to: .main)  // replaces the archive file
            try first.write(Self.largeArchive(3), to: .main)
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(3))
            #expect(contents(directory, "main.restoration") == Self.largeArchive(3))

            _ = try second.read(.main)
            try second.write(Self.largeArchive(4), to: .main)  // a record
            try first.write(Self.largeArchive(5), to: .main)  // the archive file (its own is stale)
            try second.write(Self.largeArchive(6), to: .main)  // the archive file again
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(6))
        }
    }

    @Test(
        "A journal step that fails falls back to writing the archive file",
        arguments: [FileStore.WriteStep.openJournal, .appendJournal, .synchronizeJournal])
    func journalFailureFallsBack(step: FileStore.WriteStep) throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory, failure: { $0 == step ? EIO : nil })
            try store.write(Self.largeArchive(1), to: .main)
            try store.write(Self.largeArchive(2), to: .main)  // the journal fails: a file write
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            #expect(contents(directory, "main.restoration") == Self.largeArchive(2))
        }
    }

    @Test(
        "A record that fails after reaching the file, then a failed file write, leave the previous content",
        arguments: [FileStore.WriteStep.appendJournal, .synchronizeJournal])
    func journalAndFileFailureKeepPrevious(step: FileStore.WriteStep) throws {
        try TestSupport.withTemporaryDirectory { directory in
            let healthy = FileStore(directory: directory)
            try healthy.write(Self.largeArchive(1), to: .main)
            try healthy.write(Self.largeArchive(2), to: .main)  // a journal with one record
            let failing = FileStore(directory: directory, failure: { $0 == step || $0 == .rename ? EIO : nil })
            #expect(try failing.read(.main) == Self.largeArchive(2))
            let error = try #require(throws: StoreError.self) { try failing.write(Self.largeArchive(3), to: .main) }
            #expect(error.code == .renameFailed)
            // With .synchronizeJournal the record was written whole before the failure: it was cut off again.
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(2))
            let relaunched = FileStore(directory: directory)
            _ = try relaunched.read(.main)
            try relaunched.write(Self.largeArchive(4), to: .main)
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(4))
            #expect(contents(directory, "main.restoration") == Self.largeArchive(1))
        }
    }

    @Test("A writer can check that the bytes where its record goes are zeros, in the journal it opened")
    func zerosAreChecked() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let journal = path(directory, "main.restoration-journal")
            try (Data(repeating: 7, count: 10) + Data(count: 10)).write(to: URL(filePath: journal))
            let descriptor = try #require(
                try SystemCalls.openJournal(journal, create: false, path: journal, operation: .write))
            defer { SystemCalls.closeIgnoringErrors(descriptor) }
            #expect(SystemCalls.readZeros(descriptor, at: 10, count: 4) == true)
            #expect(SystemCalls.readZeros(descriptor, at: 8, count: 4) == false)
            #expect(SystemCalls.readZeros(descriptor, at: 18, count: 4) == true, "past the end counts as zeros")
            #expect(try SystemCalls.openJournal(journal, create: true, path: journal, operation: .write) == nil)
        }
    }

    @Test("A store whose size limit is under the journal's allocation step still reads back what it wrote")
    func smallLimit() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory, maximumArchiveSize: 20_000)
            let first = Data(repeating: 1, count: 10_000)
            var second = first
            second[5000] = 2
            try store.write(first, to: .main)
            try store.write(second, to: .main)
            #expect(try FileStore(directory: directory, maximumArchiveSize: 20_000).read(.main) == second)
        }
    }

    @Test(
        "A read applies at most the records a writer appends, however many a journal holds: 256, or 32 of version 1",
        arguments: [(FileStoreJournal.version, 256), (FileStoreJournal.firstVersion, 32)])
    func recordsAreBounded(version: UInt16, bound: Int) throws {
        #expect(FileStoreJournal.maximumRecords(version: version) == bound)
        let base = Data(repeating: 0, count: 1000)
        var journal = FileStoreJournal.header(
            baseLength: base.count, baseChecksum: CRC32C.checksum(base), version: version)
        var contents = [base]
        for sequence in 1...(bound + 8) {
            // Appended at the end: nothing moves, so only the count bounds the records.
            var next = contents[sequence - 1]
            next.append(UInt8(truncatingIfNeeded: sequence))
            journal.append(
                try #require(
                    FileStoreJournal.record(from: contents[sequence - 1], to: next, sequence: sequence, budget: 100)))
            contents.append(next)
        }
        let replay = try FileStoreJournal.replay(base: base, journal: journal, limit: .max)
        #expect(replay.version == version)
        #expect(replay.records == bound)
        #expect(replay.content == contents[bound])
        #expect(!replay.tailIsClean)
    }

    @Test("A read stops before the record that would pass the work bound: 32 passes over the archive file")
    func workIsBounded() throws {
        // Each record inserts one byte at the start: it moves the whole content, 4 KB and more.
        let base = Data(repeating: 7, count: 4096)
        var journal = FileStoreJournal.header(baseLength: base.count, baseChecksum: CRC32C.checksum(base))
        var contents = [base]
        var works = [0]
        for sequence in 1...40 {
            var next = contents[sequence - 1]
            next.insert(UInt8(sequence), at: 0)
            let (record, work) = try #require(
                FileStoreJournal.record(
                    from: contents[sequence - 1], to: next, sequence: sequence, budget: 100, workBudget: .max))
            journal.append(record)
            contents.append(next)
            works.append(works[sequence - 1] + work)
        }
        let budget = FileStoreJournal.workBudget(baseLength: base.count)
        #expect(budget == 32 * 4096)
        let fitting = try #require(works.lastIndex { $0 <= budget })
        #expect(fitting > 20 && fitting < 40)
        let replay = try FileStoreJournal.replay(base: base, journal: journal, limit: .max)
        #expect(replay.records == fitting)
        #expect(replay.work == works[fitting])
        #expect(replay.content == contents[fitting])
        // A writer does not make the record a reader would stop before.
        #expect(
            FileStoreJournal.record(
                from: contents[fitting], to: contents[fitting + 1], sequence: fitting + 1, budget: 100,
                workBudget: budget - works[fitting]) == nil)
    }

    @Test("Records that change lengths are appended until their work would pass the bound, then the file is rewritten")
    func workBoundRewritesArchiveFile() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            // Each content one byte longer than the one before, at 60 KB of 100 KB: about 40 KB
            // move per record, against a bound of 3.2 MB.
            var content = Self.largeArchive(0)
            try store.write(content, to: .main)
            var appended = 0
            while contents(directory, "main.restoration") == Self.largeArchive(0) {
                // What the journal holds so far, a fresh reader applies whole: the writer appended
                // no record the reader's bound stops before.
                #expect(try FileStore(directory: directory).read(.main) == content)
                content.insert(UInt8(truncatingIfNeeded: appended), at: 60_000)
                try store.write(content, to: .main)
                appended += 1
                try #require(appended < FileStoreJournal.maximumRecords)
            }
            // The write that would have passed the bound rewrote the archive file instead.
            #expect(appended > 32)
            #expect(contents(directory, "main.restoration") == content)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            let journalBefore = appended - 1
            let moved = 100_000 - 60_000
            #expect(journalBefore * moved <= FileStoreJournal.workBudget(baseLength: 100_000))
            #expect((journalBefore + 1) * (moved + 1) > FileStoreJournal.workBudget(baseLength: 100_000))
            #expect(try FileStore(directory: directory).read(.main) == content)
        }
    }

    @Test("A store that read a journal counts the work of its records: the next store's read still gets the latest")
    func workCarriesAcrossReads() throws {
        try TestSupport.withTemporaryDirectory { directory in
            // About 40 KB of work per record, against a bound of 3.2 MB: 60 records take 2.4 MB,
            // and 40 more would pass it.
            var content = Self.largeArchive(0)
            let first = FileStore(directory: directory)
            try first.write(content, to: .main)
            for count in 0..<60 {
                content.insert(UInt8(truncatingIfNeeded: count), at: 60_000)
                try first.write(content, to: .main)
            }
            #expect(contents(directory, "main.restoration") == Self.largeArchive(0))
            let relaunched = FileStore(directory: directory)
            #expect(try relaunched.read(.main) == content)
            for count in 0..<40 {
                content.insert(UInt8(truncatingIfNeeded: count), at: 60_000)
                try relaunched.write(content, to: .main)
            }
            // The relaunched store rewrote the archive file when the bound came, instead of
            // appending records that a reader would stop before.
            #expect(contents(directory, "main.restoration") != Self.largeArchive(0))
            #expect(try FileStore(directory: directory).read(.main) == content)
        }
    }

    @Test("The work of a hostile record saturates instead of overflowing, and ends the records before a size check")
    func hostileWork() throws {
        let hunks = [
            FileStoreJournal.Hunk(offset: 0, removed: .max - 1, inserted: .max - 1),
            FileStoreJournal.Hunk(offset: 0, removed: 2, inserted: 2),
        ]
        #expect(FileStoreJournal.work(of: hunks, contentLength: 10) == .max)
        #expect(FileStoreJournal.work(of: hunks.prefix(1), contentLength: 10) == .max - 1)
        #expect(FileStoreJournal.workBudget(baseLength: .max / 8) == .max)

        // A record that inserts more than the work bound, and more than the store's limit: no
        // writer appends it, so it ends the records, and the read returns the archive file.
        let base = Data(repeating: 7, count: 4096)
        var journal = FileStoreJournal.header(baseLength: base.count, baseChecksum: CRC32C.checksum(base))
        let large = base + Data(repeating: 8, count: FileStoreJournal.workBudget(baseLength: base.count) + 1)
        journal.append(try #require(FileStoreJournal.record(from: base, to: large, sequence: 1, budget: .max)))
        let replay = try FileStoreJournal.replay(base: base, journal: journal, limit: 10_000)
        #expect(replay.records == 0 && replay.content == base && replay.matchesBase)
        // Within the bound, a record past the limit is refused, as before.
        let over = base + Data(repeating: 8, count: 10_000)
        var small = FileStoreJournal.header(baseLength: base.count, baseChecksum: CRC32C.checksum(base))
        small.append(try #require(FileStoreJournal.record(from: base, to: over, sequence: 1, budget: .max)))
        #expect(throws: FileStoreJournal.ContentTooLarge.self) {
            try FileStoreJournal.replay(base: base, journal: small, limit: 10_000)
        }
    }

    @Test("A version 1 journal is read, but the next write rewrites the archive file instead of appending to it")
    func firstVersionJournalIsReadNotAppended() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let base = Self.largeArchive(1)
            let next = Self.largeArchive(2)
            var journal = FileStoreJournal.header(
                baseLength: base.count, baseChecksum: CRC32C.checksum(base), version: FileStoreJournal.firstVersion)
            journal.append(try #require(FileStoreJournal.record(from: base, to: next, sequence: 1, budget: 1000)))
            try base.write(to: URL(filePath: path(directory, "main.restoration")))
            try journal.write(to: URL(filePath: path(directory, "main.restoration-journal")))

            let store = FileStore(directory: directory)
            #expect(try store.read(.main) == next)
            try store.write(Self.largeArchive(3), to: .main)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            #expect(contents(directory, "main.restoration") == Self.largeArchive(3))
            // The store appends again, to a journal of the version it writes.
            try store.write(Self.largeArchive(4), to: .main)
            let written = try #require(contents(directory, "main.restoration-journal"))
            let replay = try FileStoreJournal.replay(base: Self.largeArchive(3), journal: written, limit: .max)
            #expect(replay.version == FileStoreJournal.version)
            #expect(replay.content == Self.largeArchive(4))
        }
    }

    @Test("A journal left without its archive file (a kill while removing) is removed before a new archive file")
    func orphanJournalRemovedFirst() throws {
        try TestSupport.withTemporaryDirectory { directory in
            _ = try Self.storeWithOneRecord(in: directory)
            // As if a remove was killed between its two unlinks.
            try FileManager.default.removeItem(atPath: path(directory, "main.restoration"))
            #expect(try FileStore(directory: directory).read(.main) == nil)
            // The same bytes as the journal's archive file, written again: had the journal
            // outlived the rename, a read would apply it. It is gone before the rename.
            let failing = FileStore(directory: directory, failure: { $0 == .rename ? EIO : nil })
            #expect(throws: StoreError.self) { try failing.write(Self.largeArchive(1), to: .main) }
            #expect(try TestSupport.fileNames(in: directory).isEmpty)
            try FileStore(directory: directory).write(Self.largeArchive(1), to: .main)
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(1))
        }
    }

    @Test("Rejecting an archive with a journal keeps what a read returned; removing it removes both files")
    func rejectAndRemove() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = try Self.storeWithOneRecord(in: directory)
            let rejected = try #require(try store.reject(.main, reason: "test"))
            #expect(FileManager.default.contents(atPath: rejected) == Self.largeArchive(2))
            // The journal is kept beside the copy, in case it was the damaged part.
            let copy = URL(filePath: rejected).lastPathComponent
            #expect(try TestSupport.fileNames(in: directory) == [copy, copy + "-journal"])
            #expect(try store.rejectedArchives(for: .main) == [rejected])
            #expect(try store.read(.main) == nil)
            #expect(try store.keys().isEmpty)

            try store.write(Self.largeArchive(3), to: .main)
            try store.write(Self.largeArchive(4), to: .main)
            try store.remove(.main)
            #expect(try TestSupport.fileNames(in: directory) == [copy, copy + "-journal"])
            #expect(try store.read(.main) == nil)
            try store.write(Self.largeArchive(5), to: .main)
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(5))
        }
    }

    @Test(
        "A rejection that stops at either move never brings back the save before the journal's records",
        arguments: [FileStore.WriteStep.moveArchiveAside, .moveJournalAside], [false, true])
    func interruptedRejection(step: FileStore.WriteStep, readable: Bool) throws {
        try TestSupport.withTemporaryDirectory { directory in
            _ = try Self.storeWithOneRecord(in: directory)
            // A store whose limit is under the archive's size rejects without reading it.
            let failing = FileStore(
                directory: directory, maximumArchiveSize: readable ? FileStore.defaultMaximumArchiveSize : 50_000,
                failure: { $0 == step ? EIO : nil })
            let error = try #require(throws: StoreError.self) { try failing.reject(.main, reason: "test") }
            #expect(error.operation == .reject)
            #expect(error.code == .renameFailed)

            // The key holds the last save or nothing; never the archive file without its records.
            let after = try FileStore(directory: directory).read(.main)
            if step == .moveArchiveAside {
                #expect(after == Self.largeArchive(2))
                // Nothing was moved aside: no copy is left to be made twice at the next try.
                #expect(try FileStore(directory: directory).rejectedArchives(for: .main).isEmpty)
            } else {
                #expect(after == nil)
                // The journal left behind is removed by the next write, and does not apply to it.
                let store = FileStore(directory: directory)
                try store.write(Self.largeArchive(3), to: .main)
                #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(3))
                #expect(try TestSupport.fileNames(in: directory).contains("main.restoration-journal") == false)
            }
        }
    }

    @Test("The first record a store appends to a journal it found, not made, syncs the directory once")
    func adoptedJournalNameMadeDurable() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let steps = Mutex<[FileStore.WriteStep]>([])
            func recordingStore() -> FileStore {
                FileStore(
                    directory: directory,
                    failure: { step in
                        steps.withLock { $0.append(step) }
                        return nil
                    })
            }
            func stepsOf(_ write: () throws -> Void) rethrows -> [FileStore.WriteStep] {
                steps.withLock { $0 = [] }
                try write()
                return steps.withLock { $0 }
            }
            // The store that creates the journal syncs the directory with its first record only.
            let creator = recordingStore()
            try creator.write(Self.largeArchive(1), to: .main)
            #expect(
                try stepsOf { try creator.write(Self.largeArchive(2), to: .main) } == [
                    .openJournal, .appendJournal, .synchronizeJournal, .synchronizeDirectory,
                ])
            #expect(
                try stepsOf { try creator.write(Self.largeArchive(3), to: .main) } == [
                    .openJournal, .appendJournal, .synchronizeJournal,
                ])

            // A store that found the journal (a new process, say) cannot know its creator synced
            // the directory: its first record does, once.
            let adopter = recordingStore()
            #expect(try adopter.read(.main) == Self.largeArchive(3))
            #expect(
                try stepsOf { try adopter.write(Self.largeArchive(4), to: .main) } == [
                    .openJournal, .appendJournal, .synchronizeJournal, .synchronizeDirectory,
                ])
            #expect(
                try stepsOf { try adopter.write(Self.largeArchive(5), to: .main) } == [
                    .openJournal, .appendJournal, .synchronizeJournal,
                ])
            #expect(try FileStore(directory: directory).read(.main) == Self.largeArchive(5))
        }
    }

    @Test("A rejected copy that cannot be created names the copy, and the key keeps what a read returned")
    func rejectedCopyCannotBeCreated() async throws {
        guard TestSupport.isRoot else { return try Self.rejectIntoReadOnlyDirectory() }
        // Root writes into read-only directories: a child process gives up root first.
        await #expect(processExitsWith: .success) {
            try TestSupport.becomeNobody()
            #expect(!TestSupport.isRoot)
            try Self.rejectIntoReadOnlyDirectory()
        }
    }

    static func rejectIntoReadOnlyDirectory() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = try storeWithOneRecord(in: directory)
            let path = directory.path(percentEncoded: false)
            try TestSupport.setPermissions(0o500, of: path)
            defer { try? TestSupport.setPermissions(0o700, of: path) }

            let error = try #require(throws: StoreError.self) { try store.reject(.main, reason: "test") }
            #expect(error.code == .permissionDenied)
            #expect(error.operation == .reject)
            #expect(error.reason.hasPrefix("cannot create the rejected copy main.rejected-test-"))
            #expect(!error.description.contains("temporary"))
            #expect(try FileStore(directory: directory).read(.main) == largeArchive(2))
        }
    }
}
