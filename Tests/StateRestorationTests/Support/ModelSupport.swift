import Foundation
import Observation
import StateRestoration
import Synchronization

/// Whether reading `read` inside observation tracking is told of `change`.
@MainActor
func changeIsObserved(reading read: () -> Void, after change: () throws -> Void) rethrows -> Bool {
    let fired = Atomic<Bool>(false)
    withObservationTracking(read) { fired.store(true, ordering: .relaxed) }
    try change()
    return fired.load(ordering: .relaxed)
}

/// A store that counts the archives written through it.
final class CountingStore: RestorationStore {
    let base: any RestorationStore
    private let writes = Mutex(0)

    init(_ base: any RestorationStore = InMemoryStore()) { self.base = base }

    var writeCount: Int { writes.withLock { $0 } }

    func read(_ key: StoreKey) throws -> Data? { try base.read(key) }
    func write(_ data: Data, to key: StoreKey) throws {
        try base.write(data, to: key)
        if !key.rawValue.hasSuffix(".restoring") { writes.withLock { $0 += 1 } }
    }
    func remove(_ key: StoreKey) throws { try base.remove(key) }
    func reject(_ key: StoreKey, reason: String) throws -> String? { try base.reject(key, reason: reason) }
    func rejectedArchives(for key: StoreKey) throws -> [String] { try base.rejectedArchives(for: key) }
    func keys() throws -> [StoreKey] { try base.keys() }
}

/// Background time a test gives and takes away.
@MainActor
final class TestBackgroundTime: BackgroundTime {
    private(set) var begun: [Int] = []
    private(set) var ended: [Int] = []
    private var expirations: [Int: @MainActor () -> Void] = [:]

    func begin(_ name: String, expiration: @escaping @MainActor () -> Void) -> Int? {
        let task = begun.count + 1
        begun.append(task)
        expirations[task] = expiration
        return task
    }

    func end(_ task: Int) {
        ended.append(task)
        expirations[task] = nil
    }

    /// Runs out the time of every task not ended, as the platform does.
    func expire() {
        for (_, expiration) in expirations.sorted(by: { $0.key < $1.key }) { expiration() }
    }
}

/// A delegate whose saves wait at a gate after should-save was asked.
struct GatedSaveDelegate: RestorationDelegate {
    let gate: Gate
    func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool {
        await gate.wait()
        return true
    }
}

extension RestorationModel {
    /// The model's stack, as what the user sees: type keys and states, root first.
    func shown(_ stack: NodeReference) -> [String] {
        screens(of: stack).wrappedValue.map { entry in
            "\(entry.identifier ?? "-") \(tree[.node(entry.id)]?.screen.map { "\($0.state)" } ?? "")"
        }
    }
}
