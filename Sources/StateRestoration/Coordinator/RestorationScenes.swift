import Synchronization

/// Saves and restores several windows, each with its own hierarchy and its own
/// archive, and the objects they share once: UIKit's scene-based restoration
/// (iOS 13 and later).
///
/// Each scene (a window on iPad, macOS or visionOS) is known by the identifier its
/// scene session keeps across launches (UIKit's
/// `UISceneSession.persistentIdentifier`). `RestorationScenes` hands out one
/// ``RestorationCoordinator`` per scene, each saving to its own key in the store,
/// `scene-<identifier>`; so scenes are saved and restored independently, and saving
/// one never touches another's archive. A scene shows the screens of the scenes'
/// ``declaration`` unless it is given its own
/// (``coordinator(for:screens:store:)``): a compose window beside browsing windows.
/// When the user closes a window for good (UIKit's
/// `application(_:didDiscardSceneSessions:)`), discard its scene, which removes its
/// archive.
///
/// ## What the windows share
///
/// An object that several windows use (the signed-in account, the cart, an open
/// document) is registered with the scenes, ``register(_:identifier:)``, not with
/// each window's coordinator. It is saved in one archive of its own,
/// ``sharedObjectsKey``, by every window's save, and restored once per process: by
/// the first window launch, before its screens decode. Windows that launch at the
/// same time wait for that one restore, and windows that connect later find the
/// live objects as the user left them; none takes them back to an older saved
/// state. Screens of every window get them from
/// ``RestorationContext/object(_:identifier:)``.
///
/// App-wide state has one owner: in an app with several windows it belongs in such a
/// shared object. A delegate's ``RestorationDelegate/AppState`` is saved in each
/// window's archive and given back to each window's launch, so here it is the
/// window's own state (the sidebar's width, the inspector shown), never the app's.
///
/// ```swift
/// let scenes = RestorationScenes(screens: screens, store: FileStore(directory: url), delegate: AppDelegate())
/// scenes.register(account, identifier: "account")    // before the first window launches
///
/// // scene(_:willConnectTo:options:): the window's model is its RestorationHost
/// let coordinator = try scenes.coordinator(for: session.persistentIdentifier)
/// try await coordinator.launch(into: windowModel)
///
/// // sceneDidEnterBackground(_:): the window's archive, then the shared objects'
/// try await coordinator.save(windowModel)
///
/// // application(_:didDiscardSceneSessions:)
/// for session in discarded { try await scenes.discardScene(session.persistentIdentifier) }
/// ```
///
/// A scene identifier becomes part of a ``StoreKey``, so it uses the same
/// characters: `A-Z`, `a-z`, `0-9`, `"."`, `"_"` and `"-"`, at most 94 of them (a
/// UUID string qualifies). ``storeKey(for:)`` says what is wrong with one that
/// does not.
///
/// The object is Sendable: its coordinators and shared objects are kept behind
/// mutexes, and every method may be called from any task.
public final class RestorationScenes<Delegate: RestorationDelegate>: Sendable {
    /// The app's screens: those of every scene not given a declaration of its own.
    public let declaration: ScreenDeclaration
    /// Where every scene's archive is kept, each under its own key, and the archive of
    /// the objects the windows share.
    public let store: any RestorationStore
    /// The configuration every scene's coordinator copies, with its own store key.
    public let configuration: RestorationConfiguration

    /// Makes the delegate of a scene's coordinator from the scene identifier.
    private let makeDelegate: @Sendable (String) -> Delegate
    /// The coordinators handed out, by scene identifier.
    private let coordinators = Mutex<[String: RestorationCoordinator<Delegate>]>([:])
    /// The objects the windows share, restored once and saved in an archive of their own.
    package let sharedObjects: SharedObjects

    /// The text before a scene identifier in its store key.
    public static var keyPrefix: String { "scene-" }

