import StateRestoration
import TestScreens
import Testing

/// UIKit discards saved state after the user closes the app from the switcher; here that is
/// a policy.
@Suite struct UserClosePolicyTests {
    @Test("by default a closing from the app switcher keeps the archive, and the next launch restores it")
    func keepsArchive() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        try await coordinator.save(try Shop.busyTree())
        #expect(try await coordinator.userClosedScene() == false)
        let relaunched = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(relaunched.tree == (try Shop.busyTree()))
    }

    @Test("under discardsArchive a closing from the app switcher discards the archive, as UIKit does")
    func discardsArchive() async throws {
        let store = InMemoryStore()
        var configuration = RestorationConfiguration()
        configuration.userClosePolicy = .discardsArchive
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, configuration: configuration)
        try await coordinator.save(try Shop.busyTree())
        #expect(try await coordinator.userClosedScene() == true)
        #expect(try store.read(.main) == nil)
        let relaunched = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(relaunched.report.freshReason?.code == .noArchive)
    }
}
