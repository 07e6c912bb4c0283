import Foundation
import StateRestoration
import TestScreens
import Testing

/// `restoration-archive validate`: exit 0 for a good archive, otherwise exit 1 and one
/// line per failing check, naming the check and where.
@Suite struct ArchiveToolValidateTests {
    enum Damage: String, CaseIterable, Sendable {
        case flippedBodyByte, truncatedBody, truncatedHeader, emptyFile, wrongMagic, newerFormat, trailingBytes
        case randomBytes

        /// The check the first line must name.
        var check: String {
            switch self {
            case .flippedBodyByte: "checksum-mismatch"
            case .truncatedBody, .truncatedHeader, .emptyFile: "truncated"
            case .wrongMagic, .randomBytes: "bad-magic"
            case .newerFormat: "unsupported-version"
            case .trailingBytes: "length-mismatch"
            }
        }

        func apply(to archive: Data) -> Data {
            var bytes = [UInt8](archive)
            switch self {
            case .flippedBodyByte:
                bytes[bytes.count - 7] ^= 0x10
            case .truncatedBody:
                bytes.removeLast(bytes.count / 2)
            case .truncatedHeader:
                bytes.removeLast(bytes.count - 10)
            case .emptyFile:
                bytes.removeAll()
            case .wrongMagic:
                bytes[0] = 0x7B
            case .newerFormat:
                return ArchiveEnvelope.seal(Data(bytes.dropFirst(ArchiveEnvelope.headerSize)), formatVersion: 2)
            case .trailingBytes:
                bytes += [0, 0, 0]
            case .randomBytes:
                var generator = SplitMix64(state: 0x5EED)
                bytes = (0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
            return Data(bytes)
        }
    }

    @Test("a good archive passes every check")
    func goodArchive() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, _) = try await archives.save(try Shop.busyTree())
        let run = try await ArchiveTool.run(["validate", url.path])
        #expect(run.exited(0), "\(run)")
        #expect(run.outputLines == ["\(url.path): valid (envelope, body, 10 screen states, 1 object, tree)"])
        #expect(run.standardError.isEmpty)
    }

    @Test("a damaged archive fails with one line naming the failed check", arguments: Damage.allCases)
    func damagedArchive(_ damage: Damage) async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, _) = try await archives.save(try Shop.busyTree())
        let damaged = damage.apply(to: try Data(contentsOf: url))
        try damaged.write(to: url)

        let run = try await ArchiveTool.run(["validate", url.path])
        #expect(run.exited(1), "\(run)")
        #expect(run.standardError.isEmpty)
        let first = try #require(run.outputLines.first)
        #expect(first.hasPrefix("\(damage.check): "), "\(run)")
        for line in run.outputLines {
            #expect(line.range(of: #"^[a-z-]+: \S"#, options: .regularExpression) != nil, "\(line)")
        }
        switch damage {
        case .flippedBodyByte:
            let stored = damaged.withUnsafeBytes {
                UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
            }
            let computed = CRC32C.checksum(damaged.dropFirst(ArchiveEnvelope.headerSize))
            #expect(first == "checksum-mismatch: stored \(hex(stored)), computed \(hex(computed))")
        case .emptyFile:
            #expect(run.outputLines == ["truncated: the file has 0 bytes; a header needs 24"])
        case .newerFormat:
            #expect(run.outputLines == ["unsupported-version: format version 2 at byte 8; this tool reads 1...1"])
        case .trailingBytes:
            #expect(run.outputLines.count == 1)
            #expect(first.hasPrefix("length-mismatch: 3 trailing bytes after the "))
        default:
            #expect(run.outputLines.count == 1, "\(run)")
        }
    }

    @Test("a save date a launch refuses (before 1970, after the year 9999) fails validate as it fails the launch")
    func implausibleSaveDate() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        for savedAt in [Date(timeIntervalSince1970: -86_400), Date(timeIntervalSince1970: 300_000_000_000)] {
            let (url, _) = try await archives.save(try Shop.busyTree(), savedAt: savedAt)
            let launch = try await RestorationCoordinator(
                screens: Shop.declaration(), store: FileStore(directory: archives.directory.url)
            ).launch()
            #expect(launch.report.rejectedCheck == "invalid-save-date")
            let rejected = try #require(launch.report.rejectedArchive)

            let run = try await ArchiveTool.run(["validate", rejected])
            #expect(run.exited(1), "\(run)")
            #expect(
                run.outputLines == [
                    "invalid-save-date: the archive says it was saved \(savedAt.timeIntervalSince1970) s after 1970, "
                        + "outside 1970 to the year 9999"
                ])
            try? FileManager.default.removeItem(at: url)
        }
    }

    @Test("an archive reached through a symbolic link is read as the file it names")
    func symbolicLink() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, _) = try await archives.save(try Shop.busyTree())
        let link = archives.directory.url.appendingPathComponent("link.restoration")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        let run = try await ArchiveTool.run(["validate", link.path])
        #expect(run.exited(0), "\(run)")
        #expect(run.outputLines == ["\(link.path): valid (envelope, body, 10 screen states, 1 object, tree)"])
    }

    @Test("standard input that is not an archive is judged by its header, not read to its end")
    func endlessStandardInput() async throws {
        let zeros = try #require(FileHandle(forReadingAtPath: "/dev/zero"))
        defer { try? zeros.close() }
        let run = try await ArchiveTool.run(["validate", "-"], input: zeros)
        #expect(run.exited(1), "\(run)")
        #expect(run.outputLines.first?.hasPrefix("bad-magic: bytes 0-7 are ") == true)
    }

    @Test("a screen state that does not parse is named by its path")
    func unparseableState() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, _) = try await archives.save(try Shop.busyTree())
        try archives.rewrite(url) { archive in
            archive.root?.edit(["browse", "product#2"]) { $0.state = $0.state?.prefix(17) }
        }
        let run = try await ArchiveTool.run(["validate", url.path])
        #expect(run.exited(1), "\(run)")
        #expect(run.outputLines.count == 1)
        #expect(
            run.outputLines.first?.hasPrefix(
                "unparseable-state: tabs/browse/product#2: state does not parse: archive truncated at byte") == true,
            "\(run)")
    }

    @Test("a tree the coordinator would not write fails the structure checks, each where it fails")
    func insaneTree() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, _) = try await archives.save(try Shop.busyTree())
        try archives.rewrite(url) { archive in
            archive.root?.selected = "nowhere"
            archive.root?.edit(["browse"]) { $0.children?.swapAt(1, 2) }
            archive.root?.edit([]) { root in
                if let settings = root["settings"] { root.children?.append(settings) }
            }
            archive.objects?[0].state = Data([0x53, 0x52, 0x76, 0x01, 0x00, 0x00, 0x0F])
        }
        let run = try await ArchiveTool.run(["validate", url.path])
        #expect(run.exited(1), "\(run)")
        #expect(
            run.outputLines == [
                "unparseable-object: objects/wishlist (wishlist): state does not parse: archive has invalid type tag 0x0F at byte 6",
                "selected-tab: tabs: selected tab nowhere is not one of its children (browse, settings, draft, split, settings)",
                "duplicate-id: tabs: two children named settings",
                "stack-order: tabs/browse: child 1 is product#2, expected position #1",
                "stack-order: tabs/browse: child 2 is product#1, expected position #2",
            ], "\(run)")
    }

    private func hex(_ value: UInt32) -> String {
        "0x" + String(value, radix: 16, uppercase: true).leftPadded(to: 8)
    }
}
