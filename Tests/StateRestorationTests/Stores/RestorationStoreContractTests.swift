import Foundation
import StateRestoration
import Testing

/// The behaviour every ``RestorationStore`` shares, checked for each store.
@Suite struct RestorationStoreContractTests {
    /// The stores under test.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case file, memory
        var testDescription: String { rawValue }
    }

    /// A store, and a way to read back a rejected copy by name.
    struct Fixture {
        var store: any RestorationStore
        var rejectedData: (String) -> Data?
    }

    /// Runs `body` with a new, empty store of the given kind.
    func withStore(_ kind: Kind, _ body: (Fixture) throws -> Void) throws {
        switch kind {
        case .file:
            try TestSupport.withTemporaryDirectory { directory in
                let store = FileStore(directory: directory.appending(path: "store", directoryHint: .isDirectory))
                try body(Fixture(store: store, rejectedData: { FileManager.default.contents(atPath: $0) }))
            }
        case .memory:
            let store = InMemoryStore()
            try body(Fixture(store: store, rejectedData: { store.rejectedArchive(named: $0) }))
        }
    }

    @Test("Reading a key that holds nothing returns nil", arguments: Kind.allCases)
    func readMissing(kind: Kind) throws {
        try withStore(kind) { fixture throws in
            #expect(try fixture.store.read(.main) == nil)
            #expect(try fixture.store.keys() == [])
            #expect(try fixture.store.rejectedArchives(for: .main) == [])
        }
    }

    @Test("What is written is read back, byte for byte, whatever its size", arguments: Kind.allCases)
    func roundTrip(kind: Kind) throws {
        try withStore(kind) { fixture throws in
            let large = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try fixture.store.write(large, to: .main)
            try fixture.store.write(Data(), to: "empty")
            #expect(try fixture.store.read(.main) == large)
            #expect(try fixture.store.read("empty") == Data())
            #expect(try fixture.store.read("other") == nil)
        }
    }

    @Test("A write replaces the previous archive entirely, even a longer one", arguments: Kind.allCases)
    func overwrite(kind: Kind) throws {
        try withStore(kind) { fixture throws in
            try fixture.store.write(Data(repeating: 0xAA, count: 10_000), to: .main)
            try fixture.store.write(Data("short".utf8), to: .main)
            #expect(try fixture.store.read(.main) == Data("short".utf8))
            #expect(try fixture.store.keys() == [.main])
        }
    }

    @Test("Remove deletes the archive, and removing nothing is not an error", arguments: Kind.allCases)
    func remove(kind: Kind) throws {
        try withStore(kind) { fixture throws in
            try fixture.store.remove(.main)  // nothing stored yet
            try fixture.store.write(Data("a".utf8), to: .main)
            try fixture.store.write(Data("b".utf8), to: "other")
            try fixture.store.remove(.main)
            #expect(try fixture.store.read(.main) == nil)
            #expect(try fixture.store.read("other") == Data("b".utf8))
            #expect(try fixture.store.keys() == ["other"])
            try fixture.store.remove(.main)
        }
    }

    @Test("Reject moves the archive aside under a name with the reason, and empties the key", arguments: Kind.allCases)
    func reject(kind: Kind) throws {
        try withStore(kind) { fixture throws in
            let corrupted = Data("corrupted".utf8)
            try fixture.store.write(corrupted, to: .main)
            let name = try #require(try fixture.store.reject(.main, reason: "checksum-mismatch"))
            #expect(name.contains("main.rejected-checksum-mismatch-"))
            #expect(try fixture.store.read(.main) == nil)
            #expect(try fixture.store.keys() == [])
            #expect(try fixture.store.rejectedArchives(for: .main) == [name])
            #expect(fixture.rejectedData(name) == corrupted)

            // The next write starts fresh and leaves the rejected copy alone.
            try fixture.store.write(Data("fresh".utf8), to: .main)
            #expect(try fixture.store.read(.main) == Data("fresh".utf8))
            #expect(try fixture.store.rejectedArchives(for: .main) == [name])
            #expect(fixture.rejectedData(name) == corrupted)
        }
    }

    @Test("Rejecting a key that holds nothing returns nil", arguments: Kind.allCases)
    func rejectMissing(kind: Kind) throws {
        try withStore(kind) { fixture throws in
            #expect(try fixture.store.reject(.main, reason: "bad") == nil)
            #expect(try fixture.store.rejectedArchives(for: .main) == [])
        }
    }

    @Test("Repeated rejections keep every copy, listed oldest first", arguments: Kind.allCases)
    func repeatedRejections(kind: Kind) throws {
        try withStore(kind) { fixture throws in
            // Same reason, back to back: usually the same millisecond, so the names must differ
            // by more than the timestamp.
            var names: [String] = []
            for index in 0..<3 {
                try fixture.store.write(Data("archive \(index)".utf8), to: .main)
                names.append(try #require(try fixture.store.reject(.main, reason: "checksum-mismatch")))
            }
            #expect(Set(names).count == 3)
            let listed = try fixture.store.rejectedArchives(for: .main)
            #expect(listed == names)
            #expect(listed.map { fixture.rejectedData($0) } == (0..<3).map { Data("archive \($0)".utf8) })
        }
    }

    @Test("Rejected copies belong to their own key only", arguments: Kind.allCases)
    func rejectedPerKey(kind: Kind) throws {
        try withStore(kind) { fixture throws in
            try fixture.store.write(Data("1".utf8), to: "main")
            try fixture.store.write(Data("2".utf8), to: "main.backup")
            try fixture.store.write(Data("3".utf8), to: "mainly")
            let name = try #require(try fixture.store.reject("main", reason: "bad"))
            #expect(try fixture.store.rejectedArchives(for: "main") == [name])
            #expect(try fixture.store.rejectedArchives(for: "main.backup") == [])
            #expect(try fixture.store.rejectedArchives(for: "mainly") == [])
            #expect(try fixture.store.keys() == ["main.backup", "mainly"])
        }
    }

    @Test("keys() lists the keys that hold an archive, sorted", arguments: Kind.allCases)
    func keys(kind: Kind) throws {
        try withStore(kind) { fixture throws in
            for key: StoreKey in ["scene-b", "main", "scene-a", "Z"] {
                try fixture.store.write(Data(key.rawValue.utf8), to: key)
            }
            #expect(try fixture.store.keys() == ["Z", "main", "scene-a", "scene-b"])
        }
    }
}
