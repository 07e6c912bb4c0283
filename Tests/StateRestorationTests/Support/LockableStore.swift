import Foundation
import StateRestoration
import Synchronization

/// A store whose reads of one key fail while `failingReads` is set, as on a locked device.
final class LockableStore: RestorationStore {
    struct Locked: Error, CustomStringConvertible { var description: String { "the device is locked" } }
    let base: InMemoryStore
    let lockedKey: StoreKey
    let failingReads: Mutex<Bool>

    init(_ base: InMemoryStore = InMemoryStore(), locking key: StoreKey = .main, locked: Bool = false) {
        self.base = base
        self.lockedKey = key
        self.failingReads = Mutex(locked)
    }

    func read(_ key: StoreKey) throws -> Data? {
        if key == lockedKey, failingReads.withLock({ $0 }) { throw Locked() }
        return try base.read(key)
    }
    func write(_ data: Data, to key: StoreKey) throws { try base.write(data, to: key) }
    func remove(_ key: StoreKey) throws { try base.remove(key) }
    func reject(_ key: StoreKey, reason: String) throws -> String? { try base.reject(key, reason: reason) }
    func rejectedArchives(for key: StoreKey) throws -> [String] { try base.rejectedArchives(for: key) }
    func keys() throws -> [StoreKey] { try base.keys() }
}
