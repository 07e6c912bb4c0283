/// Where the app (or one window) is in its life: what ``RestorationModel/handle(_:)``
/// takes from SwiftUI's `scenePhase` or a UIKit scene delegate.
///
/// | Phase | SwiftUI | UIKit |
/// |---|---|---|
/// | ``active`` | `.active` | `sceneDidBecomeActive(_:)` |
/// | ``inactive`` | `.inactive` | `sceneWillResignActive(_:)` |
/// | ``background`` | `.background` | `sceneDidEnterBackground(_:)` |
/// | ``terminate`` | (none) | `applicationWillTerminate(_:)` |
public enum AppPhase: String, Hashable, Sendable, CustomStringConvertible {
    /// In the foreground, taking input.
    case active
    /// Visible but not taking input: the app switcher, a call, Control Center. The
    /// model saves, since the system may end a suspended app without warning.
    case inactive
    /// Not visible. The model saves within the background time the platform gives.
    case background
    /// The system ends the app now. The model saves.
    case terminate

    /// The raw value.
    public var description: String { rawValue }
}
