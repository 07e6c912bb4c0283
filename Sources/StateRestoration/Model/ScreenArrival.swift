/// How a screen came into a ``RestorationModel``'s tree: what its preparation hook
/// (``RestorationModel/prepare(_:_:)``) is told.
public enum ScreenArrival: String, Hashable, Sendable, CustomStringConvertible {
    /// Re-created from the archive by the launch, with its saved state.
    case restored
    /// Made from the declaration: the initial hierarchy of a fresh launch, or a
    /// declared screen standing in for a saved one the launch could not restore.
    case initial
    /// Pushed, presented or added by the app after the launch.
    case added

    /// The raw value.
    public var description: String { rawValue }
}
