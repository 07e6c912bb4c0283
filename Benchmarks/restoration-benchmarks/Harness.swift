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
    /// At most this many batches (or samples) are timed; the median is reported.
    var batchCount: Int
    /// At least this many, even when they overrun `budget`.
    var minimumBatchCount: Int
    /// Roughly how long one measurement may take; slow operations get fewer batches.
    var budget: Duration
    /// Untimed runs before calibration (one only, for operations slower than 50 ms).
    var warmUpCount: Int

    static let full = HarnessOptions(
        batchTarget: .milliseconds(5), batchCount: 31, minimumBatchCount: 5, budget: .seconds(2), warmUpCount: 3)
    static let quick = HarnessOptions(
        batchTarget: .milliseconds(1), batchCount: 5, minimumBatchCount: 3, budget: .milliseconds(200),
        warmUpCount: 1)

    /// How many batches of `duration` fit the budget, within the bounds.
    func batches(of duration: Duration) -> Int {
        let fitting = duration > .zero ? Int(budget.nanoseconds / duration.nanoseconds) : batchCount
        return min(batchCount, max(minimumBatchCount, fitting))
    }
}

/// The result of timing one operation.
struct Measurement: Sendable {
    /// The median over batches of the time per operation, in nanoseconds.
    var medianNanoseconds: Double
    /// The mean over batches: unlike the median, it counts the rare slow operation (such as a
    /// save that rewrites the archive file instead of appending to its journal).
    var meanNanoseconds: Double
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

/// The mean of some numbers.
func mean(_ values: [Double]) -> Double {
    values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
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

    /// Times synchronous operations side by side: each is warmed up and given as
    /// many iterations per batch as fill `batchTarget`; then rounds run one batch
    /// of each operation in turn, so that a load on the machine that comes and
    /// goes falls on all of them alike. Returns each one's median time per iteration.
    func measure(_ operations: [() throws -> Void]) throws -> [Measurement] {
        var iterations: [Int] = []
        var roundTime = Duration.zero
        for operation in operations {
            let first = try clock.measure { try operation() }
            if first < .milliseconds(50) {
                for _ in 1..<max(options.warmUpCount, 1) { try operation() }
            }
            var count = 1
            var elapsed = try clock.measure { try operation() }
            while elapsed < options.batchTarget && count < 1 << 24 {
                let scale = elapsed > .zero ? options.batchTarget.nanoseconds / elapsed.nanoseconds : 16
                count = max(count + 1, Int((Double(count) * min(scale * 1.1, 16)).rounded(.up)))
                elapsed = try clock.measure { for _ in 0..<count { try operation() } }
            }
            iterations.append(count)
            roundTime += elapsed
        }
        let rounds = options.batches(of: roundTime / operations.count)
        var perIteration = Array(repeating: [Double](), count: operations.count)
        for _ in 0..<rounds {
            for (index, operation) in operations.enumerated() {
                let count = iterations[index]
                let elapsed = try clock.measure { for _ in 0..<count { try operation() } }
                perIteration[index].append(elapsed.nanoseconds / Double(count))
            }
        }
        return perIteration.indices.map { index in
            let samples = perIteration[index]
            return Measurement(
                medianNanoseconds: median(samples), meanNanoseconds: mean(samples),
                minimumNanoseconds: samples.min() ?? .nan,
                maximumNanoseconds: samples.max() ?? .nan, iterationsPerBatch: iterations[index],
                batchCount: samples.count)
        }
    }

    /// Times an asynchronous operation that takes long enough to be timed alone
    /// (tens of microseconds and more): warm-up, then single runs (as many as fit
    /// the budget, within the bounds), each preceded by an untimed `prepare`.
    /// Runs on the caller's actor.
    func measureAsync<Prepared, T>(
        isolation: isolated (any Actor)? = #isolation,
        prepare: () async throws -> Prepared, _ operation: (Prepared) async throws -> T
    ) async rethrows -> Measurement {
        var samples: [Double] = []
        var count = options.batchCount
        var warmUp = options.warmUpCount
        while samples.count < count {
            let prepared = try await prepare()
            let start = clock.now
            let result = try await operation(prepared)
            let elapsed = clock.now - start
            blackHole(result)
            if warmUp > 0 {
                warmUp = elapsed < .milliseconds(50) ? warmUp - 1 : 0
                if warmUp == 0 { count = options.batches(of: elapsed) }
                continue
            }
            samples.append(elapsed.nanoseconds)
        }
        return Measurement(
            medianNanoseconds: median(samples), meanNanoseconds: mean(samples),
            minimumNanoseconds: samples.min() ?? .nan,
            maximumNanoseconds: samples.max() ?? .nan, iterationsPerBatch: 1, batchCount: samples.count)
    }
}

extension Harness {
    /// Times `count` runs of an asynchronous operation one after the other, each prepared
    /// untimed, with no warm-up and none left out: for costs that come once in many runs, which
    /// the mean of such a series counts at their real rate.
    func measureSeries<T>(
        isolation: isolated (any Actor)? = #isolation, count: Int,
        _ operation: (prepare: () async throws -> T, run: (T) async throws -> Void)
    ) async throws -> Measurement {
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let prepared = try await operation.prepare()
            let start = clock.now
            try await operation.run(prepared)
            samples.append((clock.now - start).nanoseconds)
            withExtendedLifetime(prepared) {}
        }
        return Measurement(
            medianNanoseconds: median(samples), meanNanoseconds: mean(samples),
            minimumNanoseconds: samples.min() ?? .nan, maximumNanoseconds: samples.max() ?? .nan,
            iterationsPerBatch: 1, batchCount: samples.count)
    }

