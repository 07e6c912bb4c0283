import Foundation
import Synchronization

/// The objects the windows of a ``RestorationScenes`` share: restored once per
/// process, by the first window launch, and saved in one archive of their own by
/// every window save.
///
/// The restore runs once: the first launch to ask runs it, before its screens
/// decode; launches that ask while it runs wait for it, and later ones find it
/// done. None decodes the objects again, so a window that connects later never
/// takes the live objects back to an older saved state.
///
/// Saves run one at a time, in the order they asked: each encodes the objects'
/// current states and writes them, so the archive always ends with the newest
/// states, whichever window saved last. A save whose states are those the archive
/// already holds writes nothing.
///
/// The archive is a ``RestorationArchive`` with ``RestorationArchive/objects`` and
/// no root, sealed in the usual envelope, under
/// ``RestorationScenes/sharedObjectsKey``; a marker beside it while the objects
/// decode makes the next launch leave it alone if the process dies there.
///
/// Sendable: its state is behind a mutex, and the restore and the saves hand
/// their turns over through continuations.
package final class SharedObjects: Sendable {
    /// What a window launch gets from the restore.
    struct Restored: Sendable {
        /// The registered objects, by identifier.
        var objects: [String: any RestorableObject]
        /// The identifiers of the objects that took back their saved state; empty for a
        /// launch that did not run the restore.
        var restoredIdentifiers: [String] = []
        /// What the restore could not do (a rejected archive, say); empty for a launch
        /// that did not run the restore.
        var notes: [String] = []
    }

    /// Where the one restore of the process is.
    private enum RestoreState {
        case notStarted
        /// The launches waiting for it.
        case running(waiters: [CheckedContinuation<Void, Never>])
        case finished
    }

    private struct State {
        var objects: [String: any RestorableObject] = [:]
        var restore = RestoreState.notStarted
        /// The objects as the archive in the store holds them, as far as this process
        /// knows: read by the restore, written by the saves; nil while no restore has
        /// read the archive, when saves leave it alone.
        var stored: [ArchivedObject]?
        /// The registered objects that have taken back their saved state (or had none
        /// to take): an object registered later takes its state before any save.
        var settled: Set<ObjectIdentifier> = []
        /// The identifiers unregistered in this process: a save drops what the archive
        /// holds for them, and keeps what it holds for identifiers nobody registered yet.
        var unregistered: Set<String> = []
        /// Whether a save holds the turn.
        var saving = false
        /// The saves waiting for their turn, in the order they asked.
        var waitingSaves: [CheckedContinuation<Void, Never>] = []
    }

    /// The archive's key.
    let key: StoreKey
    /// The marker kept beside the archive while the objects decode.
    let marker: RestorationMarker
    /// The scenes' store.
    let store: any RestorationStore
    /// The scenes' configuration: app version, clock, maximum age, restores after a crash.
    let configuration: RestorationConfiguration
    private let state = Mutex(State())

    init(key: StoreKey, store: any RestorationStore, configuration: RestorationConfiguration) {
        self.key = key
        self.marker = RestorationMarker(beside: key, in: store)
        self.store = store
        self.configuration = configuration
    }

    // MARK: Registering

    /// Registers an object; another one under the identifier is replaced.
    func register(_ object: any RestorableObject, identifier: String) {
        state.withLock { state in
            state.objects[identifier] = object
            state.unregistered.remove(identifier)
        }
    }

    /// Stops saving the object registered under an identifier.
    func unregister(identifier: String) {
        state.withLock { state in
            state.objects[identifier] = nil
            state.unregistered.insert(identifier)
        }
    }

    /// The registered objects, by identifier.
    var objects: [String: any RestorableObject] { state.withLock { $0.objects } }

    /// How many launches wait for the restore another one runs (for tests).
    package var waitingLaunchCount: Int {
        state.withLock { state in
            if case .running(let waiters) = state.restore { return waiters.count }
            return 0
        }
    }

    /// How many saves wait for another one to write the archive (for tests).
    package var waitingSaveCount: Int { state.withLock { $0.waitingSaves.count } }

    // MARK: Restoring

    /// Restores the objects from their archive if no launch of this process has, or
    /// waits for the launch that is doing it; returns the registered objects.
    func restore() async -> Restored {
        enum Role { case run, wait, done }
        let role = state.withLock { state -> Role in
            switch state.restore {
            case .notStarted:
                state.restore = .running(waiters: [])
                return .run
            case .running: return .wait
            case .finished: return .done
            }
        }
        switch role {
        case .run:
            var notes: [String] = []
            let restored = await restoreFromArchive(notes: &notes)
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                // Not read (nothing registered yet, or a passing read error): a later launch tries again.
                defer { state.restore = state.stored == nil ? .notStarted : .finished }
                guard case .running(let waiters) = state.restore else { return [] }
                return waiters
            }
            for waiter in waiters { waiter.resume() }
            return Restored(objects: objects, restoredIdentifiers: restored, notes: notes)
        case .wait:
            await waitForRestore()
            return Restored(objects: objects)
        case .done:
            var notes: [String] = []
            let restored = await settleLateObjects(notes: &notes)
            return Restored(objects: objects, restoredIdentifiers: restored, notes: notes)
        }
    }

    /// Gives each object registered after the archive was read the state the archive
    /// holds for it, so that it is not saved over; returns the identifiers restored.
    private func settleLateObjects(notes: inout [String]) async -> [String] {
        let (late, stored) = state.withLock { state in
            (state.objects.filter { !state.settled.contains(ObjectIdentifier($0.value)) }, state.stored)
        }
        guard let stored, !late.isEmpty else { return [] }
        let restored = await Self.restore(
            stored.filter { late[$0.id] != nil }, into: late, archive: key, notes: &notes)
        state.withLock { state in
            for object in late.values { state.settled.insert(ObjectIdentifier(object)) }
        }
        return restored
    }

    /// Waits until the running restore has finished.
    private func waitForRestore() async {
        await withCheckedContinuation { continuation in
            let finished = state.withLock { state -> Bool in
                guard case .running(var waiters) = state.restore else { return true }
                waiters.append(continuation)
                state.restore = .running(waiters: waiters)
                return false
            }
            if finished { continuation.resume() }
        }
    }

    /// Reads the archive and gives each registered object its saved state; anything
    /// wrong with the archive leaves the objects as they are, with a note.
    private func restoreFromArchive(notes: inout [String]) async -> [String] {
        let objects = objects
        // Nothing to restore, and nothing read: the store is not touched.
        guard !objects.isEmpty else { return [] }
        let data: Data
        do {
            guard let stored = try store.read(key) else {
                removeMarker(notes: &notes)
                setStored([])
                return []
            }
            data = stored
        } catch let error as StoreError
            where (error.code == .tooLarge || error.code == .notAFile) && error.operation == .read
        {
            // Lasting, as for a window's archive: moved aside so that saves can write it again.
            let reason = error.code == .tooLarge ? "too-large" : "not-a-file"
            notes.append(rejection(reason: reason, "\(error)"))
            removeMarker(notes: &notes)
            setStored([])
            return []
        } catch {
            // Passing (a locked device): the archive stays, and the next save writes it.
            notes.append("cannot read the shared objects' archive \(key); the shared objects start fresh: \(error)")
            return []
        }
        let markerFound = marker.isFound
        if markerFound && !configuration.restoresAfterCrash {
            notes.append(
                rejection(
                    reason: "crashed-during-restoration",
                    "the previous launch ended while restoring the shared objects, so they are not restored again"))
            removeMarker(notes: &notes)
            setStored([])
            return []
        } else if markerFound {
            notes.append(
                "the previous launch died while restoring the shared objects; restoring them anyway (restoresAfterCrash)"
            )
        }
        do {
            try marker.arm()
        } catch {
            notes.append(
                "crash-loop protection is off for the shared objects: the marker \(marker.key) could not be written: \(error)"
            )
        }
        defer { removeMarker(notes: &notes) }
        let archive: RestorationArchive
        let info: ArchiveInfo
        do {
            (archive, info) = try RestorationArchive.open(data)
        } catch {
            notes.append(rejection(reason: RestorationArchive.failedCheck(error), "\(error)"))
            setStored([])
            return []
        }
        let archived = archive.objects ?? []
        setStored(archived)
        defer { settle(objects) }
        if let maximumAge = configuration.maximumArchiveAge {
            let age = Duration.seconds(max(0, configuration.now().timeIntervalSince(info.savedAt)))
            if age > maximumAge {
                notes.append(
                    "the shared objects' archive \(key) was saved \(age.formatted) ago; archives older than \(maximumAge.formatted) are not restored"
                )
                return []
            }
        }
        return await Self.restore(archived, into: objects, archive: key, notes: &notes)
    }

    /// Gives each registered object its saved state; returns the identifiers restored,
    /// and notes what was not.
    private static func restore(
        _ archived: [ArchivedObject], into objects: [String: any RestorableObject], archive key: StoreKey,
        notes: inout [String]
    ) async -> [String] {
        await ArchivedObject.restore(archived, into: objects, kind: "shared object", notes: &notes) { saved in
            "the shared objects' archive \(key) holds object \(saved.id) (\(saved.type)), but no object is registered with the scenes under that identifier"
        }
    }

    /// Moves the archive aside and says so, in one line.
    private func rejection(reason: String, _ problem: String) -> String {
        let moved: String
        do {
            moved = try store.reject(key, reason: reason).map { "moved aside to \($0)" } ?? "already gone"
        } catch {
            moved = "could not be moved aside (\(error))"
        }
        return
            "the shared objects' archive \(key) was rejected (\(reason)) and \(moved); the shared objects start fresh: \(problem)"
    }

    private func removeMarker(notes: inout [String]) {
        do {
            try marker.disarm()
        } catch {
            notes.append(
                "the shared objects' marker \(marker.key) could not be removed; the next launch will not restore them: \(error)"
            )
        }
    }

    /// Records what the archive holds, and that the objects registered now are settled.
    private func setStored(_ archived: [ArchivedObject]) {
        state.withLock { $0.stored = archived }
        settle(objects)
    }

    private func settle(_ objects: [String: any RestorableObject]) {
        state.withLock { state in
            for object in objects.values { state.settled.insert(ObjectIdentifier(object)) }
        }
    }

    // MARK: Saving

    /// Writes the registered objects' current states to their archive, after the saves
    /// that asked before; writes nothing when the archive already holds these states,
    /// or when no launch of this process has read the archive (their states would
    /// replace saved ones they never took back). An object registered after the
    /// archive was read first takes back its saved state; what the archive holds for
    /// an identifier nobody registered is kept, and for one unregistered, dropped.
    ///
    /// - Throws: ``RestorationError`` when a state does not encode or the store fails;
    ///   the archive is then as it was.
    func save() async throws(RestorationError) {
        guard await restoreHasRun() else { return }
        await takeSaveTurn()
        defer { passSaveTurn() }
        var notes: [String] = []
        _ = await settleLateObjects(notes: &notes)
        guard let (stored, unregistered) = state.withLock({ state in state.stored.map { ($0, state.unregistered) } })
        else { return }
        let encoder = ArchiveEncoder()
        let objects = objects
        var archived = stored.filter { objects[$0.id] == nil && !unregistered.contains($0.id) }
        for (identifier, object) in objects.sorted(by: { $0.key < $1.key }) {
            do {
                archived.append(
                    ArchivedObject(
                        id: identifier, type: Swift.type(of: object).typeKey,
                        state: try await object.encodedState(with: encoder)))
            } catch {
                throw RestorationError(
                    .encodingFailed, message: "cannot save shared object \(identifier): \(error)", underlying: error)
            }
        }
        archived.sort { $0.id < $1.id }
        guard archived != stored else { return }
        let archive = RestorationArchive(
            appVersion: configuration.appVersion, savedAt: configuration.now(), metadata: RestorationMetadata(),
            objects: archived.isEmpty ? nil : archived)
        let sealed: Data
        do {
            sealed = ArchiveEnvelope.seal(try encoder.encode(archive), formatVersion: RestorationArchive.formatVersion)
        } catch {
            throw RestorationError(
                .encodingFailed, message: "cannot encode the shared objects' archive \(key): \(error)",
                underlying: error)
        }
        do {
            try store.write(sealed, to: key)
        } catch {
            throw RestorationError(
                .storeFailed, message: "cannot save the shared objects' archive \(key): \(error)", underlying: error)
        }
        setStored(archived)
    }

    /// Whether the archive has been read, so a save knows what it replaces: waits for
    /// a restore that is running, and runs one when none has read the archive yet but
    /// objects are registered (registered after the first window launch, say).
    private func restoreHasRun() async -> Bool {
        switch state.withLock({ $0.restore }) {
        case .notStarted:
            guard !objects.isEmpty else { return false }
            _ = await restore()
        case .running:
            await waitForRestore()
        case .finished:
            break
        }
        return state.withLock { $0.stored != nil }
    }

    /// Waits until no other save holds the turn, then holds it.
    private func takeSaveTurn() async {
        await withCheckedContinuation { continuation in
            let free = state.withLock { state -> Bool in
                if state.saving {
                    state.waitingSaves.append(continuation)
                    return false
                }
                state.saving = true
                return true
            }
            if free { continuation.resume() }
        }
    }

    /// Hands the turn to the next waiting save, or frees it.
    private func passSaveTurn() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waitingSaves.isEmpty else {
                state.saving = false
                return nil
            }
            return state.waitingSaves.removeFirst()
        }
        next?.resume()
    }
}
