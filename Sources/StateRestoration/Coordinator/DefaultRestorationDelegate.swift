/// A delegate that takes every default: save always, restore always, no app state.
public struct DefaultRestorationDelegate: RestorationDelegate {
    /// Creates the delegate.
    public init() {}
}
