import Foundation

/// The shop app running as a child process (``AppProcess``), seen from the
/// scripted session: commands go to its standard input, answers come back one
/// line at a time, each within a deadline.
final class ChildProcess {
    private let process: SystemCalls.SpawnedProcess
    private var buffered: [UInt8] = []
    /// Whether the process's standard input is still open.
    private var inputIsOpen = true

    /// How long an answer may take: generous, for a busy machine; reached only
    /// when something is wrong.
    private static let timeout = Duration.seconds(60)

    /// Starts this executable again in the hidden app mode on a storage directory.
    init(directory: URL) throws {
        process = try SystemCalls.spawn(Self.executable.path, arguments: ["--app-process", directory.path])
    }

    deinit {
        if inputIsOpen { SystemCalls.close(process.input) }
        SystemCalls.close(process.output)
    }

    /// The process's identifier.
    var processIdentifier: Int32 { process.id }

    /// This executable.
    static var executable: URL {
        if let path = Bundle.main.executablePath { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }

    /// Sends a command and returns the lines it answered with, up to `ok`.
    @discardableResult
    func command(_ line: String) throws -> [String] {
        try SystemCalls.writeLine(line, to: process.input)
        var answer: [String] = []
        while true {
            let received = try readLine()
            if received == "ok" { return answer }
            if received.hasPrefix("error ") { throw DemoError("the app refused `\(line)`: \(received.dropFirst(6))") }
            answer.append(received)
        }
    }

    /// The next line the process wrote.
    ///
    /// - Throws: ``DemoError`` when the process ends, or says nothing within the timeout.
    func readLine() throws -> String {
        let deadline = ContinuousClock.now + Self.timeout
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeFirst(newline + 1)
                return line
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw DemoError("the app process \(processIdentifier) said nothing for \(Self.timeout)")
            }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + 1)
            guard SystemCalls.waitForInput([process.output], timeoutMilliseconds: milliseconds) != .timedOut,
                let bytes = SystemCalls.readAvailable(process.output)
            else { continue }
            if bytes.isEmpty { throw DemoError("the app process \(processIdentifier) ended unexpectedly") }
            buffered += bytes
        }
    }

    /// Kills the process with SIGKILL and waits for it to end.
    ///
    /// - Returns: Whether it ended by that signal.
    func kill() throws -> Bool {
        try SystemCalls.killImmediately(processIdentifier)
        return try SystemCalls.waitForExit(processIdentifier) == .signaled(SystemCalls.killSignal)
    }

    /// Ends the process's input, so it quits, and waits for it.
    ///
    /// - Returns: How it ended.
    func finish() throws -> SystemCalls.Termination {
        SystemCalls.close(process.input)
        inputIsOpen = false
        return try SystemCalls.waitForExit(processIdentifier)
    }
}
