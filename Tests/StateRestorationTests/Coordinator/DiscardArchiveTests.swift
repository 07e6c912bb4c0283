import StateRestoration
import TestScreens
import Testing

@Suite struct DiscardArchiveTests {
    @Test("discarding waits for the save under way, so the archive is not written back; a later save writes anew")
    func discardAfterRunningSave() async throws {
        let store = InMemoryStore()
        let gate = Gate()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: GatedSaveDelegate(gate: gate))
        async let saving = coordinator.save(try Shop.busyTree())
        #expect(await eventually { gate.waiterCount == 1 })
        async let discarding: Void = coordinator.discardArchive()
        #expect(await eventually { await coordinator.waitingCount == 1 })
        gate.open()
        _ = try await saving
        try await discarding
        #expect(try store.read(.main) == nil)
        #expect(try store.keys().isEmpty)

        try await coordinator.save(try Shop.busyTree())
        #expect(try store.read(.main) != nil)
    }

    @Test(
        "a discard during a restoration takes its crash marker along: coming back to the foreground does not write it again, so the next archive is not taken for a crash"
    )
    @MainActor
    func discardTakesThePendingMarker() async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        let model = try RestorationModel(screens: Shop.declaration(), store: store)
        try await model.launch()  // the interface is not reported up: the marker is pending
        #expect(try store.read(.marker(.main)) != nil)
        try await model.coordinator.discardArchive()
        model.handle(.inactive)
        model.handle(.background)
        model.handle(.inactive)
        model.handle(.active)
        #expect(try store.read(.marker(.main)) == nil)

        try await model.save()
        let relaunched = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(relaunched.report.outcome == .restored)
    }

    @Test("a save requested after a discard is written, even when a save queued before the discard coalesces")
    func saveAfterDiscardIsKept() async throws {
        let store = InMemoryStore()
        let gate = Gate()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: GatedSaveDelegate(gate: gate))
        let before = try Self.tree(productID: "before")
        let after = try Self.tree(productID: "after")

        async let running = coordinator.save(before)
        #expect(await eventually { gate.waiterCount == 1 })
        async let queued = coordinator.save(before)
        #expect(await eventually { await coordinator.waitingCount == 1 })
        async let discarding: Void = coordinator.discardArchive()
        #expect(await eventually { await coordinator.waitingCount == 2 })
        async let later = coordinator.save(after)
        #expect(await eventually { await coordinator.waitingCount == 3 })
        gate.open()
        _ = try await running
        _ = try await queued
        try await discarding
        let laterReport = try await later
        #expect(laterReport.saved)
        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(restored.tree == after)
    }

    private static func tree(productID: String) throws -> ScreenTree {
        var tree = try Shop.busyTree()
        try tree.update(ProductScreen.self, at: "product#1") { $0.state.productID = productID }
        return tree
    }
}
