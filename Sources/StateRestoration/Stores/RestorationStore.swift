public import Foundation

/// Where archives of an app's restored state are kept between launches, one per ``StoreKey``.
///
/// A store keeps bytes; it does not know what they mean. The restoration coordinator encodes the
/// screen hierarchy into one archive, writes it when the app goes to the background and reads it
/// back at the next launch. If an archive turns out to be unusable (a bad checksum, an unknown
/// format), the coordinator *rejects* it: the store moves it aside, under a name that says why
/// and when, so that a developer can inspect it later, and the next launch starts fresh.
///
/// The requirements are synchronous: the coordinator calls them from its own actor, off the
/// main actor. Implementations must be safe to call from any thread.
///
/// ```swift
/// let store: any RestorationStore = FileStore(directory: stateDirectory)
/// try store.write(archive, to: .main)
/// // … next launch …
/// if let data = try store.read(.main) {
///     do {
///         try restore(from: data)
///     } catch {
///         _ = try store.reject(.main, reason: "checksum-mismatch")
///     }
/// }
/// ```
///
/// ``FileStore`` keeps archives as files; ``InMemoryStore`` keeps them in memory, for tests.
public protocol RestorationStore: Sendable {
    /// Returns the archive stored under a key, or `nil` if there is none.
    ///
    /// A read never sees a partly written archive: it returns the bytes of the last complete
    /// ``write(_:to:)``, or those of the one before while a write is under way.
    ///
    /// ```swift
    /// guard let data = try store.read(.main) else { return showFirstScreen() }
    /// ```
    ///
    /// - Parameter key: The archive's key.
    /// - Returns: The archive's bytes, or `nil` if nothing is stored under `key`.
    /// - Throws: ``StoreError`` if the archive exists but cannot be read; with code
    ///   ``StoreError/Code/tooLarge`` only if it never will be (a coordinator then moves it aside).
    func read(_ key: StoreKey) throws -> Data?

    /// Stores an archive under a key, replacing any previous one, atomically.
    ///
    /// A reader only ever sees the previous bytes or the new ones, even if the process is killed
    /// at any moment during the write. If the write fails, the previous archive is left intact.
    ///
    /// ```swift
    /// try store.write(try encoder.encode(snapshot), to: .main)
    /// ```
    ///
    /// - Parameters:
    ///   - data: The archive's bytes; may be empty.
    ///   - key: The archive's key.
    /// - Throws: ``StoreError`` if the archive cannot be stored.
    func write(_ data: Data, to key: StoreKey) throws

    /// Removes the archive stored under a key; does nothing if there is none.
    ///
    /// Rejected copies of the key's archives are kept.
    ///
    /// ```swift
    /// try store.remove(.main)  // the user signed out: forget the screens
    /// ```
    ///
    /// - Parameter key: The archive's key.
    /// - Throws: ``StoreError`` if an archive exists but cannot be removed.
    func remove(_ key: StoreKey) throws

    /// Moves the archive stored under a key aside, so that it can be inspected later, and
    /// leaves the key empty.
    ///
    /// The rejected copy's name says that it was rejected and includes a slug of `reason` and
    /// the UTC time, such as `main.rejected-checksum-mismatch-20261122T101038.250Z.restoration`.
    /// Rejecting never overwrites an earlier rejected copy. After a rejection, ``read(_:)``
    /// returns `nil` until the next ``write(_:to:)``.
    ///
    /// ```swift
    /// if let name = try store.reject(.main, reason: "checksum-mismatch") {
    ///     logger.error("restoration archive rejected, kept at \(name)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The archive's key.
    ///   - reason: Why the archive was rejected, ideally a short slug such as
    ///     `"checksum-mismatch"`; other text is reduced to lower-case letters, digits and dashes.
    /// - Returns: The rejected copy's name (for ``FileStore``, the path of its file), or `nil`
    ///   if nothing was stored under `key`.
    /// - Throws: ``StoreError`` if the archive cannot be moved aside.
    func reject(_ key: StoreKey, reason: String) throws -> String?

    /// Returns the names of the rejected copies of a key's archives, oldest first.
    ///
    /// The names are those returned by ``reject(_:reason:)``.
    ///
    /// ```swift
    /// for name in try store.rejectedArchives(for: .main) {
    ///     print("rejected:", name)
    /// }
    /// ```
    ///
    /// - Parameter key: The key whose rejected copies to list.
    /// - Returns: The rejected copies' names (for ``FileStore``, paths), oldest first.
    /// - Throws: ``StoreError`` if the store cannot be listed.
    func rejectedArchives(for key: StoreKey) throws -> [String]

    /// Returns the keys that currently hold an archive, sorted.
    ///
    /// Keys whose archive was removed or rejected are not listed.
    ///
    /// ```swift
    /// for key in try store.keys() where !liveScenes.contains(key) {
    ///     try store.remove(key)  // a scene the user closed
    /// }
    /// ```
    ///
    /// - Returns: The keys that hold an archive, in ascending order.
    /// - Throws: ``StoreError`` if the store cannot be listed.
    func keys() throws -> [StoreKey]
}
