import Foundation

/// `swift run -c release restoration-benchmarks [--quick] [--json]`
///
/// Measures the package's archive codec against Foundation's coders and a
/// hand-written floor on the same data, then saves and launches through the real
/// coordinator. Every codec's round trip and every coordinator benchmark's result
/// is checked once before anything is timed.
@main
@MainActor
struct RestorationBenchmarks {
    static func main() async {
        let arguments = Set(CommandLine.arguments.dropFirst())
        let known: Set = ["--quick", "--json", "--help"]
        if arguments.contains("--help") || !arguments.isSubset(of: known) {
            print("usage: restoration-benchmarks [--quick] [--json]")
            print("  --quick  few, short batches: a smoke run of a few seconds")
            print("  --json   print the figures as JSON instead of tables")
            exit(arguments.isSubset(of: known) ? 0 : 2)
        }
        let quick = arguments.contains("--quick")
        let json = arguments.contains("--json")
        do {
            let report = try await run(quick: quick)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
        } catch {
            FileHandle.standardError.write(Data("restoration-benchmarks: \(error)\n".utf8))
            exit(1)
        }
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static func run(quick: Bool) async throws -> Report {
        let started = ContinuousClock.now
        let harness = Harness(options: quick ? .quick : .full)
        let workloads = Workload.all
        let codecs = Codec.all()

        log("Checking every codec's round trip…")
        try CodecBenchmarks.verify(codecs, on: workloads)
        let json = Codec.json()
        let infos = try workloads.map {
            Report.WorkloadInfo(
                name: $0.name, summary: $0.summary, screens: $0.tree.screenCount,
                jsonBytes: try json.encode($0.tree).count)
        }

        log("Codecs…")
        let codecResults = try CodecBenchmarks(harness: harness, log: log).run(codecs, on: workloads)

        log("Coordinator…")
        let coordinator = CoordinatorBenchmarks(harness: harness, log: log)
        defer { coordinator.removeDirectory() }
        var coordinatorResults: [CoordinatorResult] = []
        for workload in [Workload.medium, Workload.large] {
            coordinatorResults += try await coordinator.saveAndLaunch(workload)
        }
        coordinatorResults += try await coordinator.incrementalSave(.large)
        coordinatorResults += try await coordinator.mainActorOccupancy(.medium, runs: quick ? 11 : 101)
        log("Done in \(format((ContinuousClock.now - started).nanoseconds / 1e9)) s.")

        return Report(
            date: Date().formatted(.iso8601), quick: quick,
            processorCount: ProcessInfo.processInfo.activeProcessorCount,
            workloads: infos, codecs: codecResults, coordinator: coordinatorResults,
            targets: Report.targets(codecs: codecResults, coordinator: coordinatorResults))
    }
}
