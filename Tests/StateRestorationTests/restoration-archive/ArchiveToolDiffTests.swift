import Foundation
import StateRestoration
import TestScreens
import Testing

/// `restoration-archive diff A B`: screens added, removed and changed, changed fields
/// with old → new, tab selection, app version and metadata; exit 0, 1 or 2 as diff(1).
@Suite struct ArchiveToolDiffTests {
    /// Saves `before` as `a` and `after` as `b`, then diffs them.
    private func diff(
        _ archives: ShopArchives, _ before: ScreenTree, _ after: ScreenTree,
        appVersion: String = "4.2", metadata: [String: String] = ["region": "eu-west"],
        wishlist: Wishlist = Wishlist()
    ) async throws -> (run: ArchiveTool.Run, a: URL, b: URL) {
        let (a, _) = try await archives.save(before, key: "a")
        let (b, _) = try await archives.save(
            after, key: "b", appVersion: appVersion, metadata: metadata, wishlist: wishlist,
            savedAt: ShopArchives.savedAt.addingTimeInterval(60))
        return (try await ArchiveTool.run(["diff", a.path, b.path]), a, b)
    }

    @Test("two saves of the same hierarchy, a minute apart, are the same: exit 0, no output")
    func identical() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (run, _, _) = try await diff(archives, try Shop.busyTree(), try Shop.busyTree())
        #expect(run.exited(0), "\(run)")
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.isEmpty)
    }

    @Test("a pushed screen is added, a popped one removed")
    func addedAndRemoved() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        var pushed = try Shop.busyTree()
        try pushed.push(ProductScreen("p-3"), onto: "browse")
        let (run, a, b) = try await diff(archives, try Shop.busyTree(), pushed)
        #expect(run.exited(1), "\(run)")
        #expect(
            run.outputLines == [
                "--- \(a.path) (saved 2026-11-22T10:10:38.250Z)",
                "+++ \(b.path) (saved 2026-11-22T10:11:38.250Z)",
                "+ tabs/browse/product#4  product v1",
            ])

        var popped = try Shop.busyTree()
        _ = try popped.pop(from: "browse")
        let removed = try await diff(archives, try Shop.busyTree(), popped).run
        #expect(removed.exited(1), "\(removed)")
        #expect(removed.outputLines.dropFirst(2) == ["- tabs/browse/review#3  review v1"])
    }

    @Test("a changed screen lists its changed fields with old → new, nested ones as dotted paths")
    func changedFields() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        var after = try Shop.busyTree()
        try after.update(SearchScreen.self, at: "tabs/browse/search#0") {
            $0.state.query = "oat milk"
            $0.state.filters = ["organic"]
            $0.state.editingText = "oat"
        }
        let (run, _, _) = try await diff(
            archives, try Shop.busyTree(), after, wishlist: Wishlist(items: ["oat milk", "rye bread"], maxPrice: 7))
        #expect(run.exited(1), "\(run)")
        #expect(
            run.outputLines.dropFirst(2) == [
                "objects/wishlist: filters.maxPrice: 5 → 7",
                "~ tabs/browse/search#0  search v1",
                "    query: \"milk\" → \"oat milk\"",
                "    filters.1: \"1l\" → (none)",
                "    editingText: (none) → \"oat\"",
            ], "\(run)")
    }

    @Test("a changed tab selection, app version and metadata are reported")
    func selectionVersionMetadata() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        var after = try Shop.busyTree()
        try after.selectTab("browse", in: "tabs")
        let (run, _, _) = try await diff(
            archives, try Shop.busyTree(), after, appVersion: "4.3", metadata: ["region": "jp", "user": "ana"])
        #expect(run.exited(1), "\(run)")
        #expect(
            run.outputLines.dropFirst(2) == [
                "app version: \"4.2\" → \"4.3\"",
                "metadata region: \"eu-west\" → \"jp\"",
                "metadata user: (none) → \"ana\"",
                "selected tab of tabs: split → browse",
            ], "\(run)")
    }

    @Test("diff exits 2 with one line when a file is missing or not an archive")
    func trouble() async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (a, _) = try await archives.save(try Shop.busyTree())
        let missing = archives.directory.url.appendingPathComponent("nope.restoration").path
        let run = try await ArchiveTool.run(["diff", a.path, missing])
        #expect(run.exited(2), "\(run)")
        #expect(run.standardOutput.isEmpty)
        #expect(run.errorLines == ["restoration-archive: cannot read \(missing): no such file"])

        let text = try archives.write(Data("just some text that is long enough".utf8), named: "notes.txt")
        let notArchive = try await ArchiveTool.run(["diff", text.path, a.path])
        #expect(notArchive.exited(2), "\(notArchive)")
        #expect(notArchive.errorLines.count == 1)
        #expect(
            notArchive.errorLines.first?.hasPrefix(
                "restoration-archive: \(text.path): not a restoration archive: bad magic") == true)
    }
}
