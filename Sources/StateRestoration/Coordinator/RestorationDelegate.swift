/// The app's part in saving and restoring: UIKit's application-delegate methods
/// for state restoration, as async methods with defaults.
///
/// Every method has a default, so a delegate implements only what it needs. The
/// coordinator calls them in UIKit's order (see ``RestorationCoordinator/launch(into:)``).
/// A `@MainActor` class can conform: every method is async, so the coordinator
/// hops to the main actor for each call, and only there.
///
/// ```swift
/// @MainActor final class AppDelegate: RestorationDelegate {
///     struct AppState: Codable, Sendable { var lastSync: Date }
///     func shouldRestore(_ archive: ArchiveInfo) async -> Bool {
///         archive.appVersion == "2.4"
///     }
///     func willEncodeRestorableState() async -> AppState? { AppState(lastSync: sync.last) }
///     func didDecodeRestorableState(_ state: AppState?, context: RestorationContext) async {
///         if let state { sync.last = state.lastSync }
///     }
/// }
/// ```
///
/// ## Who owns the app-wide state
///
/// ``AppState`` is saved in the archive of the coordinator that asked for it, and given
/// back to the launch that restores that archive. In an app with one window, that is
/// the app's state. In an app with several windows (``RestorationScenes``), every
/// window has its own archive and its own launch, so `AppState` is the window's own
/// state; state the whole app shares (the signed-in account, the last sync) belongs in
/// a ``RestorableObject`` registered with the scenes
/// (``RestorationScenes/register(_:identifier:)``), restored once and saved once:
///
/// ```swift
/// scenes.register(syncStatus, identifier: "sync")   // the app's: one archive, restored once
/// struct AppState: Codable, Sendable { var sidebarWidth: Double }   // each window's own
/// ```
public protocol RestorationDelegate: Sendable {
    /// State not tied to any screen, saved with the coordinator's archive;
    /// ``NoAppState`` when there is none.
    ///
    /// With one window it is the app's state. With several windows
    /// (``RestorationScenes``) each window's coordinator saves and restores its own, so it
    /// is the window's state: keep what the whole app shares in an object registered with
    /// ``RestorationScenes/register(_:identifier:)`` instead, which is restored once per
    /// process and saved in one archive, never rolled back by a window that launches later.
    associatedtype AppState: Codable & Sendable = NoAppState

    /// The first call of a launch, before the archive is read: the real
    /// initialisation point of a restoring launch. The default does nothing.
    ///
    /// - Parameter context: Lets the app extend the restoration.
    func willFinishLaunching(_ context: RestorationContext) async

    /// Whether to restore this archive. The default says yes.
    ///
    /// Typically compares the app version saved with the archive with the running
    /// one, and refuses archives it cannot trust.
    ///
    /// - Parameter archive: The archive's format and app versions, save date and metadata.
    /// - Returns: True to restore; false to launch fresh.
    func shouldRestore(_ archive: ArchiveInfo) async -> Bool

    /// Makes a screen for restoration when its type has no factory: UIKit's
    /// `application(_:viewControllerWithRestorationIdentifierPath:coder:)`.
    ///
    /// The default returns `request.makeScreen()`, the screen made with
    /// ``RestorableScreen/init(state:)``. Returning nil skips the screen and
    /// everything under it. The returned screen must have the requested type.
    ///
    /// - Parameters:
    ///   - path: The screen's identifier path.
    ///   - request: The screen's type key and decoded state.
    /// - Returns: The screen, or nil to skip it.
    func screen(forIdentifierPath path: IdentifierPath, request: ScreenRequest) async -> (any RestorableScreen)?

    /// Receives the app-wide state after every screen was re-created and decoded.
    /// The default does nothing.
    ///
    /// Each window of a ``RestorationScenes`` has its own launch, so with several
    /// windows this is called once per window, with that window's own state (see
    /// ``AppState``).
    ///
    /// Only a launch that restores calls it: not a fresh one, including one whose
    /// archive's root could not be restored.
    ///
    /// - Parameters:
    ///   - state: The saved app-wide state; nil when none was saved or it did not
    ///     decode (the launch report's notes say which).
    ///   - context: Lets the app extend the restoration.
    func didDecodeRestorableState(_ state: AppState?, context: RestorationContext) async

    /// Called once the hierarchy is ready, before extensions are awaited; the
    /// report says whether the launch restored. The default does nothing.
    ///
    /// - Parameters:
    ///   - report: What the launch did so far.
    ///   - context: Lets the app extend the restoration.
    func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async

    /// Whether to save now; may add values to the archive. The default says yes.
    ///
    /// - Parameter metadata: Values saved beside the hierarchy, read back in
    ///   ``ArchiveInfo/metadata``.
    /// - Returns: True to save; false to leave the previous archive as it is.
    func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool

    /// The app-wide state to save. The default saves none.
    ///
    /// With several windows (``RestorationScenes``) each window's save asks for it and
    /// saves it in that window's archive; see ``AppState`` for where the state the windows
    /// share goes.
    ///
    /// - Returns: The state, or nil.
    func willEncodeRestorableState() async -> AppState?
}

extension RestorationDelegate {
    /// Does nothing.
    public func willFinishLaunching(_ context: RestorationContext) async {}

    /// Restores.
    public func shouldRestore(_ archive: ArchiveInfo) async -> Bool { true }

    /// Makes the screen from its state.
    public func screen(forIdentifierPath path: IdentifierPath, request: ScreenRequest) async -> (any RestorableScreen)?
    {
        request.makeScreen()
    }

    /// Does nothing.
    public func didDecodeRestorableState(_ state: AppState?, context: RestorationContext) async {}

    /// Does nothing.
    public func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {}

    /// Saves.
    public func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool { true }

    /// Saves no app-wide state.
    public func willEncodeRestorableState() async -> AppState? { nil }
}
