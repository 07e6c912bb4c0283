// The timing harness: warm-up, batches sized to take a few milliseconds, the
// median of the batches, and a black hole the optimiser cannot see through.

/// Consumes a value so that the optimiser cannot drop the work that made it.
///
/// `@_optimize(none)` keeps the call and its argument even though this function
/// lives in the same module as the benchmarks (a separate module would do too).
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// How long and how often to measure.
struct HarnessOptions: Sendable {
    /// How long one batch should take; the iteration count per batch is sized to it.
    var batchTarget: Duration
    /// How many batches are timed; the median is reported.
    var batchCount: Int
    /// Untimed runs before calibration.
    var warmUpCount: Int
    /// Samples for the coordinator benchmarks, one operation each.
    var sampleCount: Int

    static let full = HarnessOptions(batchTarget: .milliseconds(5), batchCount: 21, warmUpCount: 3, sampleCount: 31)
    static let quick = HarnessOptions(batchTarget: .milliseconds(1), batchCount: 5, warmUpCount: 1, sampleCount: 5)
}

/// The result of timing one operation.
struct Measurement: Sendable {
    /// The median over batches of the time per operation, in nanoseconds.
    var medianNanoseconds: Double
    /// The fastest and slowest batch's time per operation, in nanoseconds.
    var minimumNanoseconds: Double
    var maximumNanoseconds: Double
    var iterationsPerBatch: Int
    var batchCount: Int
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// The median of some numbers (the mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

struct Harness {
    var options: HarnessOptions
    let clock = ContinuousClock()

    /// Times a synchronous operation: warm-up, then batches of as many iterations
    /// as fill `batchTarget`, and returns the median time per iteration.
    func measure<T>(_ operation: () throws -> T) rethrows -> Measurement {
        for _ in 0..<options.warmUpCount { blackHole(try operation()) }
        var iterations = 1
        while true {
            let elapsed = try clock.measure { for _ in 0..<iterations { blackHole(try operation()) } }
            if elapsed >= options.batchTarget || iterations >= 1 << 24 { break }
            let scale = elapsed.nanoseconds > 0 ? options.batchTarget.nanoseconds / elapsed.nanoseconds : 16
            iterations = max(iterations + 1, Int((Double(iterations) * min(scale * 1.1, 16)).rounded(.up)))
        }
        var perIteration: [Double] = []
        for _ in 0..<options.batchCount {
            let elapsed = try clock.measure { for _ in 0..<iterations { blackHole(try operation()) } }
            perIteration.append(elapsed.nanoseconds / Double(iterations))
        }
        return Measurement(
            medianNanoseconds: median(perIteration), minimumNanoseconds: perIteration.min() ?? .nan,
            maximumNanoseconds: perIteration.max() ?? .nan, iterationsPerBatch: iterations,
            batchCount: options.batchCount)
    }

    /// Times an asynchronous operation that takes long enough to be timed alone
    /// (tens of microseconds and more): warm-up, then `sampleCount` single runs,
    /// each preceded by an untimed `prepare`. Runs on the caller's actor.
    func measureAsync<Prepared, T>(
        isolation: isolated (any Actor)? = #isolation,
        prepare: () async throws -> Prepared, _ operation: (Prepared) async throws -> T
    ) async rethrows -> Measurement {
        for _ in 0..<options.warmUpCount { blackHole(try await operation(try await prepare())) }
        var samples: [Double] = []
        for _ in 0..<options.sampleCount {
            let prepared = try await prepare()
            let start = clock.now
            let result = try await operation(prepared)
            let elapsed = clock.now - start
            blackHole(result)
            samples.append(elapsed.nanoseconds)
        }
        return Measurement(
            medianNanoseconds: median(samples), minimumNanoseconds: samples.min() ?? .nan,
            maximumNanoseconds: samples.max() ?? .nan, iterationsPerBatch: 1, batchCount: options.sampleCount)
    }
}

/// A benchmark setup that failed; the run stops with this message.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