    /// The store key of the archive of the objects the windows share: `shared`.
    ///
    /// It is no scene's key (those begin with ``keyPrefix``), and
    /// ``savedScenes()`` does not list it. While a launch restores the objects, a
    /// marker is kept beside it, `shared.restoring`.
    public static var sharedObjectsKey: StoreKey { "shared" }

    /// The longest scene identifier, in characters.
    public static var maximumIdentifierLength: Int { StoreKey.maximumLength - keyPrefix.count }

    /// Creates the scenes of an app whose scenes each get their own delegate.
    ///
    /// ```swift
    /// let scenes = RestorationScenes(screens: screens, store: store) { sceneID in
    ///     SceneDelegate(sceneID: sceneID)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - screens: The app's screen declaration: that of every scene not given its own.
    ///   - store: Where the archives are kept: one per scene, and the shared objects'.
    ///   - configuration: The settings of every scene's coordinator; its store key
    ///     is replaced by the scene's.
    ///   - makeDelegate: Makes the delegate of a scene's coordinator, the first
    ///     time ``coordinator(for:)`` is asked for that scene. It runs while this
    ///     object holds its lock, so it must not call back into this object.
    public init(
        screens: ScreenDeclaration, store: any RestorationStore,
        configuration: RestorationConfiguration = RestorationConfiguration(),
        makeDelegate: @escaping @Sendable (_ sceneIdentifier: String) -> Delegate
    ) {
        self.declaration = screens
        self.store = store
        self.configuration = configuration
        self.makeDelegate = makeDelegate
        self.sharedObjects = SharedObjects(
            key: Self.sharedObjectsKey, store: store, configuration: configuration)
    }

    /// Creates the scenes of an app whose scenes share one delegate.
    ///
    /// ```swift
    /// let scenes = RestorationScenes(screens: screens, store: store, delegate: AppDelegate())
    /// ```
    ///
    /// - Parameters:
    ///   - screens: The app's screen declaration: that of every scene not given its own.
    ///   - store: Where the archives are kept: one per scene, and the shared objects'.
    ///   - delegate: The delegate of every scene's coordinator.
    ///   - configuration: The settings of every scene's coordinator; its store key
    ///     is replaced by the scene's.
    public convenience init(
        screens: ScreenDeclaration, store: any RestorationStore, delegate: Delegate,
        configuration: RestorationConfiguration = RestorationConfiguration()
    ) {
        self.init(screens: screens, store: store, configuration: configuration) { _ in delegate }
    }

    /// The coordinator that saves and restores one scene.
    ///
    /// The first call for a scene makes its coordinator, with the scenes'
    /// ``declaration`` and ``store``, configured like ``configuration`` but with the
    /// scene's ``storeKey(for:)``; later calls return the same coordinator, whatever
    /// declaration it was made with, so the scene's saves stay in order and reuse each
    /// other's encoded states. After ``discardScene(_:)``, the next call makes a new one.
    ///
    /// ```swift
    /// try await scenes.coordinator(for: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F").launch(into: windowModel)
    /// ```
    ///
    /// - Parameter sceneIdentifier: The scene's persistent identifier.
    /// - Returns: The scene's coordinator.
    /// - Throws: ``RestorationError`` with code
    ///   ``RestorationError/Code/invalidSceneIdentifier`` when the identifier
    ///   cannot name an archive.
    public func coordinator(for sceneIdentifier: String) throws(RestorationError) -> RestorationCoordinator<Delegate> {
        let key = try Self.storeKey(for: sceneIdentifier)
        return coordinators.withLock { coordinators in
            if let existing = coordinators[sceneIdentifier] { return existing }
            let made = makeCoordinator(sceneIdentifier: sceneIdentifier, key: key)
            coordinators[sceneIdentifier] = made
            return made
        }
    }

