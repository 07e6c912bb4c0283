import Foundation
import Synchronization

/// Which screen types a save may treat as plain values.
///
/// A screen type is plain when a screen's state is a function of the screen's value alone, with
/// nothing to call before reading it: a struct (not a class, whose instances change in place),
/// whose `state` is a stored property of its `State` type (not computed from, say, a view
/// model it holds; a type with a custom mirror is not looked into, and is not plain), and whose
/// ``RestorableScreen/willEncodeRestorableState()`` is the protocol's default, which does
/// nothing. Its `typeKey` and `stateVersion` are taken to be constant, as they are meant to be:
/// a skipped screen keeps the ones its previous save wrote. A save reads a plain screen's state without copying the screen or calling its hook,
/// and a node whose children are all plain, in the same array storage as at the previous save,
/// has the same children as then, so their walk is skipped (see ``HierarchyArchiver``).
///
/// Whether the hook is the default is found by calling it once per type (it is called anyway,
/// before the first encoding): the default implementation notes its type while a probe is under
/// way. A type's own hook that calls another type's default notes the other type, not its own.
enum PlainScreenTypes {
    /// Probes under way in the process: while nonzero, the default hook notes its type.
    private static let probes = Atomic<Int>(0)

    /// `@unchecked Sendable`: its set and dictionary are read and written only under `lock`,
    /// an `NSLock` for the reason ``ArchiveObjectPool`` gives.
    private final class Found: @unchecked Sendable {
        let lock = NSLock()
        /// The types whose default hook ran during a probe.
        var ranDefaultHook: Set<ObjectIdentifier> = []
        /// What was found for each probed type.
        var plain: [ObjectIdentifier: Bool] = [:]
    }

    private static let found = Found()

    /// Called by the protocol's default `willEncodeRestorableState()`.
    static func defaultHookRan(for type: Any.Type) {
        guard probes.load(ordering: .acquiring) > 0 else { return }
        found.lock.withLock { _ = found.ranDefaultHook.insert(ObjectIdentifier(type)) }
    }

    /// Calls `screen`'s will-encode hook, and tells whether its type is plain.
    static func willEncode<Screen: RestorableScreen>(_ screen: inout Screen) -> Bool {
        let type = ObjectIdentifier(Screen.self)
        if let plain = found.lock.withLock({ found.plain[type] }) {
            return plain
        }
        let plain = !(screen is any CustomReflectable) && Self.storesState(screen)
        found.lock.withLock { found.plain[type] = plain }
        return plain
    }

    /// Whether `screen` is a struct with a stored property `state` of its `State` type (so
    /// `state` is not computed). Its own mirror, which lists stored properties, is asked once per
    /// type; a type with a custom mirror is not asked.
    private static func storesState<Screen: RestorableScreen>(_ screen: Screen) -> Bool {
        let mirror = Mirror(reflecting: screen)
        return mirror.displayStyle == .struct
            && mirror.children.contains { $0.label == "state" && type(of: $0.value) == Screen.State.self }
    }
}
