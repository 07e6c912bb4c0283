import Foundation

/// The figures of one codec on one workload.
struct CodecResult: Codable, Sendable {
    var workload: String
    var codec: String
    var bytes: Int
    var encodeNanoseconds: Double
    var decodeNanoseconds: Double
    /// Bytes of this codec's output (10^6 per MB) per second of encoding.
    var encodeMegabytesPerSecond: Double
    var decodeMegabytesPerSecond: Double
    /// JSON's encode time / this codec's encode time: how many times faster than JSONEncoder.
    var encodeSpeedupOverJSON: Double
    var decodeSpeedupOverJSON: Double
    /// This codec's bytes / JSON's bytes.
    var sizeRelativeToJSON: Double
}

/// Runs every codec on every workload, side by side.
struct CodecBenchmarks {
    var harness: Harness
    var log: (String) -> Void

    /// Checks that every codec decodes what it encoded into the same value.
    ///
    /// - Throws: ``BenchmarkFailure`` naming the codec and workload that failed.
    static func verify(_ codecs: [Codec], on workloads: [Workload]) throws(BenchmarkFailure) {
        for workload in workloads {
            for codec in codecs {
                let decoded: StateTree
                do {
                    decoded = try codec.decode(try codec.encode(workload.tree))
                } catch {
                    throw BenchmarkFailure(
                        "\(codec.name) failed its round trip on the \(workload.name) workload: \(error)")
                }
                guard decoded == workload.tree else {
                    throw BenchmarkFailure(
                        "\(codec.name) round trip on the \(workload.name) workload decoded a different value"
                            + " (\(difference(workload.tree, decoded)))")
                }
            }
        }
    }

    /// Where two trees first differ, for the failure message.
    static func difference(_ expected: StateTree, _ actual: StateTree) -> String {
        if expected.tabs.count != actual.tabs.count {
            return "\(actual.tabs.count) tabs, expected \(expected.tabs.count)"
        }
        for (tab, (left, right)) in zip(expected.tabs, actual.tabs).enumerated() where left != right {
            for (screen, (a, b)) in zip(left.screens, right.screens).enumerated() where a != b {
                return "tab \(tab) screen \(screen): expected \(a), got \(b)"
            }
            return "tab \(tab): expected \(left.identifier) \(left.title) \(left.badgeCount as Any), got "
                + "\(right.identifier) \(right.title) \(right.badgeCount as Any) with \(right.screens.count) screens"
        }
        return "selected tab \(actual.selectedTab), expected \(expected.selectedTab)"
    }

    func run(_ codecs: [Codec], on workloads: [Workload]) throws -> [CodecResult] {
        var results: [CodecResult] = []
        for workload in workloads {
            let tree = workload.tree
            let encoded = try codecs.map { try $0.encode(tree) }
            var operations: [() throws -> Void] = []
            for (codec, data) in zip(codecs, encoded) {
                operations.append { blackHole(try codec.encode(tree)) }
                operations.append { blackHole(try codec.decode(data)) }
            }
            let measurements = try harness.measure(operations)
            var rows: [(codec: Codec, bytes: Int, encode: Measurement, decode: Measurement)] = []
            for (index, (codec, data)) in zip(codecs, encoded).enumerated() {
                let encode = measurements[2 * index]
                let decode = measurements[2 * index + 1]
                log(
                    "  \(workload.name) \(codec.name): \(data.count) B, encode \(format(encode.medianNanoseconds / 1000)) µs"
                        + " (\(encode.batchCount) x \(encode.iterationsPerBatch)), decode"
                        + " \(format(decode.medianNanoseconds / 1000)) µs (\(decode.batchCount) x \(decode.iterationsPerBatch))"
                )
                rows.append((codec, data.count, encode, decode))
            }
            guard let json = rows.first(where: { $0.codec.name == Codec.jsonName }) else {
                throw BenchmarkFailure("the JSON baseline is missing from the codecs")
            }
            for row in rows {
                let encode = row.encode.medianNanoseconds
                let decode = row.decode.medianNanoseconds
                results.append(
                    CodecResult(
                        workload: workload.name, codec: row.codec.name, bytes: row.bytes, encodeNanoseconds: encode,
                        decodeNanoseconds: decode, encodeMegabytesPerSecond: Double(row.bytes) / encode * 1000,
                        decodeMegabytesPerSecond: Double(row.bytes) / decode * 1000,
                        encodeSpeedupOverJSON: json.encode.medianNanoseconds / encode,
                        decodeSpeedupOverJSON: json.decode.medianNanoseconds / decode,
                        sizeRelativeToJSON: Double(row.bytes) / Double(json.bytes)))
            }
        }
        return results
    }
}

/// A number with a precision that suits its size: 3 significant digits at least.
func format(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    let magnitude = abs(value)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
    return String(format: "%.\(decimals)f", value)
}