    /// Times two asynchronous operations in alternating blocks: `block` runs of the first,
    /// then `block` runs of the second, and again, so that a load on the machine that comes and
    /// goes falls on both alike (their ratio is what matters). The first run of each block is
    /// not counted, so each operation is timed after runs of its own kind, as a series of it
    /// alone would be; those first runs, each right after the other operation, are returned
    /// too, as the third and fourth measurements. Each run is preceded by its untimed
    /// `prepare`, and the value it prepared is released before the next run.
    func measureAlternating<A, B>(
        isolation: isolated (any Actor)? = #isolation, block: Int = 4,
        _ first: (prepare: () async throws -> A, run: (A) async throws -> Void),
        _ second: (prepare: () async throws -> B, run: (B) async throws -> Void)
    ) async throws -> (
        first: Measurement, second: Measurement, firstAfterSwitch: Measurement, secondAfterSwitch: Measurement
    ) {
        var samples: [[Double]] = [[], [], [], []]
        func time<T>(_ operation: (prepare: () async throws -> T, run: (T) async throws -> Void)) async throws
            -> Duration
        {
            let prepared = try await operation.prepare()
            let start = clock.now
            try await operation.run(prepared)
            let elapsed = clock.now - start
            withExtendedLifetime(prepared) {}
            return elapsed
        }
        var rounds = options.batchCount
        var warmUp = true
        var completed = 0
        while completed < rounds {
            var slowest = Duration.zero
            for index in 0..<block {
                let elapsed = try await time(first)
                slowest = max(slowest, elapsed)
                samples[index == 0 ? 2 : 0].append(elapsed.nanoseconds)
            }
            for index in 0..<block {
                let elapsed = try await time(second)
                slowest = max(slowest, elapsed)
                samples[index == 0 ? 3 : 1].append(elapsed.nanoseconds)
            }
            if warmUp {
                warmUp = false
                samples = [[], [], [], []]
                // Rounds of `block - 1` counted runs each, as many as fit the budget.
                rounds = max(options.batches(of: slowest) / max(block - 1, 1), 2)
                continue
            }
            completed += 1
        }
        func measurement(_ samples: [Double]) -> Measurement {
            Measurement(
                medianNanoseconds: median(samples), meanNanoseconds: mean(samples),
                minimumNanoseconds: samples.min() ?? .nan, maximumNanoseconds: samples.max() ?? .nan,
                iterationsPerBatch: 1, batchCount: samples.count)
        }
        return (measurement(samples[0]), measurement(samples[1]), measurement(samples[2]), measurement(samples[3]))
    }
}

/// A benchmark setup that failed; the run stops with this message.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
