import StateRestoration
import TestScreens
import Testing

/// The marker a coordinator leaves while its interface is being built.
@Suite struct OwnMarkerTests {
    @Test("a second launch by the same coordinator, its interface not yet reported, takes its own marker for no crash")
    func secondLaunchOfTheSameCoordinator() async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        let first = try await TreeHost(Shop.declaration())
        #expect(try await coordinator.launch(into: first).outcome == .restored)
        let second = try await TreeHost(Shop.declaration())
        #expect(try await coordinator.launch(into: second).outcome == .restored)
        #expect(await second.tree == (try Shop.busyTree()))
        // Another process (a new coordinator) finding the marker does take it for a crash.
        let next = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(next.report.freshReason?.code == .crashedDuringRestoration)
    }
}
