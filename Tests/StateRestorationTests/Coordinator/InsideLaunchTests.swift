import Foundation
import Synchronization
import StateRestoration
import Testing

/// A delegate that calls back into its own coordinator from inside the launch:
/// a discard from did-finish-launching when it declined the archive, and a save
/// from a restoration extension.
private struct CallingBackDelegate: RestorationDelegate {
    final class Box: Sendable {
        let coordinator = Mutex<RestorationCoordinator<CallingBackDelegate>?>(nil)
        var value: RestorationCoordinator<CallingBackDelegate>? { coordinator.withLock { $0 } }
    }

    let box = Box()
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

@Suite(.timeLimit(.minutes(1))) struct InsideLaunchTests {
    private func coordinator(
        _ store: InMemoryStore, restores: Bool
    ) -> (RestorationCoordinator<CallingBackDelegate>, CallingBackDelegate) {
        var delegate = CallingBackDelegate()
        delegate.restores = restores
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: delegate,
            configuration: RestorationConfiguration(extensionTimeout: .seconds(30)))
        delegate.box.coordinator.withLock { $0 = coordinator }
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
                "inside-launch: discardArchive() was called from inside this coordinator's launch() (a delegate "
                    + "callback or a restoration extension), where it would wait for the launch that waits for it; "
                    + "call it after launch() returns"
            ])
        #expect(try store.read(.main) != nil)

        // After the launch returned, the same call discards.
        try await coordinator.discardArchive()
        #expect(try store.read(.main) == nil)
    }

    @Test("a save from a restoration extension fails at once; the launch does not wait out the timeout")
    func saveInsideExtension() async throws {
        let store = InMemoryStore()
        let saved = try Shop.busyTree()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(saved)
        let (coordinator, _) = coordinator(store, restores: true)

        let session = try await coordinator.launch()
        let outcome = try #require(session.report.extensions.first)
        // Failed, not timed out after 30 s: the call did not wait for the launch.
        guard case .failed(let message) = outcome.result else {
            Issue.record("the extension ended \(outcome.result)")
            return
        }
        #expect(message.hasPrefix("save(_:) was called from inside this coordinator's launch()"))
        #expect(session.tree == saved)

        // Nothing was written from inside; after the launch, saves work.
        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(restored.tree == saved)
        try await coordinator.save(try Shop.declaration().makeInitialTree())
        let fresh = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(fresh.tree == (try Shop.declaration().makeInitialTree()))
    }
}
