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
/// While a write is under way, its bytes are in a hidden temporary file,
/// `.<key>.restoration.<process id>.<random>.tmp`. Beside an archive there may be its journal,
/// `<key>.restoration-journal` (see below). Other files in the directory are ignored.
///
/// ## Atomic, durable, private
///
/// ``write(_:to:)`` creates a new temporary file in the same directory (`O_CREAT | O_EXCL`),
/// writes all the bytes, flushes them to stable storage (`F_FULLFSYNC` on Apple platforms,
/// `fsync` elsewhere), renames the file over the archive and flushes the directory. A reader
/// therefore sees the old archive or the new one, never a mix, even if the process is killed or
/// the machine loses power. Archives are readable and writable by their owner only (mode `0600`)
/// and a directory the store creates is mode `0700`, whatever the umask. Temporary files left
/// behind by a killed process are ignored and removed by the next successful write.
///
/// ## Small changes go to a journal
///
/// A save where one screen of many changed makes an archive that differs from the previous one
/// in a few hundred bytes. When this store wrote or read the key's archive before, and the new
/// bytes differ from it in little, ``write(_:to:)`` appends a record of the changed byte ranges
/// to the key's journal and flushes only that, instead of rewriting the whole file: for an archive
/// of 400 KB, a fraction of a millisecond instead of two. Each record carries a CRC-32C; a read
/// applies the journal's records to the archive file in order, and ignores a record torn by a
/// kill or damaged on disk (and everything after it), so a reader still sees the previous
/// content or the new one. The journal is bound to the archive file's length and checksum, so a
/// journal left beside a newer archive file is ignored. When the journal holds 256 records, or
/// the next record would take it past a quarter of the archive's size or past its work bound
/// (the bytes the records insert, plus the bytes after each change of length, which move: at
/// most 32 times the archive's size; a record whose changes keep their lengths costs only its
/// own bytes), the write rewrites the archive file as above and removes the journal. Rejecting
/// an archive with a journal keeps the content a read returns, with the journal beside the copy
/// as `<copy>-journal`; removing it removes both files. The format is in
/// `Documentation/ArchiveFormat.md`.
///
/// To compare, a store keeps the last archive it wrote or read for each key (the `Data` it was
/// given or returned, not a copy) until the key's next write, remove or reject.
///
/// The journal relies on this store being the only writer of its files: a store checks that the
/// archive file and journal are as it left them (their inode, size and times, and zeros where
/// its next record goes) and otherwise rewrites the archive file, but another process writing
/// the same files at the same moment is not detected.
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

    /// The directory's path, without a trailing slash.
    let directoryPath: String

    /// The system calls that change files, with the failures injected and the recorder of tests.
    let fileSystem: FileSystem

    /// The clock that dates rejected copies; `Date.init` in production.
    let now: @Sendable () -> Date

    /// Serializes the reads and changes of every file store in the process, so that a write never
    /// removes the temporary file of another write in progress, rejected names are unique, and a
    /// read sees an archive file and its journal from the same moment.
    private static let changes = Mutex(())

    /// What this store last wrote or read for each key, for the next write's journal record.
    /// Only used while holding ``changes``.
    private let known = Mutex<[StoreKey: KnownArchive]>([:])

    /// The steps of a write, in order, for tests that make one of them fail: first those of a
    /// write of the archive file, then those of a record appended to the journal.
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
        /// Opening the journal.
        case openJournal
        /// Appending a record to the journal.
        case appendJournal
        /// Flushing the journal.
        case synchronizeJournal
        /// A rejection's move of the archive file out of the key.
        case moveArchiveAside
        /// A rejection's move of the journal out of the key.
        case moveJournalAside

        /// The steps of a write of the whole archive file.
        package static let archiveFileSteps: [WriteStep] = [
            .create, .setMode, .write, .synchronize, .close, .rename, .synchronizeDirectory,
        ]
    }

    /// An archive as this store last wrote or read it.
    struct KnownArchive {
        /// The bytes a read returns: the archive file with its journal applied.
        var content: Data
        /// The archive file's identity then; a journal record is only appended while it is the same.
        var base: FileIdentity
        /// The archive file's CRC-32C, once computed.
        var baseChecksum: UInt32?
        /// The valid bytes of the journal; 0 if the archive file has none yet.
        var journalLength: Int
        /// The journal file's identity after this store last wrote or read it; its size is
        /// the bytes allocated, valid records and zeros.
        var journal: FileIdentity?
        /// Whether only zeros follow the valid records (not a record torn by a kill).
        var journalTailIsClean = true
        /// The records in the journal.
        var records: Int
        /// The work of the journal's records (``FileStoreJournal/work(of:contentLength:)``).
        var work = 0
        /// Whether the journal, if there is one, is of the version written: an older one is
        /// read but not appended to.
        var journalIsCurrent = true
        /// Whether this store knows the journal's name to be durable: it created the journal
        /// and synchronized the directory. A journal found by a read may have been left by a
        /// process killed before that synchronization, so the first append to it makes it so.
        var journalNameIsDurable = false
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
    ///   - failure: Returns the `errno` with which a step fails, or `nil` to make the real call.
    ///   - recorder: Sees each system call that changed a file or directory, after it succeeded.
    ///   - now: The clock that dates rejected copies.
    package init(
        directory: URL, maximumArchiveSize: Int = FileStore.defaultMaximumArchiveSize,
        failure: (@Sendable (WriteStep) -> Int32?)?, recorder: (@Sendable (Call) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        precondition(directory.isFileURL, "FileStore needs a file URL, not \(directory)")
        precondition(maximumArchiveSize >= 0, "maximumArchiveSize must not be negative")
        self.directory = directory
        self.maximumArchiveSize = maximumArchiveSize
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
    /// - Returns: The bytes of `<directory>/<key>.restoration`, or `nil` if the file (or the
    ///   directory) does not exist.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/readFailed`` or
    ///   ``StoreError/Code/permissionDenied`` if the file exists but cannot be read, or
    ///   ``StoreError/Code/tooLarge`` if it is larger than ``maximumArchiveSize``.
    public func read(_ key: StoreKey) throws(StoreError) -> Data? {
        try Self.changes.withLock { _ throws(StoreError) -> Data? in
            try readWhileLocked(key)
        }
    }

    /// Stores an archive under a key, atomically and durably, replacing any previous one.
    ///
    /// The bytes go to a new temporary file (mode `0600`) in the same directory, which is flushed
    /// to stable storage and renamed over `<directory>/<key>.restoration`; then the key's journal
    /// is removed, the directory is flushed, and temporary files left by killed processes are
    /// removed. If any step up to the rename fails, the temporary file is removed and the previous
    /// archive is left intact. If only the removal of the journal or the final directory flush
    /// fails, the new archive is in place (a journal left beside it does not match it and is
    /// ignored) but might not survive a power loss; the error says so, with code
    /// ``StoreError/Code/writeFailed`` or ``StoreError/Code/syncFailed``.
    ///
    /// When this store wrote or read the key's archive before and `data` differs from it in
    /// little, the write appends a record to the key's journal instead (see ``FileStore``); if any
    /// step of that fails, the part of the record that reached the file is cut off again and the
    /// write falls back to the steps above.
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
    /// Rejected copies are kept. The directory is flushed, so that the archive does not come
    /// back after a power loss.
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
            forget(key)
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
    /// millisecond for the same reason gets `-2`, `-3`, … after the timestamp.
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
            forget(key)
            let journal = journalPath(for: key)
            if SystemCalls.exists(journal) {
                try rejectJournaled(key, archive: source, journal: journal, to: destination)
            } else {
                try fileSystem.rename(source, to: destination, step: .moveArchiveAside, operation: .reject)
            }
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

    // MARK: Writing

    /// The body of ``write(_:to:)``, run while holding ``changes``.
    private func writeWhileLocked(_ data: Data, to key: StoreKey) throws(StoreError) {
        let target = path(for: ArchiveNaming.archiveName(for: key))
        guard data.count <= maximumArchiveSize else {
            throw StoreError(
                code: .tooLarge, operation: .write, path: target,
                reason: "the archive is \(data.count) bytes, more than the store's limit of \(maximumArchiveSize) "
                    + "bytes; the previous archive is kept")
        }
        if appendToJournal(data, key: key, target: target) { return }
        try writeArchiveFile(data, key: key, target: target)
    }

    /// Replaces the archive file with `data` and removes its journal.
    private func writeArchiveFile(_ data: Data, key: StoreKey, target: String) throws(StoreError) {
        forget(key)
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
        do {
            try fileSystem.close(descriptor, of: temporary, path: target, operation: .write)
            if !SystemCalls.exists(target) {
                // No archive file: a journal here is left over (a kill while removing), and must
                // not meet an archive file with the bytes it was written for.
                try fileSystem.removeFile(journalPath(for: key), operation: .write)
            }
            try fileSystem.rename(temporary, to: target, step: .rename, operation: .write)
        } catch {
            fileSystem.removeFileIgnoringErrors(temporary)
            throw error
        }
        // After the rename: a journal removed before it would leave an older content than the
        // previous write's if the process were killed in between. A journal that outlives the
        // rename (a kill right here) does not match the new archive file and is ignored.
        try fileSystem.removeFile(journalPath(for: key), operation: .write)
        try fileSystem.synchronizeDirectory(directoryPath, operation: .write)
        removeStaleTemporaryFiles()
        if let identity = SystemCalls.identity(of: target) {
            remember(
                key,
                KnownArchive(
                    content: data, base: identity, baseChecksum: nil, journalLength: 0, journal: nil, records: 0))
        }
    }

    // MARK: Journal

    /// Appends the record that turns the key's known content into `data` to its journal, and
    /// flushes it; returns `false`, having changed nothing a read sees, when the archive file
    /// should be written instead: this store has not written or read the key, the files changed
    /// since, the record would be large, the journal is full, or a step failed.
    private func appendToJournal(_ data: Data, key: StoreKey, target: String) -> Bool {
        guard var archive = known.withLock({ $0[key] }), archive.records < FileStoreJournal.maximumRecords,
            archive.journalIsCurrent, SystemCalls.identity(of: target) == archive.base
        else { return false }
        let used = Swift.max(archive.journalLength, FileStoreJournal.headerSize)
        guard
            let (record, work) = FileStoreJournal.record(
                from: archive.content, to: data, sequence: archive.records + 1,
                budget: FileStoreJournal.maximumJournalSize(forContentOf: data.count) - used,
                workBudget: FileStoreJournal.workBudget(baseLength: archive.base.size) - archive.work)
        else { return false }
        let journal = journalPath(for: key)
        let creating = archive.journalLength == 0
        let offset = archive.journalLength
        var bytes = record
        if creating {
            // No record yet, so the known content is the archive file's.
            let checksum = archive.baseChecksum ?? CRC32C.checksum(archive.content)
            archive.baseChecksum = checksum
            bytes = FileStoreJournal.header(baseLength: archive.content.count, baseChecksum: checksum) + record
        }
        // A record that fits in the zeros already allocated changes neither the file's size nor
        // its blocks, and is flushed without metadata; otherwise the file grows, with zeros.
        let allocated = !creating && archive.journalTailIsClean ? archive.journal?.size ?? offset : offset
        let end = offset + bytes.count
        let extending = end > allocated
        if extending {
            let size = FileStoreJournal.allocatedSize(for: end)
            // A journal this store would refuse to read (its limit is small) is not written.
            guard size <= journalReadLimit else { return false }
            bytes.append(Data(count: size - end))
        }
        var descriptor: Int32 = -1
        var reachedFile = false
        do {
            try fileSystem.inject(.openJournal, target)
            guard let opened = try SystemCalls.openJournal(journal, create: creating, path: target, operation: .write)
            else {
                // A new journal's name is taken (a journal this store does not know of, maybe
                // another store's), or a known one is gone: only a write of the archive file is safe.
                forget(key)
                return false
            }
            descriptor = opened
            if creating {
                try SystemCalls.setPrivateMode(descriptor, path: target, operation: .write)
            } else {
                // Another store in the process may have appended since: its record would start
                // where this one is to go. (The file's times may not have changed, if it wrote
                // within the file system's timestamp granularity.)
                guard let found = SystemCalls.identity(of: descriptor), found == archive.journal,
                    !archive.journalTailIsClean
                        || SystemCalls.readZeros(descriptor, at: offset, count: 4) != false
                else {
                    SystemCalls.closeIgnoringErrors(descriptor)
                    forget(key)
                    return false
                }
                if !archive.journalTailIsClean {
                    // A torn record after the valid ones, found by the read: cut it off.
                    try SystemCalls.truncate(descriptor, to: offset, path: target, operation: .write)
                }
            }
            try fileSystem.inject(.appendJournal, target)
            reachedFile = true
            try SystemCalls.writeAll(bytes, to: descriptor, at: offset, path: target, operation: .write)
            try fileSystem.inject(.synchronizeJournal, target)
            if extending {
                try SystemCalls.synchronize(descriptor, path: target, operation: .write)
            } else {
                try SystemCalls.synchronizeData(descriptor, path: target, operation: .write)
            }
            archive.journal = SystemCalls.identity(of: descriptor)
            // The descriptor is gone after close, even a failed one: never used again.
            let closing = descriptor
            descriptor = -1
            try SystemCalls.closeChecked(closing, path: target, operation: .write)
            if creating || !archive.journalNameIsDurable {
                // Make the new journal's name durable, as a write of the archive file does; for a
                // journal found by a read, once, before this store confirms a record in it.
                try fileSystem.inject(.synchronizeDirectory, directoryPath)
                try SystemCalls.synchronizeDirectory(directoryPath, operation: .write)
                archive.journalNameIsDurable = true
            }
            archive.journalLength = offset + (creating ? FileStoreJournal.headerSize : 0) + record.count
            archive.journalTailIsClean = true
            archive.content = data
            archive.records += 1
            archive.work += work
            remember(key, archive)
            return true
        } catch {
            if descriptor >= 0 { SystemCalls.closeIgnoringErrors(descriptor) }
            forget(key)
            if reachedFile {
                // Take back whatever part of the record reached the file, durably, so that no
                // read sees it if the write of the archive file that follows fails too.
                if creating {
                    SystemCalls.removeFileIgnoringErrors(journal)
                    try? SystemCalls.synchronizeDirectory(directoryPath, operation: .write)
                } else {
                    SystemCalls.truncateFileIgnoringErrors(journal, to: offset)
                }
            }
            return false
        }
    }

    /// The largest journal file a read accepts: the records are at most a quarter of content
    /// within ``maximumArchiveSize`` (or 4 KB), and the file grows in steps of 32 KB.
    private var journalReadLimit: Int {
        let records = Swift.max(maximumArchiveSize / 4, 4096) + FileStoreJournal.headerSize
        return records + FileStoreJournal.allocationStep
    }

    /// The body of ``read(_:)``, run while holding ``changes``: the archive file with its journal
    /// applied, remembered for the next write.
    private func readWhileLocked(_ key: StoreKey) throws(StoreError) -> Data? {
        let target = path(for: ArchiveNaming.archiveName(for: key))
        guard
            let (base, identity) = try SystemCalls.readFileAndIdentity(
                at: target, limit: maximumArchiveSize, operation: .read)
        else {
            forget(key)
            return nil
        }
        var archive = KnownArchive(
            content: base, base: identity, baseChecksum: nil, journalLength: 0, journal: nil, records: 0)
        let journal = journalPath(for: key)
        if let (bytes, journalIdentity) = try SystemCalls.readFileAndIdentity(
            at: journal, limit: journalReadLimit, operation: .read)
        {
            let replay: FileStoreJournal.Replay
            do {
                replay = try FileStoreJournal.replay(base: base, journal: bytes, limit: maximumArchiveSize)
            } catch {
                forget(key)
                throw StoreError(
                    code: .tooLarge, operation: .read, path: target,
                    reason: "its journal makes it \(error.length) bytes, more than the store's limit of "
                        + "\(maximumArchiveSize) bytes; it was not read")
            }
            archive.content = replay.content
            archive.baseChecksum = replay.baseChecksum
            if replay.matchesBase {
                archive.journalLength = replay.validLength
                archive.journal = journalIdentity
                archive.journalTailIsClean = replay.tailIsClean
                archive.records = replay.records
                archive.work = replay.work
                archive.journalIsCurrent = replay.version == FileStoreJournal.version
            }
        }
        remember(key, archive)
        return archive.content
    }

    /// Rejects an archive that has a journal: the rejected copy holds what a read returns, the
    /// journal is kept beside it as `<copy>-journal`, and the archive file is removed. An
    /// archive that cannot be read is moved aside as its file is, with its journal beside it.
    private func rejectJournaled(
        _ key: StoreKey, archive: String, journal: String, to destination: String
    ) throws(StoreError) {
        let content = try? readWhileLocked(key)
        forget(key)
        // An archive too large to read, or not readable at all, is rejected as its file is.
        // The archive file goes first: a journal left without it is ignored, and removed
        // by the next write, while an archive file left without its journal would bring
        // back the save before the journal's records.
        guard let content else {
            try fileSystem.inject(.moveArchiveAside, archive, operation: .reject)
            try SystemCalls.rename(archive, to: destination, operation: .reject)
            try fileSystem.inject(.moveJournalAside, journal, operation: .reject)
            try SystemCalls.rename(journal, to: destination + "-journal", operation: .reject)
            return  // reject(_:reason:) syncs the directory
        }
        let copyName = URL(fileURLWithPath: destination).lastPathComponent
        guard
            let descriptor = try SystemCalls.createExclusively(
                destination, path: archive, operation: .reject, what: "the rejected copy \(copyName)")
        else {
            throw StoreError(
                code: .writeFailed, operation: .reject, path: archive,
                reason: "the rejected copy's name \(destination) was taken while rejecting")
        }
        var open = true
        do {
            try SystemCalls.setPrivateMode(descriptor, path: archive, operation: .reject)
            try SystemCalls.writeAll(content, to: descriptor, path: archive, operation: .reject)
            try SystemCalls.synchronize(descriptor, path: archive, operation: .reject)
            open = false
            try SystemCalls.closeChecked(descriptor, path: archive, operation: .reject)
            try SystemCalls.synchronizeDirectory(directoryPath, operation: .reject)
        } catch {
            if open { SystemCalls.closeIgnoringErrors(descriptor) }
            SystemCalls.removeFileIgnoringErrors(destination)
            var failed = error
            failed.reason = "writing the rejected copy \(copyName): " + error.reason
            throw failed
        }
        do {
            try fileSystem.inject(.moveArchiveAside, archive, operation: .reject)
            try SystemCalls.removeFile(archive, operation: .reject)
        } catch {
            // The archive stays in the key: its copy would only be a second one at the next try.
            SystemCalls.removeFileIgnoringErrors(destination)
            throw error
        }
        // The journal stays beside the copy, for inspection, in case it was the damaged part.
        try fileSystem.inject(.moveJournalAside, journal, operation: .reject)
        try SystemCalls.rename(journal, to: destination + "-journal", operation: .reject)
    }

    private func remember(_ key: StoreKey, _ archive: KnownArchive) {
        known.withLock { $0[key] = archive }
    }

    private func forget(_ key: StoreKey) {
        _ = known.withLock { $0.removeValue(forKey: key) }
    }

    /// The path of a key's journal, `<directory>/<key>.restoration-journal`.
    private func journalPath(for key: StoreKey) -> String {
        path(for: FileStoreJournal.name(for: key))
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
