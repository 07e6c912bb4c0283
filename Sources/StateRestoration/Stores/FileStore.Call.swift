extension FileStore {
    /// One system call with which a ``FileStore`` changed its files, as a recorder sees it right
    /// after the call succeeded.
    ///
    /// Tests give a store a recorder (the `recorder` parameter of its package initializer) to
    /// check the exact sequence of a durable write: a step missing from the sequence, such as
    /// the flush of the temporary file, is a step the store did not take.
    ///
    /// ```swift
    /// let calls = Mutex<[FileStore.Call]>([])
    /// let store = FileStore(directory: folder, failure: nil, recorder: { call in calls.withLock { $0.append(call) } })
    /// try store.write(archive, to: .main)
    /// // create, setMode, write, synchronize, close of the temporary file, rename, synchronizeDirectory
    /// ```
    package enum Call: Equatable, Sendable, CustomStringConvertible {
        /// `mkdir` of the store's directory, or of a missing parent, with mode `0700`.
        case makeDirectory(String)
        /// `open` with `O_CREAT | O_EXCL` of a new file, mode `0600`.
        case create(String)
        /// `fchmod` of an open file to `0600`.
        case setMode(String)
        /// `write` of all of a file's bytes.
        case write(String)
        /// `fsync` of a file (`F_FULLFSYNC` on Apple platforms).
        case synchronize(String)
        /// `close` of a written file.
        case close(String)
        /// `rename` of a file, replacing any file at the destination.
        case rename(String, to: String)
        /// `unlink` of a file; recorded only when there was a file to remove.
        case remove(String)
        /// `fsync` of a directory, so that the names created, renamed or removed in it last.
        case synchronizeDirectory(String)

        /// The call and its paths, such as `"rename /a/.main.restoration.1.0000000000000001.tmp /a/main.restoration"`.
        package var description: String {
            switch self {
            case .makeDirectory(let path): "mkdir \(path)"
            case .create(let path): "create \(path)"
            case .setMode(let path): "chmod \(path)"
            case .write(let path): "write \(path)"
            case .synchronize(let path): "fsync \(path)"
            case .close(let path): "close \(path)"
            case .rename(let source, let destination): "rename \(source) \(destination)"
            case .remove(let path): "unlink \(path)"
            case .synchronizeDirectory(let path): "fsync-directory \(path)"
            }
        }
    }
}