    /// The coordinator that saves and restores one scene with screens of its own: a
    /// window that shows another part of the app than the others (a compose window, an
    /// inspector), or an archive kept elsewhere.
    ///
    /// The first call for a scene makes its coordinator with `screens`, and with
    /// `store` when one is given; later calls return that coordinator. A scene keeps
    /// its declaration until it is discarded: asking for it with a declaration of
    /// another structure (other identifiers, kinds or screen types) throws, as it
    /// would read the scene's archive with screens it was not saved with. Give a scene
    /// the same declaration at every launch, from what its session keeps (its
    /// `userInfo`, say).
    ///
    /// ```swift
    /// // scene(_:willConnectTo:options:)
    /// let screens = session.userInfo?["window"] as? String == "compose" ? composeScreens : browseScreens
    /// let coordinator = try scenes.coordinator(for: session.persistentIdentifier, screens: screens)
    /// try await coordinator.launch(into: windowModel)
    /// ```
    ///
    /// The windows' shared objects are restored and saved as with
    /// ``coordinator(for:)``, whatever the scene's declaration or store.
    ///
    /// - Parameters:
    ///   - sceneIdentifier: The scene's persistent identifier.
    ///   - screens: The scene's screen declaration.
    ///   - store: Where the scene's archive is kept, when not in the scenes' ``store``:
    ///     an ``ActivityStore`` made from the bytes the scene's session kept, say. Only
    ///     the call that makes the coordinator uses it; a later call returns the
    ///     coordinator with the store it was made with, which holds the scene's newest
    ///     archive, so read that one back from ``RestorationCoordinator/store``. Scenes
    ///     whose archives are in a store of their own are not listed by ``savedScenes()``.
    /// - Returns: The scene's coordinator.
    /// - Throws: ``RestorationError`` with code
    ///   ``RestorationError/Code/invalidSceneIdentifier`` when the identifier cannot name
    ///   an archive, or ``RestorationError/Code/sceneDeclarationConflict`` when the
    ///   scene already has a coordinator with a declaration of another structure.
    public func coordinator(
        for sceneIdentifier: String, screens: ScreenDeclaration, store: (any RestorationStore)? = nil
    ) throws(RestorationError) -> RestorationCoordinator<Delegate> {
        let key = try Self.storeKey(for: sceneIdentifier)
        let result = coordinators.withLock { coordinators -> RestorationCoordinator<Delegate>? in
            if let existing = coordinators[sceneIdentifier] {
                return existing.declaration.hasSameStructure(as: screens) ? existing : nil
            }
            let made = makeCoordinator(sceneIdentifier: sceneIdentifier, key: key, screens: screens, store: store)
            coordinators[sceneIdentifier] = made
            return made
        }
        guard let result else {
            throw RestorationError(
                .sceneDeclarationConflict,
                message:
                    "scene \(sceneIdentifier) already has a coordinator with another screen declaration; discard the scene before giving it other screens"
            )
        }
        return result
    }

    /// A coordinator for a scene: the base configuration with the scene's key.
    private func makeCoordinator(
        sceneIdentifier: String, key: StoreKey, screens: ScreenDeclaration? = nil,
        store: (any RestorationStore)? = nil
    ) -> RestorationCoordinator<Delegate> {
        var sceneConfiguration = configuration
        sceneConfiguration.storeKey = key
        return RestorationCoordinator(
            screens: screens ?? declaration, store: store ?? self.store, delegate: makeDelegate(sceneIdentifier),
            configuration: sceneConfiguration, sharedObjects: sharedObjects)
    }

    // MARK: Shared objects

