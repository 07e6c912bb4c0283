public import Foundation

/// A ``RestorationStore`` that keeps its archives in memory, for tests and previews.
///
/// It behaves like ``FileStore`` (reads of missing keys return `nil`, rejected archives are kept
/// under names such as `main.rejected-checksum-mismatch-20261122T101038.250Z.restoration`, keys
/// are listed sorted) without touching the file system, and it never throws.
///
/// The archives live in a ``Storage`` object that several stores can share. To simulate a
/// relaunch, give the next "launch" a new store over the same storage, with nothing else
/// shared:
///
/// ```swift
/// let storage = InMemoryStore.Storage()
/// try InMemoryStore(storage: storage).write(archive, to: .main)   // first launch
/// let relaunched = InMemoryStore(storage: storage)                // second launch
/// #expect(try relaunched.read(.main) == archive)
/// ```
///
/// All methods are safe to call from any thread.
public final class InMemoryStore: RestorationStore {
    /// The archives this store reads and writes, possibly shared with other stores.
    ///
    /// ```swift
    /// let sibling = InMemoryStore(storage: store.storage)
    /// ```
    public let storage: Storage

    /// The clock that dates rejected copies; `Date.init` in production.
    let now: @Sendable () -> Date

    /// Creates a store over new, empty storage.
    ///
    /// ```swift
    /// let store = InMemoryStore()
    /// ```
    public convenience init() {
        self.init(storage: Storage())
    }

    /// Creates a store over existing storage, which sees the writes of every store that shares it.
    ///
    /// ```swift
    /// let relaunched = InMemoryStore(storage: previous.storage)
    /// ```
    ///
    /// - Parameter storage: The archives to read and write.
    public convenience init(storage: Storage) {
        self.init(storage: storage, now: Date.init)
    }

    /// Creates a store that dates rejected copies with `now`; for tests.
    package init(storage: Storage, now: @escaping @Sendable () -> Date) {
        self.storage = storage
        self.now = now
    }

    /// Returns the archive stored under a key, or `nil` if there is none.
    ///
    /// ```swift
    /// let data = try store.read(.main)
    /// ```
    ///
    /// - Parameter key: The archive's key.
    /// - Returns: The archive's bytes, or `nil` if nothing is stored under `key`.
    /// - Throws: Never; the signature matches ``RestorationStore``.
    public func read(_ key: StoreKey) throws(StoreError) -> Data? {
        storage.state.withLock { $0.archives[key] }
    }

    /// Stores an archive under a key, replacing any previous one.
    ///
    /// ```swift
    /// try store.write(Data("state".utf8), to: .main)
    /// ```
    ///
    /// - Parameters:
    ///   - data: The archive's bytes; may be empty.
    ///   - key: The archive's key.
    /// - Throws: Never; the signature matches ``RestorationStore``.
    public func write(_ data: Data, to key: StoreKey) throws(StoreError) {
        storage.state.withLock { $0.archives[key] = data }
    }

    /// Removes a key's archive; does nothing if there is none. Rejected copies are kept.
    ///
    /// ```swift
    /// try store.remove(.main)
    /// ```
    ///
    /// - Parameter key: The archive's key.
    /// - Throws: Never; the signature matches ``RestorationStore``.
    public func remove(_ key: StoreKey) throws(StoreError) {
        storage.state.withLock { _ = $0.archives.removeValue(forKey: key) }
    }

    /// Moves a key's archive to a rejected copy and returns the copy's name.
    ///
    /// The name is the file name ``FileStore`` would use,
    /// `<key>.rejected-<reason>-<yyyyMMdd'T'HHmmss.SSS'Z'>.restoration`, made unique with `-2`,
    /// `-3`, … if needed. Read the copy back with ``rejectedArchive(named:)``.
    ///
    /// ```swift
    /// let name = try store.reject(.main, reason: "checksum-mismatch")
    /// ```
    ///
    /// - Parameters:
    ///   - key: The archive's key.
    ///   - reason: Why the archive was rejected, such as `"checksum-mismatch"`.
    /// - Returns: The rejected copy's name, or `nil` if the key held no archive.
    /// - Throws: Never; the signature matches ``RestorationStore``.
    public func reject(_ key: StoreKey, reason: String) throws(StoreError) -> String? {
        let slug = ArchiveNaming.slug(for: reason)
        let timestamp = ArchiveNaming.timestamp(now())
        return storage.state.withLock { state -> String? in
            guard let data = state.archives.removeValue(forKey: key) else { return nil }
            var copies = state.rejected[key, default: []]
            var sequence = 1
            var name: String
            repeat {
                name = ArchiveNaming.rejectedName(for: key, slug: slug, timestamp: timestamp, sequence: sequence)
                sequence += 1
            } while copies.contains { $0.name == name }
            copies.append(Storage.RejectedCopy(name: name, data: data))
            state.rejected[key] = copies
            return name
        }
    }

    /// Returns the names of a key's rejected copies, oldest first.
    ///
    /// ```swift
    /// let names = try store.rejectedArchives(for: .main)
    /// ```
    ///
    /// - Parameter key: The key whose rejected copies to list.
    /// - Returns: The names returned by ``reject(_:reason:)`` for `key`, in the order of rejection.
    /// - Throws: Never; the signature matches ``RestorationStore``.
    public func rejectedArchives(for key: StoreKey) throws(StoreError) -> [String] {
        storage.state.withLock { state in state.rejected[key, default: []].map(\.name) }
    }

    /// Returns the keys that hold an archive, sorted; the crash-loop markers a coordinator keeps
    /// while a launch restores are not archives, and are not listed.
    ///
    /// ```swift
    /// let keys = try store.keys()
    /// ```
    ///
    /// - Returns: The keys that hold an archive, in ascending order.
    /// - Throws: Never; the signature matches ``RestorationStore``.
    public func keys() throws(StoreError) -> [StoreKey] {
        storage.state.withLock { $0.archives.keys.filter { !$0.isRestorationMarker }.sorted() }
    }

    /// Returns the bytes of a rejected copy, to inspect what was rejected.
    ///
    /// ```swift
    /// if let name = try store.reject(.main, reason: "bad-magic") {
    ///     #expect(store.rejectedArchive(named: name) == corrupted)
    /// }
    /// ```
    ///
    /// - Parameter name: A name returned by ``reject(_:reason:)`` or ``rejectedArchives(for:)``.
    /// - Returns: The rejected bytes, or `nil` if no rejected copy has that name.
    public func rejectedArchive(named name: String) -> Data? {
        storage.state.withLock { state in
            state.rejected.values.lazy.flatMap { $0 }.first { $0.name == name }?.data
        }
    }
}
