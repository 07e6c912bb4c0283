import Foundation
import Synchronization
import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

/// A mail thread whose restoration loads the thread: an extension that sleeps on the test
/// clock the delegate hands it, then returns the thread's subject.
private struct ThreadScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "thread"
    struct State: Codable, Sendable, Equatable {
        var threadID: String
        var subject = ""
        var draft = ""
    }
    var state: State
    var clock: TestClock?
    var probe: Probe?

    init(state: State) { self.state = state }
    init(_ threadID: String) { self.state = State(threadID: threadID) }

    mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
        self.state = state
        let (clock, threadID) = (clock, state.threadID)
        context.extendRestoration("load thread") { () async throws -> String in
            try await clock?.sleep(for: .seconds(1))
            return "Subject of \(threadID)"
        }
    }

    mutating func restorationDidFinish(_ results: RestorationResults) {
        state.subject = results.value(of: "load thread", as: String.self) ?? "not loaded"
        probe?.record("finish \(state.threadID) \(results.extensions.map { "\($0.result)" })")
    }
}

private struct InboxScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "inbox"
    struct State: Codable, Sendable, Equatable { var folder = "inbox" }
    var state = State()
    var probe: Probe?

    init(state: State = State()) { self.state = state }

    mutating func restorationDidFinish(_ results: RestorationResults) {
        probe?.record("finish inbox \(results.extensions.count) extensions")
    }
}

/// Hands every restored screen the test's clock and probe.
private struct MailDelegate: RestorationDelegate {
    let clock: TestClock
    let probe: Probe

    func screen(forIdentifierPath path: IdentifierPath, request: ScreenRequest) async -> (any RestorableScreen)? {
        switch request.makeScreen() {
        case var thread as ThreadScreen:
            thread.clock = clock
            thread.probe = probe
            return thread
        case var inbox as InboxScreen:
            inbox.probe = probe
            return inbox
        case let other:
            return other
        }
    }
}

private let mail = ScreenDeclaration {
    Stack("mail", root: InboxScreen()) { ThreadScreen.self }
}

/// A launch into a host of a saved inbox with threads t-1 and t-2 pushed, stopped where both
/// threads' extensions sleep on the test clock.
private struct LaunchInProgress {
    let store: InMemoryStore
    let clock = TestClock()
    let coordinator: RestorationCoordinator<MailDelegate>
    let host: TreeHost
    let launch: Task<LaunchReport, any Error>

    init(_ store: InMemoryStore = InMemoryStore(), probe: Probe = Probe()) async throws {
        var tree = try mail.makeInitialTree()
        try tree.push(ThreadScreen("t-1"), onto: "mail")
        try tree.push(ThreadScreen("t-2"), onto: "mail")
        try await RestorationCoordinator(screens: mail, store: store).save(tree)
        self.store = store
        let (clock, host) = (clock, try await TreeHost(mail))
        let coordinator = RestorationCoordinator(
            screens: mail, store: store, delegate: MailDelegate(clock: clock, probe: probe),
            configuration: RestorationConfiguration(extensionTimeout: .seconds(20), clock: clock))
        self.coordinator = coordinator
        self.host = host
        launch = Task { try await coordinator.launch(into: host) }
        await clock.waitForSleepers(3)  // two extensions and the timeout
    }

    /// Lets the extensions complete, and returns the launch's report.
    func finish() async throws -> LaunchReport {
        clock.advance(by: .seconds(1))
        return try await launch.value
    }
}

@Suite struct TwoPhaseLaunchTests {
    @Test("the restored tree is in the host while the extensions still sleep")
    func treeHandedOverBeforeExtensionsEnd() async throws {
        let launch = try await LaunchInProgress()
        let shown = await launch.host.tree
        #expect(shown.screen(ThreadScreen.self, at: "mail/thread#2")?.state.threadID == "t-2")
        #expect(shown.screen(ThreadScreen.self, at: "mail/thread#2")?.state.subject == "")

        let finished = try await launch.finish()
        #expect(finished.outcome == .restored)
        #expect(finished.extensions.map(\.result) == [.completed, .completed])
        let subject = await launch.host.tree.screen(ThreadScreen.self, at: "mail/thread#2")?.state.subject
        #expect(subject == "Subject of t-2")
    }

