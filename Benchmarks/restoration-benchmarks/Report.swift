import Foundation

/// Everything one run measured; `--json` prints this.
struct Report: Codable, Sendable {
    var date: String
    var quick: Bool
    var processorCount: Int
    var workloads: [WorkloadInfo]
    var codecs: [CodecResult]
    var coordinator: [CoordinatorResult]
    var scale: [ScaleResult]
    var memory: [MemoryFigure]
    var targets: [TargetResult]

    struct WorkloadInfo: Codable, Sendable {
        var name: String
        var summary: String
        var screens: Int
        var jsonBytes: Int
    }
}

/// A target, and whether this run met it.
struct TargetResult: Codable, Sendable {
    var name: String
    var goal: String
    var measured: String
    var met: Bool
}

extension Report {
    /// The folder of the package's codec sources, found from this file's path.
    static let codecSourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/StateRestoration/Codec", isDirectory: true)

    /// The lines of every .swift file under ``codecSourceFolder``, as `wc -l` counts them (line
    /// feeds), comments and blank lines included; nil when the sources are not there.
    static func codecSourceLines() -> Int? {
        let folder = codecSourceFolder
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue,
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        else { return nil }
        var lines = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            guard let data = try? Data(contentsOf: file) else { return nil }
            lines += data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
        return lines
    }

    /// Computes the targets from the figures.
    static func targets(codecs: [CodecResult], coordinator: [CoordinatorResult], codecLines: Int?)
        -> [TargetResult]
    {
        var targets: [TargetResult] = []
        func codec(_ name: String, _ workload: String = "medium") -> CodecResult? {
            codecs.first { $0.codec == name && $0.workload == workload }
        }
        if let archive = codec("ArchiveEncoder") {
            targets.append(
                TargetResult(
                    name: "ArchiveEncoder vs JSONEncoder (medium)", goal: ">= 10x faster",
                    measured: "\(format(archive.encodeSpeedupOverJSON))x", met: archive.encodeSpeedupOverJSON >= 10))
            targets.append(
                TargetResult(
                    name: "ArchiveDecoder vs JSONDecoder (medium)", goal: ">= 7x faster",
                    measured: "\(format(archive.decodeSpeedupOverJSON))x", met: archive.decodeSpeedupOverJSON >= 7))
            targets.append(
                TargetResult(
                    name: "archive bytes vs JSON bytes (medium)", goal: "<= 60%",
                    measured: "\(format(archive.sizeRelativeToJSON * 100))%", met: archive.sizeRelativeToJSON <= 0.6))
        }
        targets.append(
            TargetResult(
                name: "codec source lines (Sources/StateRestoration/Codec)", goal: "<= 2,500",
                measured: codecLines.map(grouped) ?? "not found", met: codecLines.map { $0 <= 2500 } ?? false))
        for store in ["InMemoryStore", "FileStore"] {
            let full = coordinator.first { $0.name == "full save" && $0.store == store }
            let one = coordinator.first { $0.name == "one-changed save" && $0.store == store }
            let row = coordinator.first { $0.name == CoordinatorBenchmarks.inARowName && $0.store == store }
            guard let full, let one else { continue }
            let name = "one-changed save vs full save (\(full.workload), \(store))"
            guard let row else {
                // Without the series, the rewrites of a FileStore's archive file may not be counted.
                targets.append(
                    TargetResult(
                        name: name, goal: "<= 10%", measured: "no series of saves in a row was measured", met: false))
                continue
            }
            // Means, not medians: a FileStore rewrites the archive file once in many saves (when
            // its journal is full), and that save counts. The larger of two means: the
            // alternating blocks', and the series in a row's, which holds two such rewrites.
            let blocks = one.meanMicroseconds / full.meanMicroseconds
            let series = row.meanMicroseconds / full.meanMicroseconds
            let ratio = max(blocks, series)
            let medianRatio = one.medianMicroseconds / full.medianMicroseconds
            targets.append(
                TargetResult(
                    name: name, goal: "<= 10%",
                    measured: "\(format(ratio * 100))% of means (blocks \(format(blocks * 100))%,"
                        + " \(CoordinatorBenchmarks.savesInARow) in a row \(format(series * 100))%;"
                        + " \(format(medianRatio * 100))% of medians)",
                    met: ratio <= 0.1))
        }
        if let held = coordinator.first(where: { $0.name == "main actor held during save" }) {
            targets.append(
                TargetResult(
                    name: "main actor held during save (\(held.workload))", goal: "< 50 µs",
                    measured: "\(format(held.medianMicroseconds)) µs", met: held.medianMicroseconds < 50))
        }
        if let keystroke = coordinator.first(where: { $0.name == "keystroke through a model projection" }) {
            targets.append(
                TargetResult(
                    name: "keystroke through a model projection (\(keystroke.workload))",
                    goal: "< 1 ms (a 120 Hz frame is 8.3 ms)",
                    measured: "\(format(keystroke.medianMicroseconds)) µs", met: keystroke.medianMicroseconds < 1000))
        }
        return targets
    }

