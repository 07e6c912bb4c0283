/// A save or launch that failed as a whole.
///
/// A save that throws has written nothing: the previous archive is intact.
///
/// ```text
/// cannot save tabs/browse/product#1 (product): encoding failed: invalid value at quantity
/// ```
public struct RestorationError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String
        /// Creates a code.
        ///
        /// - Parameter rawValue: The code's name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// A screen's state, or the app-wide state, did not encode.
        public static let encodingFailed = Code(rawValue: "encoding-failed")
        /// The store could not write the archive.
        public static let storeFailed = Code(rawValue: "store-failed")
        /// The archive exceeded an enforced ``SizeBudget``; nothing was written.
        public static let budgetExceeded = Code(rawValue: "budget-exceeded")
        /// A save or ``RestorationCoordinator/discardArchive()`` was called from a delegate
        /// callback of the same coordinator's running launch (will-finish-launching to
        /// did-finish-launching), which waits for the callback: there it would wait for the
        /// launch that waits for it; nothing was done. Restoration extensions run after the
        /// tree is handed over, and may save. A task the app starts in a callback
        /// (`Task { … }`) is not waited for, and its save waits for the launch as any other
        /// does. (A child task the callback itself awaits, `async let` or a task group, is not
        /// recognised: its save would wait for ever.)
        public static let insideLaunch = Code(rawValue: "inside-launch")
        /// The tree handed to a save was made before this coordinator's latest launch handed
        /// the app its tree (the app still held its initial tree, say, while the launch
        /// restored): writing it would replace the archive being restored with an older
        /// hierarchy. Nothing was written; save the tree the launch handed over, or one made
        /// after it.
        public static let treePredatesLaunch = Code(rawValue: "tree-predates-launch")
        /// ``RestorationCoordinator/save(_:)-(RestorationHost)`` was called before this
        /// coordinator's ``RestorationCoordinator/launch(into:)`` handed the host its tree (a
        /// scene phase change that came before the launch, say): the host still holds its
        /// initial tree, which would replace the archive the launch is about to restore.
        /// Nothing was written.
        public static let saveBeforeLaunch = Code(rawValue: "save-before-launch")
        /// The task running the save was cancelled (the background time the platform
        /// gave ran out, say) before the archive was written. Nothing was written: the
        /// previous archive is whole.
        public static let cancelled = Code(rawValue: "cancelled")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The path of the screen concerned, if one.
    public var path: IdentifierPath?
    /// One line that says what failed and where.
    public var message: String
    /// The error underneath, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - path: The screen concerned, if one.
    ///   - message: One line that says what failed and where.
    ///   - underlying: The error underneath.
    public init(_ code: Code, path: IdentifierPath? = nil, message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.underlying = underlying
    }

    /// The message.
    public var description: String { message }
}
