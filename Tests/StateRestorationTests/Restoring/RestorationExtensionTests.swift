import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

/// A screen whose decode extends the restoration with work it is given through
/// its probe-carrying delegate.
private struct LoadingScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "loading"
    struct State: Codable, Sendable, Equatable { var resource = "catalog" }
    var state = State()
    var probe: Probe?
    var restoredPath: IdentifierPath?

    init(state: State = State()) { self.state = state }

    mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
        self.state = state
        restoredPath = context.identifierPath
        let probe = probe
        let resource = state.resource
        context.extendRestoration("load \(resource)") { probe?.record("loaded \(resource)") }
    }
}

@Suite struct RestorationExtensionTests {
    private let declaration = ScreenDeclaration {
        Tabs("tabs") {
            Screen(LoadingScreen(), id: "loading")
            Screen(SettingsScreen(), id: "settings")
        }
    }

    /// A harness whose processes all use `delegate`; it saves and relaunches the initial tree.
    private func relaunch(
        delegate: RecordingDelegate, configuration: RestorationConfiguration = RestorationConfiguration()
    ) async throws -> RestorationHarness<RecordingDelegate>.Relaunch {
        try await RestorationHarness(screens: declaration, configuration: configuration) { delegate }
            .relaunch(saving: try declaration.makeInitialTree())
    }

    @Test("a screen's extension completes before finished-restoring is called")
    func screenExtension() async throws {
        let probe = Probe()
        let session = try await relaunch(delegate: RecordingDelegate(probe: probe))
        let events = probe.recorded
        let loaded = try #require(events.firstIndex(of: "loaded catalog"))
        let finished = try #require(events.firstIndex(of: "finish tabs/loading"))
        #expect(loaded < finished)
        #expect(session.report.extensions == [.init(name: "load catalog", path: "tabs/loading", result: .completed)])
    }

    @Test("an extension still running at the timeout is cancelled; restoration finishes anyway")
    func timeout() async throws {
        let clock = TestClock()
        let probe = Probe()
        var delegate = RecordingDelegate(probe: probe)
        delegate.appExtension = {
            do {
                try await clock.sleep(for: .seconds(3600))
                probe.record("hang returned")
            } catch {
                probe.record("hang cancelled")
            }
        }
        // The harness advances the clock by the timeout once the launch waits on it.
        let session = try await RestorationHarness(
            screens: declaration, configuration: RestorationConfiguration(extensionTimeout: .seconds(5))
        ) { [delegate] in delegate }.relaunch(saving: try declaration.makeInitialTree(), timingOutExtensionsOn: clock)
        #expect(clock.now == .init(offset: .seconds(5)))
        let outcomes = Dictionary(uniqueKeysWithValues: session.report.extensions.map { ($0.name, $0.result) })
        #expect(outcomes["app extension"] == .timedOut)
        #expect(outcomes["load catalog"] == .completed)
        #expect(probe.recorded.contains("finish tabs/loading"))
        #expect(!probe.recorded.contains("hang returned"))
        var spins = 0
        while !probe.recorded.contains("hang cancelled") && spins < 1_000_000 {
            await Task.yield()
            spins += 1
        }
        #expect(probe.recorded.contains("hang cancelled"))
    }

    @Test("an extension that throws is reported as failed; restoration finishes anyway")
    func failingExtension() async throws {
        struct LoginFailed: Error, CustomStringConvertible { var description: String { "login refused" } }
        let probe = Probe()
        var delegate = RecordingDelegate(probe: probe)
        delegate.appExtension = { throw LoginFailed() }
        let session = try await relaunch(delegate: delegate)
        #expect(
            session.report.extensions.contains { $0.name == "app extension" && $0.result == .failed("login refused") })
        #expect(session.report.outcome == .restored)
        #expect(probe.recorded.last == "finish tabs/settings")
    }
}
