import Foundation
import StateRestoration

// The peak memory of one save and one launch, each measured in a process of its own (the
// benchmark run again with `--memory save|launch`), so that nothing else in the process
// disturbs the figure.

/// What a `--memory` child process measured.
struct MemoryFigure: Codable, Sendable {
    /// `save` or `launch`.
    var operation: String
    var screens: Int
    /// The archive's size in bytes.
    var archiveBytes: Int
    /// The memory in use just before the operation.
    var baselineBytes: Int
    /// The high-water mark just before the operation, after the reset.
    var peakBeforeBytes: Int
    /// The high-water mark after the operation, less the baseline; nil when an earlier
    /// high-water mark, which could not be reset, hides it.
    var peakAboveBaselineBytes: Int?
    /// Whether the high-water mark was reset to the memory in use before the operation (to
    /// within 1 MiB).
    var peakWasReset: Bool
    var method: String

    /// The peak above the baseline divided by the archive's size.
    var multipleOfArchive: Double? {
        peakAboveBaselineBytes.map { Double($0) / Double(archiveBytes) }
    }
}

enum MemoryBenchmarks {
    /// The hierarchy measured: 200 tabs of 25 screens.
    static let tabs = 200

    typealias Coordinator = RestorationCoordinator<DefaultRestorationDelegate>

    /// Runs this executable again with `--memory operation` and reads the figure it prints.
    static func measureInChild(_ operation: String) throws -> MemoryFigure {
        let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--memory", operation]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure("the --memory \(operation) child exited with \(process.terminationStatus)")
        }
        do {
            return try JSONDecoder().decode(MemoryFigure.self, from: data)
        } catch {
            throw BenchmarkFailure(
                "the --memory \(operation) child printed \(String(decoding: data, as: UTF8.self)): \(error)")
        }
    }

    /// The child's part: builds the hierarchy, records the memory in use, runs one save or one
    /// launch through a coordinator on a `FileStore` in a temporary directory, and prints the
    /// figure as JSON. Returns the exit status.
    @MainActor
    static func child(_ operation: String) async -> Int32 {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "restoration-memory-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileStore(directory: directory)
        do {
            let figure: MemoryFigure
            switch operation {
            case "save":
                let hierarchy = try Hierarchy(.scale(tabs: tabs))
                let coordinator = Coordinator(screens: hierarchy.declaration, store: store)
                ProcessMemory.trimHeap()
                let sample = Sample()
                let report = try await coordinator.save(hierarchy.tree)
                guard report.encodedStateCount == hierarchy.screenCount else {
                    throw BenchmarkFailure("the save encoded \(report.encodedStateCount) states")
                }
                figure = sample.figure(
                    operation, screens: hierarchy.screenCount, archiveBytes: report.byteCount)
            case "launch":
                // The archive is written first; everything but the declaration is dropped.
                let (screens, archiveBytes, declaration) = try await { () async throws in
                    let hierarchy = try Hierarchy(.scale(tabs: tabs))
                    let report = try await Coordinator(screens: hierarchy.declaration, store: store)
                        .save(hierarchy.tree)
                    return (hierarchy.screenCount, report.byteCount, hierarchy.declaration)
                }()
                let coordinator = Coordinator(screens: declaration, store: store)
                ProcessMemory.trimHeap()
                let sample = Sample()
                let session = try await coordinator.launch()
                let measured = sample.figure(operation, screens: screens, archiveBytes: archiveBytes)
                guard session.report.outcome == .restored, session.tree.restorablePaths.count == 1 + tabs + screens
                else {
                    throw BenchmarkFailure("the launch did not restore the saved tree: \(session.report.outcome)")
                }
                figure = measured
            default:
                RestorationBenchmarks.log("unknown operation \(operation); use save or launch")
                return 2
            }
            print(String(decoding: try JSONEncoder().encode(figure), as: UTF8.self))
            return 0
        } catch {
            RestorationBenchmarks.log("restoration-benchmarks --memory \(operation): \(error)")
            return 1
        }
    }

    /// The memory in use, taken after the high-water mark is reset to it.
    private struct Sample {
        var reset: Bool
        var baseline: Int
        var peakBefore: Int

        init() {
            reset = ProcessMemory.resetPeak()
            baseline = ProcessMemory.current() ?? 0
            peakBefore = ProcessMemory.peak() ?? 0
        }

        func figure(_ operation: String, screens: Int, archiveBytes: Int) -> MemoryFigure {
            let peakAfter = ProcessMemory.peak() ?? 0
            // A mark above the baseline before the operation, which the operation did not raise,
            // says nothing about the operation's own peak.
            let hidden = peakBefore > baseline && peakAfter <= peakBefore
            return MemoryFigure(
                operation: operation, screens: screens, archiveBytes: archiveBytes, baselineBytes: baseline,
                peakBeforeBytes: peakBefore,
                peakAboveBaselineBytes: hidden ? nil : max(peakAfter - baseline, 0),
                // The kernel's counts of resident pages are approximate by some pages per processor.
                peakWasReset: reset && peakBefore <= baseline + (1 << 20), method: ProcessMemory.method)
        }
    }
}
