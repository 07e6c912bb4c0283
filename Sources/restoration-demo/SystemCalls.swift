import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every termios, signal and process call the demo makes.
///
/// This is the only file of the demo that imports the C library, so it is the
/// only file to check when porting.
enum SystemCalls {
    // MARK: Terminal

    /// Whether standard input and output are both terminals.
    static var isInteractiveTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The terminal's settings before ``enterRawMode()``, restored by ``leaveRawMode()``.
    private static let savedSettings = Mutex<termios?>(nil)

    /// Turns off line editing and echo on standard input, so every key arrives as
    /// it is pressed, but keeps signals: Ctrl-Z still suspends (SIGTSTP) and
    /// Ctrl-C still interrupts (SIGINT).
    static func enterRawMode() throws(DemoError) {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { throw DemoError("tcgetattr failed: \(lastError)") }
        savedSettings.withLock { if $0 == nil { $0 = settings } }
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        settings.c_iflag &= ~tcflag_t(ICRNL | IXON)
        withUnsafeMutableBytes(of: &settings.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) == 0 else {
            throw DemoError("tcsetattr failed: \(lastError)")
        }
    }

    /// Puts back the settings ``enterRawMode()`` found.
    static func leaveRawMode() {
        guard var settings = savedSettings.withLock({ $0 }) else { return }
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    }

    /// Writes all of `text` to standard output, unbuffered.
    static func write(_ text: String) {
        writeAll(Array(text.utf8), to: STDOUT_FILENO)
    }

    // MARK: Reading with a deadline

    /// What ``waitForInput(_:timeoutMilliseconds:)`` found.
    enum Readiness: Equatable {
        /// The descriptor at this index of the list can be read (or is at its end).
        case readable(Int)
        /// Nothing arrived in time.
        case timedOut
    }

    /// Waits until one of `descriptors` can be read, or the timeout passes
    /// (`-1`: no timeout). A signal that interrupts the wait ends it as a timeout,
    /// so the caller looks at its signal pipe.
    static func waitForInput(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> Readiness {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
        guard count > 0 else { return .timedOut }
        let index = entries.firstIndex { $0.revents != 0 }
        return index.map { .readable($0) } ?? .timedOut
    }

    /// Reads what is available from a descriptor: an empty array at its end,
    /// `nil` when nothing is available or the read was interrupted.
    static func readAvailable(_ descriptor: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? nil : [] }
        return Array(buffer.prefix(count))
    }

    // MARK: Signals

    /// The write end of the pipe the signal handler writes each signal's number
    /// to; -1 until ``installSignalPipe()``. An atomic, so the handler may read it.
    private static let signalPipeWriteEnd = Atomic<Int32>(-1)

    /// Writes the signal's number to the signal pipe: the only work that is safe
    /// in a signal handler. The main loop does the rest.
    private static let forwardSignal: @convention(c) (Int32) -> Void = { signal in
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = writeBytes(SystemCalls.signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
        errno = saved
    }

    /// The signals the interactive app handles: suspend, continue, resize, quit.
    static let handledSignals: [Int32] = [SIGTSTP, SIGCONT, SIGWINCH, SIGINT, SIGTERM, SIGHUP]

    /// Creates the signal pipe and sends ``handledSignals`` to it.
    ///
    /// - Returns: The pipe's read end; each byte read is a signal's number.
    static func installSignalPipe() throws(DemoError) -> Int32 {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw DemoError("pipe failed: \(lastError)") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteEnd.store(ends[1], ordering: .relaxed)
        for signalNumber in handledSignals { _ = signal(signalNumber, forwardSignal) }
        return ends[0]
    }

    /// Stops the process as the terminal's suspend would, and returns once it is
    /// continued (`fg`).
    ///
    /// Restores SIGTSTP's default action, re-raises it, and installs the handler
    /// again when continued. POSIX discards SIGTSTP in an orphaned process group
    /// (one whose parent is in another session, as when a test harness starts the
    /// app with `setsid` on a pseudo-terminal): the process then stops with
    /// SIGSTOP instead, so Ctrl-Z still stops it.
    ///
    /// The signal is raised on the calling thread with SIGTSTP unblocked there:
    /// the loop may run on a thread of Swift's concurrency pool, which blocks
    /// most signals, and a signal sent to the whole process could instead reach
    /// the handler once it is installed again.
    static func suspendProcess() {
        var suspend = sigset_t()
        var previous = sigset_t()
        sigemptyset(&suspend)
        sigaddset(&suspend, SIGTSTP)
        _ = signal(SIGTSTP, SIG_DFL)
        pthread_sigmask(SIG_UNBLOCK, &suspend, &previous)
        _ = raise(isProcessGroupOrphaned ? SIGSTOP : SIGTSTP)  // returns once continued
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        _ = signal(SIGTSTP, forwardSignal)
    }

    /// Whether the kernel would discard a SIGTSTP for this process: its parent is
    /// in another session (a job-control shell's children are in its session).
    private static var isProcessGroupOrphaned: Bool {
        getsid(getppid()) != getsid(0)
    }

    // MARK: Processes

    /// Kills a process with SIGKILL: no handler runs, nothing is saved.
    static func killImmediately(_ process: Int32) throws(DemoError) {
        guard kill(process, SIGKILL) == 0 else { throw DemoError("kill(\(process), SIGKILL) failed: \(lastError)") }
    }

    /// The signal number of SIGKILL, for messages.
    static let killSignal = SIGKILL

    // MARK: Helpers

    /// The message of the current `errno`.
    private static var lastError: String { String(cString: strerror(errno)) }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { writeBytes(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += written
        }
    }
}

/// `write(2)`, under a name that does not clash with ``SystemCalls/write(_:)``.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
        Musl.write(descriptor, bytes, count)
    #elseif canImport(Darwin)
        Darwin.write(descriptor, bytes, count)
    #endif
}

