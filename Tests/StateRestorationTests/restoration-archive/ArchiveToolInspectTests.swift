import Foundation
import StateRestoration
import TestScreens
import Testing

/// `restoration-archive inspect` and `dump --json` on real archives of the Shop app.
@Suite struct ArchiveToolInspectTests {
    /// The line of `inspect`'s tree that shows `path`.
    private func treeLine(_ run: ArchiveTool.Run, _ path: String) -> String? {
        run.outputLines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(path + "  ") }
    }

    @Test("dump and inspect read an archive with an older build's journal: what the next launch restores")
    func journalIsApplied() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let store = FileStore(directory: archives.directory.url)
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        var tree = try Shop.busyTree()
        try tree.update(SearchScreen.self, at: "search#0") { $0.state.query = "journaled query" }
        try await coordinator.save(tree)
        let url = store.fileURL(for: .main)
        let journaled = try Data(contentsOf: url)
        try await coordinator.save(try Shop.busyTree())
        let file = try Data(contentsOf: url)
        // As an older build left them: the archive file, and the newer save in a journal beside it.
        try LegacyJournalFile.journal(from: file, to: journaled).write(to: URL(fileURLWithPath: url.path + "-journal"))
        #expect(!String(decoding: file, as: UTF8.self).contains("journaled query"))
        let content = try #require(try FileStore(directory: archives.directory.url).read(.main))
        #expect(content == journaled)

        let dump = try await ArchiveTool.run(["dump", "--json", url.path])
        #expect(dump.exited(0), "\(dump)")
        #expect(dump.standardOutput.contains("journaled query"))
        let inspect = try await ArchiveTool.run(["inspect", url.path])
        #expect(inspect.outputLines.first == "file: \(url.path) (\(content.count) bytes)", "\(inspect)")
        #expect(try await ArchiveTool.run(["validate", url.path]).exited(0))
    }

    @Test("inspect shows the header, the info, the objects, the app state and the saved tree with sizes")
    func inspectShowsEverything() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, report) = try await archives.save(try Shop.busyTree())
        let bytes = try Data(contentsOf: url)
        let checksum = CRC32C.checksum(bytes.dropFirst(ArchiveEnvelope.headerSize))

        let run = try await ArchiveTool.run(["inspect", url.path])
        #expect(run.exited(0), "\(run)")
        #expect(run.standardError.isEmpty)
        let lines = run.outputLines
        #expect(lines.first == "file: \(url.path) (\(bytes.count) bytes)")
        #expect(lines.contains("  magic: 89 53 52 41 52 43 0D 0A (ok)"))
        #expect(lines.contains("  format version: 1"))
        #expect(lines.contains("  flags: 0x0000"))
        #expect(lines.contains("  body length: \(bytes.count - ArchiveEnvelope.headerSize) bytes"))
        let hex = "0x" + String(checksum, radix: 16, uppercase: true).leftPadded(to: 8)
        #expect(lines.contains("  checksum: stored \(hex), computed \(hex) (matches)"))
        #expect(lines.contains("  app version: 4.2"))
        #expect(lines.contains("  saved at: 2026-11-22T10:10:38.250Z"))
        #expect(lines.contains("  ignores snapshot: no"))
        #expect(lines.contains("  metadata: 1 key"))
        #expect(lines.contains("    region: \"eu-west\""))
        #expect(lines.contains { $0.hasPrefix("  wishlist  type wishlist, ") && $0.hasSuffix(" bytes") })
        #expect(lines.contains("app state: {\"cartCount\":2,\"lastSync\":\"2026-11-21\"}"))

        // Every saved state: its path, type key, version and exact size.
        #expect(report.stateSizes.count == 10)
        for size in report.stateSizes {
            let line = try #require(treeLine(run, size.path.description), "no line for \(size.path) in\n\(run)")
            #expect(line.contains("\(size.typeKey.rawValue) v1, \(size.byteCount) bytes"), "\(line)")
        }
        let tabs = try #require(treeLine(run, "tabs"))
        #expect(tabs.hasPrefix("  tabs  ") && tabs.hasSuffix("tabs       selected: split"), "\(tabs)")
        #expect(try #require(treeLine(run, "tabs/browse")).hasSuffix("stack"))
        #expect(try #require(treeLine(run, "tabs/split")).contains("container  split v1, "))
        #expect(try #require(treeLine(run, "tabs/split")).hasSuffix("(selected)"))
        #expect(try #require(treeLine(run, "tabs/browse/product#2/compose")).hasSuffix("(presented)"))
        #expect(
            try #require(treeLine(run, "tabs/browse/product#2/compose")).hasPrefix(
                "        tabs/browse/product#2/compose"))
        #expect(treeLine(run, "tabs/scratch") == nil)  // no identifier: never saved
        #expect(
            lines.contains(
                "hierarchy: 12 nodes, 10 screens, \(report.stateSizes.map(\.byteCount).reduce(0, +)) state bytes"))
    }

    @Test("dump --json is one valid JSON document with every state's fields, in a stable order")
    func dumpJSON() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, report) = try await archives.save(try Shop.busyTree())

        let run = try await ArchiveTool.run(["dump", url.path, "--json"])
        #expect(run.exited(0), "\(run)")
        #expect(run.standardError.isEmpty)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])

        let header = try #require(document["header"] as? [String: Any])
        #expect(header["formatVersion"] as? Int == 1)
        #expect(header["checksumMatches"] as? Bool == true)
        let info = try #require(document["info"] as? [String: Any])
        #expect(info["appVersion"] as? String == "4.2")
        #expect(info["savedAt"] as? String == "2026-11-22T10:10:38.250Z")
        #expect(info["screenCount"] as? Int == 10)
        #expect((info["metadata"] as? [String: Any])?["region"] as? String == "eu-west")
        #expect((document["appState"] as? [String: Any])?["cartCount"] as? Int == 2)
        let object = try #require((document["objects"] as? [[String: Any]])?.first)
        #expect(object["type"] as? String == "wishlist")
        #expect(((object["state"] as? [String: Any])?["filters"] as? [String: Any])?["maxPrice"] as? Int == 5)

        let root = try #require(document["hierarchy"] as? [String: Any])
        #expect(root["kind"] as? String == "tabs")
        #expect(root["selected"] as? String == "split")
        var nodes: [String: [String: Any]] = [:]
        func collect(_ node: [String: Any]) {
            if let path = node["path"] as? String { nodes[path] = node }
            for child in node["children"] as? [[String: Any]] ?? [] { collect(child) }
            if let presented = node["presented"] as? [String: Any] { collect(presented) }
        }
        collect(root)
        #expect(nodes.count == 12)
        let search = try #require(nodes["tabs/browse/search#0"])
        #expect(search["type"] as? String == "search")
        #expect(search["version"] as? Int == 1)
        let searchState = try #require(search["state"] as? [String: Any])
        #expect(searchState["query"] as? String == "milk")
        #expect(searchState["filters"] as? [String] == ["organic", "1l"])
        #expect(searchState["scrollOffset"] as? Double == 412.5)
        #expect((nodes["tabs/browse/product#2"]?["state"] as? [String: Any])?["quantity"] as? Int == 3)
        #expect(
            (nodes["tabs/browse/product#2/compose"]?["state"] as? [String: Any])?["to"] as? String == "shop@example.com"
        )
        #expect(
            (nodes["tabs/split/message"]?["state"] as? [String: Any])?["messageID"] as? String
                == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        for size in report.stateSizes {
            #expect(nodes[size.path.description]?["bytes"] as? Int == size.byteCount, "\(size.path)")
        }

        // Stable: the same bytes each run, members in the documented order.
        let again = try await ArchiveTool.run(["dump", "--json", url.path])
        #expect(again.standardOutput == run.standardOutput)
        let order = ["\"file\"", "\"header\"", "\"info\"", "\"appState\"", "\"objects\"", "\"hierarchy\""].map {
            run.standardOutput.range(of: $0)?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
    }

    @Test("a rejected copy is inspectable like any other archive, its damage shown")
    func rejectedCopy() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, _) = try await archives.save(try Shop.busyTree())
        // "milk" becomes "mild": the body still decodes, the checksum no longer matches.
        var bytes = [UInt8](try Data(contentsOf: url))
        let milk = Array("milk".utf8)
        let at = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == milk })
        bytes[at + 3] = UInt8(ascii: "d")
        try Data(bytes).write(to: url)
        let session = try await RestorationCoordinator(
            screens: Shop.declaration(), store: FileStore(directory: archives.directory.url)
        )
        .launch()
        let rejected = try #require(session.report.rejectedArchive)
        #expect(URL(fileURLWithPath: rejected).lastPathComponent.hasPrefix("main.rejected-checksum-mismatch-"))

        let inspect = try await ArchiveTool.run(["inspect", rejected])
        #expect(inspect.exited(0), "\(inspect)")
        #expect(inspect.outputLines.contains { $0.hasPrefix("  checksum: stored ") && $0.hasSuffix("(MISMATCH)") })
        #expect(inspect.outputLines.contains { $0.contains("tabs/browse/search#0") })

        let dump = try await ArchiveTool.run(["dump", "--json", rejected])
        #expect(dump.exited(0), "\(dump)")
        #expect(dump.standardOutput.contains("\"query\" : \"mild\""))
        #expect(dump.standardOutput.contains("\"checksumMatches\" : false"))

        let validate = try await ArchiveTool.run(["validate", rejected])
        #expect(validate.exited(1), "\(validate)")
        #expect(validate.outputLines.count == 1)
        #expect(validate.outputLines.first?.hasPrefix("checksum-mismatch: stored 0x") == true)
    }

    @Test("a state that does not parse is shown on its node, the rest of the archive still printed")
    func unparseableState() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, _) = try await archives.save(try Shop.busyTree())
        try archives.rewrite(url) { archive in
            archive.root?.edit(["browse", "product#2"]) { $0.state = $0.state?.prefix(17) }
        }
        let inspect = try await ArchiveTool.run(["inspect", url.path])
        #expect(inspect.exited(0), "\(inspect)")
        let line = try #require(inspect.outputLines.first { $0.contains("tabs/browse/product#2  ") })
        #expect(line.contains("17 bytes (state does not parse: archive truncated at byte"), "\(line)")

        let dump = try await ArchiveTool.run(["dump", "--json", url.path])
        #expect(dump.exited(0))
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any])
        let browse = try #require(((document["hierarchy"] as? [String: Any])?["children"] as? [[String: Any]])?.first)
        let product = try #require((browse["children"] as? [[String: Any]])?[2])
        #expect(product["path"] as? String == "tabs/browse/product#2")
        #expect(product["state"] is NSNull)
        #expect((product["stateError"] as? String)?.hasPrefix("archive truncated at byte") == true)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
