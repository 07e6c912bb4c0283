/// What happens to a saved archive when the user closes the app, or a window, from
/// the app switcher (``RestorationCoordinator/userClosedScene()``).
public enum UserClosePolicy: Sendable, Equatable {
    /// The archive stays, and the next launch restores it.
    case keepsArchive
    /// The archive is removed, and the next launch is fresh: UIKit's behaviour
    /// after a force quit.
    case discardsArchive
}
