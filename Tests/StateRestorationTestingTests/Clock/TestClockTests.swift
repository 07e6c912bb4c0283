import StateRestorationTesting
import TestScreens
import Testing

@Suite struct TestClockTests {
    @Test("a sleeper wakes when the clock reaches its deadline, not before")
    func wakesAtDeadline() async throws {
        let clock = TestClock()
        let probe = Probe()
        let sleeper = Task {
            try await clock.sleep(for: .seconds(10))
            probe.record("woke")
        }
        await clock.waitForSleepers(1)
        #expect(clock.deadlines == [.init(offset: .seconds(10))])
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        #expect(probe.recorded.isEmpty)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(probe.recorded == ["woke"])
        #expect(clock.sleeperCount == 0)
    }

    @Test("a deadline already passed returns at once; advance(to:) never goes back")
    func pastDeadline() async throws {
        let clock = TestClock()
        clock.advance(to: .init(offset: .seconds(3)))
        clock.advance(to: .init(offset: .seconds(1)))
        #expect(clock.now == .init(offset: .seconds(3)))
        try await clock.sleep(until: .init(offset: .seconds(2)))
        #expect(clock.sleeperCount == 0)
    }

    @Test("cancelling a sleeper wakes it with CancellationError; sleepUntilCancelled outlasts any advance")
    func cancellation() async throws {
        let clock = TestClock()
        let hang = Task { try await clock.sleepUntilCancelled() }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(86_400 * 365 * 1000))
        #expect(clock.sleeperCount == 1)
        hang.cancel()
        await #expect(throws: CancellationError.self) { try await hang.value }
        #expect(clock.sleeperCount == 0)
    }
}
