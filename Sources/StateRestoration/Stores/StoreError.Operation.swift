extension StoreError {
    /// What a store was doing when a ``StoreError`` happened.
    ///
    /// The raw value is the verb that ``StoreError/description`` uses after `"cannot"`. The set is
    /// open: a store of your own can define more in an extension.
    ///
    /// ```swift
    /// let error = StoreError(code: .readFailed, operation: .read, reason: "disk unplugged")
    /// print(error)  // cannot read: disk unplugged
    /// ```
    public struct Operation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The operation's verb, such as `"write"`.
        ///
        /// ```swift
        /// StoreError.Operation.write.rawValue  // "write"
        /// ```
        public let rawValue: String

        /// Creates an operation with the given verb.
        ///
        /// ```swift
        /// let compact = StoreError.Operation(rawValue: "compact")
        /// ```
        ///
        /// - Parameter rawValue: A verb that reads well after `"cannot "`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The operation's verb, such as `"write"`.
        ///
        /// ```swift
        /// print(StoreError.Operation.reject)  // reject
        /// ```
        public var description: String { rawValue }

        /// Checking a ``StoreKey``'s spelling.
        ///
        /// ```swift
        /// // cannot use store key: "" is empty
        /// ```
        public static let validateKey = Operation(rawValue: "use store key")

        /// ``RestorationStore/read(_:)``.
        ///
        /// ```swift
        /// // cannot read /tmp/x/main.restoration: ...
        /// ```
        public static let read = Operation(rawValue: "read")

        /// ``RestorationStore/write(_:to:)``.
        ///
        /// ```swift
        /// // cannot write /tmp/x/main.restoration: ...
        /// ```
        public static let write = Operation(rawValue: "write")

        /// ``RestorationStore/remove(_:)``.
        ///
        /// ```swift
        /// // cannot remove /tmp/x/main.restoration: ...
        /// ```
        public static let remove = Operation(rawValue: "remove")

        /// ``RestorationStore/reject(_:reason:)``.
        ///
        /// ```swift
        /// // cannot reject /tmp/x/main.restoration: ...
        /// ```
        public static let reject = Operation(rawValue: "reject")

        /// ``RestorationStore/keys()`` and ``RestorationStore/rejectedArchives(for:)``.
        ///
        /// ```swift
        /// // cannot list /tmp/x: ...
        /// ```
        public static let list = Operation(rawValue: "list")
    }
}
