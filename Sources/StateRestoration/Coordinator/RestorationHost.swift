/// The object on the main actor that holds an app's (or a window's) hierarchy:
/// the tree its UI mirrors.
///
/// The coordinator works on the host's tree itself, never on a copy the app could
/// forget to apply: ``RestorationCoordinator/launch(into:)`` puts the restored
/// tree into it as soon as it is decoded and later calls
/// ``RestorableScreen/restorationDidFinish(_:)`` on the screens still in it, and
/// ``RestorationCoordinator/save(_:)-(RestorationHost)`` lets each screen capture
/// its live state into it before saving what it then holds.
///
/// ```swift
/// @MainActor @Observable final class AppModel: RestorationHost {
///     var tree: ScreenTree
///     init(screens: ScreenDeclaration) throws { tree = try screens.makeInitialTree() }
/// }
/// ```
@MainActor public protocol RestorationHost: AnyObject {
    /// The hierarchy the app shows.
    var tree: ScreenTree { get set }
}