    @Test("finished-restoring reaches the restored screens still in the host's tree, each told its own extensions")
    func finishReachesCurrentTree() async throws {
        let probe = Probe()
        let launch = try await LaunchInProgress(probe: probe)
        // While t-2 loads, the user goes back to t-1 and opens t-3 at the same position.
        try await MainActor.run { [host = launch.host] in
            _ = try host.tree.pop(from: "mail")
            try host.tree.push(ThreadScreen("t-3"), onto: "mail")
        }
        _ = try await launch.finish()

        #expect(probe.recorded == ["finish inbox 0 extensions", "finish t-1 [\"completed\"]"])
        let tree = await launch.host.tree
        #expect(tree.screen(ThreadScreen.self, at: "mail/thread#1")?.state.subject == "Subject of t-1")
        #expect(tree.screen(ThreadScreen.self, at: "mail/thread#2")?.state == .init(threadID: "t-3"))
    }

    @Test("a save while the extensions run writes the host's current tree, with the user's draft")
    func saveDuringExtensions() async throws {
        let launch = try await LaunchInProgress()
        try await MainActor.run { [host = launch.host] in
            try host.tree.update(ThreadScreen.self, at: "mail/thread#2") { $0.state.draft = "Thanks, see you" }
        }
        let saved = try await launch.coordinator.save(launch.host)
        #expect(saved.saved)
        let relaunched = try await RestorationCoordinator(screens: mail, store: launch.store).launch()
        #expect(relaunched.tree.screen(ThreadScreen.self, at: "mail/thread#2")?.state.draft == "Thanks, see you")
        _ = try await launch.finish()
    }

    @Test("a cancelled launch reports its unfinished extensions as cancelled, not timed out")
    func cancelledLaunch() async throws {
        let launch = try await LaunchInProgress()
        launch.launch.cancel()
        let report = try await launch.launch.value
        #expect(report.extensions.map(\.result) == [.cancelled, .cancelled])
        let subject = await launch.host.tree.screen(ThreadScreen.self, at: "mail/thread#1")?.state.subject
        #expect(subject == "not loaded")
    }

    @Test("the crash-loop marker stays after the handover until the app says its interface is up")
    func markerStaysUntilInterfaceAppears() async throws {
        let launch = try await LaunchInProgress()
        let (store, coordinator) = (launch.store, launch.coordinator)
        _ = try await launch.finish()

        #expect(try store.read("main.restoring") != nil)
        #expect(await coordinator.savedArchiveInfo() == nil)  // a launch now would not restore it
        await coordinator.restoredInterfaceDidAppear()
        #expect(try store.read("main.restoring") == nil)
        #expect(await coordinator.savedArchiveInfo() != nil)
    }

    @Test("an app that never reports its interface has the marker removed by its next save")
    func saveRemovesMarker() async throws {
        let launch = try await LaunchInProgress()
        let store = launch.store
        #expect(try store.read("main.restoring") != nil)
        try await launch.coordinator.save(launch.host)
        #expect(try store.read("main.restoring") == nil)
        _ = try await launch.finish()
        let relaunched = try await RestorationCoordinator(screens: mail, store: store).launch()
        #expect(relaunched.report.outcome == .restored)
    }

    @Test("restoredInterfaceDidAppear during the decoding does not remove the marker")
    func interfaceReportBeforeHandover() async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        /// Holds the launch in did-finish-launching, before the handover.
        struct HoldingDelegate: RestorationDelegate {
            let gate: Gate
            func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async { await gate.wait() }
        }
        let gate = Gate()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: HoldingDelegate(gate: gate))
        async let session = coordinator.launch()
        #expect(await eventually { gate.waiterCount == 1 })
        await coordinator.restoredInterfaceDidAppear()
        #expect(try store.read("main.restoring") != nil)
        gate.open()
        _ = try await session
    }
}

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
        try store.write(Data("restoring".utf8), to: "main.restoring")
        #expect(await coordinator.savedArchiveInfo() == nil)
        let debugging = RestorationCoordinator(
            screens: Shop.declaration(), store: store, configuration: RestorationConfiguration(restoresAfterCrash: true)
        )
        #expect(await debugging.savedArchiveInfo() != nil)
        #expect(try await coordinator.launch().report.freshReason?.code == .crashedDuringRestoration)
    }
}

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
        #expect(try store.read("main.restoring") != nil)
        store.unstick()
        try await coordinator.save(host)
        #expect(try store.read("main.restoring") == nil)
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
        #expect(try store.read("main.restoring") == nil)
        // A process that dies now leaves the archive restorable.
        let next = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(next.report.outcome == .restored)
    }
}
