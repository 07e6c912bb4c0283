public import StateRestoration

/// One call a coordinator made into the app's delegate, as a ``RestorationHarness``
/// recorded it.
///
/// The harness wraps the app's delegate in a ``LifecycleRecorder`` that logs each
/// call and forwards it, so a test can check UIKit's order without a delegate of
/// its own. Screens' hooks are methods of values the coordinator owns, so they
/// cannot be intercepted from outside: check their effects in the restored tree,
/// and the screens restored, in order, in `LaunchReport.restoredPaths`.
///
/// ```swift
/// let relaunched = try await harness.relaunch(saving: tree)
/// #expect(relaunched.lifecycle.prefix(3) == [.shouldSave, .willEncodeRestorableState, .willFinishLaunching])
/// #expect(relaunched.lifecycle.last == .didFinishLaunching(.restored))
/// ```
public enum LifecycleEvent: Sendable, Hashable, CustomStringConvertible {
    /// `RestorationDelegate.shouldSave(_:)`, and what it answered.
    case shouldSave(Bool)
    /// `RestorationDelegate.willEncodeRestorableState()`.
    case willEncodeRestorableState
    /// `RestorationDelegate.willFinishLaunching(_:)`.
    case willFinishLaunching
    /// `RestorationDelegate.shouldRestore(_:)`, and what it answered.
    case shouldRestore(Bool)
    /// `RestorationDelegate.screen(forIdentifierPath:request:)` for a
    /// path, and whether it returned a screen.
    case makeScreen(IdentifierPath, made: Bool)
    /// `RestorationDelegate.didDecodeRestorableState(_:context:)`, and
    /// whether it received an app-wide state.
    case didDecodeRestorableState(hasAppState: Bool)
    /// `RestorationDelegate.didFinishLaunching(_:context:)` with the
    /// launch's outcome so far.
    case didFinishLaunching(LaunchReport.Outcome)

    /// The shouldSave that said yes.
    public static var shouldSave: LifecycleEvent { .shouldSave(true) }
    /// The shouldRestore that said yes.
    public static var shouldRestore: LifecycleEvent { .shouldRestore(true) }

    /// A short line such as `make tabs/browse/search#0` or `did-finish-launching restored`.
    public var description: String {
        switch self {
        case .shouldSave(let answer): answer ? "should-save" : "should-save (declined)"
        case .willEncodeRestorableState: "will-encode"
        case .willFinishLaunching: "will-finish-launching"
        case .shouldRestore(let answer): answer ? "should-restore" : "should-restore (declined)"
        case .makeScreen(let path, let made): made ? "make \(path)" : "make \(path) (nil)"
        case .didDecodeRestorableState(let hasAppState): hasAppState ? "did-decode" : "did-decode (no app state)"
        case .didFinishLaunching(let outcome): "did-finish-launching \(outcome.rawValue)"
        }
    }
}
