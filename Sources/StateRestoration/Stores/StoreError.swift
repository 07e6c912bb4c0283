/// An error thrown by a ``RestorationStore``.
///
/// A store error says what kind of failure happened (``code``), what the store was doing
/// (``operation``), where (``path``), which step failed (``reason``) and, for failed system
/// calls, the `errno` value. Its ``description`` is one line that names all of them, so it can go
/// straight into a log:
///
/// ```
/// cannot write /tmp/x/main.restoration: fsync failed: No space left on device (errno 28)
/// ```
///
/// Match on ``code`` to react to a kind of failure; the other properties are for people:
///
/// ```swift
/// do {
///     try store.write(archive, to: .main)
/// } catch let error as StoreError where error.code == .noSpace {
///     logger.warning("state not saved: \(error)")
/// }
/// ```
///
/// Two errors are equal when all their properties are equal.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, for code that reacts to it.
    ///
    /// ```swift
    /// if error.code == .permissionDenied { showStorageWarning() }
    /// ```
    public var code: Code

    /// What the store was doing when it failed, such as ``Operation/write``.
    ///
    /// ```swift
    /// if error.operation == .read { /* launch without restored state */ }
    /// ```
    public var operation: Operation

    /// The file or directory involved, or `nil` when the failure is not about a file
    /// (an invalid key, for example).
    ///
    /// For a failed write it is the archive's path, not the temporary file's, except when the
    /// directory itself is the problem.
    ///
    /// ```swift
    /// logger.error("state not saved at \(error.path ?? "?")")
    /// ```
    public var path: String?

    /// The step that failed, in a few words, such as `"fsync failed"`.
    ///
    /// ```swift
    /// print(error.reason)  // fsync failed
    /// ```
    public var reason: String

    /// The `errno` value of the failed system call, or `nil` when no system call failed.
    ///
    /// ```swift
    /// if error.errno == ENOSPC { /* the same as error.code == .noSpace */ }
    /// ```
    public var errno: Int32?

    /// Creates a store error.
    ///
    /// Stores create these; you need this initializer only to write a store of your own or to
    /// compare against an expected error in a test.
    ///
    /// ```swift
    /// let error = StoreError(
    ///     code: .syncFailed, operation: .write, path: "/tmp/x/main.restoration",
    ///     reason: "fsync failed", errno: 28)
    /// ```
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - operation: What the store was doing.
    ///   - path: The file or directory involved, if any.
    ///   - reason: The step that failed, in a few words.
    ///   - errno: The `errno` value of a failed system call, if any.
    public init(code: Code, operation: Operation, path: String? = nil, reason: String, errno: Int32? = nil) {
        self.code = code
        self.operation = operation
        self.path = path
        self.reason = reason
        self.errno = errno
    }

    /// One line naming what failed and where, such as
    /// `cannot write /tmp/x/main.restoration: fsync failed: No space left on device (errno 28)`.
    ///
    /// The form is `cannot <operation> <path>: <reason>`, followed by the system's message and
    /// the `errno` value when a system call failed. It is meant for logs and people, not for
    /// parsing: match on ``code`` instead.
    ///
    /// ```swift
    /// print(error)  // cannot read /tmp/x/main.restoration: open failed: Permission denied (errno 13)
    /// ```
    public var description: String {
        var text = "cannot \(operation.rawValue)"
        if let path {
            text += " \(path)"
        }
        text += ": \(reason)"
        if let errno {
            text += ": \(SystemCalls.message(forErrno: errno)) (errno \(errno))"
        }
        return text
    }
}