    /// Registers an object the windows share: restored once per process, before the
    /// first window's screens decode, and saved in an archive of its own by every
    /// window's save.
    ///
    /// Register the objects before the first window launches: that launch restores the
    /// objects registered then, and no later launch restores again. Every window's
    /// screens find them with ``RestorationContext/object(_:identifier:)``. Each
    /// window's save writes the objects' current states to
    /// ``sharedObjectsKey`` (nothing when they are those already saved), one save at a
    /// time, so the archive always ends with the newest states. A save made before any
    /// window of this process launched does not write them: they have not taken back
    /// their saved states yet, and writing theirs would lose those.
    ///
    /// ```swift
    /// let cart = Cart()
    /// scenes.register(cart, identifier: "cart")
    ///
    /// // In a screen of any window:
    /// mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
    ///     cart = context.object(Cart.self, identifier: "cart")
    /// }
    /// ```
    ///
    /// An object that belongs to one window is registered with that window's
    /// coordinator (``RestorationCoordinator/register(_:identifier:)``) and saved in its
    /// archive; under the same identifier as a shared one, it is the one that window's
    /// screens get.
    ///
    /// - Parameters:
    ///   - object: The object.
    ///   - identifier: Its identifier, unique among the shared objects; registering
    ///     another object under it replaces the first.
    public func register(_ object: some RestorableObject, identifier: String) {
        sharedObjects.register(object, identifier: identifier)
    }

    /// Stops saving the shared object registered under an identifier: the next save of
    /// the shared objects leaves it out.
    ///
    /// ```swift
    /// scenes.unregisterObject(identifier: "cart")
    /// ```
    ///
    /// - Parameter identifier: The identifier it was registered under.
    public func unregisterObject(identifier: String) {
        sharedObjects.unregister(identifier: identifier)
    }

    /// The identifiers of the scenes that have a saved archive, sorted.
    ///
    /// Keys of the store that are not scene archives (another coordinator's
    /// `main`, the shared objects' ``sharedObjectsKey``) and the markers written
    /// beside archives while a launch restores (`scene-<identifier>.restoring`) are
    /// not listed, nor are scenes whose archive is in a store of their own.
    ///
    /// ```swift
    /// for sceneID in try scenes.savedScenes() where !openSessions.contains(sceneID) {
    ///     try await scenes.discardScene(sceneID)
    /// }
    /// ```
    ///
    /// - Returns: The scene identifiers, in ascending order.
    /// - Throws: ``RestorationError`` with code ``RestorationError/Code/storeFailed``
    ///   when the store cannot be listed.
    public func savedScenes() throws(RestorationError) -> [String] {
        let keys: [StoreKey]
        do {
            keys = try store.keys()
        } catch {
            throw RestorationError(.storeFailed, message: "cannot list the saved scenes: \(error)", underlying: error)
        }
        return keys.compactMap { key -> String? in
            let text = key.rawValue
            // A marker's key ends in ".restoring", which no scene identifier does.
            guard text.hasPrefix(Self.keyPrefix) else { return nil }
            let identifier = String(text.dropFirst(Self.keyPrefix.count))
            return Self.problem(with: identifier) == nil ? identifier : nil
        }.sorted()
    }

    /// Forgets a scene: removes its archive and its restoration marker, and its
    /// coordinator, so the scene's next launch is fresh.
    ///
    /// Other scenes' archives are untouched. Rejected copies of the scene's
    /// archives are kept for inspection, as ``RestorationStore/remove(_:)`` keeps
    /// them. Discarding a scene that has no archive does nothing.
    ///
    /// Discard a scene once its last save has returned: a save still under way
    /// on a coordinator handed out before would write the archive again.
    ///
    /// ```swift
    /// func application(_ application: UIApplication, didDiscardSceneSessions sessions: Set<UISceneSession>) {
    ///     Task { for session in sessions { try? await scenes.discardScene(session.persistentIdentifier) } }
    /// }
    /// ```
    ///
    /// - Parameter sceneIdentifier: The scene's persistent identifier.
    /// - Throws: ``RestorationError`` with code
    ///   ``RestorationError/Code/invalidSceneIdentifier`` when the identifier
    ///   cannot name an archive, ``RestorationError/Code/storeFailed`` when the
    ///   store cannot remove the archive, or ``RestorationError/Code/insideLaunch``
    ///   when called from the scene's own running launch (the scene is kept).
    public func discardScene(_ sceneIdentifier: String) async throws(RestorationError) {
        let key = try Self.storeKey(for: sceneIdentifier)
        let coordinator = coordinators.withLock { $0.removeValue(forKey: sceneIdentifier) }
        // The scene's own coordinator waits for a save under way and drops those
        // still waiting, so none writes the archive back.
        do {
            try await (coordinator ?? makeCoordinator(sceneIdentifier: sceneIdentifier, key: key)).discardArchive()
        } catch {
            // Called from inside the scene's launch: nothing was discarded, so the scene keeps
            // its coordinator (unless a new one was handed out meanwhile).
            if error.code == .insideLaunch, let coordinator {
                coordinators.withLock { coordinators in
                    if coordinators[sceneIdentifier] == nil { coordinators[sceneIdentifier] = coordinator }
                }
            }
            throw error
        }
    }

