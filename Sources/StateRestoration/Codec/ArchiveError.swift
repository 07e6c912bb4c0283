/// An error in the archive domain: a malformed, truncated, corrupted or unsupported archive.
///
/// Every failure carries a machine-readable ``code``, a one-line ``message`` that names
/// what failed and where, the byte ``offset`` at which it was found when there is one,
/// and the ``underlyingError`` that caused it, if any. ``ArchiveDecoder`` wraps an
/// `ArchiveError` as the `underlyingError` of a `DecodingError` so that Codable callers
/// still see the coding path.
///
/// ```swift
/// do {
///     _ = try ArchiveValue(decoding: blob)
/// } catch where error.code == .truncated {
///     print(error) // archive truncated at byte 112: expected 8-byte double
/// }
/// ```
public struct ArchiveError: Error, Sendable, CustomStringConvertible {
    /// A machine-readable kind of archive failure; extensible with new static members.
    ///
    /// Codes compare by their raw string, so a code added by a later version of the
    /// package never collides with an existing one.
    ///
    /// ```swift
    /// if error.code == .checksumMismatch { discardArchive() }
    /// ```
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable string that identifies the code, such as `"truncated"`.
        public var rawValue: String

        /// Creates a code from its stable string.
        ///
        /// - Parameter rawValue: The stable string that identifies the code.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's raw string.
        public var description: String { rawValue }

        /// The input ended before a complete value, header or body was read.
        public static let truncated = Code(rawValue: "truncated")
        /// The input does not start with the expected magic bytes.
        public static let badMagic = Code(rawValue: "bad-magic")
        /// The input was written by a format version this build cannot read.
        public static let unsupportedVersion = Code(rawValue: "unsupported-version")
        /// A declared length disagrees with the bytes present (for example trailing bytes).
        public static let lengthMismatch = Code(rawValue: "length-mismatch")
        /// A type tag, field-name index or flag has a value the format does not define.
        public static let invalidTag = Code(rawValue: "invalid-tag")
        /// A string or field name is not valid UTF-8.
        public static let invalidUTF8 = Code(rawValue: "invalid-utf8")
        /// Containers are nested deeper than the decoder's depth limit.
        public static let depthLimitExceeded = Code(rawValue: "depth-limit-exceeded")
        /// A count or length is larger than the remaining input could possibly hold.
        public static let countExceedsInput = Code(rawValue: "count-exceeds-input")
        /// A keyed container, or the field-name table, names the same key twice.
        public static let duplicateKey = Code(rawValue: "duplicate-key")
        /// A value is well formed but has a different type than the one requested.
        public static let typeMismatch = Code(rawValue: "type-mismatch")
        /// A value is well formed but invalid for its type (a NaN date, an out-of-range integer).
        public static let invalidValue = Code(rawValue: "invalid-value")
        /// A non-optional value was requested where the archive holds null.
        public static let valueNotFound = Code(rawValue: "value-not-found")
    }

    /// What kind of failure this is.
    public var code: Code
    /// One line naming what failed and where, such as
    /// `archive truncated at byte 112: expected 8-byte double`.
    public var message: String
    /// The byte offset in the input at which the failure was found, when there is one.
    public var offset: Int?
    /// The error that caused this one, if any.
    public var underlyingError: (any Error & Sendable)?

    /// Creates an archive error.
    ///
    /// ```swift
    /// throw ArchiveError(.badMagic, "not a restoration archive: bad magic at byte 0", offset: 0)
    /// ```
    ///
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: One line naming what failed and where.
    ///   - offset: The byte offset at which the failure was found, if any.
    ///   - underlyingError: The error that caused this one, if any.
    public init(
        _ code: Code,
        _ message: String,
        offset: Int? = nil,
        underlyingError: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.offset = offset
        self.underlyingError = underlyingError
    }

    /// The one-line message, followed by the underlying error when there is one.
    public var description: String {
        if let underlyingError {
            return "\(message) (caused by: \(underlyingError))"
        }
        return message
    }
}
