import Foundation
import StateRestoration
import Synchronization
import TestScreens
import Testing

/// What an app would hand to a scene's activity: every call of the store's callback.
private final class Handed: Sendable {
    private let calls = Mutex<[Data?]>([])
    func record(_ data: Data?) { calls.withLock { $0.append(data) } }
    var recorded: [Data?] { calls.withLock { $0 } }
}

/// A delegate that notes, while a launch restores, whether the crash-loop marker is in a store.
private struct MarkerWatcher: RestorationDelegate {
    let markers: any RestorationStore
    let seen: Probe

    func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
        let marker = (try? markers.read(.marker("main"))) != nil
        seen.record("marker during launch: \(marker)")
    }
}

/// One window's archive handed in and out as bytes, as UIKit's scene activity keeps it.
@Suite struct ActivityStoreTests {
    @Test("bytes round-trip through a real save and launch; the new bytes are handed out after each save")
    func roundTrip() async throws {
        let handed = Handed()
        let first = ActivityStore(archive: nil) { handed.record($0) }
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: first)
        let fresh = try await coordinator.launch()
        #expect(fresh.report.freshReason?.code == .noArchive)
        #expect(first.archive == nil)
        #expect(handed.recorded.isEmpty)  // markers are not handed out

        let tree = try Shop.busyTree()
        try await coordinator.save(tree)
        let bytes = try #require(first.archive)
        #expect(handed.recorded == [bytes])
        #expect(try first.keys() == [.main])
        var changed = tree
        try changed.update(SettingsScreen.self, at: "settings") { $0.state.region = "us" }
        try await coordinator.save(changed)
        let newer = try #require(first.archive)
        #expect(newer != bytes)
        #expect(handed.recorded == [bytes, newer])

        // The next process gets the newest bytes back from the system.
        let second = ActivityStore(archive: newer)
        let session = try await RestorationCoordinator(screens: Shop.declaration(), store: second).launch()
        #expect(session.report.outcome == .restored)
        #expect(session.tree == changed)
        #expect(try second.keys() == [.main])  // the marker was removed at the end of the launch
        #expect(second.archive == newer)
    }

    @Test("damaged bytes make a fresh launch; the copy is kept for inspection, nil is handed out, a save starts anew")
    func damagedBytes() async throws {
        let handed = Handed()
        let damaged = Data("these bytes were never an archive".utf8)
        let store = ActivityStore(archive: damaged) { handed.record($0) }
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        let session = try await coordinator.launch()
        #expect(session.report.freshReason?.code == .archiveRejected)
        #expect(session.report.rejectedCheck == "bad-magic")
        let name = try #require(session.report.rejectedArchive)
        #expect(name.hasPrefix("main.rejected-bad-magic-"))
        #expect(store.rejectedArchive(named: name) == damaged)
        #expect(try store.rejectedArchives(for: .main) == [name])
        #expect(store.archive == nil)
        #expect(try store.keys() == [])
        #expect(handed.recorded == [nil])

        try await coordinator.save(try Shop.busyTree())
        #expect(try store.read(.main) == store.archive)
        let relaunched = try await RestorationCoordinator(
            screens: Shop.declaration(), store: ActivityStore(archive: store.archive)
        ).launch()
        #expect(relaunched.tree == (try Shop.busyTree()))
    }

    @Test(
        "with a marker store, the marker is kept there during a launch, and a crash while restoring makes the next launch fresh"
    )
    func markersOutliveTheProcess() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let markers = FileStore(directory: directory.url)
        let saving = ActivityStore(archive: nil)
        try await RestorationCoordinator(screens: Shop.declaration(), store: saving).save(try Shop.busyTree())
        let bytes = try #require(saving.archive)

        let seen = Probe()
        let store = ActivityStore(archive: bytes, markers: markers)
        let session = try await RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: MarkerWatcher(markers: markers, seen: seen)
        ).launch()
        #expect(session.report.outcome == .restored)
        #expect(seen.recorded == ["marker during launch: true"])
        #expect(try markers.read(.marker("main")) == nil)
        #expect(try store.keys() == [.main])

        // The process died while restoring: the system gives the same bytes back, the marker is still there.
        try markers.write(Data("restoring since then".utf8), to: .marker("main"))
        let afterCrash = ActivityStore(archive: bytes, markers: markers)
        let next = try await RestorationCoordinator(screens: Shop.declaration(), store: afterCrash).launch()
        #expect(next.report.freshReason?.code == .crashedDuringRestoration)
        #expect(afterCrash.archive == nil)
        #expect(try markers.read(.marker("main")) == nil)
    }

    @Test("the store holds one key's archive: another key reads nil, and writing it throws and changes nothing")
    func oneArchive() throws {
        let handed = Handed()
        let store = ActivityStore(archive: Data("archive".utf8)) { handed.record($0) }
        #expect(try store.keys() == [])  // no key until one is used
        #expect(try store.read("scene-window-1") == Data("archive".utf8))
        #expect(try store.read(.main) == nil)
        let error = try #require(throws: StoreError.self) { try store.write(Data("other".utf8), to: .main) }
        #expect(error.code == .otherKeyHeld)
        #expect(
            error.description
                == "cannot write: this ActivityStore holds the archive of scene-window-1, not of main; give each coordinator a store of its own"
        )
        try store.remove(.main)
        #expect(try store.reject(.main, reason: "bad") == nil)
        #expect(store.archive == Data("archive".utf8))
        #expect(handed.recorded.isEmpty)

        // Markers of any key live beside it, and are not the archive (nor listed as one).
        try store.write(Data("marker".utf8), to: .marker("scene-window-1"))
        #expect(try store.read(.marker("scene-window-1")) == Data("marker".utf8))
        #expect(try store.keys() == ["scene-window-1"])
        try store.remove(.marker("scene-window-1"))
        try store.remove("scene-window-1")
        #expect(store.archive == nil)
        #expect(handed.recorded == [nil])

        let keyed = ActivityStore(archive: Data("a".utf8), key: "scene-window-2")
        #expect(try keyed.keys() == ["scene-window-2"])
        #expect(try keyed.read(.main) == nil)
    }

    @Test(
        "a window of a RestorationScenes keeps its archive in its activity, and the shared objects in the scenes' store"
    )
    func windowOfScenes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cart = WindowCart()
        let scenes = RestorationScenes(screens: Windows.browse, store: FileStore(directory: directory.url))
        scenes.register(cart, identifier: "cart")
        let activity = ActivityStore(archive: nil)
        let coordinator = try scenes.coordinator(for: "window-1", screens: Windows.browse, store: activity)
        #expect(coordinator.store as? ActivityStore === activity)
        _ = try await coordinator.launch()
        cart.contents = ["tea"]
        try await coordinator.save(try Windows.browsingTree())
        #expect(try directory.fileNames() == ["shared.restoration"])
        #expect(try activity.keys() == ["scene-window-1"])
        // Later calls return the coordinator with the store it was made with.
        #expect(
            try scenes.coordinator(for: "window-1", screens: Windows.browse, store: ActivityStore(archive: nil))
                === coordinator)

        let relaunched = RestorationScenes(screens: Windows.browse, store: FileStore(directory: directory.url))
        let restored = WindowCart()
        relaunched.register(restored, identifier: "cart")
        let session = try await relaunched.coordinator(
            for: "window-1", screens: Windows.browse, store: ActivityStore(archive: activity.archive)
        ).launch()
        #expect(session.report.outcome == .restored)
        #expect(restored.contents == ["tea"])
        #expect(Windows.baskets(in: session.tree).map(\.state.title) == ["basket", "checkout"])
    }
}
