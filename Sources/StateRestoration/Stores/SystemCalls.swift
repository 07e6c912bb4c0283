import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every system call the stores make, as small wrappers that retry `EINTR` and turn `errno`
/// into ``StoreError``.
///
/// This is the only file of the module that imports the C library, so it is the only file to
/// check when porting. Each throwing wrapper takes the ``StoreError/Operation`` the store is
/// performing and the path involved, so that its errors say what failed and where.
enum SystemCalls {
    /// The permission bits of archive and temporary files: read and write for the owner only.
    static let privateFileMode = 0o600

    /// The permission bits of a store's directory: everything for the owner only.
    static let privateDirectoryMode = 0o700

    // MARK: Errors

    /// The system's message for an `errno` value, such as `"No space left on device"`.
    static func message(forErrno code: Int32) -> String {
        // strerror returns a static string for known codes on the platforms built here.
        guard let text = strerror(code) else { return "Unknown error \(code)" }
        return String(cString: text)
    }

    /// The error for a failed system call: codes about permissions and space win over the code
    /// of the step, so that callers can react to them whatever the step was.
    static func failure(
        _ reason: String, code: StoreError.Code, operation: StoreError.Operation, path: String, errno number: Int32
    ) -> StoreError {
        let kind: StoreError.Code
        switch number {
        case EACCES, EPERM, EROFS: kind = .permissionDenied
        case ENOSPC, EDQUOT: kind = .noSpace
        default: kind = code
        }
        return StoreError(code: kind, operation: operation, path: path, reason: reason, errno: number)
    }

    // MARK: Processes

    /// The current process's id.
    static var processID: Int32 { getpid() }

    /// Whether a process with this id exists (it may belong to another user).
    static func processExists(_ id: Int32) -> Bool {
        guard id > 0 else { return false }
        return kill(id, 0) == 0 || errno == EPERM
    }

    // MARK: Files

    /// Reads a whole file, or returns `nil` if it does not exist; a file of more than `limit`
    /// bytes is a ``StoreError/Code/tooLarge`` error, found before its bytes are read.
    static func readFile(at path: String, limit: Int, operation: StoreError.Operation) throws(StoreError) -> Data? {
        try readFileAndIdentity(at: path, limit: limit, operation: operation)?.data
    }

