import Foundation

/// `restoration-demo` without arguments: the shop app runs in a child process,
/// the demo uses it as a user would, sends it to the background (it saves),
/// kills it with SIGKILL, starts a new process that restores, and prints the two
/// hierarchies side by side with the relaunch's log.
///
/// The compared part holds no times or process identifiers, so it is the same
/// at every run; the log's durations and the identifiers vary.
enum ScriptedSession {
    /// Runs the session and prints it.
    ///
    /// - Returns: The exit status: 0 when the relaunch restored exactly what was saved.
    static func run() throws -> Int32 {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("restoration-demo-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        SystemCalls.ignoreBrokenPipes()

        print("restoration-demo: an app's state surviving the death of its process\n")
        let first = try ChildProcess(directory: directory)
        _ = try readLaunch(of: first)
        print("1. The shop app starts in process \(first.processIdentifier). The demo presses keys in it:")
        for step in ScriptStep.session {
            for command in step.commands { try first.command(command) }
            print("     " + step.keys.padding(toLength: 26, withPad: " ", startingAt: 0) + step.effect)
        }

        let background = try first.command("background")
        let before = Hierarchy(background)
        guard let saved = background.last(where: { $0.hasPrefix("saved ") })?.split(separator: " ", maxSplits: 3),
            saved.count == 4
        else { throw DemoError("the app did not say that its save returned") }
        print("2. It goes to the background: the save returned (\(saved[1]) nodes, \(saved[2]) bytes, \(saved[3])).")

        guard try first.kill() else { throw DemoError("process \(first.processIdentifier) did not end by SIGKILL") }
        print("3. kill -KILL \(first.processIdentifier): the process ends at once; none of its code runs again.")

        let relaunchStart = ContinuousClock.now
        let second = try ChildProcess(directory: directory)
        let (log, outcome) = try readLaunch(of: second)
        let relaunchTime = ContinuousClock.now - relaunchStart
        let after = Hierarchy(try second.command("show"))
        let status = try second.finish()
        print("4. A new process, \(second.processIdentifier), launches on the same directory: \(outcome).\n")

        let columns = SideBySide(left: before.lines, right: after.lines)
        let differences = columns.differenceCount + SideBySide(left: before.full, right: after.full).differenceCount
        for line in columns.lines(leftTitle: "before the kill", rightTitle: "after the relaunch") {
            print("  " + line)
        }
        print(
            "  \(max(before.lines.count, after.lines.count)) lines, \(columns.differenceCount) differ (≠ marks a line that differs)"
        )
        print("\nThe relaunch's log (StateRestoration's events; durations vary from run to run):")
        for line in foldedLog(log) { print("  " + line) }
        print("  (process started and screens restored in \(relaunchTime.demoMilliseconds))\n")

        guard outcome == "restored", status == .exited(0), differences == 0 else {
            if differences > 0 { printFullDifferences(before: before, after: after) }
            print("FAILED: the relaunch \(outcome), its process \(status), \(differences) lines differ.")
            return 1
        }
        print("Same screens, same state: the user is back where they left off.")
        return 0
    }

    /// The hierarchy a process wrote: its short lines and its full description.
    private struct Hierarchy {
        var lines: [String] = []
        var full: [String] = []

        init(_ answer: [String]) {
            for line in answer {
                if line.hasPrefix("line ") { lines.append(String(line.dropFirst(5))) }
                if line.hasPrefix("full ") { full.append(String(line.dropFirst(5))) }
            }
        }
    }

    /// Reads a launching process's log up to `ready`.
    ///
    /// - Returns: The log events, as `<level> <event>`, and the launch's outcome.
    private static func readLaunch(of process: ChildProcess) throws -> (log: [String], outcome: String) {
        var log: [String] = []
        while true {
            let line = try process.readLine()
            if line.hasPrefix("log ") { log.append(String(line.dropFirst(4))) }
            if line.hasPrefix("ready ") { return (log, String(line.split(separator: " ").last ?? "")) }
        }
    }

    /// The log's info and warning events as they are, with the debug events (one
    /// per restored screen) folded into one line.
    private static func foldedLog(_ log: [String]) -> [String] {
        var lines: [String] = []
        var restored: [String] = []
        for entry in log {
            let parts = entry.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            if parts[0] == "debug" {
                // "launch screen-restored tabs/shop/search#0: restored"
                let words = parts[1].split(separator: " ")
                if words.count >= 3 { restored.append(String(words[2].dropLast())) }
                continue
            }
            if parts[1].hasPrefix("launch finished"), !restored.isEmpty {
                lines.append(
                    "launch screen-restored (\(restored.count) debug events): "
                        + restored.map(lastComponent).joined(separator: ", "))
            }
            lines.append(String(parts[1]))
        }
        return lines
    }

    /// `tabs/shop/product#2/compose` → `compose`.
    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func printFullDifferences(before: Hierarchy, after: Hierarchy) {
        print("In full (ScreenTree.description):")
        for line in SideBySide(left: before.full, right: after.full).lines(leftTitle: "before", rightTitle: "after") {
            print("  " + line)
        }
    }
}
