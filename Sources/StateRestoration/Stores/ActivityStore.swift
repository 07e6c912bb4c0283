public import Foundation
import Synchronization

/// A ``RestorationStore`` that holds one window's archive in memory and hands its bytes
/// in and out: for UIKit's scene-based restoration, where the system keeps each
/// window's state in the scene's `stateRestorationActivity`.
///
/// The system keeps an `NSUserActivity` per scene session and drops it when the user
/// closes the window for good. Make the store from the bytes the session kept (or nil
/// on a window's first connection), give it to the window's coordinator, and hand the
/// newest bytes back when the system asks for the scene's activity: from ``archive``,
/// or as they are written, through the `archiveDidChange` callback.
///
/// ```swift
/// // The scene delegate (UIKit, iOS 13 and later):
/// func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
///     let saved = session.stateRestorationActivity?.userInfo?["archive"] as? Data
///     let store = ActivityStore(archive: saved, markers: FileStore(directory: markersDirectory))
///     guard let coordinator = try? scenes.coordinator(
///         for: session.persistentIdentifier, screens: scenes.declaration, store: store) else { return }
///     self.coordinator = coordinator
///     Task { try await coordinator.launch(into: windowModel) }
/// }
///
/// func sceneWillResignActive(_ scene: UIScene) {
///     Task { try await coordinator?.save(windowModel) }
/// }
///
/// func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
///     guard let store = coordinator?.store as? ActivityStore, let archive = store.archive else { return nil }
///     let activity = NSUserActivity(activityType: "com.example.shop.window")
///     activity.addUserInfoEntries(from: ["archive": archive])
///     return activity
/// }
/// ```
///
/// A save is asynchronous and the system asks for the activity when the scene enters
/// the background, so save when the scene resigns active (a ``RestorationModel``
/// does, on ``AppPhase/inactive``); ``archive`` holds the archive of the last
/// completed save, always whole, never a partial one. A coordinator made on its own works
/// as well as one of ``RestorationScenes``; the scenes add the objects the windows
/// share, kept in the scenes' own store.
///
/// ## One archive, its marker, its rejected copies
///
/// The store holds the archive of one coordinator: the archive is that of the key
/// given at creation or, without one, of the first key a coordinator reads or writes
/// (its store key, `main` or `scene-<identifier>`). Other keys hold nothing, and a
/// write to one throws ``StoreError/Code/otherKeyHeld``: give each coordinator a
/// store of its own.
///
/// Keys ending in `.restoring` are the crash-loop markers a coordinator writes beside
/// its archive while a launch restores it; they are never handed out with the
/// archive. Kept in memory, a marker dies with the process, so a crash while
/// restoring would not make the next launch fresh: pass a store that outlives the
/// process (a ``FileStore`` in the app's caches) as `markers`, and the markers are
/// kept there, and a launch after a crash leaves the archive alone, as UIKit does.
///
/// A rejected archive (one that fails a check at launch) is moved to a rejected copy
/// kept in memory, readable with ``rejectedArchive(named:)``; the archive is then nil,
/// and so is what the callback hands out, so the damaged bytes are not given back to
/// the system.
///
/// The store is Sendable: its state is behind a mutex, and every method may be
/// called from any thread. Changes to the archive, and their callbacks, happen one at
/// a time, in order.
public final class ActivityStore: RestorationStore {
    /// What the store holds.
    private struct State {
        /// The archive's bytes.
        var archive: Data?
        /// The key the archive is held under; nil until one is given or used.
        var key: StoreKey?
        /// The markers, when no marker store is given.
        var markers: [StoreKey: Data] = [:]
        /// The rejected copies, oldest first.
        var rejected: [(key: StoreKey, name: String, data: Data)] = []

        /// Whether the archive is that of `key`; the first key asked becomes the
        /// archive's key when none is set.
        mutating func holds(_ key: StoreKey) -> Bool {
            if self.key == nil { self.key = key }
            return self.key == key
        }
    }

    private let state: Mutex<State>
    /// Held while the archive changes and its callback runs, so callbacks come in the
    /// order of the changes.
    private let changes = Mutex(())
    /// Where markers are kept, when not in memory.
    private let markerStore: (any RestorationStore)?
    /// Told the archive's new bytes after each change.
    private let archiveDidChange: (@Sendable (Data?) -> Void)?
    /// The clock that dates rejected copies.
    private let now: @Sendable () -> Date