    /// The store key of a scene's archive: `scene-<identifier>`.
    ///
    /// ```swift
    /// try RestorationScenes<DefaultRestorationDelegate>.storeKey(for: "window-2")  // scene-window-2
    /// ```
    ///
    /// - Parameter sceneIdentifier: The scene's persistent identifier.
    /// - Returns: The key its archive is saved under.
    /// - Throws: ``RestorationError`` with code
    ///   ``RestorationError/Code/invalidSceneIdentifier`` when the identifier is
    ///   empty, longer than ``maximumIdentifierLength``, has a character other than
    ///   `A-Z`, `a-z`, `0-9`, `"."`, `"_"` and `"-"`, contains `".rejected-"` or
    ///   ends in `".restoring"`; the message says which.
    public static func storeKey(for sceneIdentifier: String) throws(RestorationError) -> StoreKey {
        if let problem = problem(with: sceneIdentifier) {
            throw RestorationError(.invalidSceneIdentifier, message: "invalid scene identifier: \(problem)")
        }
        do {
            return try StoreKey.validated(keyPrefix + sceneIdentifier)
        } catch {
            throw RestorationError(
                .invalidSceneIdentifier, message: "invalid scene identifier: \(error)", underlying: error)
        }
    }

    /// Why a scene identifier cannot name an archive, or nil when it can.
    static func problem(with identifier: String) -> String? {
        let shown = identifier.count > 40 ? "\"\(identifier.prefix(40))…\"" : "\"\(identifier)\""
        let rule = "scene identifiers use only A-Z, a-z, 0-9, \".\", \"_\" and \"-\""
        if identifier.isEmpty { return "the scene identifier is empty" }
        if let character = StoreKey.firstDisallowedCharacter(in: identifier) {
            return "\(shown) contains \(character); \(rule)"
        }
        let count = identifier.unicodeScalars.count
        if count > maximumIdentifierLength {
            return "\(shown) has \(count) characters; scene identifiers have at most \(maximumIdentifierLength)"
        }
        if identifier.contains(StoreKey.reservedMarker) {
            return "\(shown) contains \"\(StoreKey.reservedMarker)\", which names rejected archives"
        }
        if identifier.hasSuffix(StoreKey.restorationMarkerSuffix) {
            return "\(shown) ends in \"\(StoreKey.restorationMarkerSuffix)\", which names restoration markers"
        }
        return nil
    }
}

extension RestorationScenes where Delegate == DefaultRestorationDelegate {
    /// Creates the scenes of an app whose coordinators take every delegate default.
    ///
    /// ```swift
    /// let scenes = RestorationScenes(screens: screens, store: FileStore(directory: url))
    /// ```
    ///
    /// - Parameters:
    ///   - screens: The app's screen declaration: that of every scene not given its own.
    ///   - store: Where the archives are kept: one per scene, and the shared objects'.
    ///   - configuration: The settings of every scene's coordinator; its store key
    ///     is replaced by the scene's.
    public convenience init(
        screens: ScreenDeclaration, store: any RestorationStore,
        configuration: RestorationConfiguration = RestorationConfiguration()
    ) {
        self.init(screens: screens, store: store, delegate: DefaultRestorationDelegate(), configuration: configuration)
    }
}
