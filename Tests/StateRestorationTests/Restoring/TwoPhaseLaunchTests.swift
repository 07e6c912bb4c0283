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

        #expect(try store.read(.marker("main")) != nil)
        #expect(await coordinator.savedArchiveInfo() == nil)  // a launch now would not restore it
        await coordinator.restoredInterfaceDidAppear()
        #expect(try store.read(.marker("main")) == nil)
        #expect(await coordinator.savedArchiveInfo() != nil)
    }

    @Test("an app that never reports its interface has the marker removed by its next save")
    func saveRemovesMarker() async throws {
        let launch = try await LaunchInProgress()
        let store = launch.store
        #expect(try store.read(.marker("main")) != nil)
        try await launch.coordinator.save(launch.host)
        #expect(try store.read(.marker("main")) == nil)
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
        #expect(try store.read(.marker("main")) != nil)
        gate.open()
        _ = try await session
    }
}
