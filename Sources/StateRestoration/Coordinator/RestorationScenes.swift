import Synchronization

/// Saves and restores several windows, each with its own hierarchy and its own
/// archive: UIKit's scene-based restoration (iOS 13 and later).
///
/// One app, one declaration, one store; each scene (a window on iPad, macOS or
/// visionOS) is known by the identifier its scene session keeps across launches
/// (UIKit's `UISceneSession.persistentIdentifier`). `RestorationScenes` hands out
/// one ``RestorationCoordinator`` per scene, each saving to its own key in the
/// store, `scene-<identifier>`; so scenes are saved and restored independently,
/// and saving one never touches another's archive. When the user closes a window
/// for good (UIKit's `application(_:didDiscardSceneSessions:)`), discard its
/// scene, which removes its archive.
///
/// ```swift
/// let scenes = RestorationScenes(screens: screens, store: FileStore(directory: url), delegate: AppDelegate())
///
/// // scene(_:willConnectTo:options:): the window's model is its RestorationHost
/// let coordinator = try scenes.coordinator(for: session.persistentIdentifier)
/// try await coordinator.launch(into: windowModel)
///
/// // sceneDidEnterBackground(_:)
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
/// The object is Sendable: its coordinators are kept behind a mutex, and every
/// method may be called from any task.
public final class RestorationScenes<Delegate: RestorationDelegate>: Sendable {
    /// The app's screens, shared by every scene.
    public let declaration: ScreenDeclaration
    /// Where every scene's archive is kept, each under its own key.
    public let store: any RestorationStore
    /// The configuration every scene's coordinator copies, with its own store key.
    public let configuration: RestorationConfiguration

    /// Makes the delegate of a scene's coordinator from the scene identifier.
    private let makeDelegate: @Sendable (String) -> Delegate
    /// The coordinators handed out, by scene identifier.
    private let coordinators = Mutex<[String: RestorationCoordinator<Delegate>]>([:])

    /// The text before a scene identifier in its store key.
    public static var keyPrefix: String { "scene-" }

    /// The suffix of the crash-loop marker a coordinator writes beside its
    /// archive while a launch restores.
    static var markerSuffix: String { ".restoring" }

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
    ///   - screens: The app's screen declaration, shared by every scene.
    ///   - store: Where the archives are kept, one per scene.
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
    }

    /// Creates the scenes of an app whose scenes share one delegate.
    ///
    /// ```swift
    /// let scenes = RestorationScenes(screens: screens, store: store, delegate: AppDelegate())
    /// ```
    ///
    /// - Parameters:
    ///   - screens: The app's screen declaration, shared by every scene.
    ///   - store: Where the archives are kept, one per scene.
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
    /// The first call for a scene makes its coordinator, configured like
    /// ``configuration`` but with the scene's ``storeKey(for:)``; later calls
    /// return the same coordinator, so the scene's saves stay in order and reuse
    /// each other's encoded states. After ``discardScene(_:)``, the next call
    /// makes a new one.
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

    /// A coordinator for a scene: the base configuration with the scene's key.
    private func makeCoordinator(sceneIdentifier: String, key: StoreKey) -> RestorationCoordinator<Delegate> {
        var sceneConfiguration = configuration
        sceneConfiguration.storeKey = key
        return RestorationCoordinator(
            screens: declaration, store: store, delegate: makeDelegate(sceneIdentifier),
            configuration: sceneConfiguration)
    }

    /// The identifiers of the scenes that have a saved archive, sorted.
    ///
    /// Keys of the store that are not scene archives (another coordinator's
    /// `main`, say) and the markers coordinators write beside archives while a
    /// launch restores (`scene-<identifier>.restoring`) are not listed.
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
            guard text.hasPrefix(Self.keyPrefix), !text.hasSuffix(Self.markerSuffix) else { return nil }
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
        if identifier.hasSuffix(markerSuffix) {
            return "\(shown) ends in \"\(markerSuffix)\", which names restoration markers"
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
    ///   - screens: The app's screen declaration, shared by every scene.
    ///   - store: Where the archives are kept, one per scene.
    ///   - configuration: The settings of every scene's coordinator; its store key
    ///     is replaced by the scene's.
    public convenience init(
        screens: ScreenDeclaration, store: any RestorationStore,
        configuration: RestorationConfiguration = RestorationConfiguration()
    ) {
        self.init(screens: screens, store: store, delegate: DefaultRestorationDelegate(), configuration: configuration)
    }
}
