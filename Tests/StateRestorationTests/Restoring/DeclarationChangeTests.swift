import Foundation
import Synchronization
import StateRestoration
import TestScreens
import Testing

/// An archive saved by one build and launched by the next, whose declaration
/// moved things around: every saved node the new build cannot place is
/// skipped with a reason and a message that names it, and the rest comes back.
@Suite struct DeclarationChangeTests {
    /// Saves `tree` with `old` and launches with `new` over the same store.
    private func launch(
        saving tree: ScreenTree, with old: ScreenDeclaration, restoringWith new: ScreenDeclaration,
        probe: Probe = Probe()
    ) async throws -> RestorationSession {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: old, store: store).save(tree)
        return try await RestorationCoordinator(screens: new, store: store, delegate: RecordingDelegate(probe: probe))
            .launch()
    }

    private func skips(_ session: RestorationSession) -> [String] {
        session.report.skipped.map { "\($0.path) \($0.reason): \($0.message)" }
    }

    @Test("a tab saved as a screen and now declared as a stack comes back as declared")
    func kindChanged() async throws {
        let old = ScreenDeclaration {
            Tabs("tabs") {
                Screen(SearchScreen(), id: "search")
                Screen(SettingsScreen(), id: "settings")
            }
        }
        var tree = try old.makeInitialTree()
        try tree.update(SearchScreen.self, at: "tabs/search") { $0.state.query = "kept" }
        try tree.update(SettingsScreen.self, at: "tabs/settings") { $0.state.region = "lost" }
        let new = ScreenDeclaration {
            Tabs("tabs") {
                Screen(SearchScreen(), id: "search")
                Stack("settings", root: SettingsScreen()) { Screen(DraftScreen.self, id: "draft") }
            }
        }

        let session = try await launch(saving: tree, with: old, restoringWith: new)
        #expect(
            skips(session) == [
                "tabs/settings not-declared: saved as a screen, but tabs/settings is declared as a stack"
            ])
        #expect(session.tree.screen(SearchScreen.self, at: "tabs/search")?.state.query == "kept")
        let settings = try #require(session.tree.node(at: "tabs/settings"))
        #expect(settings.kind == .stack)
        #expect(settings.children.map(\.identifier) == ["settings"])
        #expect(
            session.tree.screen(SettingsScreen.self, at: "tabs/settings/settings#0")?.state.region
                == SettingsScreen.State().region)
    }

    @Test("a screen whose identifier now holds another declared type is skipped, not decoded as that type")
    func identifierTakenByAnotherType() async throws {
        let old = ScreenDeclaration {
            Tabs("tabs") {
                Screen(SettingsScreen(), id: "settings")
                Screen(DraftScreen(), id: "notes")
            }
        }
        var tree = try old.makeInitialTree()
        try tree.update(SettingsScreen.self, at: "tabs/settings") { $0.state.region = "jp" }
        try tree.update(DraftScreen.self, at: "tabs/notes") { $0.state.text = "old notes" }
        // The next build moves settings to a new identifier and puts the draft screen under the old one.
        let new = ScreenDeclaration {
            Tabs("tabs") {
                Screen(DraftScreen(), id: "settings")
                Screen(SettingsScreen(), id: "preferences")
            }
        }

        let session = try await launch(saving: tree, with: old, restoringWith: new)
        #expect(
            skips(session) == [
                "tabs/settings not-declared: saved as settings, but tabs/settings is declared as draft",
                "tabs/notes not-declared: tabs no longer declares a tab notes",
            ])
        #expect(session.tree.screen(DraftScreen.self, at: "tabs/settings")?.state.text == "")
        #expect(
            session.tree.screen(SettingsScreen.self, at: "tabs/preferences")?.state.region
                == SettingsScreen.State().region)
        #expect(session.report.restoredPaths.isEmpty)
    }

    @Test("a stack whose root changed comes back with the new root; what was pushed is skipped as truncated")
    func stackRootChanged() async throws {
        let old = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) {
                Screen(ProductScreen.self, id: "product")
                Screen(ReviewScreen.self, id: "review")
            }
        }
        var tree = try old.makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.push(ReviewScreen(state: .init(productID: "p-1", rating: 3, draft: "")), onto: "browse")
        let new = ScreenDeclaration {
            Stack("browse", root: DraftScreen()) {
                Screen(ProductScreen.self, id: "product")
                Screen(ReviewScreen.self, id: "review")
            }
        }

        let session = try await launch(saving: tree, with: old, restoringWith: new)
        #expect(
            skips(session) == [
                "browse/search#0 not-declared: browse declares no root search at position 0",
                "browse/product#1 stack-truncated: browse/search#0, below it on the stack, was not restored",
                "browse/review#2 stack-truncated: browse/search#0, below it on the stack, was not restored",
            ])
        #expect(session.tree.node(at: "browse")?.children.map(\.identifier) == ["draft"])
    }

    @Test("a pushed screen type the next build no longer declares cuts the stack there")
    func pushableRemoved() async throws {
        let old = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) {
                Screen(ProductScreen.self, id: "product")
                Screen(ReviewScreen.self, id: "review")
            }
        }
        var tree = try old.makeInitialTree()
        try tree.update(SearchScreen.self, at: "search#0") { $0.state.query = "milk" }
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.push(ReviewScreen(state: .init(productID: "p-1", rating: 3, draft: "")), onto: "browse")
        try tree.push(ProductScreen("p-2"), onto: "browse")
        let new = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) { Screen(ProductScreen.self, id: "product") }
        }

        let session = try await launch(saving: tree, with: old, restoringWith: new)
        #expect(
            skips(session) == [
                "browse/review#2 not-declared: browse declares no pushable screen review at position 2",
                "browse/product#3 stack-truncated: browse/review#2, below it on the stack, was not restored",
            ])
        #expect(session.tree.node(at: "browse")?.children.map(\.identifier) == ["search", "product"])
        #expect(session.tree.screen(SearchScreen.self, at: "search#0")?.state.query == "milk")
        #expect(session.tree.screen(ProductScreen.self, at: "product#1")?.state.productID == "p-1")
    }

    @Test("a custom container keeps the children it still declares and skips the others")
    func containerChildRemoved() async throws {
        let old = Shop.declaration()
        let tree = try Shop.busyTree(old)
        let new = ScreenDeclaration {
            Tabs("tabs") {
                Screen(SettingsScreen(), id: "settings")
                Container(SplitScreen(), id: "split") { Screen(MailboxScreen.self, id: "mailbox") }
            }
        }

        let probe = Probe()
        let session = try await launch(saving: tree, with: old, restoringWith: new, probe: probe)
        #expect(
            skips(session).filter { $0.hasPrefix("tabs/split") } == [
                "tabs/split/message not-declared: tabs/split declares no child like message"
            ])
        #expect(session.tree.node(at: "tabs/split")?.children.map(\.identifier) == ["mailbox"])
        #expect(session.tree.screen(MailboxScreen.self, at: "tabs/split/mailbox")?.state.folder == "archive")
        // The container hears only of the children that came back.
        #expect(probe.recorded.filter { $0.hasPrefix("children") } == ["children mailbox"])
        #expect(session.tree.root.selectedChild?.identifier == "split")
        #expect(session.tree.screen(SettingsScreen.self, at: "tabs/settings")?.state.region == "jp")
    }
}

