import Foundation

/// The shop app running as a child process (``AppProcess``), seen from the
/// scripted session: commands go to its standard input, answers come back one
/// line at a time, each within a deadline.
final class ChildProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// How long an answer may take: generous, for a busy machine; reached only
    /// when something is wrong.
    private static let timeout = Duration.seconds(60)

    /// Starts this executable again in the hidden app mode on a storage directory.
    init(directory: URL) throws {
        process.executableURL = Self.executable
        process.arguments = ["--app-process", directory.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// The process's identifier.
    var processIdentifier: Int32 { process.processIdentifier }

    /// This executable.
    static var executable: URL {
        if let path = Bundle.main.executablePath { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }

    /// Sends one command line.
    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Sends a command and returns the lines it answered with, up to `ok`.
    @discardableResult
    func command(_ line: String) throws -> [String] {
        try send(line)
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
        let descriptor = output.fileHandleForReading.fileDescriptor
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
            guard SystemCalls.waitForInput([descriptor], timeoutMilliseconds: milliseconds) != .timedOut,
                let bytes = SystemCalls.readAvailable(descriptor)
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
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SystemCalls.killSignal
    }

    /// Ends the process's input, so it quits, and waits for it.
    ///
    /// - Returns: Its exit status.
    func finish() throws -> Int32 {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
