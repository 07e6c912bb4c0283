public import Foundation
import Synchronization

/// A ``RestorationStore`` that keeps each archive in a file of one directory.
///
/// ## Files
///
/// The archive of a key is `<directory>/<key>.restoration`, such as `main.restoration`. A rejected
/// archive is renamed to `<key>.rejected-<reason>-<yyyyMMdd'T'HHmmss.SSS'Z'>.restoration`, such as
/// `main.rejected-checksum-mismatch-20261122T101038.250Z.restoration` (UTC), with `-2`, `-3`, …
/// after the timestamp if a copy with the same reason was rejected in the same millisecond.
/// Each rejection keeps the newest three copies of the key, and of those no more than 64 MiB
/// together, removing the oldest first; the copy it makes always stays. So an app that crashes at
/// every launch keeps a few copies to inspect instead of filling the disk.
/// While a write is under way, its bytes are in a hidden temporary file,
/// `.<key>.restoration.<process id>.<random>.tmp`. Other files in the directory are ignored,
/// except the journals of older builds (below).
///
/// ## Atomic, durable, private
///
/// ``write(_:to:)`` creates a new temporary file in the same directory (`O_CREAT | O_EXCL`),
/// writes all the bytes, flushes them to stable storage (`F_FULLFSYNC` on Apple platforms,
/// `fsync` elsewhere), renames the file over the archive and flushes the directory. A reader
/// therefore sees the old archive or the new one, never a mix, even if the process is killed or
/// the machine loses power. Every write does this, whatever changed: an archive file is never
/// edited in place. Archives are readable and writable by their owner only (mode `0600`)
/// and a directory the store creates is mode `0700`, whatever the umask. Temporary files left
/// behind by a killed process are ignored and removed by the next successful write.
///
/// ## Journals of older builds
///
/// Older builds appended small saves to a journal beside the archive file,
/// `<key>.restoration-journal`, and rewrote the file only now and then, so the newest save an app
/// confirmed before an update may be in such a journal. A read applies a journal it finds to the
/// archive file, as those builds did (a journal written for another archive file, left by a kill,
/// is ignored), so an update loses no save. The next write of the key replaces the archive file
/// and then removes the journal; ``remove(_:)`` removes both, and ``reject(_:reason:)`` moves
/// the journal beside the rejected copy, as `<copy>-journal`. No write makes a journal.
///
/// ```swift
/// let support = try FileManager.default.url(
///     for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
/// let store = FileStore(directory: support.appending(path: "Restoration"))
/// try store.write(archive, to: .main)
/// let restored = try store.read(.main)
/// ```
///
/// Give each directory to one store: the store does not lock the directory against other
/// processes. Within a process, the changes of all file stores (write, remove, reject) run one at
/// a time. On a case-insensitive file system, keys that differ only in case share a file.
public final class FileStore: RestorationStore {
    /// The directory that holds the archives; created with mode `0700` by the first write if
    /// missing, with any missing parents.
    ///
    /// ```swift
    /// print(store.directory.path(percentEncoded: false))
    /// ```
    public let directory: URL

    /// The largest archive, in bytes, this store writes or reads.
    ///
    /// A write of a larger archive throws ``StoreError/Code/tooLarge`` and leaves the previous
    /// archive; a larger file is not read (``read(_:)`` throws the same code, before reading any
    /// of it, so a damaged or hostile file cannot exhaust memory at launch) and is left in place,
    /// where a coordinator's launch moves it aside as it does a damaged archive.
    /// The default, ``defaultMaximumArchiveSize``, is far above any real hierarchy: 500
    /// realistic screens make about 400 KB.
    ///
    /// ```swift
    /// let store = FileStore(directory: folder, maximumArchiveSize: 8 << 20)
    /// ```
    public let maximumArchiveSize: Int

    /// The default ``maximumArchiveSize``: 64 MiB.
    public static let defaultMaximumArchiveSize = 64 << 20

    /// The most rejected copies of a key that a rejection keeps, its own included.
    package let keptRejectedCopies: Int

