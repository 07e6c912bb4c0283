import Foundation
import StateRestoration
import TestScreens
import Testing

/// `savedArchiveInfo()` answers as a launch would decide.
@Suite struct SavedArchiveInfoTests {
    private func saved(
        at date: Date, configuration: RestorationConfiguration
    ) async throws -> (InMemoryStore, RestorationCoordinator<DefaultRestorationDelegate>) {
        let store = InMemoryStore()
        try await RestorationCoordinator(
            screens: Shop.declaration(), store: store, configuration: RestorationConfiguration(now: { date })
        ).save(try Shop.busyTree())
        return (store, RestorationCoordinator(screens: Shop.declaration(), store: store, configuration: configuration))
    }

    @Test("an archive older than the maximum age has no info, as a launch would not restore it")
    func staleArchive() async throws {
        let savedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let young = RestorationConfiguration(maximumArchiveAge: .seconds(3600), now: { savedAt + 3599 })
        let old = RestorationConfiguration(maximumArchiveAge: .seconds(3600), now: { savedAt + 3601 })
        let (store, coordinator) = try await saved(at: savedAt, configuration: young)
        #expect(await coordinator.savedArchiveInfo()?.savedAt == savedAt)
        let stale = RestorationCoordinator(screens: Shop.declaration(), store: store, configuration: old)
        #expect(await stale.savedArchiveInfo() == nil)
        #expect(try await stale.launch().report.freshReason?.code == .stale)
    }

    @Test("an archive with a marker beside it has no info unless restoresAfterCrash is set")
    func markerBesideArchive() async throws {
        let (store, coordinator) = try await saved(at: Date(), configuration: RestorationConfiguration())
        try store.write(Data("restoring".utf8), to: .marker("main"))
        #expect(await coordinator.savedArchiveInfo() == nil)
        let debugging = RestorationCoordinator(
            screens: Shop.declaration(), store: store, configuration: RestorationConfiguration(restoresAfterCrash: true)
        )
        #expect(await debugging.savedArchiveInfo() != nil)
        #expect(try await coordinator.launch().report.freshReason?.code == .crashedDuringRestoration)
    }
}
