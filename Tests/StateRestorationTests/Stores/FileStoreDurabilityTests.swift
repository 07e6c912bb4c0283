import Foundation
import StateRestoration
import Synchronization
import TestScreens
import Testing

/// The exact system calls with which a `FileStore` changes its files, recorded after each real
/// call: a flush left out of a write is a missing line here, which no read of the files shows.
@Suite struct FileStoreDurabilityTests {
    /// A time that names rejected copies `…-20231114T221320.250Z.restoration`.
    static let instant = Date(timeIntervalSince1970: 1_700_000_000.25)

    /// A store in `directory` whose calls `recorder` records.
    static func store(_ directory: URL, _ recorder: CallRecorder) -> FileStore {
        FileStore(directory: directory, failure: nil, recorder: { recorder.record($0) }, now: { instant })
    }

    /// The calls of a whole-file write of `name` in the directory, through its temporary file.
    static func atomicWrite(of name: String, temporary: String = "tmp1") -> [String] {
        [
            "create \(temporary)", "chmod \(temporary)", "write \(temporary)", "fsync \(temporary)",
            "close \(temporary)", "rename \(temporary) \(name)", "fsync-directory .",
        ]
    }

    @Test("A new archive: temporary file created, written, flushed, renamed over its name, directory flushed")
    func newArchive() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let recorder = CallRecorder()
            try Self.store(directory, recorder).write(Data("state".utf8), to: .main)
            #expect(recorder.steps(relativeTo: directory) == Self.atomicWrite(of: "main.restoration"))
            #expect(recorder.temporaryNames.allSatisfy(Self.isTemporaryName(forKey: "main")), "\(recorder.calls)")
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
        }
    }

    @Test("A first write into a missing directory makes it and each missing parent, flushing each parent")
    func missingDirectory() throws {
        try TestSupport.withTemporaryDirectory { root in
            let recorder = CallRecorder()
            let directory = root.appending(path: "a/b", directoryHint: .isDirectory)
            try Self.store(directory, recorder).write(Data("state".utf8), to: .main)
            #expect(
                recorder.steps(relativeTo: root)
                    == ["mkdir a", "fsync-directory .", "mkdir a/b", "fsync-directory a"]
                    + [
                        "create a/b/tmp1", "chmod a/b/tmp1", "write a/b/tmp1", "fsync a/b/tmp1", "close a/b/tmp1",
                        "rename a/b/tmp1 a/b/main.restoration", "fsync-directory a/b",
                    ])
        }
    }

    @Test("An overwrite, even of one changed byte by the store that wrote the archive, is the same whole-file write")
    func overwrite() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let recorder = CallRecorder()
            let store = Self.store(directory, recorder)
            let archive = Data(repeating: 7, count: 100_000)
            try store.write(archive, to: .main)
            _ = try store.read(.main)
            var changed = archive
            changed[50_000] = 8
            recorder.clear()
            try store.write(changed, to: .main)
            #expect(recorder.steps(relativeTo: directory) == Self.atomicWrite(of: "main.restoration"))
            #expect(try FileStore(directory: directory).read(.main) == changed)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
        }
    }

    @Test("A reject renames the archive to its rejected copy and flushes the directory; no archive, no call")
    func reject() throws {
        try TestSupport.withTemporaryDirectory { directory in
            try FileStore(directory: directory).write(Data("bad".utf8), to: .main)
            let recorder = CallRecorder()
            let store = Self.store(directory, recorder)
            _ = try store.reject(.main, reason: "bad magic")
            let copy = "main.rejected-bad-magic-20231114T221320.250Z.restoration"
            #expect(recorder.steps(relativeTo: directory) == ["rename main.restoration \(copy)", "fsync-directory ."])

            recorder.clear()
            #expect(try store.reject(.main, reason: "bad magic") == nil)
            #expect(recorder.calls.isEmpty)
        }
    }

    @Test("A remove unlinks the archive and flushes the directory; no archive, no call")
    func remove() throws {
        try TestSupport.withTemporaryDirectory { directory in
            try FileStore(directory: directory).write(Data("state".utf8), to: .main)
            let recorder = CallRecorder()
            let store = Self.store(directory, recorder)
            try store.remove(.main)
            #expect(recorder.steps(relativeTo: directory) == ["unlink main.restoration", "fsync-directory ."])

            recorder.clear()
            try store.remove(.main)
            #expect(recorder.calls.isEmpty)
        }
    }

    @Test("A launch writes its restoration marker as durably as an archive, and removes it durably when done")
    func restorationMarker() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let saved = try Shop.busyTree()
        try await RestorationCoordinator(screens: Shop.declaration(), store: FileStore(directory: directory.url))
            .save(saved)
        let recorder = CallRecorder()
        let store = Self.store(directory.url, recorder)
        let session = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(session.tree == saved)
        #expect(
            recorder.steps(relativeTo: directory.url)
                == Self.atomicWrite(of: "main.restoring.restoration")
                + ["unlink main.restoring.restoration", "fsync-directory ."])
        #expect(recorder.temporaryNames.allSatisfy(Self.isTemporaryName(forKey: "main.restoring")))
    }

    /// Whether a file name is that of a temporary file for a key, `.<key>.restoration.<pid>.<hex>.tmp`.
    static func isTemporaryName(forKey key: String) -> (String) -> Bool {
        { name in
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            return name.hasPrefix("." + key + ".restoration.") && name.hasSuffix(".tmp") && parts.count >= 5
                && Int32(parts[parts.count - 3]) != nil && parts[parts.count - 2].count == 16
        }
    }
}

/// Records the calls of a `FileStore`, in order.
final class CallRecorder: Sendable {
    private let recorded = Mutex<[FileStore.Call]>([])

    /// The calls recorded so far.
    var calls: [FileStore.Call] { recorded.withLock { $0 } }

    func record(_ call: FileStore.Call) {
        recorded.withLock { $0.append(call) }
    }

    func clear() {
        recorded.withLock { $0.removeAll() }
    }

    /// The names of the temporary files in the calls (those ending in `.tmp`), without their folders.
    var temporaryNames: [String] {
        calls.flatMap { words(of: $0).dropFirst() }.filter { $0.hasSuffix(".tmp") }
            .map { String($0.split(separator: "/").last ?? "") }
    }

    /// The calls as text, with paths relative to `base` (`.` for `base` itself), and each
    /// temporary file named `tmp1`, `tmp2`, … in the order of its first call.
    func steps(relativeTo base: URL) -> [String] {
        let prefix = TestSupport.path(of: base)
        var temporaries: [String: String] = [:]
        return calls.map { call in
            let words = words(of: call).enumerated().map { index, word -> String in
                guard index > 0 else { return word }
                var path = word
                if word == prefix {
                    path = "."
                } else if word.hasPrefix(prefix + "/") {
                    path = String(word.dropFirst(prefix.count + 1))
                }
                if path.hasSuffix(".tmp") {
                    let folder = path.split(separator: "/").dropLast().joined(separator: "/")
                    let name = temporaries[word] ?? "tmp\(temporaries.count + 1)"
                    temporaries[word] = name
                    path = folder.isEmpty ? name : folder + "/" + name
                }
                return path
            }
            return words.joined(separator: " ")
        }
    }

    private func words(of call: FileStore.Call) -> [String] {
        call.description.split(separator: " ").map(String.init)
    }
}
