import Foundation
import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

/// A damaged archive is a fresh launch with a diagnostic naming the failed
/// check, the file is moved aside for inspection, and the next save starts anew.
@Suite struct BadArchiveTests {
    enum Damage: String, CaseIterable, Sendable {
        case truncatedHeader, truncatedBody, flippedBit, wrongMagic, newerFormat, trailingBytes, emptyFile
        case garbageBody

        /// The check the launch report must name.
        var check: String {
            switch self {
            case .truncatedHeader, .truncatedBody, .emptyFile: "truncated"
            case .flippedBit: "checksum-mismatch"
            case .wrongMagic: "bad-magic"
            case .newerFormat: "unsupported-version"
            case .trailingBytes: "length-mismatch"
            case .garbageBody: "bad-magic"  // the body is not an encoded value at all
            }
        }

        /// The damage as the testing library applies it to a stored archive.
        var archiveDamage: ArchiveDamage {
            ArchiveDamage(rawValue, expectedCheck: check) { archive in apply(to: archive) }
        }

        func apply(to archive: Data) -> Data {
            var bytes = [UInt8](archive)
            switch self {
            case .truncatedHeader: return Data(bytes.prefix(10))
            case .truncatedBody: return Data(bytes.prefix(bytes.count / 2))
            case .emptyFile: return Data()
            case .flippedBit:
                bytes[bytes.count - 7] ^= 0x10
                return Data(bytes)
            case .wrongMagic:
                bytes[0] = 0x7B  // "{": somebody wrote JSON here
                return Data(bytes)
            case .newerFormat:
                let body = Data(bytes.dropFirst(ArchiveEnvelope.headerSize))
                return ArchiveEnvelope.seal(body, formatVersion: 2)
            case .trailingBytes:
                return Data(bytes + [0, 0, 0])
            case .garbageBody:
                return ArchiveEnvelope.seal(Data("not an archive body".utf8), formatVersion: 1)
            }
        }
    }

    @Test(
        "a damaged archive is a fresh launch naming the failed check; it is moved aside; the next save starts anew",
        arguments: Damage.allCases)
    func damagedArchive(_ damage: Damage) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let harness = RestorationHarness(screens: Shop.declaration(), storage: .directory(directory.url))
        let tree = try Shop.busyTree()
        try await harness.save(tree)
        let damaged = try harness.damageArchive(damage.archiveDamage)

        let session = try await harness.launch()
        #expect(session.report.outcome == .fresh)
        #expect(session.report.freshReason?.code == .archiveRejected)
        #expect(session.rejectedCheck == damage.check)
        let message = try #require(session.report.freshReason?.message)
        #expect(message.hasPrefix("archive main rejected (\(damage.check)): "))
        #expect(!message.contains("\n"))
        #expect(session.tree == (try Shop.declaration().makeInitialTree()))

        let rejected = try #require(session.report.rejectedArchive)
        #expect(try Data(contentsOf: URL(fileURLWithPath: rejected)) == damaged)
        #expect(!FileManager.default.fileExists(atPath: FileStore(directory: directory.url).fileURL(for: .main).path))

        try await session.coordinator.save(try Shop.busyTree())
        let relaunched = try await harness.launch()
        #expect(relaunched.report.outcome == .restored)
        #expect(relaunched.tree == tree)
    }

    @Test("a missing archive is a fresh launch with no diagnostic but the reason")
    func missingArchive() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let session = try await RestorationCoordinator(
            screens: Shop.declaration(), store: FileStore(directory: directory.url)
        ).launch()
        #expect(session.report.outcome == .fresh)
        #expect(session.report.freshReason?.code == .noArchive)
        #expect(session.report.rejectedArchive == nil)
        #expect(session.report.notes.isEmpty)
        #expect(try directory.fileNames().isEmpty)
    }

    @Test("prefixes of a real archive at 97 lengths spread over it are each a fresh launch, never a crash")
    func everyPrefix() async throws {
        let harness = RestorationHarness(screens: Shop.declaration())
        try await harness.save(try Shop.busyTree())
        let archive = try #require(try harness.storedArchive())
        // 97 lengths from 0 to almost all of it (fewer for an archive of under 97 bytes).
        for length in Set((0..<97).map { $0 * archive.count / 97 }).sorted() {
            try harness.replaceArchive(with: archive.prefix(length))
            let session = try await harness.launch()
            #expect(session.report.freshReason?.code == .archiveRejected, "prefix of \(length) bytes")
        }
    }
}
