import Foundation
import StateRestoration
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few system calls the store tests need, and temporary directories.
enum TestSupport {
    /// Whether the tests run as root, who can write into a directory without write permission.
    static var isRoot: Bool { geteuid() == 0 }

    /// The user and group ids of `nobody` on Linux and the BSDs.
    static let nobody: UInt32 = 65534

    /// Gives up root for good: the supplementary groups, then the group, then the user (in that
    /// order: after the user, the others can no longer be changed). For a child process that
    /// must see permissions as an app does.
    ///
    /// - Throws: `POSIXError` if a step fails.
    static func becomeNobody() throws {
        guard setgroups(0, nil) == 0, setgid(nobody) == 0, setuid(nobody) == 0 else {
            throw POSIXError(POSIXError.Code(rawValue: errno) ?? .EPERM)
        }
        // The umask was inherited from the moment this process started, maybe while a test had
        // set a strict one (`FileStoreTests.privateModes`): as nobody, this process must be able
        // to use the directories and files it makes.
        umask(0o022)
        // In a coverage build the processes this one starts would write their profiles where
        // root's go, fail, and say so on their standard error, which the tests read. (Those
        // profiles are not merged into the coverage report.)
        setenv("LLVM_PROFILE_FILE", NSTemporaryDirectory() + "state-restoration-nobody-%p.profraw", 1)
    }

    /// The id of this process.
    static var processID: Int32 { getpid() }

    /// The id of this process's parent, a process that is certainly running.
    static var parentProcessID: Int32 { getppid() }

    /// Sets the process's umask, runs `body`, and restores the previous umask.
    static func withUmask<Result>(_ mask: Int, _ body: () throws -> Result) rethrows -> Result {
        let previous = umask(mode_t(mask))
        defer { umask(previous) }
        return try body()
    }

    /// The permission bits of a file or directory, such as `0o600`.
    static func permissions(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    /// Sets the permission bits of a file or directory.
    static func setPermissions(_ mode: Int, of path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// The id of a process that has exited (and been reaped), so that no process has it; `nil`
    /// where tests cannot start processes.
    static func exitedProcessID() throws -> Int32? {
        #if os(macOS) || os(Linux)
            let process = Process()
            process.executableURL = URL(filePath: "/bin/sh")
            process.arguments = ["-c", "exit 0"]
            try process.run()
            process.waitUntilExit()
            return process.processIdentifier
        #else
            return nil
        #endif
    }

    /// Runs `body` with a new, empty directory (mode `0700`) that is deleted afterwards, even if
    /// the test made parts of it read-only.
    static func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        return try body(directory)
    }

    /// The `async` form of ``withTemporaryDirectory(_:)``.
    static func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        return try await body(directory)
    }

    /// A directory's path without the trailing slash, as stores and their errors spell it.
    static func path(of directory: URL) -> String {
        let path = directory.path(percentEncoded: false)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The names of the files in a directory, sorted.
    static func fileNames(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false)).sorted()
    }

    private static func makeTemporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "StoreTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        // Exactly 0700 whatever the umask, which another test may have changed.
        try setPermissions(0o700, of: directory.path(percentEncoded: false))
        return directory
    }

    private static func removeTemporaryDirectory(_ directory: URL) {
        let path = directory.path(percentEncoded: false)
        // Give back write permission that tests took away, so that everything can be deleted.
        try? setPermissions(0o700, of: path)
        if let enumerator = FileManager.default.enumerator(atPath: path) {
            for case let name as String in enumerator {
                let item = path + "/" + name
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: item, isDirectory: &isDirectory), isDirectory.boolValue {
                    try? setPermissions(0o700, of: item)
                }
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

extension StoreKey {
    /// The key of the crash-loop marker a coordinator keeps beside `key`'s archive while a
    /// launch restores it.
    static func marker(_ key: StoreKey) -> StoreKey { key.restorationMarker }
}
