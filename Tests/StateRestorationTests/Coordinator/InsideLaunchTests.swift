import Foundation
import Synchronization
import StateRestoration
import TestScreens
import Testing

/// A weak reference a delegate reaches its own coordinator (or scenes) through: a strong one
/// would make a cycle, coordinator to delegate to coordinator, that is never freed.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    private let lock = Mutex<Void>(())
    nonisolated(unsafe) private weak var object: Object?

    var value: Object? {
        get { lock.withLock { _ in object } }
        set { lock.withLock { _ in object = newValue } }
    }
}

/// A delegate that calls back into its own coordinator during the launch: a discard
/// from did-finish-launching when it declined the archive, and a save from a
/// restoration extension.
private struct CallingBackDelegate: RestorationDelegate {
    let box = WeakReference<RestorationCoordinator<CallingBackDelegate>>()
    let probe = Probe()
    var restores = true

    func shouldRestore(_ archive: ArchiveInfo) async -> Bool { restores }

    func didDecodeRestorableState(_ state: Int?, context: RestorationContext) async {
        let box = box
        context.extendRestoration("save while restoring") {
            try await box.value?.save(try Shop.declaration().makeInitialTree())
        }
    }

    func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
        guard report.freshReason?.code == .declinedByDelegate else { return }
        do {
            try await box.value?.discardArchive()
            probe.record("discarded")
        } catch {
            probe.record("\(error.code): \(error.message)")
        }
    }

    func willEncodeRestorableState() async -> Int? { nil }
}

/// A delegate that starts tasks of its own in did-finish-launching, which save: one at once,
/// while the launch still runs, and one once a gate opens, after the launch returned.
private struct TaskStartingDelegate: RestorationDelegate {
    let box = WeakReference<RestorationCoordinator<TaskStartingDelegate>>()
    let probe = Probe()
    let gate = Gate()

    func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
        let (box, probe, gate) = (box, probe, gate)
        Task {
            do {
                let saved = try await box.value?.save(try Shop.busyTree())
                probe.record("at once: saved \(saved?.saved == true)")
            } catch {
                probe.record("at once: \(error)")
            }
        }
        Task {
            await gate.wait()
            do {
                let saved = try await box.value?.save(try Shop.declaration().makeInitialTree())
                probe.record("later: saved \(saved?.saved == true)")
            } catch {
                probe.record("later: \(error)")
            }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct InsideLaunchTests {
    private func coordinator(
        _ store: InMemoryStore, restores: Bool
    ) -> (RestorationCoordinator<CallingBackDelegate>, CallingBackDelegate) {
        var delegate = CallingBackDelegate()
        delegate.restores = restores
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: delegate,
            configuration: RestorationConfiguration(extensionTimeout: .seconds(30)))
        delegate.box.value = coordinator
        return (coordinator, delegate)
    }

    @Test("discarding the archive from did-finish-launching fails at once instead of waiting for the launch")
    func discardInsideLaunch() async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        let (coordinator, delegate) = coordinator(store, restores: false)

        let session = try await coordinator.launch()
        #expect(session.report.freshReason?.code == .declinedByDelegate)
        #expect(
            delegate.probe.recorded == [
                "inside-launch: discardArchive() was called from a delegate callback of this coordinator's "
                    + "running launch, where it would wait for the launch that waits for it; call it once the launch "
                    + "has handed its tree over"
            ])
        #expect(try store.read(.main) != nil)

        // After the launch returned, the same call discards.
        try await coordinator.discardArchive()
        #expect(try store.read(.main) == nil)
    }

    @Test("a save from a restoration extension runs at once: extensions run after the tree is handed over")
    func saveInsideExtension() async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        let (coordinator, _) = coordinator(store, restores: true)

        let session = try await coordinator.launch()
        #expect(session.report.extensions.map(\.result) == [.completed])
        #expect(session.tree == (try Shop.busyTree()))
        // The extension's tree, made after the handover, is what the store holds now.
        let relaunched = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(relaunched.tree == (try Shop.declaration().makeInitialTree()))
    }

    @Test("tasks the app starts during a launch are not waited for by it: their saves wait for the launch and succeed")
    func tasksStartedInsideLaunchSave() async throws {
        let store = InMemoryStore()
        let delegate = TaskStartingDelegate()
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store, delegate: delegate)
        delegate.box.value = coordinator

        _ = try await coordinator.launch()
        #expect(await eventually { delegate.probe.recorded.count == 1 })
        delegate.gate.open()
        #expect(await eventually { delegate.probe.recorded.count == 2 })
        #expect(delegate.probe.recorded == ["at once: saved true", "later: saved true"])
        let relaunched = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(relaunched.tree == (try Shop.declaration().makeInitialTree()))
    }

    /// A scene's delegate that discards its own scene from did-finish-launching.
    private struct DiscardingSceneDelegate: RestorationDelegate {
        let sceneIdentifier: String
        let scenes: WeakReference<RestorationScenes<DiscardingSceneDelegate>>
        let probe: Probe

        func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
            do {
                try await scenes.value?.discardScene(sceneIdentifier)
                probe.record("discarded")
            } catch {
                probe.record("\(error.code)")
            }
        }
    }

    @Test("a scene discarded from its own launch is kept, with its coordinator, and can be discarded afterwards")
    func discardSceneInsideLaunch() async throws {
        let store = InMemoryStore()
        let holder = WeakReference<RestorationScenes<DiscardingSceneDelegate>>()
        let probe = Probe()
        let scenes = RestorationScenes(screens: Shop.declaration(), store: store) { id in
            DiscardingSceneDelegate(sceneIdentifier: id, scenes: holder, probe: probe)
        }
        holder.value = scenes
        let coordinator = try scenes.coordinator(for: "window-1")
        try await coordinator.save(try Shop.busyTree())

        _ = try await coordinator.launch()
        #expect(probe.recorded == ["inside-launch"])
        #expect(try scenes.coordinator(for: "window-1") === coordinator)
        #expect(try scenes.savedScenes() == ["window-1"])
        try await scenes.discardScene("window-1")
        #expect(try scenes.savedScenes().isEmpty)
    }
}
