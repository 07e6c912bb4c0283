import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a batch of seeds wrote in its child process, read back by the parent.
///
/// Each line begins with a tag and the seed:
/// - `chaos-begin <seed>` before the seed runs, then its plan, `chaos-plan <seed> <line>`;
/// - `chaos-log <seed> <line>` for what each step did, as it does it;
/// - `chaos-fail <seed> <line>` for a failure's message;
/// - `chaos-end <seed> <kills> <killed launches>` once the seed ran;
/// - `chaos-batch-end` once every seed of the batch ran.
///
/// The child appends the lines to a file, each group of lines in one unbuffered
/// write, and sends its standard error to another, so a trap in the library loses
/// none of them: the parent then knows the seed that began and did not end, and
/// reads the trap's message.
struct ChaosReport {
    /// A seed's lines.
    struct Seed {
        /// The plan, one line per step.
        var plan: [String] = []
        /// What each step did.
        var log: [String] = []
        /// The failure's message; empty when it passed.
        var failure: [String] = []
        /// Kills and killed launches, once it ended.
        var counts: (kills: Int, killedLaunches: Int)?
    }

    /// The seeds, in the order they began.
    private(set) var order: [UInt64] = []
    /// Each seed's lines.
    private(set) var seeds: [UInt64: Seed] = [:]
    /// Whether the batch ran to its end.
    private(set) var batchEnded = false

    /// Reads a batch's output.
    init(output: String) {
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            if words.first == "chaos-batch-end" { batchEnded = true }
            guard words.count >= 2, let seed = UInt64(words[1]) else { continue }
            let rest = words.count > 2 ? String(words[2]) : ""
            switch words[0] {
            case "chaos-begin":
                order.append(seed)
                seeds[seed] = Seed()
            case "chaos-plan": seeds[seed]?.plan.append(rest)
            case "chaos-log": seeds[seed]?.log.append(rest)
            case "chaos-fail": seeds[seed]?.failure.append(rest)
            case "chaos-end":
                let numbers = rest.split(separator: " ").compactMap { Int($0) }
                if numbers.count == 2 { seeds[seed]?.counts = (numbers[0], numbers[1]) }
            default: break
            }
        }
    }

    /// The seed that began and did not end: the one a trap stopped.
    var unfinishedSeed: UInt64? {
        order.last.flatMap { seeds[$0]?.counts == nil ? $0 : nil }
    }
}

extension ChaosReport {
    /// Writes a batch's lines in the child process.
    struct Writer {
        /// The file the lines go to.
        private let file: FileHandle

        /// Creates the file the lines go to, and another that takes the process's
        /// standard error.
        init(path: String, errors: String) throws {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            file = try FileHandle(forWritingTo: URL(filePath: path))
            let errorFile = try FileHandle(forWritingTo: URL(filePath: errors))
            dup2(errorFile.fileDescriptor, STDERR_FILENO)
        }

        /// Writes a seed's plan before it runs.
        func begin(_ plan: ChaosPlan) {
            write(["chaos-begin \(plan.seed)"] + plan.lines.map { "chaos-plan \(plan.seed) \($0)" })
        }

        /// Writes a line of a seed's log.
        func log(_ seed: UInt64, _ line: String) {
            write(["chaos-log \(seed) \(line)"])
        }

        /// Writes a seed's failure, if it failed, and its counts.
        func end(_ seed: UInt64, _ outcome: ChaosDriver.Outcome) {
            var lines = (outcome.failure ?? "").split(separator: "\n").map { "chaos-fail \(seed) \($0)" }
            lines.append("chaos-end \(seed) \(outcome.kills) \(outcome.killedLaunches)")
            write(lines)
        }

        /// Writes the end of a batch.
        func endBatch() {
            write(["chaos-batch-end"])
        }

        /// Writes lines to the file at once.
        private func write(_ lines: [String]) {
            file.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        }
    }
}
