import Foundation
import StateRestoration
import TestScreens
import Testing

@Suite struct SnapshotControlTests {
    @Test("ignoring the snapshot is saved with the next archive only, and readable before restoring")
    func ignoreSnapshotOnce() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        let tree = try Shop.busyTree()
        try await coordinator.save(tree)
        #expect(await coordinator.savedArchiveInfo()?.ignoresSnapshot == false)

        await coordinator.ignoreSnapshotOnNextLaunch()
        try await coordinator.save(tree)
        let next = RestorationCoordinator(screens: Shop.declaration(), store: store)
        #expect(await next.savedArchiveInfo()?.ignoresSnapshot == true)
        let session = try await next.launch()
        #expect(session.report.archiveInfo?.ignoresSnapshot == true)

        try await coordinator.save(tree)
        #expect(await coordinator.savedArchiveInfo()?.ignoresSnapshot == false)
    }

    @Test("there is no archive info without a readable archive")
    func noInfo() async throws {
        let store = InMemoryStore()
        #expect(await RestorationCoordinator(screens: Shop.declaration(), store: store).savedArchiveInfo() == nil)
        try store.write(Data([1, 2, 3]), to: .main)
        #expect(await RestorationCoordinator(screens: Shop.declaration(), store: store).savedArchiveInfo() == nil)
    }
}