    /// Creates a store holding the bytes the system kept for a window, or nothing.
    ///
    /// ```swift
    /// let store = ActivityStore(archive: session.stateRestorationActivity?.userInfo?["archive"] as? Data)
    /// ```
    ///
    /// - Parameters:
    ///   - archive: The archive's bytes, as a previous save handed them out; nil when
    ///     there is none (a new window). Bytes that are not a valid archive make the
    ///     launch fresh, as a damaged file does.
    ///   - key: The key the archive is held under; nil (the default) takes the first
    ///     key a coordinator reads or writes.
    ///   - markers: Where crash-loop markers are kept; nil keeps them in memory, where
    ///     they do not outlive the process.
    ///   - archiveDidChange: Told the archive's bytes after each write, and nil after the
    ///     archive is removed or rejected; called on the thread that changed it, one call
    ///     at a time. It may read ``archive``, but must not change the store.
    public convenience init(
        archive: Data?, key: StoreKey? = nil, markers: (any RestorationStore)? = nil,
        archiveDidChange: (@Sendable (Data?) -> Void)? = nil
    ) {
        self.init(archive: archive, key: key, markers: markers, archiveDidChange: archiveDidChange, now: Date.init)
    }

    /// Creates a store that dates rejected copies with `now`; for tests.
    init(
        archive: Data?, key: StoreKey?, markers: (any RestorationStore)?,
        archiveDidChange: (@Sendable (Data?) -> Void)?, now: @escaping @Sendable () -> Date
    ) {
        self.state = Mutex(State(archive: archive, key: key))
        self.markerStore = markers
        self.archiveDidChange = archiveDidChange
        self.now = now
    }

    /// The archive's newest bytes, to hand to the system; nil when there is none.
    ///
    /// ```swift
    /// activity.addUserInfoEntries(from: ["archive": store.archive ?? Data()])
    /// ```
    public var archive: Data? { state.withLock { $0.archive } }

    /// Returns the archive when `key` is the archive's key, a marker, or nil.
    ///
    /// The first key other than a marker that is read becomes the archive's key, if
    /// none was given.
    ///
    /// ```swift
    /// let data = try store.read("scene-window-1")
    /// ```
    ///
    /// - Parameter key: The archive's or a marker's key.
    /// - Returns: The bytes stored under `key`, or nil.
    /// - Throws: ``StoreError`` only from the marker store.
    public func read(_ key: StoreKey) throws -> Data? {
        if Self.isMarker(key) {
            if let markerStore { return try markerStore.read(key) }
            return state.withLock { $0.markers[key] }
        }
        return state.withLock { state in state.holds(key) ? state.archive : nil }
    }

    /// Replaces the archive, or writes a marker; after a write of the archive,
    /// `archiveDidChange` gets its bytes.
    ///
    /// ```swift
    /// try store.write(sealedArchive, to: "scene-window-1")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - key: The archive's key, or a marker's.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/otherKeyHeld`` when the
    ///   store holds the archive of another key (nothing is changed), or what the marker
    ///   store throws.
    public func write(_ data: Data, to key: StoreKey) throws {
        if Self.isMarker(key) {
            if let markerStore { return try markerStore.write(data, to: key) }
            return state.withLock { $0.markers[key] = data }
        }
        try changes.withLock { _ throws(StoreError) in
            try state.withLock { state throws(StoreError) in
                guard state.holds(key) else {
                    throw StoreError(
                        code: .otherKeyHeld, operation: .write,
                        reason:
                            "this ActivityStore holds the archive of \(state.key?.rawValue ?? "?"), not of \(key); give each coordinator a store of its own"
                    )
                }
                state.archive = data
            }
            archiveDidChange?(data)
        }
    }

    /// Removes the archive, or a marker; does nothing if there is none. Rejected
    /// copies are kept. After the archive is removed, `archiveDidChange` gets nil.
    ///
    /// ```swift
    /// try store.remove("scene-window-1")
    /// ```
    ///
    /// - Parameter key: The archive's key, or a marker's.
    /// - Throws: ``StoreError`` only from the marker store.
    public func remove(_ key: StoreKey) throws {
        if Self.isMarker(key) {
            if let markerStore { return try markerStore.remove(key) }
            return state.withLock { _ = $0.markers.removeValue(forKey: key) }
        }
        changes.withLock { _ in
            let removed = state.withLock { state -> Bool in
                guard state.holds(key), state.archive != nil else { return false }
                state.archive = nil
                return true
            }
            if removed { archiveDidChange?(nil) }
        }
    }

