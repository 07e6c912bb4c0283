import Foundation
import Synchronization
import StateRestoration
import TestScreens
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store that forwards to another and fails the writes a test asks it to fail.
private final class FaultyStore: RestorationStore {
    struct InjectedFault: Error, CustomStringConvertible {
        var description: String { "injected write failure" }
    }

    let base: any RestorationStore
    private let failingWrites = Mutex(false)

    init(base: any RestorationStore) { self.base = base }

    func failWrites(_ fail: Bool) { failingWrites.withLock { $0 = fail } }

    func read(_ key: StoreKey) throws -> Data? { try base.read(key) }
    func write(_ data: Data, to key: StoreKey) throws {
        if failingWrites.withLock({ $0 }) { throw InjectedFault() }
        try base.write(data, to: key)
    }
    func remove(_ key: StoreKey) throws { try base.remove(key) }
    func reject(_ key: StoreKey, reason: String) throws -> String? { try base.reject(key, reason: reason) }
    func rejectedArchives(for key: StoreKey) throws -> [String] { try base.rejectedArchives(for: key) }
    func keys() throws -> [StoreKey] { try base.keys() }
}

@Suite struct DiskFaultTests {
    private func tree(_ productID: String) throws -> ScreenTree {
        var tree = try Shop.busyTree()
        try tree.update(ProductScreen.self, at: "product#1") { $0.state.productID = productID }
        return tree
    }

    @Test("a write that fails makes save throw a clear error; the previous archive stays restorable")
    func failingWrite() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FaultyStore(base: FileStore(directory: directory.url))
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        let saved = try tree("saved")
        try await coordinator.save(saved)
        store.failWrites(true)
        await #expect {
            try await coordinator.save(try tree("lost"))
        } throws: { error in
            guard let error = error as? RestorationError else { return false }
            return error.code == .storeFailed && error.message == "cannot save archive main: injected write failure"
        }
        let relaunched = try await RestorationCoordinator(
            screens: Shop.declaration(), store: FileStore(directory: directory.url)
        ).launch()
        #expect(relaunched.tree == saved)

        // Once the disk works again, the next save writes the whole new tree.
        store.failWrites(false)
        let next = try tree("next")
        try await coordinator.save(next)
        let again = try await RestorationCoordinator(
            screens: Shop.declaration(), store: FileStore(directory: directory.url)
        ).launch()
        #expect(again.tree == next)
    }

    @Test("a directory that cannot exist makes save throw an error naming the path")
    func missingDirectory() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let blocker = directory.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        let store = FileStore(directory: blocker.appendingPathComponent("archives"))
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        await #expect {
            try await coordinator.save(try Shop.busyTree())
        } throws: { error in
            guard let error = error as? RestorationError, let underlying = error.underlying as? StoreError else {
                return false
            }
            return error.code == .storeFailed && underlying.code == .directoryUnavailable
                && error.message.contains(blocker.path)
        }
        let session = try await coordinator.launch()
        #expect(session.report.outcome == .fresh)
    }

    @Test(
        "a full disk or a failure at any step of an atomic write keeps the previous archive",
        arguments: FileStore.WriteStep.archiveFileSteps)
    func failureAtEveryStep(_ step: FileStore.WriteStep) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let saved = try tree("saved")
        try await RestorationCoordinator(screens: Shop.declaration(), store: FileStore(directory: directory.url))
            .save(saved)
        let failing = FileStore(directory: directory.url, failure: { $0 == step ? ENOSPC : nil })
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: failing)
        await #expect(throws: RestorationError.self) { try await coordinator.save(try tree("lost")) }
        let relaunched = try await RestorationCoordinator(
            screens: Shop.declaration(), store: FileStore(directory: directory.url)
        ).launch()
        if step == .synchronizeDirectory {
            // The rename already happened: the new archive is whole, only its durability is unknown.
            #expect(relaunched.tree == (try tree("lost")))
        } else {
            #expect(relaunched.tree == saved)
        }
        #expect(try directory.fileNames() == ["main.restoration"])
    }
}
