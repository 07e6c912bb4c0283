import Foundation
import StateRestoration
import TestScreens
import Testing

/// The fuzzer's seed corpus (`Fuzz/corpus`, written by `swift run --package-path Fuzz
/// write-corpus Fuzz/corpus`) is what lets a short fuzzing run reach past the archive's
/// envelope and checksum: a run from no seeds spends its time on inputs the first check
/// rejects. A change of the format leaves the seeds behind, so these tests fail when the seeds
/// are missing or not readable by the current code.
@Suite struct FuzzSeedTests {
    /// `Fuzz/corpus`, found from this file's place in the package.
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Archive
        .deletingLastPathComponent()  // StateRestorationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package
        .appendingPathComponent("Fuzz/corpus", isDirectory: true)

    /// The seeds `write-corpus` writes: restoration archives, and encodings of single values.
    static let archives = ["restoration-archive", "restoration-archive-initial"]
    static let encodings = ["model", "int-array", "string-map"]
    // And `journal`: see ``journalSeed()``.

    static func seed(_ name: String) throws -> Data {
        let url = corpus.appendingPathComponent(name)
        try #require(
            FileManager.default.fileExists(atPath: url.path),
            Comment(
                rawValue: "the fuzzer's seed \(name) is missing from \(corpus.path): "
                    + "run swift run --package-path Fuzz write-corpus Fuzz/corpus")
        )
        return try Data(contentsOf: url)
    }

    @Test("each seed archive opens, and its body reads as an archive value", arguments: archives)
    func archiveSeed(name: String) throws {
        let data = try Self.seed(name)
        let opened = try ArchiveEnvelope.open(data, supportedVersions: 1...RestorationArchive.formatVersion)
        #expect(opened.formatVersion == RestorationArchive.formatVersion)
        let body = try ArchiveValue(decoding: opened.body)
        #expect(body != .null)
    }

    // The fuzzer's declaration has the shop's shape and type keys with states of its own: a launch
    // with the shop's restores the archive, and some states do not decode as the shop's.
    @Test("a launch reads each seed archive whole and restores it", arguments: archives)
    func archiveSeedLaunches(name: String) async throws {
        let store = InMemoryStore()
        try store.write(try Self.seed(name), to: .main)
        let session = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(session.report.outcome == .restored, "\(session.report)")
        // Every node was read: what is skipped is only states that do not decode as the shop's.
        #expect(session.report.skipped.allSatisfy { $0.reason == .decodeFailed }, "\(session.report.skipped)")
        #expect(session.report.notes.isEmpty, "\(session.report.notes)")
    }

    @Test("each seed encoding reads as an archive value", arguments: encodings)
    func encodingSeed(name: String) throws {
        let value = try ArchiveValue(decoding: try Self.seed(name))
        #expect(value != .null)
    }

    // The journal seed was written by an older build's FileStore. FileStore reads journals but
    // never writes them, and neither does write-corpus, so the committed seed stays as it is.
    @Test("the journal seed is an archive file and a journal of an older build that a FileStore applies to it")
    func journalSeed() throws {
        // `SRJ:`, the archive file's length (UInt32, little-endian), the file, the journal.
        let seed = [UInt8](try Self.seed("journal"))
        try #require(seed.count > 8 && seed.starts(with: Array("SRJ:".utf8)))
        let length = seed[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        try #require(8 + length < seed.count)
        let file = Data(seed[8..<(8 + length)])
        let journal = Data(seed[(8 + length)...])

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try file.write(to: directory.url.appendingPathComponent("main.restoration"))
        try journal.write(to: directory.url.appendingPathComponent("main.restoration-journal"))
        let content = try #require(try FileStore(directory: directory.url).read(.main))
        // The journal's record was applied: the content is the second save's archive, whole.
        #expect(content != file)
        #expect(throws: Never.self) {
            try ArchiveEnvelope.open(content, supportedVersions: 1...RestorationArchive.formatVersion)
        }
    }

    @Test("the seeds read as the values write-corpus encodes")
    func encodingSeedsHoldTheirValues() throws {
        #expect(try ArchiveDecoder().decode([Int].self, from: try Self.seed("int-array")) == [1, 2, 3])
        #expect(try ArchiveDecoder().decode([String: String].self, from: try Self.seed("string-map")) == ["k": "v"])
    }
}