    /// Reads a whole file as ``readFile(at:limit:operation:)`` does, with the identity it had
    /// when it was opened.
    static func readFileAndIdentity(
        at path: String, limit: Int, operation: StoreError.Operation
    ) throws(StoreError) -> (data: Data, identity: FileIdentity)? {
        // Non-blocking: a FIFO at the path must not wait for a writer (reads of a regular
        // file ignore the flag).
        let descriptor = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else {
            let number = errno
            if number == ENOENT { return nil }
            throw failure("open failed", code: .readFailed, operation: operation, path: path, errno: number)
        }
        defer { _ = close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw failure("fstat failed", code: .readFailed, operation: operation, path: path, errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(
                code: .notAFile, operation: operation, path: path,
                reason: "it is not a regular file (\(fileKind(status.st_mode))); it was not read")
        }
        func tooLarge(_ size: String) -> StoreError {
            StoreError(
                code: .tooLarge, operation: operation, path: path,
                reason: "the file is \(size) bytes, more than the store's limit of \(limit) bytes; it was not read")
        }
        let identity = FileIdentity(status)
        let expected = Int(clamping: status.st_size)
        guard expected <= limit else { throw tooLarge("\(expected)") }
        // Read straight into the result; one byte more than expected tells a file that grew
        // since fstat from one that did not. A file never gets more than one byte past the
        // limit into memory (`limit` may be `Int.max`: no arithmetic here overflows).
        let ceiling = limit == .max ? limit : limit + 1
        var data = Data(count: expected == .max ? expected : expected + 1)
        var filled = 0
        while true {
            if filled == data.count {
                guard filled <= limit, filled < ceiling else { throw tooLarge("more than \(limit)") }
                data.count = filled > ceiling / 2 ? ceiling : Swift.min(filled * 2, ceiling)
            }
            let count = data.withUnsafeMutableBytes { buffer in
                // `data` is never empty here, so it always has an address.
                buffer.baseAddress.map { read(descriptor, $0 + filled, buffer.count - filled) } ?? 0
            }
            if count > 0 {
                filled += count
            } else if count == 0 {
                data.count = filled
                return (data, identity)
            } else if errno != EINTR {
                throw failure("read failed", code: .readFailed, operation: operation, path: path, errno: errno)
            }
        }
    }

    /// What kind of file a mode is, for messages.
    private static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "file type \(String(mode & S_IFMT, radix: 8))"
        }
    }

    /// Creates a new file with `O_CREAT | O_EXCL` and opens it for writing, or returns `nil` if
    /// a file with that name already exists.
    /// Errors name `path`, the file the new one stands for, and say the new one is `what`.
    static func createExclusively(
        _ temporary: String, path: String, operation: StoreError.Operation, what: String = "temporary file"
    ) throws(StoreError) -> Int32? {
        let descriptor = retryingInterrupts {
            open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(privateFileMode))
        }
        guard descriptor >= 0 else {
            let number = errno
            if number == EEXIST { return nil }
            let code: StoreError.Code = number == ENOENT || number == ENOTDIR ? .directoryUnavailable : .writeFailed
            throw failure("cannot create \(what)", code: code, operation: operation, path: path, errno: number)
        }
        return descriptor
    }

    /// Opens a journal for reading and writing: with `create`, a new empty file, or `nil` if one
    /// exists; otherwise the existing file, or `nil` if there is none. Errors name `path`, the archive the journal belongs to.
    static func openJournal(
        _ journal: String, create: Bool, path: String, operation: StoreError.Operation
    ) throws(StoreError) -> Int32? {
        // Read and write: a writer checks that the bytes where its record goes are still zeros.
        let flags = create ? O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC : O_RDWR | O_CLOEXEC
        let descriptor = retryingInterrupts { open(journal, flags, mode_t(privateFileMode)) }
        guard descriptor >= 0 else {
            let number = errno
            if (number == ENOENT && !create) || (number == EEXIST && create) { return nil }
            throw failure(
                "cannot open journal \(journal)", code: .writeFailed, operation: operation, path: path, errno: number)
        }
        return descriptor
    }

    /// Whether the `count` bytes at `offset` of an open file are all zero (bytes past the end
    /// count as zero); `nil` if they cannot be read.
    static func readZeros(_ descriptor: Int32, at offset: Int, count: Int) -> Bool? {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        guard read >= 0 else { return nil }
        return buffer.allSatisfy { $0 == 0 }
    }

    /// Cuts a file to a length and flushes it, ignoring failures: best-effort cleanup after a
    /// failure already reported.
    static func truncateFileIgnoringErrors(_ path: String, to length: Int) {
        let descriptor = retryingInterrupts { open(path, O_WRONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return }
        if ftruncate(descriptor, off_t(length)) == 0 { _ = fullSynchronize(descriptor) }
        _ = close(descriptor)
    }

    /// The identity of a file: `nil` if it does not exist or cannot be examined.
    static func identity(of path: String) -> FileIdentity? {
        var status = stat()
        return stat(path, &status) == 0 ? FileIdentity(status) : nil
    }

    /// The identity of an open file: `nil` if it cannot be examined.
    static func identity(of descriptor: Int32) -> FileIdentity? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? FileIdentity(status) : nil
    }

    /// Cuts an open file to a length.
    static func truncate(
        _ descriptor: Int32, to length: Int, path: String, operation: StoreError.Operation
    ) throws(StoreError) {
        let result = retryingInterrupts { ftruncate(descriptor, off_t(length)) }
        guard result == 0 else {
            throw failure("ftruncate failed", code: .writeFailed, operation: operation, path: path, errno: errno)
        }
    }

    /// Sets an open file's permission bits exactly, whatever the umask was when it was created.
    static func setPrivateMode(
        _ descriptor: Int32, path: String, operation: StoreError.Operation
    ) throws(StoreError) {
        let result = retryingInterrupts { fchmod(descriptor, mode_t(privateFileMode)) }
        guard result == 0 else {
            throw failure("fchmod failed", code: .writeFailed, operation: operation, path: path, errno: errno)
        }
    }

    /// Writes all the bytes, continuing after partial writes and interruptions.
    /// With `offset`, writes there (`pwrite`) instead of at the file's position.
    static func writeAll(
        _ data: Data, to descriptor: Int32, at offset: Int? = nil, path: String, operation: StoreError.Operation
    ) throws(StoreError) {
        // Some systems refuse single writes of 2 GiB or more.
        let largestWrite = 1 << 30
        let outcome: Int32? = data.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var written = 0
            while written < buffer.count {
                let size = min(buffer.count - written, largestWrite)
                let count =
                    if let offset {
                        pwrite(descriptor, base + written, size, off_t(offset + written))
                    } else {
                        write(descriptor, base + written, size)
                    }
                if count > 0 {
                    written += count
                } else if count == 0 {
                    return EIO
                } else if errno != EINTR {
                    return errno
                }
            }
            return nil
        }
        if let number = outcome {
            throw failure("write failed", code: .writeFailed, operation: operation, path: path, errno: number)
        }
    }

    /// Flushes an open file to stable storage: `fcntl(F_FULLFSYNC)` on Apple platforms, where
    /// plain `fsync` does not flush the drive's cache, and `fsync` elsewhere or if that fails.
    static func synchronize(
        _ descriptor: Int32, path: String, operation: StoreError.Operation
    ) throws(StoreError) {
        guard fullSynchronize(descriptor) else {
            throw failure("fsync failed", code: .syncFailed, operation: operation, path: path, errno: errno)
        }
    }

    /// Flushes an open file's bytes to stable storage, and its metadata only as far as reading
    /// the bytes back needs it: `fdatasync`, for a write that changed neither the file's size
    /// nor its allocated blocks; `F_FULLFSYNC` on Apple platforms, as ``synchronize(_:path:operation:)``.
    static func synchronizeData(
        _ descriptor: Int32, path: String, operation: StoreError.Operation
    ) throws(StoreError) {
        #if canImport(Darwin)
            try synchronize(descriptor, path: path, operation: operation)
        #else
            while fdatasync(descriptor) != 0 {
                guard errno == EINTR else {
                    throw failure("fdatasync failed", code: .syncFailed, operation: operation, path: path, errno: errno)
                }
            }
        #endif
    }

    /// Closes a file whose data matters, reporting a failure (the last chance to learn of a
    /// failed deferred write). `EINTR` counts as closed: the descriptor is gone either way.
    static func closeChecked(_ descriptor: Int32, path: String, operation: StoreError.Operation) throws(StoreError) {
        guard close(descriptor) == 0 || errno == EINTR else {
            throw failure("close failed", code: .writeFailed, operation: operation, path: path, errno: errno)
        }
    }

    /// Closes a file after a failure has already been reported.
    static func closeIgnoringErrors(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Renames a file, replacing any file at the destination atomically.
    static func rename(
        _ source: String, to destination: String, code: StoreError.Code = .renameFailed,
        operation: StoreError.Operation
    ) throws(StoreError) {
        let result = retryingInterrupts { systemRename(source, destination) }
        guard result == 0 else {
            let number = errno
            throw failure(
                "rename from \(source) failed", code: code, operation: operation, path: destination, errno: number)
        }
    }

    /// Removes a file; returns `false` if there was none.
    @discardableResult
    static func removeFile(_ path: String, operation: StoreError.Operation) throws(StoreError) -> Bool {
        let result = retryingInterrupts { unlink(path) }
        guard result == 0 else {
            let number = errno
            if number == ENOENT { return false }
            throw failure("unlink failed", code: .writeFailed, operation: operation, path: path, errno: number)
        }
        return true
    }

    /// Removes a file after a failure has already been reported, or during best-effort cleanup.
    static func removeFileIgnoringErrors(_ path: String) {
        _ = unlink(path)
    }

    /// Whether anything (file, directory, dangling link) has this name.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    // MARK: Directories

    /// Creates a directory with exactly the private mode, whatever the umask; returns `false` if
    /// something with that name already exists, `ENOENT` if its parent is missing.
    static func makePrivateDirectory(_ path: String, operation: StoreError.Operation) throws(StoreError) -> Bool {
        let result = retryingInterrupts { mkdir(path, mode_t(privateDirectoryMode)) }
        guard result == 0 else {
            let number = errno
            if number == EEXIST { return false }
            throw failure("mkdir failed", code: .directoryUnavailable, operation: operation, path: path, errno: number)
        }
        // mkdir applied the umask; set the bits exactly before anything is created inside.
        guard chmod(path, mode_t(privateDirectoryMode)) == 0 else {
            throw failure("chmod failed", code: .directoryUnavailable, operation: operation, path: path, errno: errno)
        }
        return true
    }

    /// Whether the error from ``makePrivateDirectory(_:operation:)`` means the parent is missing.
    static func isMissingParent(_ error: StoreError) -> Bool {
        error.errno == ENOENT
    }

    /// Flushes a directory's entries (names created, renamed or removed) to stable storage.
    ///
    /// File systems that cannot sync directories (`EINVAL`, `ENOTSUP`) are accepted as synced,
    /// as PostgreSQL and SQLite do.
    static func synchronizeDirectory(_ path: String, operation: StoreError.Operation) throws(StoreError) {
        let descriptor = retryingInterrupts { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw failure(
                "cannot open directory to sync it", code: .syncFailed, operation: operation, path: path, errno: errno)
        }
        defer { _ = close(descriptor) }
        guard fullSynchronize(descriptor) else {
            let number = errno
            if number == EINVAL || number == ENOTSUP || number == EOPNOTSUPP { return }
            throw failure("directory fsync failed", code: .syncFailed, operation: operation, path: path, errno: number)
        }
    }

    /// The names in a directory other than `"."` and `".."`, or `nil` if it does not exist.
    static func contentsOfDirectory(_ path: String, operation: StoreError.Operation) throws(StoreError) -> [String]? {
        guard let directory = opendir(path) else {
            let number = errno
            if number == ENOENT { return nil }
            let code: StoreError.Code = number == ENOTDIR ? .directoryUnavailable : .readFailed
            throw failure("opendir failed", code: code, operation: operation, path: path, errno: number)
        }
        defer { _ = closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                let number = errno
                if number == 0 { break }
                throw failure("readdir failed", code: .readFailed, operation: operation, path: path, errno: number)
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." {
                names.append(name)
            }
        }
        return names
    }

    // MARK: Helpers

    /// Flushes a descriptor; returns `false` with `errno` set on failure.
    private static func fullSynchronize(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) != -1 {
                return true
            }
        // Not every file system supports F_FULLFSYNC; a plain fsync is the best left to do.
        #endif
        while true {
            if fsync(descriptor) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// Calls `body` again while it fails with `EINTR`; returns its last result (-1 with `errno`
    /// set on failure).
    private static func retryingInterrupts(_ body: () -> Int32) -> Int32 {
        while true {
            let result = body()
            if result != -1 || errno != EINTR { return result }
        }
    }
}

/// Which file a path names and the last time it changed: a file replaced by another, or
/// written to, has another identity.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var changedSeconds: Int
    var changedNanoseconds: Int

    init(_ status: stat) {
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int(clamping: status.st_size)
        #if canImport(Darwin)
            modifiedSeconds = Int(status.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int(status.st_mtimespec.tv_nsec)
            changedSeconds = Int(status.st_ctimespec.tv_sec)
            changedNanoseconds = Int(status.st_ctimespec.tv_nsec)
        #else
            modifiedSeconds = Int(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
            changedSeconds = Int(status.st_ctim.tv_sec)
            changedNanoseconds = Int(status.st_ctim.tv_nsec)
        #endif
    }
}

/// `rename(2)`, outside ``SystemCalls`` so that its name does not clash with
/// ``SystemCalls/rename(_:to:code:operation:)``.
private func systemRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
