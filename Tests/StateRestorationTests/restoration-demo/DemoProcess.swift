import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `restoration-demo` executable, run as a child process of a test:
/// on a pseudo-terminal (as a user's terminal would run it) or with its output
/// into a pipe. Every wait reads the child's output with `poll` and a deadline;
/// nothing sleeps.
struct DemoProcess {
    let pid: pid_t
    /// The descriptor the child's output is read from: the pseudo-terminal's
    /// master side, or a pipe's read end.
    let output: Int32
    /// The replica side of the pseudo-terminal, held open by the test; nil for a pipe.
    let replica: Int32?
    /// Everything read from the child so far.
    private(set) var received: [UInt8] = []

    /// How long a wait may take before the test fails: generous, for a busy
    /// machine and sanitizer builds; reached only when something is wrong.
    static let timeout = Duration.seconds(90)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Finding the executable

    /// The `restoration-demo` executable built next to the test bundle.
    static func executable() throws -> URL {
        var directories: [URL] = []
        // Not Bundle.allBundles: it leaks on Linux, and CI runs the tests under LeakSanitizer.
        for bundle in [Bundle.main, Bundle(for: BundleMarker.self)] {
            directories.append(bundle.bundleURL)
            directories.append(bundle.bundleURL.deletingLastPathComponent())
            if let executable = bundle.executableURL { directories.append(executable.deletingLastPathComponent()) }
        }
        directories.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        for directory in directories {
            let candidate = directory.appendingPathComponent("restoration-demo")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let looked = Set(directories.map(\.path)).sorted().joined(separator: ", ")
        throw Failure(
            description:
                "restoration-demo is not built next to the test bundle (looked in \(looked)); "
                + "build it with `swift build --build-tests` before running the tests")
    }

    // MARK: Starting

    /// Starts the demo on a new pseudo-terminal, as the leader of a new session
    /// whose controlling terminal it is: keys written to ``output`` reach it as
    /// typed, and Ctrl-Z (byte 0x1A) makes the terminal send it SIGTSTP.
    ///
    /// - Parameters:
    ///   - arguments: The demo's arguments.
    ///   - program: The program to start instead of the demo (a shell, say).
    ///   - environment: Variables to set for it.
    static func onTerminal(
        _ arguments: [String], program: String? = nil, environment: [String: String] = [:]
    ) throws -> DemoProcess {
        let (master, replica, terminal) = try openTerminal()
        do {
            let pid = try spawn(program, arguments, environment: environment, newSession: true) { actions in
                // Opened after setsid: a session leader opening a terminal makes it its controlling terminal.
                posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
                posix_spawn_file_actions_adddup2(&actions, 0, 1)
                posix_spawn_file_actions_adddup2(&actions, 0, 2)
                posix_spawn_file_actions_addclose(&actions, master)
                posix_spawn_file_actions_addclose(&actions, replica)
            }
            // The test keeps the terminal's replica side open too, so reading the master side never
            // fails for want of an open replica before the child opens it or after it died.
            return DemoProcess(pid: pid, output: master, replica: replica)
        } catch {
            closeDescriptor(master)
            closeDescriptor(replica)
            throw error
        }
    }

    /// Opens a new pseudo-terminal.
    ///
    /// - Returns: Its master side, its replica side, and the replica's path.
    private static func openTerminal() throws -> (master: Int32, replica: Int32, path: String) {
        #if canImport(Darwin)
            let master = posix_openpt(O_RDWR | O_NOCTTY)
            guard master >= 0 else { throw Failure(description: "posix_openpt failed: \(errnoMessage)") }
            guard grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
                closeDescriptor(master)
                throw Failure(description: "cannot set up the pseudo-terminal: \(errnoMessage)")
            }
            let path = String(cString: name)
            let replica = open(path, O_RDWR | O_NOCTTY)
            guard replica >= 0 else {
                closeDescriptor(master)
                throw Failure(description: "cannot open \(path): \(errnoMessage)")
            }
            return (master, replica, path)
        #else
            // openpty rather than posix_openpt: Swift's Glibc module leaves out the XSI functions.
            var master: Int32 = -1
            var replica: Int32 = -1
            guard openpty(&master, &replica, nil, nil, nil) == 0 else {
                throw Failure(description: "openpty failed: \(errnoMessage)")
            }
            var name = [CChar](repeating: 0, count: 256)
            let named = ttyname_r(replica, &name, name.count)
            guard named == 0 else {
                closeDescriptor(master)
                closeDescriptor(replica)
                throw Failure(description: "ttyname_r failed: \(String(cString: strerror(named)))")
            }
            let terminal = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (master, replica, terminal)
        #endif
    }

