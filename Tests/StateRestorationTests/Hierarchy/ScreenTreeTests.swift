import Foundation
import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

@Suite struct ScreenTreeTests {
    @Test("screens pushed several times get positional identifiers, as UINavigationController gives")
    func positionalIdentifiers() throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.push(ProductScreen("p-2"), onto: "tabs/browse")
        try tree.push(ProductScreen("p-3"), onto: "browse")
        let stackPaths = tree.restorablePaths.filter { $0.components.count == 3 && $0.components[1] == "browse" }
        #expect(
            stackPaths == [
                "tabs/browse/search#0", "tabs/browse/product#1", "tabs/browse/product#2", "tabs/browse/product#3",
            ])
        #expect(tree.screen(ProductScreen.self, at: "tabs/browse/product#2")?.state.productID == "p-2")
        #expect(tree.screen(ProductScreen.self, at: "product#3")?.state.productID == "p-3")
    }

    @Test("pop removes the top, pop to root keeps the root, and the root cannot be popped")
    func popping() throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.push(ProductScreen("p-2"), onto: "browse")
        let popped = try tree.pop(from: "browse")
        #expect((popped.screen as? ProductScreen)?.state.productID == "p-2")
        try tree.push(ProductScreen("p-3"), onto: "browse")
        try tree.popToRoot(of: "browse")
        #expect(tree.node(at: "tabs/browse")?.children.count == 1)
        #expect(throws: HierarchyError.self) { try tree.pop(from: "browse") }
        do {
            try tree.pop(from: "browse")
        } catch {
            #expect(error.code == .cannotPopRoot)
            #expect(error.message == "cannot pop from tabs/browse: only its root is left")
        }
    }

    @Test("only declared screens can be pushed, and only onto stacks")
    func pushValidation() throws {
        var tree = try Shop.declaration().makeInitialTree()
        let original = tree
        #expect { try tree.push(SettingsScreen(), onto: "browse") } throws: { error in
            (error as? HierarchyError)?.message == "SettingsScreen is not declared as pushable on tabs/browse"
        }
        #expect { try tree.push(ProductScreen("p"), onto: "settings") } throws: { error in
            (error as? HierarchyError)?.code == .wrongKind
        }
        #expect { try tree.push(ProductScreen("p"), onto: "nowhere") } throws: { error in
            (error as? HierarchyError)?.code == .notFound
        }
        #expect(tree == original)
    }

    @Test("selecting a tab by identifier or position changes the selection")
    func selectingTabs() throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.selectTab("settings", in: "tabs")
        #expect(tree.root.selectedChild?.identifier == "settings")
        try tree.selectTab(at: 0, in: "tabs")
        #expect(tree.root.selectedChild?.identifier == "browse")
        #expect(throws: HierarchyError.self) { try tree.selectTab("nope", in: "tabs") }
        #expect(throws: HierarchyError.self) { try tree.selectTab(at: 99, in: "tabs") }
    }

    @Test("presenting and dismissing a modal over a screen")
    func presentation() throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.present(ComposeScreen(state: .init(to: "a", body: "b")), over: "product#1")
        #expect(tree.restorablePaths.contains("tabs/browse/product#1/compose"))
        #expect(tree.screen(ComposeScreen.self, at: "tabs/browse/product#1/compose")?.state.body == "b")
        #expect { try tree.present(ComposeScreen(), over: "product#1") } throws: { error in
            (error as? HierarchyError)?.code == .alreadyPresenting
        }
        #expect { try tree.present(ComposeScreen(), over: "settings") } throws: { error in
            (error as? HierarchyError)?.code == .notDeclared
        }
        let dismissed = try tree.dismiss(from: "product#1")
        #expect(dismissed.identifier == "compose")
        #expect(tree.node(at: "tabs/browse/product#1")?.presented == nil)
        #expect(throws: HierarchyError.self) { try tree.dismiss(from: "product#1") }
    }

    @Test("a custom container's children are added and removed by the app, with unique identifiers")
    func containerChildren() throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.addChild(MailboxScreen(), to: "split")
        try tree.addChild(MailboxScreen(state: .init(folder: "sent")), id: "sent-box", to: "split")
        #expect(tree.node(at: "tabs/split")?.children.map(\.identifier) == ["mailbox", "sent-box"])
        #expect { try tree.addChild(MailboxScreen(), to: "split") } throws: { error in
            (error as? HierarchyError)?.message == "tabs/split already has a child named mailbox"
        }
        #expect { try tree.addChild(DraftScreen(), to: "split") } throws: { error in
            (error as? HierarchyError)?.code == .notDeclared
        }
        try tree.removeChild("mailbox", from: "split")
        #expect(tree.node(at: "tabs/split")?.children.map(\.identifier) == ["sent-box"])
    }

    @Test("restorablePaths are the paths a save writes: not above an unidentified stack screen, not a child left out")
    func restorablePathsFollowTheSave() async throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Stack("browse", root: SearchScreen()) {
                    Screen(ProductScreen.self, id: "product")
                    Screen(ScratchScreen.self)
                }
                Container(SplitScreen(), id: "split") {
                    Screen(MailboxScreen.self, id: "mailbox")
                    Screen(MessageScreen.self, id: "message")
                }
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.push(ScratchScreen(), onto: "browse")
        try tree.push(ProductScreen("p-3"), onto: "browse")
        try tree.addChild(MessageScreen(state: .init(messageID: UUID())), to: "split")
        try tree.addChild(MailboxScreen(), to: "split")
        try tree.update(SplitScreen.self, at: "split") { $0.transientChildren = ["message"] }

        #expect(
            tree.restorablePaths.map(\.description) == [
                "tabs", "tabs/browse", "tabs/browse/search#0", "tabs/browse/product#1", "tabs/split",
                "tabs/split/mailbox",
            ])
        let report = try await RestorationCoordinator(screens: declaration, store: InMemoryStore()).save(tree)
        #expect(report.savedPaths == tree.restorablePaths)
        #expect(report.skipped.map(\.reason) == [.noIdentifier, .stackTruncated, .notPreserved])
    }

    @Test("a container child takes the declaration its identifier names, so what that one presents comes back")
    func containerChildTakesNamedDeclaration() async throws {
        let declaration = ScreenDeclaration {
            Container(SplitScreen(), id: "split") {
                Screen(MailboxScreen.self, id: "inbox")
                Screen(MailboxScreen.self, id: "outbox").presents { Screen(ComposeScreen.self, id: "compose") }
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.addChild(MailboxScreen(state: .init(folder: "sent")), id: "outbox", to: "split")
        try tree.present(ComposeScreen(state: .init(to: "a@example.com")), over: "split/outbox")
        try tree.addChild(MailboxScreen(), id: "inbox", to: "split")
        #expect { try tree.present(ComposeScreen(), over: "split/inbox") } throws: { error in
            (error as? HierarchyError)?.code == .notDeclared
        }
        let session = try await RestorationHarness(screens: declaration).relaunch(saving: tree)
        #expect(session.report.skipped.isEmpty)
        #expect(session.tree == tree)
    }

    @Test("a container child's identifier follows the identifier rules, when added and when restored")
    func containerChildIdentifierRules() async throws {
        var tree = try Shop.declaration().makeInitialTree()
        for id in ["", "a/b", "pane#1"] {
            #expect { try tree.addChild(MailboxScreen(), id: id, to: "split") } throws: { error in
                (error as? HierarchyError)?.code == .invalidIdentifier
            }
        }
        #expect(tree.node(at: "tabs/split")?.children.isEmpty == true)

        // An archive that names a child so anyway (damage, or another writer) skips that child.
        let archives = try ShopArchives()
        defer { archives.remove() }
        let (url, _) = try await archives.save(try Shop.busyTree())
        try archives.rewrite(url) { archive in
            archive.root?.edit(["split", "message"]) { $0.id = "a/b" }
        }
        let session = try await RestorationCoordinator(
            screens: Shop.declaration(), store: FileStore(directory: archives.directory.url)
        ).launch()
        #expect(session.report.outcome == .restored)
        #expect(session.report.skipped.map { "\($0.path) \($0.reason)" } == ["tabs/split/a/b malformed"])
        #expect(session.tree.node(at: "tabs/split")?.children.map(\.identifier) == ["mailbox"])
    }

    @Test("a container child cannot take an identifier the container declares for another child or presents")
    func containerChildIdentifiersStayRestorable() async throws {
        let declaration = ScreenDeclaration {
            Container(SplitScreen(), id: "split") {
                Screen(MailboxScreen.self, id: "mailbox")
                Screen(MessageScreen.self, id: "message")
            }
            .presents { Screen(ComposeScreen.self, id: "compose") }
        }
        var tree = try declaration.makeInitialTree()
        let message = MessageScreen(state: .init(messageID: UUID()))
        #expect { try tree.addChild(message, id: "mailbox", to: "split") } throws: { error in
            (error as? HierarchyError)?.message
                == "split declares its child mailbox as mailbox; a MessageScreen cannot take that identifier"
        }
        #expect { try tree.addChild(message, id: "compose", to: "split") } throws: { error in
            (error as? HierarchyError)?.code == .duplicateIdentifier
        }
        #expect(tree.node(at: "split")?.children.isEmpty == true)

        // Any other identifier comes back after a save, found by the child's type.
        try tree.addChild(message, id: "pinned", to: "split")
        try tree.addChild(MailboxScreen(state: .init(folder: "sent")), to: "split")
        let session = try await RestorationHarness(screens: declaration).relaunch(saving: tree)
        #expect(session.report.skipped.isEmpty)
        #expect(session.tree == tree)
    }

    @Test("an identifier many nodes share is ambiguous; a full path is not")
    func ambiguity() throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.present(ComposeScreen(), over: "product#1")
        try tree.addChild(MailboxScreen(), id: "compose", to: "split")
        #expect { try tree.update(ComposeScreen.self, at: "compose") { _ in } } throws: { error in
            (error as? HierarchyError)?.code == .ambiguous
        }
        try tree.update(ComposeScreen.self, at: "tabs/browse/product#1/compose") { $0.state.body = "hello" }
        #expect(tree.screen(ComposeScreen.self, at: "tabs/browse/product#1/compose")?.state.body == "hello")
    }

    @Test("trees are equal when structure, selections and states are equal")
    func equality() throws {
        let declaration = Shop.declaration()
        let first = try Shop.busyTree(declaration)
        var second = try Shop.busyTree(declaration)
        #expect(first == second)
        try second.update(ProductScreen.self, at: "product#2") { $0.state.quantity = 4 }
        #expect(first != second)
    }

    @Test("the description prints one line per node with paths and states")
    func description() throws {
        let text = try Shop.busyTree().description
        #expect(text.contains("tabs [tabs, selected: split]"))
        #expect(text.contains("    product#2 product State(productID: \"p-2\", quantity: 3, viewedAt: nil)"))
        #expect(text.contains("presented compose compose"))
        #expect(text.contains("<scratch> scratch"))
    }
}
