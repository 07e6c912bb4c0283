import Foundation
import StateRestoration
import TestScreens
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct FileStoreTests {
    /// `<directory>/<name>` as a path.
    func path(_ directory: URL, _ name: String) -> String { Self.path(directory, name) }

    static func path(_ directory: URL, _ name: String) -> String {
        directory.appending(path: name, directoryHint: .notDirectory).path(percentEncoded: false)
    }

    @Test("An archive is the file <directory>/<key>.restoration, holding exactly the bytes")
    func fileLayout() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            try store.write(Data("state".utf8), to: "scene-1")
            #expect(try TestSupport.fileNames(in: directory) == ["scene-1.restoration"])
            #expect(FileManager.default.contents(atPath: path(directory, "scene-1.restoration")) == Data("state".utf8))
            #expect(store.fileURL(for: "scene-1").path(percentEncoded: false) == path(directory, "scene-1.restoration"))
        }
    }

    // The umask belongs to the whole process: run the cases one at a time so that each restores it.
    @Test(
        "Archives are mode 0600 and a created directory 0700, whatever the umask", .serialized,
        arguments: [0o000, 0o022, 0o277])
    func privateModes(mask: Int) throws {
        try TestSupport.withTemporaryDirectory { root in
            let directory = root.appending(path: "a/b", directoryHint: .isDirectory)
            let store = FileStore(directory: directory)
            try TestSupport.withUmask(mask) {
                try store.write(Data("first".utf8), to: .main)
                try store.write(Data("second".utf8), to: .main)  // replacing keeps the mode too
            }
            #expect(try TestSupport.permissions(of: path(directory, "main.restoration")) == 0o600)
            #expect(try TestSupport.permissions(of: directory.path(percentEncoded: false)) == 0o700)
            #expect(try TestSupport.permissions(of: path(root, "a")) == 0o700)
        }
    }

    @Test("An archive over maximumArchiveSize is neither written nor read, and what is on disk stays")
    func sizeLimit() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory, maximumArchiveSize: 1_000)
            let atLimit = Data(repeating: 1, count: 1_000)
            try store.write(atLimit, to: .main)
            #expect(try store.read(.main) == atLimit)

            let refused = try #require(throws: StoreError.self) {
                try store.write(Data(repeating: 2, count: 1_001), to: .main)
            }
            #expect(refused.code == .tooLarge)
            #expect(refused.description.contains("1001 bytes, more than the store's limit of 1000 bytes"))
            #expect(try store.read(.main) == atLimit)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])

            // A file that got larger some other way (a damaged or hostile one) is not read into memory.
            let large = Data(repeating: 3, count: 5_000)
            try large.write(to: store.fileURL(for: .main))
            let unread = try #require(throws: StoreError.self) { try store.read(.main) }
            #expect(unread.code == .tooLarge)
            #expect(unread.description.contains(path(directory, "main.restoration")))
            #expect(unread.description.contains("5000 bytes"))
            #expect(try FileStore(directory: directory).read(.main) == large)
        }
    }

    #if os(Linux)
        @Test("A file that grows past the limit after fstat is cut off one byte past it, not read to its end")
        func growingFile() throws {
            try TestSupport.withTemporaryDirectory { directory in
                let store = FileStore(directory: directory, maximumArchiveSize: 1_000)
                // A regular file whose fstat reports 0 bytes and whose read delivers several
                // kilobytes: a process's memory map, through a symbolic link in the archive's place.
                let link = store.fileURL(for: .main).path(percentEncoded: false)
                #expect(symlink("/proc/self/maps", link) == 0)
                let error = try #require(throws: StoreError.self) { try store.read(.main) }
                #expect(error.code == .tooLarge)
                #expect(error.description.contains("more than 1000 bytes"))
            }
        }
    #endif

    @Test("A FIFO or a directory in an archive's place is refused at once as not a file, and never waited on")
    func notAFile() async throws {
        // No process ever opens the FIFO for writing: a blocking open would wait for ever. In a
        // child process with an alarm, so that such a wait fails the test instead of hanging it.
        await #expect(processExitsWith: .success) {
            alarm(20)
            try TestSupport.withTemporaryDirectory { directory in
                let store = FileStore(directory: directory)
                let archive = store.fileURL(for: .main).path(percentEncoded: false)
                #expect(mkfifo(archive, 0o600) == 0)
                let fifo = try #require(throws: StoreError.self) { try store.read(.main) }
                #expect(fifo.code == .notAFile)
                #expect(
                    fifo.description == "cannot read \(archive): it is not a regular file (a FIFO); it was not read")
            }
        }

        // A directory: a launch moves it aside, and saves can write the archive again.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileStore(directory: directory.url)
        let archive = store.fileURL(for: .main).path(percentEncoded: false)
        #expect(mkdir(archive, 0o700) == 0)
        let folder = try #require(throws: StoreError.self) { try store.read(.main) }
        #expect(folder.description.hasSuffix("it is not a regular file (a directory); it was not read"))
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        let launched = try await coordinator.launch()
        #expect(launched.report.freshReason?.code == .archiveRejected)
        #expect(launched.report.rejectedCheck == "not-a-file")
        #expect(try store.rejectedArchives(for: .main).count == 1)
        let tree = try Shop.busyTree()
        try await coordinator.save(tree)
        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(restored.tree == tree)
    }

    @Test("A directory URL with a trailing slash names the same files")
    func trailingSlash() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let withSlash = URL(filePath: directory.path(percentEncoded: false) + "/", directoryHint: .isDirectory)
            try FileStore(directory: withSlash).write(Data("x".utf8), to: .main)
            #expect(try FileStore(directory: directory).read(.main) == Data("x".utf8))
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
        }
    }

    @Test("A rejected file is renamed to <key>.rejected-<reason>-<UTC time>.restoration in the directory")
    func rejectedFileName() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            try store.write(Data("bad".utf8), to: .main)
            let rejected = try #require(try store.reject(.main, reason: "Checksum mismatch"))
            let name = try #require(rejected.split(separator: "/").last.map(String.init))
            #expect(rejected == path(directory, name))
            #expect(
                name.wholeMatch(of: /main\.rejected-checksum-mismatch-\d{8}T\d{6}\.\d{3}Z\.restoration/) != nil,
                "\(name)")
            #expect(try TestSupport.fileNames(in: directory) == [name])
            #expect(try TestSupport.permissions(of: rejected) == 0o600)
        }
    }

    @Test("Rejections in the same millisecond for the same reason get -2, -3 and overwrite nothing")
    func sameMillisecondRejections() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let instant = Date(timeIntervalSince1970: 1_700_000_000.25)
            let store = FileStore(directory: directory, failure: nil, now: { instant })
            var paths: [String] = []
            for index in 1...3 {
                try store.write(Data("archive \(index)".utf8), to: .main)
                paths.append(try #require(try store.reject(.main, reason: "bad-magic")))
            }
            let base = "main.rejected-bad-magic-20231114T221320.250Z"
            #expect(
                paths == [
                    path(directory, base + ".restoration"), path(directory, base + "-2.restoration"),
                    path(directory, base + "-3.restoration"),
                ])
            #expect(try store.rejectedArchives(for: .main) == paths)
            #expect(
                paths.map { FileManager.default.contents(atPath: $0) } == (1...3).map { Data("archive \($0)".utf8) })
        }
    }

    @Test("Rejected copies are listed by the time in their names, not by their reasons")
    func rejectedListedByTime() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let times = [2.0, 1.0, 3.0].map { Date(timeIntervalSince1970: 1_700_000_000 + $0) }
            var paths: [(Date, String)] = []
            for (time, reason) in zip(times, ["b-reason", "z-reason", "a-reason"]) {
                let store = FileStore(directory: directory, failure: nil, now: { time })
                try store.write(Data(reason.utf8), to: .main)
                paths.append((time, try #require(try store.reject(.main, reason: reason))))
            }
            let oldestFirst = paths.sorted { $0.0 < $1.0 }.map(\.1)
            #expect(try FileStore(directory: directory).rejectedArchives(for: .main) == oldestFirst)
        }
    }

    @Test("keys() ignores temporary, rejected and unrelated files")
    func keysIgnoreOtherFiles() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            try store.write(Data("1".utf8), to: .main)
            try store.write(Data("2".utf8), to: "gone")
            _ = try store.reject("gone", reason: "bad")
            for name in [
                ArchiveNaming.temporaryName(for: "ghost", processID: TestSupport.processID, token: 1),
                "notes.txt", ".hidden.restoration", "bad key.restoration", "main.restoration.bak",
            ] {
                #expect(FileManager.default.createFile(atPath: path(directory, name), contents: Data("junk".utf8)))
            }
            try FileManager.default.createDirectory(
                atPath: path(directory, "folder"), withIntermediateDirectories: false)
            #expect(try store.keys() == [.main])
        }
    }

    @Test(
        "Temporary files left by a killed write, of an archive or a marker, are ignored by reads and removed by the next write"
    )
    func leftoverTemporaryFiles() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            try store.write(Data("good".utf8), to: .main)
            // A write of this process that never finished, and one of a process that has exited.
            let own = ArchiveNaming.temporaryName(for: .main, processID: TestSupport.processID, token: 7)
            let exited = try TestSupport.exitedProcessID().map {
                ArchiveNaming.temporaryName(for: "other", processID: $0, token: 8)
            }
            // A restoration marker's write of this process that never finished (a kill as a launch began).
            let marker = ArchiveNaming.temporaryName(for: .marker(.main), processID: TestSupport.processID, token: 10)
            // A write in progress in another, running process: not stale, so it must stay.
            let running = ArchiveNaming.temporaryName(for: .main, processID: TestSupport.parentProcessID, token: 9)
            for name in [own, exited, marker, running].compactMap(\.self) {
                #expect(FileManager.default.createFile(atPath: path(directory, name), contents: Data("partial".utf8)))
            }

            #expect(try store.read(.main) == Data("good".utf8))
            #expect(try store.read("other") == nil)
            #expect(try store.keys() == [.main])

            try store.write(Data("newer".utf8), to: "unrelated")
            #expect(
                try TestSupport.fileNames(in: directory)
                    == [running, "main.restoration", "unrelated.restoration"].sorted())
            #expect(try store.read(.main) == Data("good".utf8))
        }
    }

    @Test(
        "A write that fails at any step up to the rename leaves the previous archive and no temporary file",
        arguments: [FileStore.WriteStep.create, .setMode, .write, .synchronize, .close, .rename])
    func failedWriteKeepsPreviousArchive(step: FileStore.WriteStep) throws {
        try TestSupport.withTemporaryDirectory { directory in
            try FileStore(directory: directory).write(Data("previous".utf8), to: .main)
            let failing = FileStore(directory: directory, failure: { $0 == step ? EIO : nil })

            let error = try #require(throws: StoreError.self) {
                try failing.write(Data(repeating: 0x55, count: 100_000), to: .main)
            }
            #expect(error.operation == .write)
            #expect(error.path == path(directory, "main.restoration"))
            #expect(error.errno == EIO)
            #expect(error.description.contains("cannot write \(path(directory, "main.restoration")): "))
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
            #expect(try FileStore(directory: directory).read(.main) == Data("previous".utf8))
        }
    }

    @Test("Each failed step reports its own code, and space and permission errnos win")
    func failureCodes() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let expectations: [(FileStore.WriteStep, Int32, StoreError.Code)] = [
                (.write, EIO, .writeFailed), (.synchronize, EIO, .syncFailed), (.rename, EIO, .renameFailed),
                (.synchronize, ENOSPC, .noSpace), (.create, EACCES, .permissionDenied),
            ]
            for (step, number, code) in expectations {
                let store = FileStore(directory: directory, failure: { $0 == step ? number : nil })
                let error = try #require(throws: StoreError.self) { try store.write(Data("x".utf8), to: .main) }
                #expect(error.code == code, "\(step) \(number)")
            }
            let store = FileStore(directory: directory, failure: { $0 == .synchronize ? ENOSPC : nil })
            let error = try #require(throws: StoreError.self) { try store.write(Data("x".utf8), to: .main) }
            #expect(
                error.description
                    == "cannot write \(path(directory, "main.restoration")): synchronize failed (injected): "
                    + "No space left on device (errno \(ENOSPC))")
        }
    }

    @Test("A failed directory sync after the rename is reported as syncFailed, with the new archive in place")
    func failedDirectorySync() throws {
        try TestSupport.withTemporaryDirectory { directory in
            try FileStore(directory: directory).write(Data("previous".utf8), to: .main)
            let failing = FileStore(directory: directory, failure: { $0 == .synchronizeDirectory ? EIO : nil })
            let error = try #require(throws: StoreError.self) { try failing.write(Data("new".utf8), to: .main) }
            #expect(error.code == .syncFailed)
            #expect(error.path == TestSupport.path(of: directory))
            #expect(try FileStore(directory: directory).read(.main) == Data("new".utf8))
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
        }
    }

    @Test("Writing into a read-only directory throws permissionDenied and keeps the previous archive")
    func readOnlyDirectory() async throws {
        guard TestSupport.isRoot else { return try Self.writeIntoReadOnlyDirectory() }
        // Root writes into read-only directories: a child process gives up root and writes there
        // (its issues reach this test; a step that throws fails it).
        await #expect(processExitsWith: .success) {
            try TestSupport.becomeNobody()
            #expect(!TestSupport.isRoot)
            try Self.writeIntoReadOnlyDirectory()
        }
    }

    static func writeIntoReadOnlyDirectory() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            try store.write(Data("previous".utf8), to: .main)
            try TestSupport.setPermissions(0o500, of: directory.path(percentEncoded: false))
            defer { try? TestSupport.setPermissions(0o700, of: directory.path(percentEncoded: false)) }

            let error = try #require(throws: StoreError.self) { try store.write(Data("new".utf8), to: .main) }
            #expect(error.code == .permissionDenied)
            #expect(error.errno == EACCES)
            #expect(
                error.description
                    == "cannot write \(Self.path(directory, "main.restoration")): cannot create temporary file: "
                    + "Permission denied (errno \(EACCES))")
            #expect(try store.read(.main) == Data("previous".utf8))
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
        }
    }

    @Test("A directory that cannot exist (its parent is a file) throws directoryUnavailable, naming the path")
    func parentIsAFile() throws {
        try TestSupport.withTemporaryDirectory { root in
            let file = path(root, "file")
            #expect(FileManager.default.createFile(atPath: file, contents: Data("not a directory".utf8)))
            let directory = root.appending(path: "file/store", directoryHint: .isDirectory)
            let store = FileStore(directory: directory)

            let error = try #require(throws: StoreError.self) { try store.write(Data("new".utf8), to: .main) }
            #expect(error.code == .directoryUnavailable)
            #expect(error.errno == ENOTDIR)
            #expect(error.path == TestSupport.path(of: directory))
            #expect(
                error.description
                    == "cannot write \(TestSupport.path(of: directory)): mkdir failed: "
                    + "Not a directory (errno \(ENOTDIR))")
            #expect(FileManager.default.contents(atPath: file) == Data("not a directory".utf8))
            #expect(try TestSupport.fileNames(in: root) == ["file"])
        }
    }

    @Test("Concurrent readers see only complete archives while writers replace them")
    func concurrentReadersSeeWholeArchives() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            let size = 256 * 1024
            try store.write(Data(repeating: 0, count: size), to: .main)
            // Each task returns how many torn archives (wrong size, mixed bytes) it read.
            let torn = try await withThrowingTaskGroup(of: Int.self) { group in
                for writer in 1...3 {
                    group.addTask {
                        for round in 0..<8 {
                            try store.write(Data(repeating: UInt8(writer * 10 + round), count: size), to: .main)
                        }
                        return 0
                    }
                }
                for _ in 1...3 {
                    group.addTask {
                        var torn = 0
                        for _ in 0..<40 {
                            let data = try #require(try store.read(.main))
                            let first = data.first
                            if data.count != size || !data.allSatisfy({ $0 == first }) {
                                torn += 1
                            }
                        }
                        return torn
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(torn == 0)
            #expect(try TestSupport.fileNames(in: directory) == ["main.restoration"])
        }
    }
}
