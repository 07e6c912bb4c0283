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
package enum SystemCalls {
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
    package static func failure(
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
                return data
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
    static func writeAll(
        _ data: Data, to descriptor: Int32, path: String, operation: StoreError.Operation
    ) throws(StoreError) {
        // Some systems refuse single writes of 2 GiB or more.
        let largestWrite = 1 << 30
        let outcome: Int32? = data.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var written = 0
            while written < buffer.count {
                let size = min(buffer.count - written, largestWrite)
                let count = write(descriptor, base + written, size)
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

    /// The size in bytes of what has this name (a symbolic link's own size), or `nil` if nothing
    /// has it or it cannot be examined.
    static func fileSize(at path: String) -> Int? {
        var status = stat()
        return lstat(path, &status) == 0 ? Int(clamping: status.st_size) : nil
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

/// `rename(2)`, outside ``SystemCalls`` so that its name does not clash with
/// ``SystemCalls/rename(_:to:code:operation:)``.
private func systemRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
