import Foundation
import StateRestoration
import TestScreens
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `restoration-archive`'s usage text, usage errors, and bad files: one clear line and
/// exit 2 (exit 1 for `validate`'s failed checks), never a crash.
@Suite struct ArchiveToolCommandLineTests {
    @Test(
        "--help prints the usage with the four commands and exits 0",
        arguments: [["--help"], ["-h"], ["help"], ["diff", "--help"]])
    func help(_ arguments: [String]) async throws {
        let run = try await ArchiveTool.run(arguments)
        #expect(run.exited(0), "\(run)")
        #expect(run.standardOutput.hasPrefix("usage: restoration-archive <command> [options] FILE..."))
        for command in ["inspect FILE", "dump FILE --json", "validate FILE", "diff A B"] {
            #expect(run.standardOutput.contains("  \(command)"))
        }
        #expect(run.standardError.isEmpty)
    }

    @Test(
        "a usage error is one line on stderr and exit 2",
        arguments: [
            ([], "missing command"),
            (["frobnicate", "x"], "unknown command 'frobnicate' (commands: inspect, dump, validate, diff)"),
            (["--verbose"], "unknown option '--verbose'"),
            (["inspect"], "inspect needs one FILE; got none"),
            (["validate", "a", "b"], "validate needs one FILE; got 2: a b"),
            (["diff", "a"], "diff needs two files, A and B; got 1: a"),
            (["inspect", "--json", "a"], "unknown option '--json' for inspect"),
        ] as [([String], String)])
    func usageError(_ arguments: [String], _ message: String) async throws {
        let run = try await ArchiveTool.run(arguments)
        #expect(run.exited(2), "\(run)")
        #expect(run.standardOutput.isEmpty)
        #expect(run.errorLines == ["restoration-archive: \(message); see 'restoration-archive --help'"])
    }

    enum BadFile: String, CaseIterable, Sendable, Codable {
        case missing, directory, device, empty, truncated, randomBytes, unreadable

        /// Makes the bad file in `directory` and returns its path.
        func make(in archives: ShopArchives, from archive: Data) throws -> String {
            let url = archives.directory.url.appendingPathComponent("bad-\(rawValue).restoration")
            switch self {
            case .missing:
                break
            case .directory:
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            case .device:
                return "/dev/zero"  // endless: the tool must not try to read it
            case .empty:
                try Data().write(to: url)
            case .truncated:
                try archive.prefix(archive.count - 40).write(to: url)
            case .randomBytes:
                var generator = SplitMix64(state: 42)
                try Data((0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
            case .unreadable:
                try archive.write(to: url)
                try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: url.path)
            }
            return url.path
        }

        /// The one line's text after the tool's name.
        func message(_ path: String) -> String {
            switch self {
            case .missing: "cannot read \(path): no such file"
            case .directory: "cannot read \(path): is a directory"
            case .device: "cannot read \(path): not a regular file"
            case .unreadable: "cannot read \(path): permission denied"
            case .empty: "\(path): truncated: the file has 0 bytes; a header needs 24"
            case .truncated: "\(path): truncated: the header records a "
            case .randomBytes: "\(path): not a restoration archive: bad magic "
            }
        }

        /// Whether `validate` judges the file (exit 1) rather than failing to read it (exit 2).
        var isJudgedByValidate: Bool { self == .empty || self == .truncated || self == .randomBytes }
    }

    @Test(
        "a bad file gives one clear line and exit 2, or one failed check and exit 1 for validate, never a crash",
        arguments: ["inspect", "dump", "validate", "diff"], BadFile.allCases)
    func badFile(_ command: String, _ bad: BadFile) async throws {
        guard bad == .unreadable && TestSupport.isRoot else { return try await Self.check(command, bad) }
        // Root reads any file: a child process gives up root, makes the unreadable file and runs
        // the tool, which inherits its user (its issues reach this test; a step that throws fails it).
        await #expect(processExitsWith: .success) { [command = command as String, bad = bad as BadFile] in
            try TestSupport.becomeNobody()
            try await Self.check(command, bad)
        }
    }

    static func check(_ command: String, _ bad: BadFile) async throws {
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (good, _) = try await archives.save(try Shop.busyTree())
        let path = try bad.make(in: archives, from: try Data(contentsOf: good))
        let arguments = command == "diff" ? [command, good.path, path] : [command, path]

        let run = try await ArchiveTool.run(arguments)
        #expect(run.reason == .exit, "\(run)")
        if command == "validate" && bad.isJudgedByValidate {
            #expect(run.status == 1, "\(run)")
            #expect(run.outputLines.count == 1, "\(run)")
            #expect(run.standardError.isEmpty)
        } else {
            #expect(run.status == 2, "\(run)")
            #expect(run.standardOutput.isEmpty, "\(run)")
            #expect(run.errorLines.count == 1, "\(run)")
            #expect(run.errorLines.first?.hasPrefix("restoration-archive: \(bad.message(path))") == true, "\(run)")
        }
    }
}
