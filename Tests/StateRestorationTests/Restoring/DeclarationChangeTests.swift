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
