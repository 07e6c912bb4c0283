import Foundation
import StateRestoration
import Synchronization
import Testing

/// A cart every window of the app shows.
final class WindowCart: RestorableObject {
    static let typeKey: ScreenTypeKey = "cart"
    struct State: Codable, Sendable { var items: [String] }

    private let items = Mutex<[String]>([])
    private let decodes = Mutex(0)
    /// Holds every decode until opened.
    let decodeGate: Gate?
    /// Holds the first encode, after it read the items, until opened.
    let firstEncodeGate: Gate?
    private let encodeHeld = Mutex(false)

    init(_ items: [String] = [], decodeGate: Gate? = nil, firstEncodeGate: Gate? = nil) {
        self.items.withLock { $0 = items }
        self.decodeGate = decodeGate
        self.firstEncodeGate = firstEncodeGate
    }

    var contents: [String] {
        get { items.withLock { $0 } }
        set { items.withLock { $0 = newValue } }
    }

    /// How many times a launch gave the cart a saved state.
    var decodeCount: Int { decodes.withLock { $0 } }

    func encodeRestorableState() async -> State {
        let state = State(items: contents)
        if let firstEncodeGate, !encodeHeld.withLock({ $0 }) {
            encodeHeld.withLock { $0 = true }
            await firstEncodeGate.wait()
        }
        return state
    }

    func decodeRestorableState(_ state: State) async {
        decodes.withLock { $0 += 1 }
        await decodeGate?.wait()
        items.withLock { $0 = state.items }
    }
}

/// A screen that shows the shared cart and notes what it held when the screen decoded.
struct BasketScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "basket"
    struct State: Codable, Sendable, Equatable { var title = "" }
    var state: State
    var cart: WindowCart?
    var itemsAtDecode: [String]?

    init(state: State) { self.state = state }

    mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
        self.state = state
        cart = context.object(WindowCart.self, identifier: "cart")
        itemsAtDecode = cart?.contents
    }
}

enum Windows {
    /// A browsing window: a basket, and baskets pushed over it.
    static let browse = ScreenDeclaration {
        Stack("browse", root: BasketScreen(state: .init(title: "basket"))) {
            Screen(BasketScreen.self, id: "checkout")
        }
    }

    /// A tree of a browsing window with a checkout pushed.
    static func browsingTree(_ title: String = "checkout") throws -> ScreenTree {
        var tree = try browse.makeInitialTree()
        try tree.push(BasketScreen(state: .init(title: title)), onto: "browse")
        return tree
    }

    /// The baskets of a tree, in tree order.
    static func baskets(in tree: ScreenTree) -> [BasketScreen] {
        tree.node(at: "browse")?.children.compactMap { $0.screen as? BasketScreen } ?? []
    }

    /// The objects an archive in a store holds, by identifier.
    static func archivedObjects(_ key: StoreKey, in store: any RestorationStore) throws -> [String]? {
        let data = try #require(try store.read(key))
        let opened = try ArchiveEnvelope.open(data, supportedVersions: 1...1)
        return try ArchiveDecoder().decode(RestorationArchive.self, from: opened.body).objects?.map(\.id)
    }
}

/// The objects the windows of an app share: restored once per process, by the first
/// window launch, and saved in one archive of their own by every window's save.
@Suite struct SharedObjectsTests {
    private func makeScenes(_ store: any RestorationStore) -> RestorationScenes<DefaultRestorationDelegate> {
        RestorationScenes(screens: Windows.browse, store: store)
    }

    @Test("a second window's launch leaves the live shared object as the user changed it in the first window")
    func laterWindowKeepsLiveObject() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileStore(directory: directory.url)
        // The previous process: window 1 saved while the cart held tea.
        let before = makeScenes(store)
        let earlierCart = WindowCart()
        before.register(earlierCart, identifier: "cart")
        _ = try await before.coordinator(for: "window-1").launch()
        earlierCart.contents = ["tea"]
        try await before.coordinator(for: "window-1").save(try Windows.browsingTree())
        // Window 2's archive as an older build saved it, the cart inside it, older still.
        let olderBuild = RestorationCoordinator(
            screens: Windows.browse, store: store, configuration: .init(storeKey: "scene-window-2"))
        await olderBuild.register(WindowCart(["stale"]), identifier: "cart")
        try await olderBuild.save(try Windows.browsingTree("older"))

        let scenes = makeScenes(store)
        let cart = WindowCart()
        scenes.register(cart, identifier: "cart")
        let first = try await scenes.coordinator(for: "window-1").launch()
        #expect(first.report.restoredObjects == ["cart"])
        #expect(cart.contents == ["tea"])
        cart.contents.append("oat milk")  // the user, in window 1

