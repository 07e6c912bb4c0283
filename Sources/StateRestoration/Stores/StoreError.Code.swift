extension StoreError {
    /// The kind of failure a ``StoreError`` reports.
    ///
    /// The set of codes is open: a store of your own can define more in an extension. Compare
    /// codes with `==` rather than switching exhaustively over them.
    ///
    /// ```swift
    /// extension StoreError.Code {
    ///     static let quotaExceeded = StoreError.Code(rawValue: "quotaExceeded")
    /// }
    /// ```
    ///
    /// When a system call fails because of permissions (`EACCES`, `EPERM`, `EROFS`) or space
    /// (`ENOSPC`, `EDQUOT`), ``FileStore`` reports ``permissionDenied`` or ``noSpace`` whatever
    /// the step; otherwise it reports the code of the step that failed.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, such as `"writeFailed"`.
        ///
        /// ```swift
        /// StoreError.Code.noSpace.rawValue  // "noSpace"
        /// ```
        public let rawValue: String

        /// Creates a code with the given name.
        ///
        /// ```swift
        /// let code = StoreError.Code(rawValue: "writeFailed")  // == .writeFailed
        /// ```
        ///
        /// - Parameter rawValue: The code's name; codes with the same name are equal.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's name, such as `"writeFailed"`.
        ///
        /// ```swift
        /// print(StoreError.Code.noSpace)  // noSpace
        /// ```
        public var description: String { rawValue }

        /// A ``StoreKey`` was not valid: empty, too long, a character outside
        /// `[A-Za-z0-9._-]`, a leading `"."` or the reserved `".rejected-"`.
        ///
        /// ```swift
        /// #expect(throws: StoreError.self) { try StoreKey.validated("../x") }
        /// ```
        public static let invalidKey = Code(rawValue: "invalidKey")

        /// Reading an archive or listing the store failed.
        ///
        /// ```swift
        /// if error.code == .readFailed { /* start without restored state */ }
        /// ```
        public static let readFailed = Code(rawValue: "readFailed")

        /// An archive is larger than the store accepts (``FileStore/maximumArchiveSize``): a
        /// write of it is refused, leaving the previous archive, and a file that size is not read
        /// (and not removed by the store).
        ///
        /// A ``RestorationCoordinator`` takes this code on a read as lasting: the launch is fresh
        /// and the archive is moved aside with ``RestorationStore/reject(_:reason:)``, as a
        /// damaged one is. A store of your own should throw it only for an archive it will never
        /// read, not for a passing shortage such as memory pressure.
        ///
        /// ```swift
        /// if error.code == .tooLarge { /* save less, or raise the limit */ }
        /// ```
        public static let tooLarge = Code(rawValue: "tooLarge")

        /// What is at an archive's path, or at that of an older build's journal beside it, is not
        /// a regular file (a directory, a FIFO, a device), so it is not read. Like ``tooLarge``,
        /// a ``RestorationCoordinator`` takes this code on a read as lasting and moves the
        /// archive aside (with the journal), so that saves can write it again.
        ///
        /// ```swift
        /// if error.code == .notAFile { /* something else took the archive's name */ }
        /// ```
        public static let notAFile = Code(rawValue: "notAFile")

        /// Creating or writing the temporary file of a write failed, or removing an archive failed.
        ///
        /// ```swift
        /// if error.code == .writeFailed { /* keep the previous archive */ }
        /// ```
        public static let writeFailed = Code(rawValue: "writeFailed")

        /// Flushing a file or directory to stable storage (`fsync`, `F_FULLFSYNC`) failed.
        ///
        /// ```swift
        /// if error.code == .syncFailed { /* the data may not survive a power loss */ }
        /// ```
        public static let syncFailed = Code(rawValue: "syncFailed")

        /// Renaming a file into place (or aside, when rejecting it) failed.
        ///
        /// ```swift
        /// if error.code == .renameFailed { /* the previous archive is still in place */ }
        /// ```
        public static let renameFailed = Code(rawValue: "renameFailed")

        /// The store's directory does not exist and could not be created, or is not a directory.
        ///
        /// ```swift
        /// if error.code == .directoryUnavailable { /* check FileStore.directory */ }
        /// ```
        public static let directoryUnavailable = Code(rawValue: "directoryUnavailable")

        /// The system refused access (`EACCES`, `EPERM` or a read-only file system, `EROFS`).
        ///
        /// ```swift
        /// if error.code == .permissionDenied { /* the directory is not writable */ }
        /// ```
        public static let permissionDenied = Code(rawValue: "permissionDenied")

        /// The device or the user's quota is full (`ENOSPC`, `EDQUOT`).
        ///
        /// ```swift
        /// if error.code == .noSpace { /* try again after freeing space */ }
        /// ```
        public static let noSpace = Code(rawValue: "noSpace")

        /// A store that holds one archive, an ``ActivityStore``, was asked to write under
        /// a key other than its archive's; nothing was changed. Give each coordinator a
        /// store of its own.
        ///
        /// ```swift
        /// if error.code == .otherKeyHeld { /* two coordinators share one ActivityStore */ }
        /// ```
        public static let otherKeyHeld = Code(rawValue: "otherKeyHeld")
    }
}
