import Foundation
import StateRestoration
import TestScreens
import Testing

@Suite struct SizeBudgetTests {
    /// `61,234`, as Foundation's formatter writes it in English.
    static func grouped(_ value: Int) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.numberStyle = .decimal
        return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
    }

    /// The shop tree with a draft of `draftBytes` characters and a small search.
    private func tree(draftBytes: Int) throws -> ScreenTree {
        var tree = try Shop.busyTree()
        try tree.update(DraftScreen.self, at: "draft") { $0.state.text = String(repeating: "x", count: draftBytes) }
        return tree
    }

    @Test("a screen over the per-screen budget is named with its size; the save still succeeds")
    func perScreenWarning() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store,
            configuration: RestorationConfiguration(budget: SizeBudget(perScreen: 10_000, perArchive: nil)))
        let report = try await coordinator.save(try tree(draftBytes: 60_000))
        let draftSize = try #require(report.stateSizes.first { $0.path == "tabs/draft" }?.byteCount)
        #expect(draftSize > 60_000)
        #expect(
            report.budgetWarnings == [
                "tabs/draft (draft) saves \(Self.grouped(draftSize)) bytes, over the per-screen budget of 10,000: save a database key, not the data"
            ])
        #expect(try store.read(.main) != nil)
    }

    @Test("a screen over the per-screen budget is named again by a save that reuses its encoding")
    func reusedScreenWarning() async throws {
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: InMemoryStore(),
            configuration: RestorationConfiguration(budget: SizeBudget(perScreen: 10_000, perArchive: nil)))
        var tree = try tree(draftBytes: 60_000)
        let first = try await coordinator.save(tree)
        try tree.update(SearchScreen.self, at: "search#0") { $0.state.query = "other" }
        let second = try await coordinator.save(tree)
        #expect(second.encodedStateCount == 1)
        #expect(first.budgetWarnings.count == 1)
        #expect(first.budgetWarnings.first?.hasPrefix("tabs/draft (draft) saves ") == true)
        #expect(second.budgetWarnings == first.budgetWarnings)
    }

    @Test("an archive over its budget names the three largest screens, largest first")
    func perArchiveWarning() async throws {
        var tree = try tree(draftBytes: 5_000)
        try tree.update(SearchScreen.self, at: "search#0") { $0.state.query = String(repeating: "q", count: 3_000) }
        try tree.update(ComposeScreen.self, at: "tabs/browse/product#2/compose") {
            $0.state.body = String(repeating: "b", count: 4_000)
        }
        let report = try await RestorationCoordinator(
            screens: Shop.declaration(), store: InMemoryStore(),
            configuration: RestorationConfiguration(budget: SizeBudget(perScreen: nil, perArchive: 8_000))
        ).save(tree)
        let warning = try #require(report.budgetWarnings.first)
        #expect(report.budgetWarnings.count == 1)
        #expect(warning.hasPrefix("archive main is "))
        let order = ["tabs/draft (", "tabs/browse/product#2/compose (", "tabs/browse/search#0 ("]
        let positions = order.compactMap { warning.range(of: $0)?.lowerBound }
        #expect(positions.count == 3)
        #expect(positions == positions.sorted())
    }

    @Test("an enforced budget refuses the save and keeps the previous archive")
    func enforcedBudget() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store,
            configuration: RestorationConfiguration(
                budget: SizeBudget(perScreen: 10_000, perArchive: nil, isEnforced: true)))
        let small = try tree(draftBytes: 100)
        try await coordinator.save(small)
        await #expect {
            try await coordinator.save(try tree(draftBytes: 60_000))
        } throws: { error in
            (error as? RestorationError)?.code == .budgetExceeded
                && (error as? RestorationError)?.message.hasPrefix("not saved: tabs/draft (draft) saves ") == true
        }
        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(restored.tree == small)
    }

    @Test("within budget there is no warning, and the recommended budget is the default")
    func withinBudget() async throws {
        let report = try await RestorationCoordinator(screens: Shop.declaration(), store: InMemoryStore())
            .save(try tree(draftBytes: 1_000))
        #expect(report.budgetWarnings.isEmpty)
        #expect(RestorationConfiguration().budget == .recommended)
        #expect(report.stateSizes.count == report.encodedStateCount + report.reusedStateCount)
    }
}
