import Foundation

/// Saves the app's hierarchy when it goes to the background and restores it at
/// the next launch, in UIKit's order, asking its delegate where UIKit asks the
/// app delegate.
///
/// ```swift
/// let coordinator = RestorationCoordinator(
///     screens: screens, store: FileStore(directory: url), delegate: AppDelegate())
/// try await coordinator.launch(into: model)      // model.tree: restored when allowed, otherwise fresh
/// await coordinator.restoredInterfaceDidAppear() // the restored screens are on screen
/// try model.tree.push(ProductScreen(state: .init(productID: "p-42")), onto: "browse")
/// try await coordinator.save(model)              // on entering the background
/// ```
///
/// The coordinator is an actor: encoding, decoding and file I/O run on it, off
/// the main actor. The app's main actor holds the tree (in a ``RestorationHost``);
/// the screens' capture and finished-restoring hooks run there. What the
/// coordinator decides (turns, which tree a save writes, the marker's life) is a
/// state machine of its own, tested without actors.
public actor RestorationCoordinator<Delegate: RestorationDelegate> {
    /// The app's screens.
    public nonisolated let declaration: ScreenDeclaration
    /// Where archives are kept.
    public nonisolated let store: any RestorationStore
    /// The app's part in saving and restoring.
    public nonisolated let delegate: Delegate
    /// How the coordinator saves and restores.
    public nonisolated let configuration: RestorationConfiguration

    /// Whose turn it is, which tree a save writes, and when the marker goes.
    var machine = CoordinatorStateMachine<CheckedContinuation<Void, Never>>()
    /// What the last save encoded, reused by the next where unchanged.
    var lastEncoding: HierarchyArchiver.Entry?
    /// The encoded root of the hierarchy in this coordinator's last write of the archive; nil
    /// before one, after a discard, and when that archive held no hierarchy.
    var writtenRoot: Data?
    /// How many calls of ``save(_:)-(ScreenTree)`` have not returned yet.
    var savesUnderWay = 0
    /// The tasks the running launch awaits, if one runs.
    nonisolated let awaitedTasks = AwaitedTasks()
    /// The crash-loop marker kept beside the archive while a launch restores it.
    nonisolated let marker: RestorationMarker

    /// The shared objects saved with every archive, by identifier.
    private(set) var objects: [String: any RestorableObject] = [:]
    /// The objects the windows of the ``RestorationScenes`` that made this coordinator
    /// share, restored once per process and saved in an archive of their own; nil for a
    /// coordinator made on its own.
    nonisolated let sharedObjects: SharedObjects?
    /// Whether the next archive written asks not to show its snapshot.
    var ignoresSnapshotOnNextSave = false

    /// Creates a coordinator.
    ///
    /// - Parameters:
    ///   - screens: The app's screen declaration.
    ///   - store: Where archives are kept.
    ///   - delegate: The app's part in saving and restoring.
    ///   - configuration: App version, store key, extension timeout, clock.
    public init(
        screens: ScreenDeclaration, store: any RestorationStore, delegate: Delegate,
        configuration: RestorationConfiguration = RestorationConfiguration()
    ) {
        self.init(screens: screens, store: store, delegate: delegate, configuration: configuration, sharedObjects: nil)
    }

    /// Creates a coordinator for one window of a ``RestorationScenes``, whose launches
    /// restore the windows' shared objects (once per process) and whose saves save them.
    init(
        screens: ScreenDeclaration, store: any RestorationStore, delegate: Delegate,
        configuration: RestorationConfiguration, sharedObjects: SharedObjects?
    ) {
        self.declaration = screens
        self.store = store
        self.delegate = delegate
        self.configuration = configuration
        self.sharedObjects = sharedObjects
        self.marker = RestorationMarker(beside: configuration.storeKey, in: store)
    }

    /// Registers a shared object, saved with every archive and restored before any
    /// screen: UIKit's `registerObjectForStateRestoration(_:restorationIdentifier:)`.
    ///
    /// Register objects before ``launch(into:)`` (or ``launch()``) so they can take back their state;
    /// screens find them with ``RestorationContext/object(_:identifier:)``.
    ///
    /// An object registered here belongs to this coordinator's archive. In an app with
    /// several windows, register an object the windows share with the
    /// ``RestorationScenes`` instead (``RestorationScenes/register(_:identifier:)``),
    /// or every window would save it and take it back at its own launch.
    ///
    /// - Parameters:
    ///   - object: The object.
    ///   - identifier: Its identifier, unique among registered objects; registering
    ///     another object under it replaces the first.
    public func register(_ object: some RestorableObject, identifier: String) {
        objects[identifier] = object
    }

    /// Stops saving the object registered under an identifier.
    ///
    /// - Parameter identifier: The identifier it was registered under.
    public func unregisterObject(identifier: String) {
        objects[identifier] = nil
    }

    /// Asks that the next archive written tell the next launch not to show the
    /// snapshot taken when it was saved: UIKit's `ignoreSnapshotOnNextApplicationLaunch()`.
    ///
    /// Call it while preparing to save, for instance when the screen shows
    /// something private or about to change. The next launch reads the flag from
    /// ``ArchiveInfo/ignoresSnapshot`` (``savedArchiveInfo()`` reads it before
    /// restoring). It applies to one save.
    public func ignoreSnapshotOnNextLaunch() {
        ignoresSnapshotOnNextSave = true
    }

    /// Reads the saved archive's info without restoring anything, or nil when
    /// ``launch()`` would not restore it: there is no archive, it fails a check, the
    /// previous launch died restoring it, or it is older than
    /// ``RestorationConfiguration/maximumArchiveAge``. (The delegate's
    /// should-restore is not asked.)
    ///
    /// An app can call it before ``launch()`` to decide whether to show the saved
    /// snapshot, or to tell the user how old the saved session is.
    ///
    /// - Returns: The archive's info, or nil.
    public func savedArchiveInfo() -> ArchiveInfo? {
        guard let data = try? store.read(configuration.storeKey),
            let (_, info) = try? RestorationArchive.open(data)
        else {
            return nil
        }
        return refusal(markerFound: marker.isFound, info: info, now: configuration.now()) == nil ? info : nil
    }

    /// Removes the saved archive (and any restoration marker beside it) once every
    /// launch and save requested before this call has finished, so none of them
    /// writes the archive back afterwards; saves requested later write a new one.
    ///
    /// For a scene the user discarded, say; ``RestorationScenes/discardScene(_:)``
    /// calls it.
    ///
    /// - Throws: ``RestorationError`` when the store cannot remove the archive, or
    ///   (``RestorationError/Code/insideLaunch``) when called from a delegate callback
    ///   of this coordinator's running launch; for an archive the delegate declined to
    ///   restore, call it once the launch has handed its tree over (from an extension,
    ///   say, or after the launch returned).
    public func discardArchive() async throws(RestorationError) {
        try requireOutsideLaunch("discardArchive()")
        let ticket = machine.requestDiscard()
        await takeTurn()
        defer { passTurn() }
        machine.discardTurn(ticket: ticket)
        writtenRoot = nil
        let key = configuration.storeKey
        var removing = key
        do {
            try store.remove(key)
            removing = marker.key
            try marker.disarm()
        } catch {
            throw RestorationError(
                .storeFailed, message: "cannot discard archive \(key): cannot remove \(removing): \(error)",
                underlying: error)
        }
    }

    /// Tells the coordinator that the user closed the app, or this window, from the app
    /// switcher, and applies ``RestorationConfiguration/userClosePolicy``: under
    /// ``UserClosePolicy/discardsArchive`` (UIKit's behaviour after a force quit) the
    /// archive is discarded as ``discardArchive()`` does; under the default
    /// ``UserClosePolicy/keepsArchive`` nothing changes.
    ///
    /// Call it from the scene-discard callback: UIKit's
    /// `application(_:didDiscardSceneSessions:)` for the discarded sessions, which the
    /// system reports at the next launch when the app was not running.
    ///
    /// ```swift
    /// func application(_ application: UIApplication, didDiscardSceneSessions sessions: Set<UISceneSession>) {
    ///     Task { try? await coordinator.userClosedScene() }
    /// }
    /// ```
    ///
    /// - Returns: Whether the archive was discarded.
    /// - Throws: What ``discardArchive()`` throws, when the policy discards.
    @discardableResult
    public func userClosedScene() async throws(RestorationError) -> Bool {
        guard configuration.userClosePolicy == .discardsArchive else { return false }
        try await discardArchive()
        return true
    }

    /// Throws when called from inside this coordinator's launch, which holds the turn
    /// the call would wait for.
    func requireOutsideLaunch(_ method: String) throws(RestorationError) {
        guard let task = AwaitedTasks.current, awaitedTasks.contains(task) else { return }
        throw RestorationError(
            .insideLaunch,
            message:
                "\(method) was called from a delegate callback of this coordinator's running launch, where it would wait for the launch that waits for it; call it once the launch has handed its tree over"
        )
    }

    /// Waits until no launch or save holds the coordinator, then holds it.
    func takeTurn() async {
        guard machine.takeTurn() == .wait else { return }
        await withCheckedContinuation { machine.enqueue($0) }
    }

    /// How many launches and saves wait for their turn (for tests and tools).
    package var waitingCount: Int { machine.waitingCount }

    /// Hands the coordinator to the next waiter, or frees it.
    func passTurn() {
        machine.passTurn()?.resume()
    }

}

extension RestorationCoordinator where Delegate == DefaultRestorationDelegate {
    /// Creates a coordinator whose delegate takes every default.
    ///
    /// - Parameters:
    ///   - screens: The app's screen declaration.
    ///   - store: Where archives are kept.
    ///   - configuration: App version, store key, extension timeout, clock.
    public init(
        screens: ScreenDeclaration, store: any RestorationStore,
        configuration: RestorationConfiguration = RestorationConfiguration()
    ) {
        self.init(screens: screens, store: store, delegate: DefaultRestorationDelegate(), configuration: configuration)
    }
}