    /// Starts the demo with its standard output and error into a pipe, and its
    /// standard input from `/dev/null`.
    static func withPipe(_ arguments: [String]) throws -> DemoProcess {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Failure(description: "pipe failed: \(errnoMessage)") }
        defer { closeDescriptor(ends[1]) }
        do {
            let pid = try spawn(nil, arguments, environment: [:], newSession: false) { actions in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
                posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
                posix_spawn_file_actions_addclose(&actions, ends[0])
                posix_spawn_file_actions_addclose(&actions, ends[1])
            }
            return DemoProcess(pid: pid, output: ends[0], replica: nil)
        } catch {
            closeDescriptor(ends[0])
            throw error
        }
    }

    #if canImport(Darwin)
        private typealias FileActions = posix_spawn_file_actions_t?
        private typealias Attributes = posix_spawnattr_t?
    #else
        private typealias FileActions = posix_spawn_file_actions_t
        private typealias Attributes = posix_spawnattr_t
    #endif

    private static func spawn(
        _ program: String?, _ arguments: [String], environment extra: [String: String], newSession: Bool,
        files: (inout FileActions) -> Void
    ) throws -> pid_t {
        let executable = try program ?? executable().path
        var actions = FileActions()
        var attributes = Attributes()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        files(&actions)
        // The test runner may ignore or block job-control signals; the demo gets the defaults.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTSTP, SIGCONT, SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGTTIN, SIGTTOU] {
            sigaddset(&defaults, signal)
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if newSession { flags |= setSessionFlag }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment.merge(extra) { $1 }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }

        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    // MARK: Talking to it

    /// Writes bytes to the child, as keys typed on its terminal.
    func type(_ keys: String) throws {
        let bytes = Array(keys.utf8)
        let written = bytes.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw Failure(description: "cannot type \(keys.debugDescription): \(errnoMessage)")
        }
    }

    /// The text of the latest screen the child drew (after its last clear-screen
    /// sequence), with the escape sequences removed.
    var screen: String {
        let clear = Array("\u{1B}[2J".utf8)
        var start = 0
        if received.count >= clear.count {
            for index in stride(from: received.count - clear.count, through: 0, by: -1)
            where received[index..<(index + clear.count)].elementsEqual(clear) {
                start = index + clear.count
                break
            }
        }
        return Self.plainText(received[start...])
    }

    /// Reads the child's output until its latest screen contains every text.
    ///
    /// - Throws: ``Failure`` with the screen so far, on timeout or if the child
    ///   ends its output first.
    mutating func waitForScreen(containing texts: [String], _ step: String) throws {
        _ = try readUntil(step) { $0.screen.containsAll(texts) ? true : nil }
    }

    /// Reads the child's output (so it never blocks writing) until `waitpid`
    /// reports that it stopped or ended.
    ///
    /// - Returns: The status `waitpid` reported.
    mutating func waitForStopOrExit(_ step: String) throws -> Int32 {
        try readUntil(step) { process in
            var status: Int32 = 0
            return waitpid(process.pid, &status, WNOHANG | WUNTRACED) == process.pid ? status : nil
        }
    }

    /// Kills the child with SIGKILL and reaps it.
    ///
    /// - Returns: The status `waitpid` reported.
    mutating func kill() throws -> Int32 {
        guard sendSignal(pid, SIGKILL) == 0 else { throw Failure(description: "kill failed: \(errnoMessage)") }
        return try readUntil("waiting for the killed process") { process in
            var status: Int32 = 0
            let result = waitpid(process.pid, &status, WNOHANG)
            return result == process.pid ? status : nil
        }
    }

    /// Closes the output descriptor.
    func close() {
        closeDescriptor(output)
        if let replica { closeDescriptor(replica) }
    }

    /// Reads output until `done` returns a value; `done` is asked before every read.
    private mutating func readUntil<T>(_ step: String, _ done: (DemoProcess) -> T?) throws -> T {
        let deadline = ContinuousClock.now + Self.timeout
        var ended = false
        while true {
            if let value = done(self) { return value }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw Failure(
                    description: "\(step): nothing after \(Self.timeout); the screen so far:\n\(screen)")
            }
            if ended {
                // The output ended: only waitpid can still change; poll it without reading.
                var entry = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&entry, 1, 20)
                continue
            }
            var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: min(left.components.seconds * 1000 + 1, 200))
            guard poll(&entry, 1, milliseconds) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 8192)
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count > 0 {
                received += buffer.prefix(count)
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                ended = true  // EOF on a pipe, EIO on a terminal whose other side is closed
            }
        }
    }

    /// Text without ANSI escape sequences and carriage returns.
    static func plainText(_ bytes: ArraySlice<UInt8>) -> String {
        var text: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x1B, index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "[") {
                index += 2
                while index < bytes.endIndex, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                index += 1
            } else {
                if bytes[index] != 0x0D { text.append(bytes[index]) }
                index += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static var errnoMessage: String { String(cString: strerror(errno)) }
    private var errnoMessage: String { Self.errnoMessage }
}

/// A class of the test bundle, for `Bundle(for:)`.
private final class BundleMarker {}

/// How a child process ended or stopped, from a `waitpid` status.
struct WaitStatus: CustomStringConvertible {
    let raw: Int32

    var stopSignal: Int32? { raw & 0xFF == 0x7F ? (raw >> 8) & 0xFF : nil }
    var exitCode: Int32? { raw & 0x7F == 0 ? (raw >> 8) & 0xFF : nil }
    var terminationSignal: Int32? {
        let signal = raw & 0x7F
        return signal != 0 && signal != 0x7F ? signal : nil
    }

    var description: String {
        if let stopSignal { return "stopped by signal \(stopSignal)" }
        if let exitCode { return "exited with status \(exitCode)" }
        if let terminationSignal { return "killed by signal \(terminationSignal)" }
        return "status \(raw)"
    }
}

extension String {
    func containsAll(_ texts: [String]) -> Bool {
        texts.allSatisfy { contains($0) }
    }
}

private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }
@discardableResult private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }

extension DemoProcess {
    /// Kills the child if it still runs and reaps it, and closes the output:
    /// the cleanup after a test, whatever happened in it.
    mutating func terminate() {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 {
            _ = sendSignal(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
        }
        close()
    }
}

#if canImport(Darwin)
    private let setSessionFlag = Int32(POSIX_SPAWN_SETSID)
#else
    /// glibc's `POSIX_SPAWN_SETSID`, which Swift's Glibc module hides behind `_GNU_SOURCE`.
    private let setSessionFlag: Int32 = 0x80
#endif