/// Shared objects whose registration changed between builds.
@Suite struct ObjectChangeTests {
    private final class Counter: RestorableObject {
        static let typeKey: ScreenTypeKey = "counter"
        struct State: Codable, Sendable { var value: Int }
        let value: Mutex<Int>
        init(_ value: Int) { self.value = Mutex(value) }
        func encodeRestorableState() async -> State { State(value: value.withLock { $0 }) }
        func decodeRestorableState(_ state: State) async { value.withLock { $0 = state.value } }
    }

    /// Another object type whose State cannot be read from a counter's.
    private final class Session: RestorableObject {
        static let typeKey: ScreenTypeKey = "counter"
        struct State: Codable, Sendable { var token: String }
        let token: Mutex<String>
        init(_ token: String) { self.token = Mutex(token) }
        func encodeRestorableState() async -> State { State(token: token.withLock { $0 }) }
        func decodeRestorableState(_ state: State) async { token.withLock { $0 = state.token } }
    }

    private final class Basket: RestorableObject {
        static let typeKey: ScreenTypeKey = "basket"
        struct State: Codable, Sendable { var value: Int }
        let value = Mutex(0)
        func encodeRestorableState() async -> State { State(value: value.withLock { $0 }) }
        func decodeRestorableState(_ state: State) async { value.withLock { $0 = state.value } }
    }

    private let declaration = ScreenDeclaration { Screen(SettingsScreen(), id: "settings") }

    private func save(_ counter: Counter, in store: InMemoryStore) async throws {
        let saving = RestorationCoordinator(screens: declaration, store: store)
        await saving.register(counter, identifier: "shared")
        var tree = try declaration.makeInitialTree()
        try tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "jp" }
        try await saving.save(tree)
    }

    @Test("an object of another type registered under a saved identifier keeps its own state")
    func otherTypeUnderIdentifier() async throws {
        let store = InMemoryStore()
        try await save(Counter(41), in: store)
        let restoring = RestorationCoordinator(screens: declaration, store: store)
        let basket = Basket()
        await restoring.register(basket, identifier: "shared")
        let session = try await restoring.launch()

        #expect(session.report.outcome == .restored)
        #expect(session.report.restoredObjects.isEmpty)
        #expect(
            session.report.notes.contains(
                "object shared was saved as counter, but a basket is registered under that identifier"))
        #expect(basket.value.withLock { $0 } == 0)
        #expect(session.tree.screen(SettingsScreen.self, at: "settings")?.state.region == "jp")
    }

    @Test("an object whose saved state no longer decodes is noted; the screens are restored")
    func objectStateNoLongerDecodes() async throws {
        let store = InMemoryStore()
        try await save(Counter(41), in: store)
        let restoring = RestorationCoordinator(screens: declaration, store: store)
        let session = Session("fresh")
        await restoring.register(session, identifier: "shared")
        let launched = try await restoring.launch()

        #expect(launched.report.outcome == .restored)
        #expect(launched.report.restoredObjects.isEmpty)
        let note = try #require(
            launched.report.notes.first { $0.hasPrefix("object shared (counter) did not decode: ") })
        #expect(note.contains("token"))
        #expect(session.token.withLock { $0 } == "fresh")
        #expect(launched.tree.screen(SettingsScreen.self, at: "settings")?.state.region == "jp")
    }
}

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
