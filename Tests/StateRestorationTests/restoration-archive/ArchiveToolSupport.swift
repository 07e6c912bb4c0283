import Foundation
import StateRestoration
import TestScreens
import Testing

/// The built `restoration-archive` executable, run as a child process.
///
/// `swift build --build-tests` and `swift test` put it in the directory of the test
/// binary; it is looked up from the running binary's path, and a missing tool fails
/// the test with a message saying how to build it.
enum ArchiveTool {
    /// What one run printed and how it ended.
    struct Run: CustomStringConvertible {
        var reason: Process.TerminationReason
        var status: Int32
        var standardOutput: String
        var standardError: String

        var outputLines: [String] {
            standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        var errorLines: [String] {
            standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        /// Whether the process exited (rather than died of a signal) with `status`.
        func exited(_ status: Int32) -> Bool { reason == .exit && self.status == status }

        var description: String {
            "exit reason \(reason == .exit ? "exit" : "signal") \(status)\nstdout:\n\(standardOutput)\nstderr:\n\(standardError)"
        }
    }

    struct NotBuilt: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "restoration-archive is not built next to the test binary (searched \(searched.joined(separator: ", "))); "
                + "build it with `swift build --build-tests`"
        }
    }

    /// The executable, found next to the running test binary.
    static func executable() throws -> URL {
        var starts: [URL] = []
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: link))
        }
        if let first = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: first).standardizedFileURL) }
        if let main = Bundle.main.executableURL { starts.append(main) }
        var searched: [String] = []
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {  // macOS nests the test binary in X.xctest/Contents/MacOS
                let candidate = directory.appendingPathComponent("restoration-archive")
                searched.append(directory.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw NotBuilt(searched: searched)
    }

    /// Runs the tool with `arguments`, standard input empty (or `input`), and collects its output.
    static func run(_ arguments: [String], input: FileHandle = .nullDevice) async throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("archive-tool-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        // Files rather than pipes: a child that writes a lot can never block on a full pipe.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try out.close()
        try err.close()
        return Run(
            reason: process.terminationReason, status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// A wish list shared by the shop's screens, with a nested state, so that diffs show dotted paths.
final class Wishlist: RestorableObject {
    static let typeKey: ScreenTypeKey = "wishlist"
    struct Filters: Codable, Sendable { var maxPrice: Int; var organic: Bool }
    struct State: Codable, Sendable { var items: [String]; var filters: Filters }

    let state: State

    init(items: [String] = ["oat milk", "rye bread"], maxPrice: Int = 5) {
        state = State(items: items, filters: Filters(maxPrice: maxPrice, organic: true))
    }

    func encodeRestorableState() async -> State { state }
    func decodeRestorableState(_ state: State) async {}
}

/// Real archives of the Shop app, written by a `RestorationCoordinator` into a `FileStore`
/// in a temporary directory.
struct ShopArchives {
    /// The save date of the fixture: 2026-11-22T10:10:38.250Z.
    static let savedAt = Date(timeIntervalSince1970: 1_795_342_238.25)

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func remove() { directory.remove() }

    /// Saves `tree` as the archive of `key` and returns its file and the save report.
    @discardableResult
    func save(
        _ tree: ScreenTree, key: StoreKey = .main, appVersion: String? = "4.2",
        metadata: [String: String] = ["region": "eu-west"],
        appState: RecordingDelegate.AppState? = .init(cartCount: 2, lastSync: "2026-11-21"),
        wishlist: Wishlist? = Wishlist(), savedAt: Date = ShopArchives.savedAt
    ) async throws -> (url: URL, report: SaveReport) {
        let store = FileStore(directory: directory.url)
        var delegate = RecordingDelegate(probe: Probe())
        delegate.metadata = metadata
        delegate.appState = appState
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: delegate,
            configuration: RestorationConfiguration(appVersion: appVersion, storeKey: key, now: { savedAt }))
        if let wishlist { await coordinator.register(wishlist, identifier: "wishlist") }
        let report = try await coordinator.save(tree)
        return (store.fileURL(for: key), report)
    }

    /// A file in the directory holding `bytes`.
    func write(_ bytes: Data, named name: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    /// Decodes an archive file's body, lets `change` edit it, and writes it back sealed
    /// with a correct checksum: a valid envelope around a body of one's choosing.
    func rewrite(_ url: URL, _ change: (inout RestorationArchive) throws -> Void) throws {
        let opened = try ArchiveEnvelope.open(try Data(contentsOf: url), supportedVersions: 1...1)
        var archive = try ArchiveDecoder().decode(RestorationArchive.self, from: opened.body)
        try change(&archive)
        try ArchiveEnvelope.seal(try ArchiveEncoder().encode(archive), formatVersion: 1).write(to: url)
    }
}

extension ArchivedNode {
    /// The node at a `/`-separated path below this one (`browse/search#0` from the root `tabs`).
    subscript(path: String) -> ArchivedNode? {
        get {
            var node = self
            for component in path.split(separator: "/") {
                guard let next = ((node.children ?? []) + (node.presented ?? [])).first(where: { $0.id == component })
                else { return nil }
                node = next
            }
            return node
        }
    }

    /// Edits the node at a `/`-separated path below this one.
    mutating func edit(_ path: ArraySlice<Substring>, _ change: (inout ArchivedNode) -> Void) {
        guard let first = path.first else { return change(&self) }
        if let index = children?.firstIndex(where: { $0.id == first }) {
            children?[index].edit(path.dropFirst(), change)
        } else if let index = presented?.firstIndex(where: { $0.id == first }) {
            presented?[index].edit(path.dropFirst(), change)
        }
    }
}
