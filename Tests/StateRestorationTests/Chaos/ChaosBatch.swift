import Foundation

/// How many seeds, how many steps, and the first seed, from the environment.
///
/// `Scripts/chaos.sh SEEDS [STEPS] [FIRST]` sets them for a long run. A seed always
/// draws the same steps; what the app's tasks do between two steps may differ from
/// run to run, so a replay may take a few tries.
struct ChaosSettings {
    /// The number of seeds: `STATE_RESTORATION_CHAOS_SEEDS`, 30 by default.
    let seeds: Int
    /// The steps per seed: `STATE_RESTORATION_CHAOS_STEPS`, 40 by default.
    let steps: Int
    /// The first seed: `STATE_RESTORATION_CHAOS_SEED`, 1 by default.
    let firstSeed: UInt64
    /// How many seeds one child process runs.
    static let batchSize = 50

    /// The seed after the last.
    var endSeed: UInt64 { firstSeed + UInt64(seeds) }

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
    /// The directory the report, the standard error and the seeds' store directories go to.
    var directory: String

    /// The file the child writes its report to.
    var reportPath: String { directory + "/report" }
    /// The file that takes the child's standard error.
    var errorsPath: String { directory + "/errors" }

    /// Runs the seeds, writing each plan before it runs and each failure to the
    /// report; exits with status 1 if any seed failed (a trap ends it with a signal).
    @MainActor
    func run() async throws {
        let report = try ChaosReport.Writer(path: reportPath, errors: errorsPath)
        var failed = false
        for seed in first..<first + UInt64(count) {
            let plan = ChaosPlan(seed: seed, stepCount: steps)
            report.begin(plan)
            // In the parent's directory, which goes at the end even when a trap ends this process.
            let outcome = await ChaosDriver.run(plan, in: URL(filePath: directory)) { report.log(seed, $0) }
            report.end(seed, outcome)
            if outcome.failure != nil { failed = true }
        }
        report.endBatch()
        if failed { exit(EXIT_FAILURE) }
    }
}