    /// Moves the archive, or a marker, to a rejected copy kept in memory and returns
    /// the copy's name; after the archive is rejected, `archiveDidChange` gets nil.
    ///
    /// The name is the one ``FileStore`` would give the file,
    /// `<key>.rejected-<reason>-<yyyyMMdd'T'HHmmss.SSS'Z'>.restoration`, made unique
    /// with `-2`, `-3`, … if needed. Read the copy back with ``rejectedArchive(named:)``.
    ///
    /// ```swift
    /// let name = try store.reject("scene-window-1", reason: "checksum-mismatch")
    /// ```
    ///
    /// - Parameters:
    ///   - key: The archive's key, or a marker's.
    ///   - reason: Why it was rejected, such as `"checksum-mismatch"`.
    /// - Returns: The rejected copy's name, or nil when nothing was stored under `key`.
    /// - Throws: ``StoreError`` only from the marker store.
    public func reject(_ key: StoreKey, reason: String) throws -> String? {
        if Self.isMarker(key), let markerStore { return try markerStore.reject(key, reason: reason) }
        let slug = ArchiveNaming.slug(for: reason)
        let timestamp = ArchiveNaming.timestamp(now())
        return changes.withLock { _ -> String? in
            let name = state.withLock { state -> String? in
                let data: Data
                if Self.isMarker(key) {
                    guard let marker = state.markers.removeValue(forKey: key) else { return nil }
                    data = marker
                } else {
                    guard state.holds(key), let archive = state.archive else { return nil }
                    data = archive
                    state.archive = nil
                }
                var sequence = 1
                var name: String
                repeat {
                    name = ArchiveNaming.rejectedName(for: key, slug: slug, timestamp: timestamp, sequence: sequence)
                    sequence += 1
                } while state.rejected.contains { $0.name == name }
                state.rejected.append((key, name, data))
                return name
            }
            if name != nil && !Self.isMarker(key) { archiveDidChange?(nil) }
            return name
        }
    }

    /// Returns the names of a key's rejected copies, oldest first.
    ///
    /// ```swift
    /// let names = try store.rejectedArchives(for: "scene-window-1")
    /// ```
    ///
    /// - Parameter key: The key whose rejected copies to list.
    /// - Returns: The names ``reject(_:reason:)`` returned for `key`.
    /// - Throws: ``StoreError`` only from the marker store, for a marker's key.
    public func rejectedArchives(for key: StoreKey) throws -> [String] {
        if Self.isMarker(key), let markerStore { return try markerStore.rejectedArchives(for: key) }
        return state.withLock { state in state.rejected.filter { $0.key == key }.map(\.name) }
    }

    /// Returns the archive's key, when it has one and an archive.
    ///
    /// The crash-loop markers are not archives, and are not listed. An archive handed in
    /// without a key is listed once a coordinator has read it.
    ///
    /// ```swift
    /// let keys = try store.keys()  // ["scene-window-1"]
    /// ```
    ///
    /// - Returns: The key that holds the archive, or none.
    /// - Throws: Never; the signature matches ``RestorationStore``.
    public func keys() throws -> [StoreKey] {
        state.withLock { state in
            guard state.archive != nil, let key = state.key else { return [] }
            return [key]
        }
    }

    /// Returns the bytes of a rejected copy, to inspect what was rejected.
    ///
    /// ```swift
    /// if let name = session.report.rejectedArchive { print(store.rejectedArchive(named: name) ?? Data()) }
    /// ```
    ///
    /// - Parameter name: A name ``reject(_:reason:)`` or ``rejectedArchives(for:)`` returned.
    /// - Returns: The rejected bytes, or nil if no rejected copy has that name.
    public func rejectedArchive(named name: String) -> Data? {
        state.withLock { state in state.rejected.first { $0.name == name }?.data }
    }

    /// Whether a key names a crash-loop marker.
    private static func isMarker(_ key: StoreKey) -> Bool { key.isRestorationMarker }
}
