import Foundation
import StateRestoration
import Testing

/// A `FileStore` keeps a few rejected copies of each key, not one per launch of an app that
/// crashes at every launch.
@Suite struct RejectedCopyPruningTests {
    /// The time `second` seconds into a fixed day, in the copies' names as `…T221320.000Z` and on.
    static func time(_ second: Int) -> Date {
        Date(timeIntervalSince1970: 1_700_000_000 + Double(second))
    }

    /// Writes `size` bytes of `byte` to `main` and rejects them at `time(second)`; returns the copy.
    @discardableResult
    static func reject(
        _ byte: UInt8, size: Int = 100, at second: Int, in directory: URL, keptBytes: Int = 64 << 20,
        recorder: CallRecorder? = nil
    ) throws -> String {
        try FileStore(directory: directory).write(Data(repeating: byte, count: size), to: .main)
        var record: (@Sendable (FileStore.Call) -> Void)?
        if let recorder { record = { recorder.record($0) } }
        let store = FileStore(
            directory: directory, keptRejectedBytes: keptBytes, failure: nil, recorder: record, now: { time(second) })
        return try #require(try store.reject(.main, reason: "bad"))
    }

    @Test("After each rejection the newest 3 copies stay and older ones go, oldest first")
    func keepsNewestThree() throws {
        try TestSupport.withTemporaryDirectory { directory in
            var copies: [String] = []
            for index in 0..<6 {
                copies.append(try Self.reject(UInt8(index), at: index, in: directory))
                let kept = Array(copies.suffix(3))
                #expect(try FileStore(directory: directory).rejectedArchives(for: .main) == kept, "after \(index + 1)")
            }
            for (index, copy) in copies.enumerated().suffix(3) {
                #expect(FileManager.default.contents(atPath: copy) == Data(repeating: UInt8(index), count: 100))
            }
        }
    }

    @Test("Copies past the byte bound go oldest first; the new copy stays even when it alone is past it")
    func byteBound() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let store = FileStore(directory: directory)
            let first = try Self.reject(1, at: 1, in: directory, keptBytes: 250)
            let second = try Self.reject(2, at: 2, in: directory, keptBytes: 250)
            #expect(try store.rejectedArchives(for: .main) == [first, second])
            let third = try Self.reject(3, at: 3, in: directory, keptBytes: 250)
            #expect(try store.rejectedArchives(for: .main) == [second, third], "300 bytes > 250: the oldest goes")
            let large = try Self.reject(4, size: 400, at: 4, in: directory, keptBytes: 250)
            #expect(try store.rejectedArchives(for: .main) == [large])
        }
    }

    @Test("Pruning happens within the rejection's one directory flush")
    func oneDirectoryFlush() throws {
        try TestSupport.withTemporaryDirectory { directory in
            for second in 1...3 { try Self.reject(UInt8(second), at: second, in: directory) }
            let recorder = CallRecorder()
            try Self.reject(4, at: 4, in: directory, recorder: recorder)
            let name = { (second: Int) in "main.rejected-bad-20231114T22132\(second).000Z.restoration" }
            #expect(
                recorder.steps(relativeTo: directory)
                    == ["rename main.restoration \(name(4))", "unlink \(name(1))", "fsync-directory ."])
        }
    }

    @Test("A pruned copy's older-build journal goes with it; other keys' copies and other files stay")
    func onlyThisKey() throws {
        try TestSupport.withTemporaryDirectory { directory in
            let oldest = try Self.reject(0, at: 0, in: directory)
            try Data("journal".utf8).write(to: URL(fileURLWithPath: oldest + "-journal"))
            let store = FileStore(directory: directory)
            try store.write(Data("other".utf8), to: "other")
            let other = try #require(try store.reject("other", reason: "bad"))
            try Data("notes".utf8).write(to: directory.appending(path: "notes.txt"))
            for second in 1...3 { try Self.reject(UInt8(second), at: second, in: directory) }
            #expect(!FileManager.default.fileExists(atPath: oldest))
            #expect(!FileManager.default.fileExists(atPath: oldest + "-journal"))
            #expect(try store.rejectedArchives(for: "other") == [other])
            #expect(try TestSupport.fileNames(in: directory).contains("notes.txt"))
        }
    }

    @Test("A clock set back never prunes the copy just made, though its name dates it oldest")
    func clockSetBack() throws {
        try TestSupport.withTemporaryDirectory { directory in
            for second in 10...12 { try Self.reject(UInt8(second), at: second, in: directory) }
            let made = try Self.reject(1, at: 1, in: directory)
            let kept = try FileStore(directory: directory).rejectedArchives(for: .main)
            #expect(kept.count == 3)
            #expect(kept.first == made)
            #expect(FileManager.default.contents(atPath: made) == Data(repeating: 1, count: 100))
        }
    }
}
