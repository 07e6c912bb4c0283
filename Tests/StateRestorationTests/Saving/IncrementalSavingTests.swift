import Foundation
import StateRestoration
import TestScreens
import Testing

@Suite struct IncrementalSavingTests {
    /// A stack with many products pushed.
    private func bigTree(products: Int) throws -> ScreenTree {
        var tree = try Shop.declaration().makeInitialTree()
        for index in 0..<products {
            try tree.push(ProductScreen("p-\(index)", quantity: index % 5 + 1), onto: "browse")
        }
        return tree
    }

    @Test("an unchanged screen reuses its encoded bytes; a changed one is always encoded and written")
    func reuseUnchangedStates() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        var tree = try bigTree(products: 50)
        let screens = 50 + 4  // the products, search, settings, draft and the split container; scratch is never saved

        let full = try await coordinator.save(tree)
        #expect(full.encodedStateCount == screens)
        #expect(full.reusedStateCount == 0)

        try tree.update(ProductScreen.self, at: "product#17") { $0.state.quantity = 99 }
        let incremental = try await coordinator.save(tree)
        #expect(incremental.encodedStateCount == 1)
        #expect(incremental.reusedStateCount == screens - 1)

        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(restored.tree == tree)
        #expect(restored.tree.screen(ProductScreen.self, at: "product#17")?.state.quantity == 99)
    }

    @Test("an incremental save writes exactly the bytes a full save of the same tree writes")
    func sameBytes() async throws {
        let savedAt = Date(timeIntervalSince1970: 1_790_000_000)
        let configuration = RestorationConfiguration(now: { savedAt })
        var tree = try bigTree(products: 10)
        let incrementalStore = InMemoryStore()
        let incremental = RestorationCoordinator(
            screens: Shop.declaration(), store: incrementalStore, configuration: configuration)
        try await incremental.save(tree)
        for change in 0..<6 {
            switch change {
            case 0: try tree.update(ProductScreen.self, at: "product#3") { $0.state.productID = "changed" }
            case 1: try tree.pop(from: "browse")
            case 2: try tree.selectTab("settings", in: "tabs")
            case 3: try tree.present(ComposeScreen(state: .init(body: "hi")), over: "product#2")
            // Nothing changed: the root's bytes are those the previous archive holds.
            default: break
            }
            try await incremental.save(tree)
            let fullStore = InMemoryStore()
            try await RestorationCoordinator(
                screens: Shop.declaration(), store: fullStore, configuration: configuration
            )
            .save(tree)
            #expect(try incrementalStore.read(.main) == fullStore.read(.main), "after change \(change)")
        }
        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: incrementalStore).launch()
        #expect(restored.tree == tree)
    }

    @Test("state captured by will-encode counts as a change")
    func willEncodeChangesAreSeen() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        let host = try await TreeHost.launched(by: coordinator)
        try await coordinator.save(host)
        try await MainActor.run {
            try host.tree.update(SearchScreen.self, at: "search#0") { $0.liveText = "typed, not committed" }
        }
        let report = try await coordinator.save(host)
        #expect(report.encodedStateCount == 1)
        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(restored.tree.screen(SearchScreen.self, at: "search#0")?.state.editingText == "typed, not committed")
    }

    @Test("a screen moved to another path is encoded again, and restored at its new path")
    func movedScreen() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        var tree = try bigTree(products: 3)
        try await coordinator.save(tree)
        try tree.popToRoot(of: "browse")
        try tree.push(ProductScreen("p-2", quantity: 3), onto: "browse")
        let report = try await coordinator.save(tree)
        #expect(report.encodedStateCount == 1)
        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(restored.tree == tree)
    }
}
