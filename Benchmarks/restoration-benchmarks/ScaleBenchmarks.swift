import Foundation

// Saves and launches of ever larger hierarchies through the real coordinator, to show how
// the costs grow with the number of screens.

/// The figures of one hierarchy size.
struct ScaleResult: Codable, Sendable {
    var screens: Int
    var tabs: Int
    var archiveBytes: Int
    var saveMicroseconds: Double
    /// Until the host holds the restored tree.
    var launchHandoverMicroseconds: Double
    /// Until the restoration finished and the interface was reported.
    var launchMicroseconds: Double
    var saveSamples: Int
    var launchSamples: Int

    var saveMicrosecondsPerScreen: Double { saveMicroseconds / Double(screens) }
    var launchMicrosecondsPerScreen: Double { launchMicroseconds / Double(screens) }
}

extension CoordinatorBenchmarks {
    /// Tabs of 25 screens: 50, 500 and 5,000 screens.
    nonisolated static let scaleTabCounts = [2, 20, 200]

    /// (e) A full save and a launch, as in (a), of hierarchies of 50, 500 and 5,000 screens.
    func scale() async throws -> [ScaleResult] {
        var results: [ScaleResult] = []
        for tabs in Self.scaleTabCounts {
            let workload = Workload.scale(tabs: tabs)
            let rows = try await saveAndLaunch(workload)
            func row(_ name: String) throws -> CoordinatorResult {
                guard let row = rows.first(where: { $0.name == name }) else {
                    throw BenchmarkFailure("\(workload.name): no \(name) figure")
                }
                return row
            }
            let save = try row("save")
            let handover = try row("launch, tree handed over")
            let launch = try row("launch")
            results.append(
                ScaleResult(
                    screens: workload.tree.screenCount, tabs: tabs, archiveBytes: save.archiveBytes ?? 0,
                    saveMicroseconds: save.medianMicroseconds, launchHandoverMicroseconds: handover.medianMicroseconds,
                    launchMicroseconds: launch.medianMicroseconds, saveSamples: save.samples,
                    launchSamples: launch.samples))
        }
        return results
    }
}
