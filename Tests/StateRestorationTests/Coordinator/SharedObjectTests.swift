import Synchronization
import StateRestoration
import TestScreens
import Testing

/// A cart shared by the product and checkout screens.
private final class Cart: RestorableObject {
    static let typeKey: ScreenTypeKey = "cart"
    struct State: Codable, Sendable { var items: [String] }

    private let items = Mutex<[String]>([])
    let probe: Probe?

    init(items: [String] = [], probe: Probe? = nil) {
        self.items.withLock { $0 = items }
        self.probe = probe
    }

    var contents: [String] { items.withLock { $0 } }

    func encodeRestorableState() async -> State { State(items: contents) }

    func decodeRestorableState(_ state: State) async {
        items.withLock { $0 = state.items }
        probe?.record("cart restored with \(state.items.count) items")
    }
}

/// A screen that points at the cart it was given, by identifier.
private struct CartUsingScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "cart-user"
    struct State: Codable, Sendable, Equatable { var cartID = "cart"; var title = "" }
    var state = State()
    var cart: Cart?
    var itemsSeenAtDecode: [String] = []

    init(state: State) { self.state = state }
    init(title: String, cart: Cart?) {
        self.state = State(title: title)
        self.cart = cart
    }

    mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
        self.state = state
        cart = context.object(Cart.self, identifier: state.cartID)
        itemsSeenAtDecode = cart?.contents ?? []
    }
}

@Suite struct SharedObjectTests {
    private let declaration = ScreenDeclaration {
        Stack("shop", root: CartUsingScreen(title: "product", cart: nil)) {
            Screen(CartUsingScreen.self, id: "checkout")
        }
    }

    @Test("screens that shared an object share one instance after a restore, restored before them")
    func oneInstance() async throws {
        let store = InMemoryStore()
        let cart = Cart(items: ["oat milk", "rye bread"])
        let saving = RestorationCoordinator(screens: declaration, store: store)
        await saving.register(cart, identifier: "cart")
        var tree = try declaration.makeInitialTree()
        try tree.push(CartUsingScreen(title: "checkout", cart: cart), onto: "shop")
        try await saving.save(tree)

        let probe = Probe()
        let newCart = Cart(probe: probe)
        let restoring = RestorationCoordinator(screens: declaration, store: store)
        await restoring.register(newCart, identifier: "cart")
        let session = try await restoring.launch()

        let screens = try #require(session.tree.node(at: "shop")?.children.compactMap { $0.screen as? CartUsingScreen })
        #expect(screens.count == 2)
        #expect(screens.allSatisfy { $0.cart === newCart })
        #expect(screens.allSatisfy { $0.itemsSeenAtDecode == ["oat milk", "rye bread"] })
        #expect(newCart.contents == ["oat milk", "rye bread"])
        #expect(session.report.restoredObjects == ["cart"])
        #expect(probe.recorded == ["cart restored with 2 items"])
    }

    @Test("an archived object with nothing registered under its identifier is noted, not fatal")
    func unregisteredObject() async throws {
        let store = InMemoryStore()
        let saving = RestorationCoordinator(screens: declaration, store: store)
        await saving.register(Cart(items: ["tea"]), identifier: "cart")
        try await saving.save(try declaration.makeInitialTree())
        let session = try await RestorationCoordinator(screens: declaration, store: store).launch()
        #expect(session.report.outcome == .restored)
        #expect(session.report.restoredObjects.isEmpty)
        #expect(
            session.report.notes.contains(
                "the archive holds object cart (cart), but no object is registered under that identifier"))
        #expect(session.tree.screen(CartUsingScreen.self, at: "shop/cart-user#0")?.cart == nil)
    }

    @Test("an unregistered object is no longer saved")
    func unregister() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: declaration, store: store)
        await coordinator.register(Cart(items: ["tea"]), identifier: "cart")
        await coordinator.unregisterObject(identifier: "cart")
        try await coordinator.save(try declaration.makeInitialTree())
        let restoring = RestorationCoordinator(screens: declaration, store: store)
        let cart = Cart(items: ["kept"])
        await restoring.register(cart, identifier: "cart")
        let session = try await restoring.launch()
        #expect(session.report.restoredObjects.isEmpty)
        #expect(cart.contents == ["kept"])
    }
}