        let second = try await scenes.coordinator(for: "window-2").launch()
        #expect(second.report.outcome == .restored)
        #expect(cart.contents == ["tea", "oat milk"])
        #expect(cart.decodeCount == 1)
        #expect(second.report.restoredObjects == [])
        #expect(
            second.report.notes.contains(
                "the archive holds object cart (cart), which the windows share: it comes from the shared objects' archive, not from this window's"
            ))
        let baskets = Windows.baskets(in: second.tree)
        #expect(baskets.map(\.state.title) == ["basket", "older"])
        #expect(baskets.allSatisfy { $0.cart === cart && $0.itemsAtDecode == ["tea", "oat milk"] })
    }

    @Test("two windows launching at once restore the shared objects once; the second waits for it")
    func concurrentLaunchesRestoreOnce() async throws {
        let store = InMemoryStore()
        let saving = makeScenes(store)
        saving.register(WindowCart(["rye bread"]), identifier: "cart")
        for window in ["window-1", "window-2"] {
            _ = try await saving.coordinator(for: window).launch()
            try await saving.coordinator(for: window).save(try Windows.browsingTree(window))
        }

        let gate = Gate()
        let cart = WindowCart(decodeGate: gate)
        let scenes = makeScenes(InMemoryStore(storage: store.storage))
        scenes.register(cart, identifier: "cart")
        let firstCoordinator = try scenes.coordinator(for: "window-1")
        let secondCoordinator = try scenes.coordinator(for: "window-2")
        async let firstLaunch = firstCoordinator.launch()
        #expect(await eventually { gate.waiterCount == 1 })  // the first launch decodes the cart
        async let secondLaunch = secondCoordinator.launch()
        #expect(await eventually { scenes.sharedObjects.waitingLaunchCount == 1 })
        gate.open()
        let (first, second) = try await (firstLaunch, secondLaunch)

        #expect(cart.decodeCount == 1)
        #expect(first.report.restoredObjects == ["cart"])
        #expect(second.report.restoredObjects == [])
        for session in [first, second] {
            #expect(session.report.outcome == .restored)
            let baskets = Windows.baskets(in: session.tree)
            #expect(baskets.count == 2)
            #expect(baskets.allSatisfy { $0.cart === cart && $0.itemsAtDecode == ["rye bread"] })
        }
    }

    @Test(
        "a relaunch restores the shared objects' newest saved state, whichever window saved last",
        arguments: ["window-1", "window-2"])
    func relaunchRestoresNewest(lastSaver: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileStore(directory: directory.url)
        let firstSaver = lastSaver == "window-1" ? "window-2" : "window-1"
        let before = makeScenes(store)
        let cart = WindowCart()
        before.register(cart, identifier: "cart")
        _ = try await before.coordinator(for: "window-1").launch()
        _ = try await before.coordinator(for: "window-2").launch()
        cart.contents = ["tea"]
        try await before.coordinator(for: firstSaver).save(try Windows.browsingTree(firstSaver))
        cart.contents = ["tea", "honey"]
        try await before.coordinator(for: lastSaver).save(try Windows.browsingTree(lastSaver))
        #expect(
            try directory.fileNames() == [
                "scene-window-1.restoration", "scene-window-2.restoration", "shared.restoration",
            ])
        #expect(try before.savedScenes() == ["window-1", "window-2"])
        // The windows' archives hold no shared object: one archive does.
        #expect(try Windows.archivedObjects("scene-window-1", in: store) == nil)
        #expect(try Windows.archivedObjects("scene-window-2", in: store) == nil)
        let sharedKey = RestorationScenes<DefaultRestorationDelegate>.sharedObjectsKey
        #expect(try Windows.archivedObjects(sharedKey, in: store) == ["cart"])

        let scenes = makeScenes(FileStore(directory: directory.url))
        let restored = WindowCart()
        scenes.register(restored, identifier: "cart")
        let firstLaunch = try await scenes.coordinator(for: firstSaver).launch()
        let lastLaunch = try await scenes.coordinator(for: lastSaver).launch()
        #expect(restored.contents == ["tea", "honey"])
        #expect(restored.decodeCount == 1)
        #expect(firstLaunch.report.restoredObjects == ["cart"])
        #expect(Windows.baskets(in: firstLaunch.tree).map(\.state.title) == ["basket", firstSaver])
        #expect(Windows.baskets(in: lastLaunch.tree).map(\.state.title) == ["basket", lastSaver])
    }

    @Test("the shared archive is written only when the objects changed, and not before a launch restored them")
    func writesOnlyWhatChanged() async throws {
        let store = InMemoryStore()
        let before = makeScenes(store)
        before.register(WindowCart(["tea"]), identifier: "cart")
        _ = try await before.coordinator(for: "window-1").launch()
        try await before.coordinator(for: "window-1").save(try Windows.browsingTree())
        let saved = try #require(try store.read("shared"))

        let scenes = makeScenes(InMemoryStore(storage: store.storage))
        let cart = WindowCart()
        scenes.register(cart, identifier: "cart")
        // A save before any window of this process launched: the cart has not taken back its
        // state, and its empty one must not replace the saved one.
        try await scenes.coordinator(for: "window-2").save(try Windows.browsingTree())
        #expect(try store.read("shared") == saved)

        _ = try await scenes.coordinator(for: "window-1").launch()
        #expect(cart.contents == ["tea"])
        try await scenes.coordinator(for: "window-1").save(try Windows.browsingTree("again"))
        #expect(try store.read("shared") == saved)  // unchanged states: not written again

        cart.contents.append("milk")
        try await scenes.coordinator(for: "window-2").save(try Windows.browsingTree())
        let changed = try #require(try store.read("shared"))
        #expect(changed != saved)

        scenes.unregisterObject(identifier: "cart")
        try await scenes.coordinator(for: "window-1").save(try Windows.browsingTree())
        #expect(try Windows.archivedObjects("shared", in: store) == nil)
    }

    @Test("two windows' saves write the shared archive one at a time, so the newest state is the one kept")
    func savesInOrder() async throws {
        let store = InMemoryStore()
        let gate = Gate()
        let cart = WindowCart(firstEncodeGate: gate)
        let scenes = makeScenes(store)
        scenes.register(cart, identifier: "cart")
        let first = try scenes.coordinator(for: "window-1")
        let second = try scenes.coordinator(for: "window-2")
        _ = try await first.launch()
        _ = try await second.launch()

        cart.contents = ["a"]
        async let firstSave = first.save(try Windows.browsingTree())
        #expect(await eventually { gate.waiterCount == 1 })  // the first save read ["a"], and is held
        cart.contents = ["a", "b"]
        async let secondSave = second.save(try Windows.browsingTree())
        #expect(await eventually { scenes.sharedObjects.waitingSaveCount == 1 })
        gate.open()
        _ = try await (firstSave, secondSave)

        let relaunched = makeScenes(InMemoryStore(storage: store.storage))
        let restored = WindowCart()
        relaunched.register(restored, identifier: "cart")
        _ = try await relaunched.coordinator(for: "window-1").launch()
        #expect(restored.contents == ["a", "b"])
    }

    @Test(
        "a damaged shared archive is moved aside, the objects start fresh with a note, and the next save writes anew",
        arguments: ["flipped-bit", "garbage", "crashed"])
    func damagedSharedArchive(damage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileStore(directory: directory.url)
        let before = makeScenes(store)
        before.register(WindowCart(["tea"]), identifier: "cart")
        _ = try await before.coordinator(for: "window-1").launch()
        try await before.coordinator(for: "window-1").save(try Windows.browsingTree())
        let saved = try #require(try store.read("shared"))
        let check: String
        switch damage {
        case "flipped-bit":
            var bytes = [UInt8](saved)
            bytes[bytes.count - 3] ^= 0x04
            try store.write(Data(bytes), to: "shared")
            check = "checksum-mismatch"
        case "garbage":
            try store.write(Data(#"{"cart": {"items": ["tea", "milk", "bread"]}}"#.utf8), to: "shared")
            check = "bad-magic"
        default:
            // The previous process died while the objects decoded.
            try store.write(Data("restoring since then".utf8), to: .marker("shared"))
            check = "crashed-during-restoration"
        }

        let scenes = makeScenes(FileStore(directory: directory.url))
        let cart = WindowCart(["fresh"])
        scenes.register(cart, identifier: "cart")
        let session = try await scenes.coordinator(for: "window-1").launch()
        #expect(session.report.outcome == .restored)  // the window's own archive is fine
        #expect(session.report.restoredObjects == [])
        #expect(cart.contents == ["fresh"])
        #expect(cart.decodeCount == 0)
        let note = try #require(session.report.notes.first)
        #expect(note.hasPrefix("the shared objects' archive shared was rejected (\(check)) and moved aside to "))
        #expect(!note.contains("\n"))
        #expect(try store.read("shared") == nil)
        #expect(try store.read(.marker("shared")) == nil)
        #expect(try store.rejectedArchives(for: "shared").count == 1)
        #expect(try scenes.savedScenes() == ["window-1"])

        try await scenes.coordinator(for: "window-1").save(session.tree)
        let relaunched = makeScenes(FileStore(directory: directory.url))
        let restored = WindowCart()
        relaunched.register(restored, identifier: "cart")
        let next = try await relaunched.coordinator(for: "window-1").launch()
        #expect(next.report.restoredObjects == ["cart"])
        #expect(next.report.notes.isEmpty)
        #expect(restored.contents == ["fresh"])
    }

    @Test("a window's own object under a shared identifier is the one its screens get, saved in its archive")
    func windowObjectTakesPrecedence() async throws {
        let store = InMemoryStore()
        let scenes = makeScenes(store)
        let shared = WindowCart(["shared"])
        scenes.register(shared, identifier: "cart")
        let coordinator = try scenes.coordinator(for: "window-1")
        let own = WindowCart(["own"])
        await coordinator.register(own, identifier: "cart")
        _ = try await coordinator.launch()
        try await coordinator.save(try Windows.browsingTree())
        #expect(try Windows.archivedObjects("scene-window-1", in: store) == ["cart"])
        #expect(try Windows.archivedObjects("shared", in: store) == ["cart"])

        let relaunched = makeScenes(InMemoryStore(storage: store.storage))
        relaunched.register(shared, identifier: "cart")
        let window = try relaunched.coordinator(for: "window-1")
        await window.register(own, identifier: "cart")
        let restored = try await window.launch()
        #expect(Windows.baskets(in: restored.tree).allSatisfy { $0.cart === own })
    }
}
