import Foundation
import Testing

/// How many seeds, how many steps, and the first seed, from the environment.
struct ChaosSettings {
    /// The number of seeds: `STATE_RESTORATION_CHAOS_SEEDS`, 30 by default.
    let seeds: Int
    /// The steps per seed: `STATE_RESTORATION_CHAOS_STEPS`, 40 by default.
    let steps: Int
    /// The first seed: `STATE_RESTORATION_CHAOS_SEED`, 1 by default.
    let firstSeed: UInt64
    /// How many seeds one child process runs.
    static let batchSize = 50

    /// Reads the settings from an environment.
    init(environment: [String: String]) {
        seeds = environment["STATE_RESTORATION_CHAOS_SEEDS"].flatMap { Int($0) } ?? 30
        steps = environment["STATE_RESTORATION_CHAOS_STEPS"].flatMap { Int($0) } ?? 40
        firstSeed = environment["STATE_RESTORATION_CHAOS_SEED"].flatMap { UInt64($0) } ?? 1
    }

    /// The command that replays one seed.
    func replay(_ seed: UInt64) -> String {
        "STATE_RESTORATION_CHAOS_SEED=\(seed) STATE_RESTORATION_CHAOS_SEEDS=1 STATE_RESTORATION_CHAOS_STEPS=\(steps) "
            + "swift test --filter ChaosTests"
    }
}

/// A batch of seeds that a child process runs.
struct ChaosBatch: Codable, Sendable {
    /// The first seed.
    var first: UInt64
    /// How many seeds.
    var count: Int
    /// The steps per seed.
    var steps: Int
    /// The directory the report and the standard error go to.
    var directory: String

    /// Runs the seeds, writing each plan before it runs and each failure to the
    /// report; exits with status 1 if any seed failed (a trap ends it with a signal).
    @MainActor
    func run() async throws {
        let report = try ChaosReport.Writer(path: directory + "/report", errors: directory + "/errors")
        var failed = false
        for seed in first..<first + UInt64(count) {
            let plan = ChaosPlan(seed: seed, stepCount: steps)
            report.begin(plan)
            let outcome = await ChaosDriver.run(plan) { report.log(seed, $0) }
            report.end(seed, outcome)
            if outcome.failure != nil { failed = true }
        }
        report.endBatch()
        if failed { exit(EXIT_FAILURE) }
    }
}

@Suite struct ChaosTests {
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
        @Test("Random edits, phases, saves and kills never restore an older tree, nor report a crash that was none")
        func randomRuns() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let settings = ChaosSettings(environment: ProcessInfo.processInfo.environment)
            let end = settings.firstSeed + UInt64(settings.seeds)
            var next = settings.firstSeed
            var seedsRun = 0
            var kills = 0
            var killedLaunches = 0
            var failed: [UInt64] = []
            while next < end {
                let count = Int(min(UInt64(ChaosSettings.batchSize), end - next))
                let path = directory.url.path
                let batch = ChaosBatch(first: next, count: count, steps: settings.steps, directory: path)
                await #expect(processExitsWith: .success) { [batch = batch as ChaosBatch] in try await batch.run() }
                let report = ChaosReport(output: Self.read(path + "/report"))
                for seed in report.order {
                    guard let lines = report.seeds[seed] else { continue }
                    seedsRun += 1
                    kills += lines.counts?.kills ?? 0
                    killedLaunches += lines.counts?.killedLaunches ?? 0
                    if !lines.failure.isEmpty {
                        failed.append(seed)
                        Issue.record(Comment(rawValue: Self.describe(seed, lines, settings, lines.failure)))
                    }
                }
                if report.batchEnded {
                    next += UInt64(count)
                } else if let trapped = report.unfinishedSeed, let lines = report.seeds[trapped] {
                    failed.append(trapped)
                    let errors = Self.read(path + "/errors").split(separator: "\n").prefix(6).map(String.init)
                    let message = ["the process ended while it ran; its standard error begins:"]
                    Issue.record(Comment(rawValue: Self.describe(trapped, lines, settings, message + errors)))
                    next = trapped + 1
                } else {
                    let errors = Self.read(path + "/errors")
                    Issue.record("the child process ended before it began seed \(next); its standard error: \(errors)")
                    return
                }
            }
            let failures = failed.isEmpty ? "none failed" : "failed: \(failed.map(String.init).joined(separator: ", "))"
            print(
                "chaos: \(seedsRun) seeds × \(settings.steps) steps from seed \(settings.firstSeed), "
                    + "\(kills) kills, \(killedLaunches) launches killed; \(failures)")
        }
    #endif

    /// A file's text; empty when there is none.
    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// A failed seed's message, the replay command, and its plan.
    static func describe(_ seed: UInt64, _ lines: ChaosReport.Seed, _ settings: ChaosSettings, _ what: [String])
        -> String
    {
        (["chaos seed \(seed) failed; replay with:", settings.replay(seed)] + what + ["plan:"]
            + lines.plan.map { "  \($0)" } + ["what the steps did:"] + lines.log.map { "  \($0)" })
            .joined(separator: "\n")
    }
}
