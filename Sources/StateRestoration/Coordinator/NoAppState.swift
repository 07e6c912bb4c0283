/// The app-wide state of a delegate that has none.
public struct NoAppState: Codable, Sendable, Equatable {
    /// Creates the empty state.
    public init() {}
}
