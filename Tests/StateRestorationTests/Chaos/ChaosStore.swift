import Foundation
import StateRestoration
import Synchronization

/// A ``FileStore`` whose directory can be copied as a kill would leave it: at an
/// instant between two of the store's operations.
///
/// Every operation of every such store, and every copy, holds one lock. So a copy
/// never catches an operation halfway (a temporary file listed and then renamed
/// away, an archive moved aside but its copy not yet named), which no kill of
/// the whole process could leave either; it can land between any two operations,
/// such as between a save removing the restoration marker and writing its
/// archive. What a kill in the middle of one write leaves is the business of
/// `KillDuringSaveTests`.
final class ChaosStore: RestorationStore {
    /// Held by each operation and each copy.
    private static let instant = Mutex(())

    /// The store that does the work.
    let files: FileStore
    /// The directory the archives are in.
    let directory: URL

    /// Creates a store over a directory.
    init(directory: URL) {
        self.directory = directory
        self.files = FileStore(directory: directory)
    }

    /// Reads a key's archive.
    func read(_ key: StoreKey) throws -> Data? {
        try Self.instant.withLock { _ in try files.read(key) }
    }

    /// Writes a key's archive.
    func write(_ data: Data, to key: StoreKey) throws {
        try Self.instant.withLock { _ in try files.write(data, to: key) }
    }

    /// Removes a key's archive.
    func remove(_ key: StoreKey) throws {
        try Self.instant.withLock { _ in try files.remove(key) }
    }

    /// Moves a key's archive aside.
    func reject(_ key: StoreKey, reason: String) throws -> String? {
        try Self.instant.withLock { _ in try files.reject(key, reason: reason) }
    }

    /// Lists a key's rejected copies.
    func rejectedArchives(for key: StoreKey) throws -> [String] {
        try Self.instant.withLock { _ in try files.rejectedArchives(for: key) }
    }

    /// Lists the keys that hold an archive.
    func keys() throws -> [StoreKey] {
        try Self.instant.withLock { _ in try files.keys() }
    }

    /// Copies the directory, as it is now, to `destination`, which must not exist;
    /// an empty directory when nothing was written yet.
    func copy(to destination: URL) throws {
        try Self.instant.withLock { _ in
            let manager = FileManager.default
            if manager.fileExists(atPath: directory.path) {
                try manager.copyItem(at: directory, to: destination)
            } else {
                try manager.createDirectory(at: destination, withIntermediateDirectories: true)
            }
        }
    }
}
