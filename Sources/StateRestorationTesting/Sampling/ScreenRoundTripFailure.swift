public import StateRestoration

/// One screen sample that did not come back equal after a relaunch, or a
/// declared screen type that could not be checked.
///
/// ``RestorationHarness/expectEveryScreenRoundTrips(samples:sourceLocation:)``
/// records an issue for each and returns them all.
///
/// ```text
/// product at tabs/browse/product#1 did not round-trip: it came back changed:
/// saved State(productID: "p-1", quantity: 3), restored State(productID: "p-1", quantity: 1)
/// ```
///
/// `ScreenRoundTripFailure` is `Sendable`.
public struct ScreenRoundTripFailure: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Equatable {
        /// The type neither conforms to ``RestorationSampling`` nor has a sample
        /// among those passed in, nor an initial instance in the declaration.
        case noSample = "no-sample"
        /// The sample could not be put into a hierarchy where the declaration allows it.
        case notPlaced = "not-placed"
        /// Saving the hierarchy threw (a state that does not encode, say).
        case saveFailed = "save-failed"
        /// The relaunch started fresh, restoring nothing.
        case freshLaunch = "fresh-launch"
        /// The screen was skipped; ``message`` gives the report's reason.
        case skipped
        /// The screen came back with another state, or another type.
        case changed
    }

    /// The screen type's key.
    public var typeKey: ScreenTypeKey
    /// Where the sample was put; nil when it was not placed.
    public var path: IdentifierPath?
    /// What went wrong.
    public var kind: Kind
    /// One line that says what went wrong, with the saved and restored states
    /// when they differ.
    public var message: String

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - typeKey: The screen type's key.
    ///   - path: Where the sample was put.
    ///   - kind: What went wrong.
    ///   - message: One line that says what went wrong.
    public init(typeKey: ScreenTypeKey, path: IdentifierPath?, kind: Kind, message: String) {
        self.typeKey = typeKey
        self.path = path
        self.kind = kind
        self.message = message
    }

    /// `<type key> at <path> did not round-trip: <message>`.
    public var description: String {
        "\(typeKey) at \(path?.description ?? "(nowhere)") did not round-trip: \(message)"
    }
}
