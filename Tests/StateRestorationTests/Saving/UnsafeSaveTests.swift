import Foundation
import Synchronization
import StateRestoration
import TestScreens
import Testing

/// A store over an in-memory one whose removals of the restoration marker fail while told to.
private final class StuckMarkerStore: RestorationStore, Sendable {
    let base = InMemoryStore()
    private let failing = Mutex(true)

    func unstick() { failing.withLock { $0 = false } }

    func read(_ key: StoreKey) throws -> Data? { try base.read(key) }
    func write(_ data: Data, to key: StoreKey) throws { try base.write(data, to: key) }
    func remove(_ key: StoreKey) throws {
        if key.rawValue.hasSuffix(".restoring"), failing.withLock({ $0 }) {
            throw StoreError(code: .writeFailed, operation: .remove, path: key.rawValue, reason: "injected")
        }
        try base.remove(key)
    }
    func reject(_ key: StoreKey, reason: String) throws -> String? { try base.reject(key, reason: reason) }
    func rejectedArchives(for key: StoreKey) throws -> [String] { try base.rejectedArchives(for: key) }
    func keys() throws -> [StoreKey] { try base.keys() }
}

/// Saves that must not write: before the launch, beside a marker, or older than the handover.
@Suite struct UnsafeSaveTests {
    @Test("a save from the host before the launch handed it its tree writes nothing: the archive stays")
    func saveBeforeLaunch() async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        let host = try await TreeHost(Shop.declaration())
        do {
            try await coordinator.save(host)
            Issue.record("the host's initial tree was saved before the launch")
        } catch let error as RestorationError {
            #expect(error.code == .saveBeforeLaunch)
        }
        try await coordinator.launch(into: host)
        #expect(await host.tree == (try Shop.busyTree()))
    }

    @Test("a save whose marker cannot be removed writes nothing, and the next save, once it can, writes")
    func markerThatCannotBeRemoved() async throws {
        let store = StuckMarkerStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        let host = try await TreeHost(Shop.declaration())
        try await coordinator.launch(into: host)
        try await MainActor.run { try host.tree.update(DraftScreen.self, at: "draft") { $0.state.text = "new" } }
        await #expect(throws: RestorationError.self) { try await coordinator.save(host) }
        #expect(try store.read(.marker("main")) != nil)
        store.unstick()
        try await coordinator.save(host)
        #expect(try store.read(.marker("main")) == nil)
        let relaunched = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(relaunched.tree.screen(DraftScreen.self, at: "draft")?.state.text == "new")
    }

    @Test("a launch that restores nothing (declined) removes its marker at the handover")
    func freshLaunchRemovesMarker() async throws {
        struct Declining: RestorationDelegate {
            func shouldRestore(_ archive: ArchiveInfo) async -> Bool { false }
        }
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        let host = try await TreeHost(Shop.declaration())
        let report = try await RestorationCoordinator(screens: Shop.declaration(), store: store, delegate: Declining())
            .launch(into: host)
        #expect(report.freshReason?.code == .declinedByDelegate)
        #expect(try store.read(.marker("main")) == nil)
        // A process that dies now leaves the archive restorable.
        let next = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(next.report.outcome == .restored)
    }
}
