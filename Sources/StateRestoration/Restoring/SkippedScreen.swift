/// A screen that was not saved or not restored, with the reason.
///
/// ```text
/// tabs/browse/product#2 skipped (decode-failed): ProductScreen.State did not decode: …
/// ```
public struct SkippedScreen: Sendable, Equatable, CustomStringConvertible {
    /// Why a screen was skipped.
    public struct Reason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The reason's name.
        public var rawValue: String
        /// Creates a reason.
        ///
        /// - Parameter rawValue: The reason's name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The reason's name.
        public var description: String { rawValue }

        /// The node has no restoration identifier: it and its subtree are not saved.
        public static let noIdentifier = Reason(rawValue: "no-identifier")
        /// A custom container chose not to preserve the child.
        public static let notPreserved = Reason(rawValue: "not-preserved")
        /// The saved state does not decode as the screen's current State.
        public static let decodeFailed = Reason(rawValue: "decode-failed")
        /// The saved state was written by a State version with no migration to this one.
        public static let stateVersionMismatch = Reason(rawValue: "state-version-mismatch")
        /// A migration from the saved State version threw.
        public static let migrationFailed = Reason(rawValue: "migration-failed")
        /// The saved state is older than the screen type's ``RestorableScreen/maximumStateAge``.
        public static let stale = Reason(rawValue: "stale")
        /// The archive names a type key that no declared screen has.
        public static let unknownType = Reason(rawValue: "unknown-type")
        /// The declaration has no element for the saved one at that place.
        public static let notDeclared = Reason(rawValue: "not-declared")
        /// The screen type's factory returned nil.
        public static let factoryReturnedNil = Reason(rawValue: "factory-returned-nil")
        /// The delegate's `screen(forIdentifierPath:request:)` returned nil.
        public static let delegateReturnedNil = Reason(rawValue: "delegate-returned-nil")
        /// A factory or the delegate returned a screen of another type.
        public static let wrongScreenType = Reason(rawValue: "wrong-screen-type")
        /// A screen above it in the hierarchy (its presenter, its container) was not restored.
        public static let ancestorSkipped = Reason(rawValue: "ancestor-skipped")
        /// A screen below it in its navigation stack was not restored.
        public static let stackTruncated = Reason(rawValue: "stack-truncated")
        /// The saved node is malformed (a screen without a state, say).
        public static let malformed = Reason(rawValue: "malformed")
    }

    /// The screen's path (unidentified nodes named by type in angle brackets).
    public var path: IdentifierPath
    /// Why it was skipped.
    public var reason: Reason
    /// One line with the details.
    public var message: String

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - path: The screen's path.
    ///   - reason: Why it was skipped.
    ///   - message: One line with the details.
    public init(path: IdentifierPath, reason: Reason, message: String) {
        self.path = path
        self.reason = reason
        self.message = message
    }

    /// `<path> skipped (<reason>): <message>`.
    public var description: String { "\(path) skipped (\(reason)): \(message)" }
}