    /// The most bytes the rejected copies of a key may take together after a rejection, unless
    /// the copy it made takes more on its own; older builds' journals beside them count.
    package let keptRejectedBytes: Int

    /// The default ``keptRejectedCopies``: 3.
    package static let defaultKeptRejectedCopies = 3

    /// The default ``keptRejectedBytes``: 64 MiB, one copy of the largest archive by default.
    package static let defaultKeptRejectedBytes = 64 << 20

    /// The directory's path, without a trailing slash.
    let directoryPath: String

    /// The system calls that change files, with the failures injected and the recorder of tests.
    let fileSystem: FileSystem

    /// The clock that dates rejected copies; `Date.init` in production.
    let now: @Sendable () -> Date

    /// Serializes the reads and changes of every file store in the process, so that a write never
    /// removes the temporary file of another write in progress, rejected names are unique, and a
    /// read sees an archive file and an older build's journal from the same moment.
    private static let changes = Mutex(())

    /// The steps of a write, in order, then that of a rejection, for tests that make one of them
    /// fail.
    ///
    /// ```swift
    /// let failing = FileStore(directory: folder, failure: { $0 == .synchronize ? ENOSPC : nil })
    /// ```
    package enum WriteStep: Sendable, CaseIterable {
        /// The creation of the temporary file (`open` with `O_CREAT | O_EXCL`).
        case create
        /// Setting the temporary file's mode to `0600` (`fchmod`).
        case setMode
        /// Writing the bytes (`write`).
        case write
        /// Flushing the temporary file (`fsync`).
        case synchronize
        /// Closing the temporary file (`close`); fails after the real close.
        case close
        /// Renaming the temporary file over the archive (`rename`).
        case rename
        /// Flushing the directory (`fsync` of the directory), in every change of the store.
        case synchronizeDirectory
        /// A rejection's move of the archive file (and of an older build's journal) out of the key.
        case moveArchiveAside

        /// The steps of a write of the whole archive file.
        package static let archiveFileSteps: [WriteStep] = [
            .create, .setMode, .write, .synchronize, .close, .rename, .synchronizeDirectory,
        ]
    }

    /// Creates a store that keeps its archives in a directory.
    ///
    /// Creating the store touches no file; the first write creates the directory if needed.
    ///
    /// ```swift
    /// let store = FileStore(directory: URL(filePath: "/var/mobile/Restoration", directoryHint: .isDirectory))
    /// ```
    ///
    /// - Parameter directory: A `file:` URL of the directory for the archives. Passing a URL of
    ///   another scheme is a programmer error and traps.
    public convenience init(directory: URL) {
        self.init(directory: directory, failure: nil)
    }

    /// Creates a store that keeps its archives in a directory and accepts archives up to a size.
    ///
    /// ```swift
    /// let store = FileStore(directory: folder, maximumArchiveSize: 8 << 20)
    /// ```
    ///
    /// - Parameters:
    ///   - directory: A `file:` URL of the directory for the archives. Passing a URL of
    ///     another scheme is a programmer error and traps.
    ///   - maximumArchiveSize: The largest archive, in bytes, the store writes or reads; see
    ///     ``maximumArchiveSize``. It must not be negative.
    public convenience init(directory: URL, maximumArchiveSize: Int) {
        self.init(directory: directory, maximumArchiveSize: maximumArchiveSize, failure: nil)
    }

