/// A screen type's own way of making itself for restoration: UIKit's
/// `restorationClass` and `viewController(withRestorationIdentifierPath:coder:)`.
///
/// The factory receives the screen's identifier path and its decoded state.
/// Returning nil skips the screen and everything under it, and the launch report
/// says so.
///
/// ```swift
/// struct OrderScreen: RestorableScreen {
///     static let restorationFactory: RestorationFactory<OrderScreen>? = RestorationFactory { path, state in
///         Orders.shared.contains(state.orderID) ? OrderScreen(state: state) : nil
///     }
///     var state: State
/// }
/// ```
public struct RestorationFactory<Screen: RestorableScreen>: Sendable {
    let make: @Sendable (IdentifierPath, Screen.State) -> Screen?

    /// Creates a factory from a closure.
    ///
    /// - Parameter make: Makes the screen for a path and its decoded state, or
    ///   returns nil to leave it (and its subtree) unrestored.
    public init(_ make: @escaping @Sendable (_ path: IdentifierPath, _ state: Screen.State) -> Screen?) {
        self.make = make
    }
}