extension SystemCalls {
    /// Ignores SIGPIPE, so that writing to a child process that died is an error
    /// rather than the end of this process.
    static func ignoreBrokenPipes() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}

extension SystemCalls {
    /// SIGTSTP: the terminal's suspend (Ctrl-Z).
    static let suspendSignal = SIGTSTP
    /// SIGCONT: the process was continued after a stop.
    static let continueSignal = SIGCONT
    /// SIGWINCH: the terminal changed size.
    static let resizeSignal = SIGWINCH
}

// MARK: Child processes

extension SystemCalls {
    /// A child process started by ``spawn(_:arguments:)``, with a pipe to its
    /// standard input and one from its standard output.
    struct SpawnedProcess {
        let id: Int32
        /// Where to write the child's standard input.
        let input: Int32
        /// Where to read the child's standard output.
        let output: Int32
    }

    /// How a child process ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    #if canImport(Darwin)
        private typealias FileActions = posix_spawn_file_actions_t?
    #else
        private typealias FileActions = posix_spawn_file_actions_t
    #endif

    /// Starts a program with pipes to its standard input and from its standard
    /// output; its standard error is this process's. Foundation's `Process` would
    /// do, but leaks under LeakSanitizer on Linux, and CI runs the tests under it.
    static func spawn(_ executable: String, arguments: [String]) throws(DemoError) -> SpawnedProcess {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { throw DemoError("pipe failed: \(lastError)") }
        guard pipe(&fromChild) == 0 else {
            toChild.forEach { close($0) }
            throw DemoError("pipe failed: \(lastError)")
        }
        // Close-on-exec, so that a later child does not inherit this one's pipes;
        // dup2 clears the flag on the child's own standard input and output.
        for end in toChild + fromChild { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = FileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(toChild[0])
        close(fromChild[1])
        guard result == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw DemoError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        return SpawnedProcess(id: pid, input: toChild[1], output: fromChild[0])
    }

    /// Writes a whole line to a descriptor.
    static func writeLine(_ line: String, to descriptor: Int32) throws(DemoError) {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { writeBytes(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw DemoError("cannot write to the child process: \(lastError)")
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Closes a descriptor.
    static func close(_ descriptor: Int32) {
        _ = closeDescriptor(descriptor)
    }

    /// Waits for a child process to end, and reaps it.
    static func waitForExit(_ process: Int32) throws(DemoError) -> Termination {
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 {
            guard errno == EINTR else { throw DemoError("waitpid(\(process)) failed: \(lastError)") }
        }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
}

/// `close(2)`, under a name that does not clash with ``SystemCalls/close(_:)``.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #elseif canImport(Musl)
        Musl.close(descriptor)
    #elseif canImport(Darwin)
        Darwin.close(descriptor)
    #endif
}
