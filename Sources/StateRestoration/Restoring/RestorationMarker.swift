import Foundation
import Synchronization

/// The crash-loop marker kept beside an archive while a launch restores it: found by the next
/// launch, it says the process died restoring that archive, which is then not restored again.
///
/// The marker is in the store only while the app is in the foreground. The system ends apps in
/// the background routinely (a suspended app whose memory it needs, a swipe in the app
/// switcher) and no code failed there: an app that leaves the foreground before its restoration
/// is over has its marker removed, and written again when it comes back to the foreground with
/// the restoration still under way. Under UIKit the question never comes up, since restoration
/// runs inside `application(_:didFinishLaunchingWithOptions:)`, before the user can leave.
///
/// When the marker goes for good (the interface is up, a save, a launch that restored nothing)
/// is the coordinator's state machine's to decide; this type keeps the store in step with that
/// decision and with the app's phase. Sendable: its state is behind a mutex, under which the
/// store is written too, so a phase change and the coordinator never interleave their writes.
final class RestorationMarker: Sendable {
    /// The marker's key in the store.
    let key: StoreKey
    /// Where the marker is kept: the archive's store.
    let store: any RestorationStore

    private struct State {
        /// Whether a restoration is under way, so the marker belongs in the store while the app
        /// is in the foreground.
        var isDue = false
        /// Whether the app is in the background, where the system may end it without a crash.
        var inBackground = false
    }

    private let state = Mutex(State())

    /// Creates the marker of an archive.
    init(beside archive: StoreKey, in store: any RestorationStore) {
        self.key = archive.restorationMarker
        self.store = store
    }

    /// Whether a marker is in the store: left by a launch that died restoring.
    var isFound: Bool { (try? store.read(key)) != nil }

    /// A restoration begins: writes the marker, or, in the background, writes it when the app
    /// comes to the foreground.
    ///
    /// - Throws: The store's error when the marker cannot be written; no marker is due then.
    func arm() throws {
        try state.withLock { state in
            if !state.inBackground { try write() }
            state.isDue = true
        }
    }

    /// The restoration is over: removes the marker.
    ///
    /// - Throws: The store's error when the marker cannot be removed; it stays due then, and
    ///   the next removal tries again.
    func disarm() throws {
        try state.withLock { state in
            try store.remove(key)
            state.isDue = false
        }
    }

    /// The app entered `phase`: removes a due marker on leaving the foreground, and writes it
    /// again on becoming active.
    ///
    /// - Returns: What went wrong with the store, in one line; nil when nothing did.
    func appPhaseDidChange(to phase: AppPhase) -> String? {
        state.withLock { state in
            switch phase {
            case .background, .terminate:
                state.inBackground = true
                guard state.isDue else { return nil }
                do {
                    try store.remove(key)
                } catch {
                    return
                        "the restoration marker \(key) could not be removed as the app left the foreground; if the system ends the app, the next launch will not restore: \(error)"
                }
            case .active:
                state.inBackground = false
                guard state.isDue else { return nil }
                do {
                    try write()
                } catch {
                    return
                        "crash-loop protection is off until the restoration ends: the marker \(key) could not be written again as the app became active: \(error)"
                }
            case .inactive:
                break
            }
            return nil
        }
    }

    private func write() throws {
        try store.write(Data("restoring since \(Date())".utf8), to: key)
    }
}
