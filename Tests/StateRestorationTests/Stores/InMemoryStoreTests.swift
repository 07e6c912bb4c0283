import Foundation
import StateRestoration
import Testing

@Suite struct InMemoryStoreTests {
    @Test("Two stores over one storage see each other's writes, removals and rejections")
    func sharedStorage() throws {
        let storage = InMemoryStore.Storage()
        let first = InMemoryStore(storage: storage)
        try first.write(Data("launch 1".utf8), to: .main)
        try first.write(Data("scene".utf8), to: "scene-1")

        // A "relaunch": a new store that shares nothing but the storage.
        let second = InMemoryStore(storage: storage)
        #expect(second.storage === storage)
        #expect(try second.read(.main) == Data("launch 1".utf8))
        #expect(try second.keys() == [.main, "scene-1"])

        try second.remove("scene-1")
        let name = try #require(try second.reject(.main, reason: "bad-magic"))
        #expect(try first.read(.main) == nil)
        #expect(try first.keys() == [])
        #expect(try first.rejectedArchives(for: .main) == [name])
        #expect(first.rejectedArchive(named: name) == Data("launch 1".utf8))
    }

    @Test("Stores over different storages are independent")
    func separateStorages() throws {
        let one = InMemoryStore()
        let other = InMemoryStore()
        try one.write(Data("x".utf8), to: .main)
        #expect(try other.read(.main) == nil)
        #expect(try other.keys() == [])
    }

    @Test("Rejected names follow the file store's scheme, and unknown names read nil")
    func rejectedNames() throws {
        let store = InMemoryStore()
        try store.write(Data("bad".utf8), to: .main)
        let name = try #require(try store.reject(.main, reason: "Checksum mismatch"))
        #expect(
            name.wholeMatch(of: /main\.rejected-checksum-mismatch-\d{8}T\d{6}\.\d{3}Z\.restoration/) != nil, "\(name)")
        #expect(store.rejectedArchive(named: "main.restoration") == nil)
    }

    @Test("Concurrent writers on many threads lose no key")
    func concurrentWrites() async throws {
        let store = InMemoryStore()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { try store.write(Data([UInt8(index)]), to: StoreKey.validated("k\(index)")) }
            }
            try await group.waitForAll()
        }
        #expect(try store.keys().count == 50)
        #expect(try store.read("k42") == Data([42]))
    }

    @Test("Rejections at the same instant get distinct names, listed in the order of rejection")
    func sameInstantRejections() throws {
        let instant = Date(timeIntervalSince1970: 1_700_000_000.25)
        let store = InMemoryStore(storage: InMemoryStore.Storage(), now: { instant })
        var names: [String] = []
        for index in 1...3 {
            try store.write(Data("archive \(index)".utf8), to: .main)
            names.append(try #require(try store.reject(.main, reason: "bad-magic")))
        }
        let base = "main.rejected-bad-magic-20231114T221320.250Z"
        #expect(names == [base + ".restoration", base + "-2.restoration", base + "-3.restoration"])
        #expect(try store.rejectedArchives(for: .main) == names)
        #expect(names.map { store.rejectedArchive(named: $0) } == (1...3).map { Data("archive \($0)".utf8) })
    }
}
