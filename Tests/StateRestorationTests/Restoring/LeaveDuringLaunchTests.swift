import Foundation
import StateRestoration
import Synchronization
import TestScreens
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A delegate whose did-decode never ends, as one that awaits the app's data while the
/// launch decodes: the launch never hands its tree over.
private final class SlowDecodingDelegate: RestorationDelegate {
    /// Set once the launch is inside did-decode.
    let decoding = Atomic(false)

    func didDecodeRestorableState(_ state: NoAppState?, context: RestorationContext) async {
        decoding.store(true, ordering: .releasing)
        await LeaveDuringLaunchTests.waitForever()
    }
}

/// The system ends an app in the background routinely: a launch the user left before the
/// handover is no crash, and its archive comes back. A crash in the foreground still is one.
@Suite struct LeaveDuringLaunchTests {
    /// What the child does between the launch reaching did-decode and its kill, and what the
    /// next launch finds.
    struct Case: Sendable, CustomTestStringConvertible {
        let phases: [AppPhase]
        let restores: Bool
        var testDescription: String {
            "phases \(phases.isEmpty ? "none" : phases.map(\.rawValue).joined(separator: ", ")): "
                + (restores ? "restored" : "crash reported")
        }
    }

    static let cases = [
        // The user switched apps before the handover; the suspended app was ended.
        Case(phases: [.inactive, .background], restores: true),
        // The user swiped the still-blank app away in the app switcher.
        Case(phases: [.inactive, .background, .terminate], restores: true),
        // Killed in the foreground while restoring: a crash, as UIKit takes it.
        Case(phases: [], restores: false),
        // Killed after coming back to the foreground, the restoration still under way.
        Case(phases: [.inactive, .background, .inactive, .active], restores: false),
    ]

    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
        @Test(
            "leaving the app before its launch hands the tree over, then being ended by the system, keeps the draft; a kill in the foreground is still a crash",
            arguments: cases)
        func killedAfterLeavingDuringLaunch(_ testCase: Case) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let storeURL = directory.url.appendingPathComponent("store")
            let saved = try await Self.saveDraft("Half a sen", in: storeURL)

            await #expect(processExitsWith: .signal(SIGKILL)) {
                [store = storeURL.path as String, phases = testCase.phases.map(\.rawValue) as [String]] in
                try await Self.leaveDuringLaunch(
                    store: URL(fileURLWithPath: store), phases: phases.compactMap(AppPhase.init(rawValue:)))
            }

            let model = try await RestorationModel(screens: Shop.declaration(), store: FileStore(directory: storeURL))
            let report = try await model.launch()
            if testCase.restores {
                #expect(report.outcome == .restored, "\(report)")
                #expect(await model.tree == saved)
                #expect(await model.tree.screen(DraftScreen.self, at: "draft")?.state.text == "Half a sen")
            } else {
                #expect(report.freshReason?.code == .crashedDuringRestoration, "\(report)")
                #expect(report.rejectedArchive != nil)
            }
        }
    #endif

    /// Launches a model on a new store, types `text` into the draft and saves; returns the tree.
    @MainActor
    static func saveDraft(_ text: String, in store: URL) async throws -> ScreenTree {
        let model = try RestorationModel(screens: Shop.declaration(), store: FileStore(directory: store))
        try await model.launch()
        await model.restoredInterfaceDidAppear()
        model.state(of: DraftScreen.self, at: "draft")?.wrappedValue.text = text
        try await model.save()
        return model.tree
    }

    /// The child: a launch whose did-decode never ends; once inside it, the app enters
    /// `phases`, and the process is killed with SIGKILL.
    @MainActor
    static func leaveDuringLaunch(store: URL, phases: [AppPhase]) async throws {
        let delegate = SlowDecodingDelegate()
        let model = try RestorationModel(
            screens: Shop.declaration(), store: FileStore(directory: store), delegate: delegate)
        let launch = Task { try await model.launch() }
        while !delegate.decoding.load(ordering: .acquiring) { await Task.yield() }
        for phase in phases { model.handle(phase) }
        kill(getpid(), SIGKILL)
        launch.cancel()  // not reached
    }

    /// Waits without end and without spinning, until the process is killed.
    static func waitForever() async {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        for await _ in stream {}
        continuation.finish()  // never reached: kept alive until then, so the stream never ends
    }
}
