import Foundation
import StateRestoration

/// `swift run -c release restoration-benchmarks [--quick] [--json]`; see Documentation/Benchmarks.md.
///
/// Measures the package's archive codec against Foundation's coders and a
/// hand-written floor on the same data, then saves and launches through the real
/// coordinator, also for 50 to 5,000 screens, and takes the peak memory of one save
/// and one launch of 5,000 screens in child processes. Every codec's round trip and
/// every coordinator benchmark's result is checked once before anything is timed.
@main
@MainActor
struct RestorationBenchmarks {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let flags = Set(arguments)
        let known: Set = ["--quick", "--json", "--help"]
        if arguments.count == 2, arguments[0] == "--profile" {
            exit(await profile(arguments[1]))
        }
        // The child process of the peak-memory figures: see MemoryBenchmarks.
        if arguments.count == 2, arguments[0] == "--memory" {
            exit(await MemoryBenchmarks.child(arguments[1]))
        }
        if flags.contains("--help") || !flags.isSubset(of: known) {
            print("usage: restoration-benchmarks [--quick] [--json]")
            print(
                "       restoration-benchmarks --profile archive-encode|archive-decode|screen-decodes|launch|keystroke"
                    + "|save-one-changed|save-one-changed-file")
            print("  --quick    few, short batches: a smoke run (about half a minute on 2 busy cores)")
            print("  --json     print the figures as JSON instead of tables")
            print("  --profile  only run one thing, untimed, for a profiler: ArchiveEncoder or ArchiveDecoder")
            print("             on the medium workload 200 times (valgrind --tool=callgrind), or its 24 screens'")
            print("             states from an archive each, one after the other (screen-decodes), or 3 launches,")
            print("             or 200 saves where one screen changed, of the large hierarchy on an InMemoryStore")
            print("             (on a FileStore in a temporary directory: save-one-changed-file), or 200")
            print("             keystrokes through a window model's projection into a draft of that hierarchy")
            print("             (perf record -g; valgrind stops on these here)")
            print("             PROFILE_N=n encodes, decodes (rounds of screens) or saves n times instead: the")
            print("             difference between two counts is the steady state, without the first call's")
            print("             one-time costs")
            exit(flags.isSubset(of: known) ? 0 : 2)
        }
        let quick = flags.contains("--quick")
        let json = flags.contains("--json")
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

    /// How many encodes, decodes or saves `--profile` runs after the first: `PROFILE_N`, or 200.
    static var profileCount: Int {
        ProcessInfo.processInfo.environment["PROFILE_N"].flatMap { Int($0) }.map { max($0, 0) } ?? 200
    }

    /// Runs one thing, untimed, so that a profiler sees little else; returns the exit status.
    static func profile(_ what: String) async -> Int32 {
        let codec = Codec.archive()
        let tree = Workload.medium.tree
        do {
            let data = try codec.encode(tree)
            guard try codec.decode(data) == tree else {
                log("ArchiveDecoder did not decode the medium workload it encoded")
                return 1
            }
            switch what {
            case "archive-encode":
                for _ in 0..<profileCount { blackHole(try codec.encode(tree)) }
            case "archive-decode":
                for _ in 0..<profileCount { blackHole(try codec.decode(data)) }
            case "screen-decodes":
                // Each screen's state of the medium tree in an archive of its own, decoded one
                // after the other, as a launch decodes them: their name tables differ.
                let states = tree.tabs.flatMap(\.screens).map(\.state)
                let archives = try states.map { try ArchiveEncoder().encode($0) }
                guard try archives.map({ try ArchiveDecoder().decode(ScreenState.self, from: $0) }) == states else {
                    log("ArchiveDecoder did not decode the medium workload's screens it encoded")
                    return 1
                }
                for _ in 0..<profileCount {
                    for archive in archives { blackHole(try ArchiveDecoder().decode(ScreenState.self, from: archive)) }
                }
            case "launch", "save-one-changed", "save-one-changed-file":
                let hierarchy = try Hierarchy(.large)
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "restoration-profile-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                let store: any RestorationStore =
                    what == "save-one-changed-file" ? FileStore(directory: directory) : InMemoryStore()
                let coordinator = RestorationCoordinator(screens: hierarchy.declaration, store: store)
                try await coordinator.save(hierarchy.tree)
                if what == "launch" {
                    for _ in 0..<3 {
                        let session = try await RestorationCoordinator(screens: hierarchy.declaration, store: store)
                            .launch()
                        guard session.tree == hierarchy.tree else {
                            throw BenchmarkFailure("the launch restored another tree")
                        }
                    }
                } else {
                    let trees = [try hierarchy.withOneScreenChanged(1), try hierarchy.withOneScreenChanged(2)]
                    for index in 0..<profileCount {
                        let report = try await coordinator.save(trees[index % 2])
                        guard report.encodedStateCount == 1 else {
                            throw BenchmarkFailure("a save encoded more than one state")
                        }
                    }
                }
            case "keystroke":
                let hierarchy = try Hierarchy(.large)
                let model = try RestorationModel(
                    coordinator: RestorationCoordinator(screens: hierarchy.declaration, store: InMemoryStore()))
                model.tree = hierarchy.tree
                guard let node = model.tree.nodes.first(where: { $0.node.screen is DraftScreen }),
                    let draft = model.state(of: DraftScreen.self, at: .node(node.id))
                else { throw BenchmarkFailure("no draft screen to type into") }
                for index in 0..<profileCount { draft.wrappedValue.cursorPosition = index }
            default:
                log(
                    "unknown profile \(what); use archive-encode, archive-decode, screen-decodes, launch,"
                        + " save-one-changed, save-one-changed-file or keystroke")
                return 2
            }
            return 0
        } catch {
            log("restoration-benchmarks: \(error)")
            return 1
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
        coordinatorResults.append(try coordinator.modelKeystroke(.large))

        log("Scale…")
        let scale = try await coordinator.scale()

        log("Peak memory, each operation in a process of its own…")
        var memory: [MemoryFigure] = []
        for operation in ["save", "launch"] {
            let figure = try MemoryBenchmarks.measureInChild(operation)
            log(
                "  \(operation): \(figure.peakAboveBaselineBytes.map(grouped) ?? "hidden") bytes above a baseline of"
                    + " \(grouped(figure.baselineBytes)), archive \(grouped(figure.archiveBytes)) bytes")
            memory.append(figure)
        }
        log("Done in \(format((ContinuousClock.now - started).nanoseconds / 1e9)) s.")

        return Report(
            date: Date().formatted(.iso8601), quick: quick,
            processorCount: ProcessInfo.processInfo.activeProcessorCount,
            workloads: infos, codecs: codecResults, coordinator: coordinatorResults, scale: scale, memory: memory,
            targets: Report.targets(
                codecs: codecResults, coordinator: coordinatorResults, codecLines: Report.codecSourceLines()))
    }
}
