import Foundation
import Testing

/// The chaos test: random steps on the mail app, in child processes; a failed seed is an issue that says how to replay it.
@Suite struct ChaosTests {
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
        /// Runs the seeds batch by batch; after a trap, goes on from the seed after it.
        @Test("Random edits, phases, saves and kills never restore an older tree, nor report a crash that was none")
        func randomRuns() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let settings = ChaosSettings(environment: ProcessInfo.processInfo.environment)
            var tally = Tally(settings: settings)
            var next = settings.firstSeed
            while next < settings.endSeed {
                let count = Int(min(UInt64(ChaosSettings.batchSize), settings.endSeed - next))
                let batch = ChaosBatch(first: next, count: count, steps: settings.steps, directory: directory.url.path)
                try? FileManager.default.removeItem(atPath: batch.reportPath)
                try? FileManager.default.removeItem(atPath: batch.errorsPath)
                let exit = await #expect(processExitsWith: .success) { [batch = batch as ChaosBatch] in
                    try await batch.run()
                }
                guard let resume = tally.read(batch, exitedCleanly: exit != nil) else { return }
                next = resume
            }
            print(tally.summary)
        }
    #endif
}

extension ChaosTests {
    /// The seeds run so far, their kills, and those that failed.
    struct Tally {
        /// The settings of the run.
        let settings: ChaosSettings
        /// How many seeds ran.
        private var seeds = 0
        /// How many kills they made.
        private var kills = 0
        /// How many of those landed while a launch was not yet checked.
        private var killedLaunches = 0
        /// The seeds that failed.
        private var failed: [UInt64] = []

        /// Creates an empty tally.
        init(settings: ChaosSettings) { self.settings = settings }

        /// Reads what a batch's child wrote, records an issue for each failed seed (and
        /// for a child that ran every seed but exited otherwise, a sanitizer's report, say),
        /// and returns the seed to go on from; nil when the child began none.
        mutating func read(_ batch: ChaosBatch, exitedCleanly: Bool) -> UInt64? {
            let report = ChaosReport(output: Self.text(of: batch.reportPath))
            for seed in report.order {
                guard let lines = report.seeds[seed] else { continue }
                seeds += 1
                kills += lines.counts?.kills ?? 0
                killedLaunches += lines.counts?.killedLaunches ?? 0
                if !lines.failure.isEmpty { record(seed, lines, lines.failure) }
            }
            if report.batchEnded {
                if !exitedCleanly && failed.isEmpty {
                    let errors = Self.text(of: batch.errorsPath).split(separator: "\n").prefix(60)
                    let last = batch.first + UInt64(batch.count) - 1
                    let message: String =
                        "the child process ran seeds \(batch.first) to \(last) but did not exit with success; "
                        + "its standard error begins:\n" + errors.joined(separator: "\n")
                    Issue.record(Comment(rawValue: message))
                }
                return batch.first + UInt64(batch.count)
            }
            guard let trapped = report.unfinishedSeed, let lines = report.seeds[trapped] else {
                let errors = Self.text(of: batch.errorsPath)
                Issue.record(
                    "the child process ended before it began seed \(batch.first); its standard error: \(errors)")
                return nil
            }
            let errors = Self.text(of: batch.errorsPath).split(separator: "\n").prefix(6).map(String.init)
            record(trapped, lines, ["the process ended while it ran; its standard error begins:"] + errors)
            return trapped + 1
        }

        /// `chaos: 30 seeds × 40 steps from seed 1, 120 kills, 50 launches killed; none failed`.
        var summary: String {
            let failures = failed.isEmpty ? "none failed" : "failed: \(failed.map(String.init).joined(separator: ", "))"
            return "chaos: \(seeds) seeds × \(settings.steps) steps from seed \(settings.firstSeed), \(kills) kills, "
                + "\(killedLaunches) launches killed; \(failures)"
        }

        /// Records a failed seed's issue: what failed, the replay command, its plan and what its steps did.
        private mutating func record(_ seed: UInt64, _ lines: ChaosReport.Seed, _ what: [String]) {
            failed.append(seed)
            let text =
                ["chaos seed \(seed) failed; replay with:", settings.replay(seed)] + what + ["plan:"]
                + lines.plan.map { "  \($0)" } + ["what the steps did:"] + lines.log.map { "  \($0)" }
            Issue.record(Comment(rawValue: text.joined(separator: "\n")))
        }

        /// A file's text; empty when there is none.
        private static func text(of path: String) -> String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
    }
}