    /// The report as aligned text tables.
    var text: String {
        var lines: [String] = []
        lines.append("restoration-benchmarks \(quick ? "(quick) " : "")\(date), \(processorCount) processors")
        lines.append("")
        for workload in workloads {
            lines.append(
                "\(workload.name): \(workload.summary), \(workload.screens) screens, \(workload.jsonBytes) bytes of JSON"
            )
        }
        lines.append("")
        lines.append(
            "Codecs: median per operation; MB/s = that codec's bytes / time; xJSON = JSON's time / codec's time")
        var rows = [
            [
                "workload", "codec", "bytes", "/JSON", "encode µs", "enc MB/s", "enc xJSON", "decode µs", "dec MB/s",
                "dec xJSON",
            ]
        ]
        for result in codecs {
            rows.append([
                result.workload, result.codec, "\(result.bytes)", "\(format(result.sizeRelativeToJSON * 100))%",
                format(result.encodeNanoseconds / 1000), format(result.encodeMegabytesPerSecond),
                format(result.encodeSpeedupOverJSON), format(result.decodeNanoseconds / 1000),
                format(result.decodeMegabytesPerSecond), format(result.decodeSpeedupOverJSON),
            ])
        }
        lines += table(rows, leftAligned: 2)
        lines.append("")
        lines.append("Coordinator: median and mean of single runs")
        var coordinatorRows = [
            ["benchmark", "workload", "store", "median µs", "mean µs", "min µs", "max µs", "runs", "archive B"]
        ]
        for result in coordinator {
            coordinatorRows.append([
                result.name, result.workload, result.store, format(result.medianMicroseconds),
                format(result.meanMicroseconds), format(result.minimumMicroseconds), format(result.maximumMicroseconds),
                "\(result.samples)",
                result.archiveBytes.map { "\($0)" } ?? "",
            ])
        }
        lines += table(coordinatorRows, leftAligned: 3)
        lines.append("")
        lines.append(
            "Scale: save and launch on a FileStore, median of single runs; per screen = time / screens")
        var scaleRows = [
            [
                "screens", "tabs", "archive B", "save ms", "launch: handed over ms", "launch: finished ms",
                "save µs/screen", "launch µs/screen", "runs",
            ]
        ]
        for result in scale {
            scaleRows.append([
                grouped(result.screens), "\(result.tabs) x 25", grouped(result.archiveBytes),
                format(result.saveMicroseconds / 1000), format(result.launchHandoverMicroseconds / 1000),
                format(result.launchMicroseconds / 1000), format(result.saveMicrosecondsPerScreen),
                format(result.launchMicrosecondsPerScreen), "\(result.saveSamples)/\(result.launchSamples)",
            ])
        }
        lines += table(scaleRows, leftAligned: 2)
        lines.append("")
        if let first = memory.first {
            lines.append(
                "Peak memory of one operation, \(grouped(first.screens)) screens, each in a process of its own;"
                    + " archive \(grouped(first.archiveBytes)) bytes")
            var memoryRows = [["operation", "baseline B", "peak above baseline B", "x archive", "high-water mark"]]
            for figure in memory {
                memoryRows.append([
                    figure.operation, grouped(figure.baselineBytes),
                    figure.peakAboveBaselineBytes.map(grouped) ?? "hidden", figure.multipleOfArchive.map(format) ?? "-",
                    figure.peakWasReset ? "reset before" : "not reset",
                ])
            }
            lines += table(memoryRows, leftAligned: 1)
            lines.append("Method: \(first.method)")
            lines.append("")
        }
        lines.append("Targets")
        var targetRows = [["target", "goal", "measured", ""]]
        for target in targets {
            targetRows.append([target.name, target.goal, target.measured, target.met ? "met" : "MISSED"])
        }
        lines += table(targetRows, leftAligned: 4)
        return lines.joined(separator: "\n")
    }

    /// Pads the columns; the first `leftAligned` are left-aligned, the others right-aligned.
    private func table(_ rows: [[String]], leftAligned: Int) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                return column < leftAligned ? row[column] + padding : padding + row[column]
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}

/// `1,204,332`.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return value < 0 ? "-" + result : result
}
