import StateRestoration
import Synchronization
import Testing

/// The shared archive survives what a process could not read or did not register in time.
@Suite struct SharedArchiveKeepingTests {
    /// A process that saved the cart holding `items`.
    private func savedCart(_ items: [String], in store: InMemoryStore) async throws {
        let scenes = RestorationScenes(screens: Windows.browse, store: store)
        let cart = WindowCart()
        scenes.register(cart, identifier: "cart")
        _ = try await scenes.coordinator(for: "window-1").launch()
        cart.contents = items
        try await scenes.coordinator(for: "window-1").save(try Windows.browsingTree())
    }

    @Test("a shared archive that could not be read is not saved over, and a later launch restores it")
    func unreadableArchiveIsKept() async throws {
        let store = InMemoryStore()
        try await savedCart(["tea"], in: store)
        let saved = try store.read("shared")

        let locked = LockableStore(InMemoryStore(storage: store.storage), locking: "shared", locked: true)
        let scenes = RestorationScenes(screens: Windows.browse, store: locked)
        let cart = WindowCart()
        scenes.register(cart, identifier: "cart")
        _ = try await scenes.coordinator(for: "window-1").launch()
        #expect(cart.contents.isEmpty)
        try await scenes.coordinator(for: "window-1").save(try Windows.browsingTree())
        #expect(try store.read("shared") == saved)  // not replaced by the fresh cart

        locked.failingReads.withLock { $0 = false }  // unlocked: the next window's launch reads it
        _ = try await scenes.coordinator(for: "window-2").launch()
        #expect(cart.contents == ["tea"])
    }

    @Test("an object registered after the first window launched takes back its saved state before it is saved")
    func lateRegistrationKeepsItsState() async throws {
        let store = InMemoryStore()
        try await savedCart(["tea"], in: store)

        let scenes = RestorationScenes(screens: Windows.browse, store: InMemoryStore(storage: store.storage))
        _ = try await scenes.coordinator(for: "window-1").launch()  // nothing registered yet
        let cart = WindowCart()
        scenes.register(cart, identifier: "cart")
        try await scenes.coordinator(for: "window-1").save(try Windows.browsingTree())
        #expect(cart.contents == ["tea"])
        #expect(try Windows.archivedObjects("shared", in: store)?.count == 1)

        let relaunched = RestorationScenes(screens: Windows.browse, store: InMemoryStore(storage: store.storage))
        let restored = WindowCart()
        relaunched.register(restored, identifier: "cart")
        _ = try await relaunched.coordinator(for: "window-1").launch()
        #expect(restored.contents == ["tea"])
    }
}