    /// Creates a store whose system calls fail at the steps for which `failure` returns an
    /// `errno`, are told to `recorder` once made, and which dates rejected copies with `now`; for
    /// tests.
    ///
    /// ```swift
    /// let store = FileStore(directory: folder, failure: nil, recorder: { print($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - directory: A `file:` URL of the directory for the archives.
    ///   - maximumArchiveSize: The largest archive, in bytes, the store writes or reads.
    ///   - keptRejectedCopies: The most rejected copies of a key a rejection keeps; at least 1.
    ///   - keptRejectedBytes: The most bytes a key's rejected copies keep after a rejection.
    ///   - failure: Returns the `errno` with which a step fails, or `nil` to make the real call.
    ///   - recorder: Sees each system call that changed a file or directory, after it succeeded.
    ///   - now: The clock that dates rejected copies.
    package init(
        directory: URL, maximumArchiveSize: Int = FileStore.defaultMaximumArchiveSize,
        keptRejectedCopies: Int = FileStore.defaultKeptRejectedCopies,
        keptRejectedBytes: Int = FileStore.defaultKeptRejectedBytes,
        failure: (@Sendable (WriteStep) -> Int32?)?, recorder: (@Sendable (Call) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        precondition(directory.isFileURL, "FileStore needs a file URL, not \(directory)")
        precondition(maximumArchiveSize >= 0, "maximumArchiveSize must not be negative")
        precondition(keptRejectedCopies >= 1, "keptRejectedCopies must be at least 1")
        self.directory = directory
        self.maximumArchiveSize = maximumArchiveSize
        self.keptRejectedCopies = keptRejectedCopies
        self.keptRejectedBytes = keptRejectedBytes
        var path = directory.standardizedFileURL.path(percentEncoded: false)
        while path.count > 1 && path.hasSuffix("/") {
            path.removeLast()
        }
        self.directoryPath = path
        self.fileSystem = FileSystem(failure: failure, recorder: recorder)
        self.now = now
    }

    /// Returns the URL of the file that holds a key's archive, `<directory>/<key>.restoration`.
    ///
    /// The file exists only while the key holds an archive.
    ///
    /// ```swift
    /// store.fileURL(for: .main)  // file:///…/Restoration/main.restoration
    /// ```
    ///
    /// - Parameter key: The archive's key.
    /// - Returns: The URL of the key's archive file.
    public func fileURL(for key: StoreKey) -> URL {
        URL(filePath: path(for: ArchiveNaming.archiveName(for: key)), directoryHint: .notDirectory)
    }

    /// Returns the archive stored under a key, or `nil` if there is none.
    ///
    /// ```swift
    /// let data = try store.read(.main)
    /// ```
    ///
    /// - Parameter key: The archive's key.
    /// - Returns: The bytes of `<directory>/<key>.restoration` (with the journal of an older
    ///   build applied, if one lies beside it; see ``FileStore``), or `nil` if the file (or the
    ///   directory) does not exist.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/readFailed`` or
    ///   ``StoreError/Code/permissionDenied`` if the file or the journal exists but cannot be
    ///   read, ``StoreError/Code/notAFile`` if either is not a regular file, or
    ///   ``StoreError/Code/tooLarge`` if the archive is larger than ``maximumArchiveSize``.
    public func read(_ key: StoreKey) throws(StoreError) -> Data? {
        try Self.changes.withLock { _ throws(StoreError) -> Data? in
            try readWhileLocked(key)
        }
    }

    /// Stores an archive under a key, atomically and durably, replacing any previous one.
    ///
    /// The bytes go to a new temporary file (mode `0600`) in the same directory, which is flushed
    /// to stable storage and renamed over `<directory>/<key>.restoration`; then an older build's
    /// journal of the key, if there is one, is removed, the directory is flushed, and temporary
    /// files left by killed processes are removed. If any step up to the rename fails, the
    /// temporary file is removed and the previous archive is left intact. If only the removal of
    /// the journal or the final directory flush fails, the new archive is in place (a journal left
    /// beside it was written for another archive file and is ignored) but might not survive a
    /// power loss; the error says so, with code ``StoreError/Code/writeFailed`` or
    /// ``StoreError/Code/syncFailed``.
    ///
    /// ```swift
    /// try store.write(archive, to: .main)
    /// ```
    ///
    /// - Parameters:
    ///   - data: The archive's bytes; may be empty.
    ///   - key: The archive's key.
    /// - Throws: ``StoreError``, such as ``StoreError/Code/permissionDenied`` for a read-only
    ///   directory, ``StoreError/Code/noSpace`` for a full disk,
    ///   ``StoreError/Code/directoryUnavailable`` if the directory cannot be created or
    ///   ``StoreError/Code/tooLarge`` for an archive larger than ``maximumArchiveSize``.
    public func write(_ data: Data, to key: StoreKey) throws(StoreError) {
        try Self.changes.withLock { _ throws(StoreError) in
            try writeWhileLocked(data, to: key)
        }
    }

    /// Deletes a key's archive; does nothing if there is none.
    ///
    /// An older build's journal of the key is removed too; rejected copies are kept. The
    /// directory is flushed, so that the archive does not come back after a power loss.
    ///
    /// ```swift
    /// try store.remove(.main)
    /// ```
    ///
    /// - Parameter key: The archive's key.
    /// - Throws: ``StoreError`` if the file exists but cannot be deleted, or the directory cannot
    ///   be flushed afterwards.
    public func remove(_ key: StoreKey) throws(StoreError) {
        try Self.changes.withLock { _ throws(StoreError) in
            let file = path(for: ArchiveNaming.archiveName(for: key))
            // The archive first: a journal left alone by a kill is ignored, and removed by the next write.
            let removedArchive = try fileSystem.removeFile(file, operation: .remove)
            let removedJournal = try fileSystem.removeFile(journalPath(for: key), operation: .remove)
            if removedArchive || removedJournal {
                try fileSystem.synchronizeDirectory(directoryPath, operation: .remove)
            }
        }
    }

    /// Renames a key's archive to a rejected copy and returns the copy's path.
    ///
    /// The copy is `<directory>/<key>.rejected-<reason>-<yyyyMMdd'T'HHmmss.SSS'Z'>.restoration`,
    /// in UTC, where `<reason>` is a slug of `reason` (lower-case letters, digits and dashes, at
    /// most 40 characters). An existing copy is never overwritten: a copy rejected in the same
    /// millisecond for the same reason gets `-2`, `-3`, … after the timestamp. An older build's
    /// journal of the key goes beside the copy, as `<copy>-journal`, so that the two hold what a
    /// read returned. Then the oldest copies of the key are removed while there are more than
    /// three or they take more than 64 MiB, never the new one (see ``FileStore``); a copy that
    /// cannot be removed is left. The directory is flushed once, after all of it.
    ///
    /// ```swift
    /// let path = try store.reject(.main, reason: "checksum-mismatch")
    /// // "/…/main.rejected-checksum-mismatch-20261122T101038.250Z.restoration"
    /// ```
    ///
    /// - Parameters:
    ///   - key: The archive's key.
    ///   - reason: Why the archive was rejected, such as `"checksum-mismatch"`.
    /// - Returns: The path of the rejected copy, or `nil` if the key held no archive.
    /// - Throws: ``StoreError`` if the archive cannot be renamed or the directory cannot be
    ///   flushed afterwards.
    public func reject(_ key: StoreKey, reason: String) throws(StoreError) -> String? {
        try Self.changes.withLock { _ throws(StoreError) -> String? in
            let source = path(for: ArchiveNaming.archiveName(for: key))
            guard SystemCalls.exists(source) else { return nil }
            let slug = ArchiveNaming.slug(for: reason)
            let timestamp = ArchiveNaming.timestamp(now())
            var sequence = 1
            var destination: String
            repeat {
                destination = path(
                    for: ArchiveNaming.rejectedName(for: key, slug: slug, timestamp: timestamp, sequence: sequence))
                sequence += 1
            } while SystemCalls.exists(destination)
            // The archive first: a journal left without it by a kill is ignored, and removed by the
            // next write before its rename.
            try fileSystem.rename(source, to: destination, step: .moveArchiveAside, operation: .reject)
            let journal = journalPath(for: key)
            if SystemCalls.exists(journal) {
                try fileSystem.rename(
                    journal, to: destination + LegacyJournal.suffix, step: .moveArchiveAside, operation: .reject)
            }
            pruneRejectedCopies(of: key, keeping: destination)
            try fileSystem.synchronizeDirectory(directoryPath, operation: .reject)
            return destination
        }
    }

    /// Returns the paths of a key's rejected copies, oldest first (by the time in their names).
    ///
    /// ```swift
    /// let rejected = try store.rejectedArchives(for: .main)
    /// ```
    ///
    /// - Parameter key: The key whose rejected copies to list.
    /// - Returns: The paths of the files `<key>.rejected-….restoration`, oldest first; empty if
    ///   the directory does not exist.
    /// - Throws: ``StoreError`` if the directory cannot be listed.
    public func rejectedArchives(for key: StoreKey) throws(StoreError) -> [String] {
        let names = try SystemCalls.contentsOfDirectory(directoryPath, operation: .list) ?? []
        let rejected = names.compactMap { name -> (order: ArchiveNaming.RejectedOrder, name: String)? in
            guard case .rejected(key, let order) = ArchiveNaming.classify(name) else { return nil }
            return (order, name)
        }
        return rejected.sorted { ($0.order, $0.name) < ($1.order, $1.name) }.map { path(for: $0.name) }
    }

    /// Returns the keys that have an archive file, sorted.
    ///
    /// Rejected copies, temporary files and unrelated files are not listed.
    ///
    /// ```swift
    /// let keys = try store.keys()  // [main, scene-1]
    /// ```
    ///
    /// - Returns: The keys of the `<key>.restoration` files, in ascending order; empty if the
    ///   directory does not exist.
    /// - Throws: ``StoreError`` if the directory cannot be listed.
    public func keys() throws(StoreError) -> [StoreKey] {
        let names = try SystemCalls.contentsOfDirectory(directoryPath, operation: .list) ?? []
        return names.compactMap { name -> StoreKey? in
            guard case .archive(let key) = ArchiveNaming.classify(name) else { return nil }
            return key
        }.sorted()
    }

    // MARK: Reading and writing

    /// The body of ``read(_:)``, run while holding ``changes``: the archive file, with an older
    /// build's journal applied if one lies beside it.
    private func readWhileLocked(_ key: StoreKey) throws(StoreError) -> Data? {
        let target = path(for: ArchiveNaming.archiveName(for: key))
        guard let file = try SystemCalls.readFile(at: target, limit: maximumArchiveSize, operation: .read) else {
            return nil
        }
        let limit = LegacyJournal.readLimit(maximumArchiveSize: maximumArchiveSize)
        guard let journal = try SystemCalls.readFile(at: journalPath(for: key), limit: limit, operation: .read)
        else { return file }
        do {
            return try LegacyJournal.apply(journal, to: file, limit: maximumArchiveSize)
        } catch {
            throw StoreError(
                code: .tooLarge, operation: .read, path: target,
                reason: "the journal beside it makes it \(error.length) bytes, more than the store's limit of "
                    + "\(maximumArchiveSize) bytes; it was not read")
        }
    }

    /// The body of ``write(_:to:)``, run while holding ``changes``.
    private func writeWhileLocked(_ data: Data, to key: StoreKey) throws(StoreError) {
        let target = path(for: ArchiveNaming.archiveName(for: key))
        guard data.count <= maximumArchiveSize else {
            throw StoreError(
                code: .tooLarge, operation: .write, path: target,
                reason: "the archive is \(data.count) bytes, more than the store's limit of \(maximumArchiveSize) "
                    + "bytes; the previous archive is kept")
        }
        try createDirectory(directoryPath)
        let (temporary, descriptor) = try createTemporaryFile(for: key, target: target)
        do {
            try fileSystem.setPrivateMode(descriptor, of: temporary, path: target, operation: .write)
            try fileSystem.writeAll(data, to: descriptor, of: temporary, path: target, operation: .write)
            try fileSystem.synchronize(descriptor, of: temporary, path: target, operation: .write)
        } catch {
            SystemCalls.closeIgnoringErrors(descriptor)
            fileSystem.removeFileIgnoringErrors(temporary)
            throw error
        }
        // An older build's journal goes after the rename: removed before it, a kill in between
        // would bring back the archive file without the saves in the journal. A journal without
        // an archive file (a kill while removing) goes before it: it must never meet a new file
        // with the bytes it was written for.
        let journal = journalPath(for: key)
        let replacing = SystemCalls.exists(target)
        do {
            try fileSystem.close(descriptor, of: temporary, path: target, operation: .write)
            if !replacing { try fileSystem.removeFile(journal, operation: .write) }
            try fileSystem.rename(temporary, to: target, step: .rename, operation: .write)
        } catch {
            fileSystem.removeFileIgnoringErrors(temporary)
            throw error
        }
        if replacing { try fileSystem.removeFile(journal, operation: .write) }
        try fileSystem.synchronizeDirectory(directoryPath, operation: .write)
        removeStaleTemporaryFiles()
    }

    /// Removes a key's oldest rejected copies, and the older builds' journals beside them, while
    /// there are more than ``keptRejectedCopies`` or they take more than ``keptRejectedBytes``;
    /// never `newest`, the copy just made, even if a clock set back dates it before the others.
    /// A copy that cannot be removed is left: the rejection that made `newest` succeeded.
    private func pruneRejectedCopies(of key: StoreKey, keeping newest: String) {
        guard let copies = try? rejectedArchives(for: key) else { return }
        func size(_ copy: String) -> Int {
            (SystemCalls.fileSize(at: copy) ?? 0) + (SystemCalls.fileSize(at: copy + LegacyJournal.suffix) ?? 0)
        }
        var count = copies.count
        var total = copies.reduce(0) { $0 + size($1) }
        for copy in copies where copy != newest {
            guard count > keptRejectedCopies || total > keptRejectedBytes else { break }
            let bytes = size(copy)
            fileSystem.removeFileIgnoringErrors(copy)
            fileSystem.removeFileIgnoringErrors(copy + LegacyJournal.suffix)
            count -= 1
            total -= bytes
        }
    }

    /// The path of a key's journal, left by an older build: `<directory>/<key>.restoration-journal`.
    private func journalPath(for key: StoreKey) -> String {
        path(for: LegacyJournal.name(for: key))
    }

    /// Creates a new, empty temporary file for a key's archive, with a name no file has.
    private func createTemporaryFile(for key: StoreKey, target: String) throws(StoreError) -> (String, Int32) {
        // 64 random bits: a clash is all but impossible, but O_EXCL makes one harmless.
        for _ in 0..<8 {
            let name = ArchiveNaming.temporaryName(
                for: key, processID: SystemCalls.processID, token: UInt64.random(in: .min ... .max))
            let temporary = path(for: name)
            if let descriptor = try fileSystem.createExclusively(temporary, path: target, operation: .write) {
                return (temporary, descriptor)
            }
        }
        throw StoreError(
            code: .writeFailed, operation: .write, path: target, reason: "no unused temporary file name found")
    }

    /// Creates the directory, and any missing parents, with mode `0700` if it does not exist.
    private func createDirectory(_ path: String) throws(StoreError) {
        let created: Bool
        do {
            created = try fileSystem.makePrivateDirectory(path, operation: .write)
        } catch  where SystemCalls.isMissingParent(error) && Self.parent(of: path) != path {
            try createDirectory(Self.parent(of: path))
            created = try fileSystem.makePrivateDirectory(path, operation: .write)
        }
        if created {
            // Make the new directory's name durable, like the archive's; a failure here leaves
            // the directory usable, so it is not an error of the write.
            try? fileSystem.synchronizeDirectory(Self.parent(of: path), operation: .write)
        }
    }

    /// Removes temporary files of killed processes, and of failed writes of this process whose
    /// cleanup failed. Runs while holding ``changes``, so no write of this process is under way.
    private func removeStaleTemporaryFiles() {
        guard let names = try? SystemCalls.contentsOfDirectory(directoryPath, operation: .write) else { return }
        let ownProcess = SystemCalls.processID
        for name in names {
            guard case .temporary(let processID) = ArchiveNaming.classify(name),
                processID == ownProcess || !SystemCalls.processExists(processID)
            else { continue }
            fileSystem.removeFileIgnoringErrors(path(for: name))
        }
    }

    // MARK: Paths

    /// The path of a file in the directory.
    private func path(for name: String) -> String {
        directoryPath == "/" ? "/" + name : directoryPath + "/" + name
    }

    /// The parent directory of a path; `"/"` for `"/"`.
    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
