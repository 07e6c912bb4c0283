import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

/// A delegate whose did-decode extends the restoration with work that hangs on
/// the test clock, returns at once, or returns after other tasks have run.
private struct LogInDelegate: RestorationDelegate {
    enum Work: Sendable {
        case hangs
        case returns
        /// Returns after yielding to the other tasks this many times; no time passes.
        case yields(Int)
        /// Returns after sleeping on the test clock for these durations, one after another.
        case sleeps([Duration])
    }

    let clock: TestClock
    let probe: Probe
    let work: Work

    func didDecodeRestorableState(_ state: NoAppState?, context: RestorationContext) async {
        let (clock, probe, work) = (clock, probe, work)
        context.extendRestoration("log in") {
            switch work {
            case .returns:
                probe.record("logged in")
            case .yields(let count):
                for _ in 0..<count { await Task.yield() }
                probe.record("logged in")
            case .sleeps(let durations):
                for duration in durations { try await clock.sleep(for: duration) }
                probe.record("logged in at \(clock.now)")
            case .hangs:
                do {
                    try await clock.sleepUntilCancelled()
                    probe.record("log-in returned")
                } catch {
                    probe.record("log-in cancelled")
                }
            }
        }
    }
}

// A harness that never advanced the clock would hang here; the limit turns that into a failure.
// It is generous: under AddressSanitizer, beside the suite's busy child-process tests, a
// launch can take many times longer than usual.
@Suite(.timeLimit(.minutes(10))) struct HangingExtensionTests {
    @Test("an extension that hangs is cancelled at the timeout, on the test clock, without sleeping")
    func hangs() async throws {
        let clock = TestClock()
        let probe = Probe()
        let harness = RestorationHarness(
            screens: TestApp.declaration, configuration: RestorationConfiguration(extensionTimeout: .seconds(5))
        ) { LogInDelegate(clock: clock, probe: probe, work: .hangs) }
        let tree = try TestApp.busyTree()
        let relaunched = try await harness.relaunch(saving: tree, timingOutExtensionsOn: clock)
        #expect(relaunched.report.extensions == [.init(name: "log in", path: nil, result: .timedOut)])
        #expect(relaunched.report.outcome == .restored)
        #expect(relaunched.tree == tree)
        #expect(clock.now == .init(offset: .seconds(5)))
        #expect(await eventually { probe.recorded == ["log-in cancelled"] })
        #expect(clock.sleeperCount == 0)
    }

    // The harness once advanced the clock as soon as the launch slept until the timeout:
    // an extension that had just returned, or that was still awaiting other tasks, timed out
    // or saw the clock move, depending on how the threads were scheduled.
    @Test(
        "an extension that finishes in time is reported completed, and the clock never moves",
        arguments: [LogInDelegate.Work.returns, .yields(100)])
    fileprivate func finishes(work: LogInDelegate.Work) async throws {
        let clock = TestClock()
        let probe = Probe()
        let harness = RestorationHarness(screens: TestApp.declaration) {
            LogInDelegate(clock: clock, probe: probe, work: work)
        }
        let relaunched = try await harness.relaunch(saving: try TestApp.busyTree(), timingOutExtensionsOn: clock)
        #expect(relaunched.report.extensions.map(\.result) == [.completed])
        #expect(probe.recorded == ["logged in"])
        #expect(clock.now == .init(offset: .zero))
    }
}

extension HangingExtensionTests {
    // The harness once moved the clock straight to the timeout: an extension due earlier woke
    // together with the timeout, and the launch reported it completed or timed out at random.
    @Test("an extension that sleeps on the test clock and is due before the timeout completes, every time")
    func sleepsWithinTimeout() async throws {
        for _ in 0..<20 {
            let clock = TestClock()
            let probe = Probe()
            let harness = RestorationHarness(
                screens: TestApp.declaration, configuration: RestorationConfiguration(extensionTimeout: .seconds(5))
            ) { LogInDelegate(clock: clock, probe: probe, work: .sleeps([.seconds(2), .seconds(2)])) }
            let relaunched = try await harness.relaunch(saving: try TestApp.busyTree(), timingOutExtensionsOn: clock)
            #expect(relaunched.report.extensions.map(\.result) == [.completed])
            #expect(probe.recorded == ["logged in at \(TestClock.Instant(offset: .seconds(4)))"])
            #expect(clock.now == .init(offset: .seconds(4)))
        }
    }

    @Test("an extension whose sleeps pass the timeout is cancelled at the timeout")
    func sleepsPastTimeout() async throws {
        let clock = TestClock()
        let probe = Probe()
        let harness = RestorationHarness(
            screens: TestApp.declaration, configuration: RestorationConfiguration(extensionTimeout: .seconds(5))
        ) { LogInDelegate(clock: clock, probe: probe, work: .sleeps([.seconds(3), .seconds(3)])) }
        let relaunched = try await harness.relaunch(saving: try TestApp.busyTree(), timingOutExtensionsOn: clock)
        #expect(relaunched.report.extensions.map(\.result) == [.timedOut])
        #expect(clock.now == .init(offset: .seconds(5)))
        #expect(probe.recorded.isEmpty)
    }
}
