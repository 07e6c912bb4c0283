import Synchronization
import StateRestoration
import TestScreens
import Testing

/// A launch whose archive's root cannot come back is fresh through and through.
@Suite struct RootNotRestoredTests {
    private final class Cart: RestorableObject {
        struct State: Codable, Sendable { var items: [String] }
        let items: Mutex<[String]>
        init(_ items: [String]) { self.items = Mutex(items) }
        func encodeRestorableState() async -> State { State(items: items.withLock { $0 }) }
        func decodeRestorableState(_ state: State) async { items.withLock { $0 = state.items } }
    }

    /// Saves a tree of `old` with a cart and app-wide state, then launches `new` with an empty cart.
    private func launch(
        old: ScreenDeclaration, tree: ScreenTree, new: ScreenDeclaration
    ) async throws -> (RestorationSession, Cart, Probe) {
        let store = InMemoryStore()
        var saving = RecordingDelegate(probe: Probe())
        saving.appState = .init(cartCount: 2, lastSync: "yesterday")
        let coordinator = RestorationCoordinator(screens: old, store: store, delegate: saving)
        await coordinator.register(Cart(["tea", "rice"]), identifier: "cart")
        try await coordinator.save(tree)

        let probe = Probe()
        let cart = Cart([])
        let restoring = RestorationCoordinator(screens: new, store: store, delegate: RecordingDelegate(probe: probe))
        await restoring.register(cart, identifier: "cart")
        return (try await restoring.launch(), cart, probe)
    }

    @Test("a root renamed or of another kind restores no shared object and no app-wide state")
    func rootChanged() async throws {
        let old = ScreenDeclaration { Tabs("main") { Screen(SettingsScreen(), id: "settings") } }
        var tree = try old.makeInitialTree()
        try tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "jp" }
        let renamed = ScreenDeclaration { Tabs("root") { Screen(SettingsScreen(), id: "settings") } }
        let restacked = ScreenDeclaration { Stack("main", root: SettingsScreen()) }

        for (new, message) in [
            (renamed, "the archive's root main (tabs) is not the declaration's root root (tabs)"),
            (restacked, "the archive's root main (tabs) is not the declaration's root main (stack)"),
        ] {
            let (session, cart, probe) = try await launch(old: old, tree: tree, new: new)
            #expect(session.report.outcome == .fresh)
            #expect(session.report.freshReason?.code == .rootNotRestored)
            #expect(session.report.freshReason?.message == message)
            #expect(session.report.restoredObjects.isEmpty)
            #expect(cart.items.withLock { $0 }.isEmpty)
            #expect(!probe.recorded.contains { $0.hasPrefix("did-decode") })
            #expect(probe.recorded.last == "did-finish-launching fresh")
        }
    }

    @Test(
        "a root screen whose state no longer decodes gives a fresh launch without did-decode, and says the objects came back"
    )
    func rootScreenFails() async throws {
        struct RootV1: RestorableScreen {
            static let typeKey: ScreenTypeKey = "home"
            struct State: Codable, Sendable, Equatable { var tab = 1 }
            var state = State()
        }
        struct RootV2: RestorableScreen {
            static let typeKey: ScreenTypeKey = "home"
            struct State: Codable, Sendable, Equatable { var tab = "first" }
            var state = State()
        }
        let old = ScreenDeclaration { Screen(RootV1(), id: "home") }
        let new = ScreenDeclaration { Screen(RootV2(), id: "home") }
        let (session, cart, probe) = try await launch(old: old, tree: try old.makeInitialTree(), new: new)

        #expect(session.report.outcome == .fresh)
        #expect(session.report.freshReason?.code == .rootNotRestored)
        #expect(
            session.report.freshReason?.message.hasPrefix("the archive's root home could not be restored: ") == true)
        #expect(session.report.skipped.map(\.reason) == [.decodeFailed])
        // Objects are restored before any screen, so the cart did come back; the report says so.
        #expect(cart.items.withLock { $0 } == ["tea", "rice"])
        #expect(session.report.restoredObjects == ["cart"])
        #expect(
            session.report.notes.contains(
                "shared objects cart took back their saved state before the root failed to restore"))
        #expect(!probe.recorded.contains { $0.hasPrefix("did-decode") })
    }
}
