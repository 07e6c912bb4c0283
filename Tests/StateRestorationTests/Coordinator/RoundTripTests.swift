import Foundation
import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

/// Saves through one coordinator and restores through a new coordinator over a
/// new FileStore on the same directory, as a relaunched process would (the
/// testing library's `RestorationHarness` with directory storage).
@Suite struct RoundTripTests {
    private func relaunch(
        saving tree: ScreenTree, declaration: ScreenDeclaration = Shop.declaration(),
        delegate: RecordingDelegate = RecordingDelegate(probe: Probe())
    ) async throws -> RestorationHarness<RecordingDelegate>.Relaunch {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try await RestorationHarness(screens: declaration, storage: .directory(directory.url)) { delegate }
            .relaunch(saving: tree)
    }

    @Test("a whole hierarchy comes back equal: stack, positions, modal, tabs, selection, container")
    func wholeHierarchy() async throws {
        let tree = try Shop.busyTree()
        let session = try await relaunch(saving: tree)
        #expect(session.report.outcome == .restored)
        #expect(session.report.skipped.isEmpty)
        #expect(session.tree == tree)
        #expect(session.tree.root.selectedChild?.identifier == "split")
        #expect(
            session.tree.screen(ComposeScreen.self, at: "tabs/browse/product#2/compose")?.state.focusedField == "body")
    }

    @Test("a fresh tree round-trips too")
    func initialTree() async throws {
        let tree = try Shop.declaration().makeInitialTree()
        let session = try await relaunch(saving: tree)
        #expect(session.report.outcome == .restored)
        #expect(session.tree == tree)
    }

    @Test("a screen without an identifier is not saved, nor anything under it")
    func unidentifiedScreenIsNotSaved() async throws {
        let tree = try Shop.busyTree()
        let scratchIndex = try #require(tree.root.children.firstIndex { $0.identifier == nil })
        var edited = tree
        try edited.selectTab(at: scratchIndex, in: "tabs")
        let session = try await relaunch(saving: edited)
        #expect(session.saveReport?.skipped.map(\.path) == ["tabs/<scratch>"])
        #expect(session.saveReport?.skipped.first?.reason == .noIdentifier)
        #expect(!session.report.restoredPaths.contains { $0.description.contains("scratch") })
        #expect(session.tree.root.children[scratchIndex].identifier == nil)
        // The selection pointed at an unsaved tab, so the declared selection comes back.
        #expect(session.tree.root.selectedChild?.identifier == "browse")
    }

    @Test("an edited screen without an identifier comes back as declared")
    func unidentifiedScreenComesBackInitial() async throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Screen(SettingsScreen(), id: "settings")
                Screen(ScratchScreen(state: .init(note: "initial")))
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.update(ScratchScreen.self, at: "tabs/<scratch>") { $0.state.note = "typed" }
        let session = try await relaunch(saving: tree, declaration: declaration)
        #expect(session.tree.root.children[1].screen?.isEqual(to: ScratchScreen(state: .init(note: "initial"))) == true)
    }

    @Test("will-encode runs on the app's own tree: the live text lands in it, and the relaunch restores that tree")
    func willEncodeCapturesLiveState() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        let host = try await TreeHost.launched(by: coordinator)
        try await MainActor.run {
            try host.tree.update(SearchScreen.self, at: "search#0") { $0.liveText = "half a que" }
        }
        try await coordinator.save(host)
        let captured = await host.tree
        #expect(captured.screen(SearchScreen.self, at: "search#0")?.state.editingText == "half a que")
        let session = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(session.tree == captured)
    }

    @Test("a tree saved as a value is saved as it is: no screen's capture hook runs")
    func valueSaveDoesNotCapture() async throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.update(SearchScreen.self, at: "search#0") { $0.liveText = "half a que" }
        let session = try await relaunch(saving: tree)
        #expect(session.tree.screen(SearchScreen.self, at: "search#0")?.state.editingText == nil)
        #expect(session.tree == tree)
    }

    @Test("the app-wide state and the delegate's metadata come back; should-restore sees the app version")
    func appStateAndMetadata() async throws {
        let probe = Probe()
        var delegate = RecordingDelegate(probe: probe)
        delegate.appState = .init(cartCount: 3, lastSync: "2026-11-22")
        delegate.metadata = ["region": "jp"]
        let harness = RestorationHarness(
            screens: Shop.declaration(), configuration: RestorationConfiguration(appVersion: "2.4 (311)")
        ) { [delegate] in delegate }
        let session = try await harness.relaunch(saving: try Shop.busyTree())
        let info = try #require(session.report.archiveInfo)
        #expect(info.appVersion == "2.4 (311)")
        #expect(info.metadata.value(String.self, forKey: "region") == "jp")
        #expect(info.formatVersion == 1)
        #expect(info.screenCount == 10)
        #expect(probe.recorded.contains("did-decode 3"))
        #expect(session.lifecycle.contains(.didDecodeRestorableState(hasAppState: true)))
    }

    @Test("a screen type's factory makes the screen before the delegate is asked")
    func factoryFirst() async throws {
        struct Counter: RestorableScreen {
            static let typeKey: ScreenTypeKey = "counter"
            struct State: Codable, Sendable, Equatable { var count = 0 }
            var state = State()
            var madeByFactory = false
            init(state: State) { self.state = state }
            init(state: State = State(), madeByFactory: Bool) {
                self.state = state
                self.madeByFactory = madeByFactory
            }
            init() {}
            static let restorationFactory: RestorationFactory<Counter>? = RestorationFactory { path, state in
                state.count < 0 ? nil : Counter(state: state, madeByFactory: true)
            }
        }
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Stack("numbers", root: Counter()) { Counter.self }
                Screen(SettingsScreen(), id: "settings")
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.push(Counter(state: .init(count: 5)), onto: "numbers")
        try tree.push(Counter(state: .init(count: -1)), onto: "numbers")
        try tree.push(Counter(state: .init(count: 7)), onto: "numbers")
        let probe = Probe()
        let session = try await relaunch(
            saving: tree, declaration: declaration, delegate: RecordingDelegate(probe: probe))
        let stack = try #require(session.tree.node(at: "tabs/numbers"))
        #expect(stack.children.compactMap { ($0.screen as? Counter)?.state.count } == [0, 5])
        #expect(stack.children.allSatisfy { ($0.screen as? Counter)?.madeByFactory == true })
        #expect(!probe.recorded.contains { $0.hasPrefix("make tabs/numbers") })
        #expect(probe.recorded.contains("make tabs/settings"))
        let skipped = session.report.skipped.map { "\($0.path) \($0.reason)" }
        #expect(skipped == ["tabs/numbers/counter#2 factory-returned-nil", "tabs/numbers/counter#3 stack-truncated"])
    }

    @Test("the delegate returning nil skips that screen and its subtree, and the report says why")
    func delegateSkips() async throws {
        var delegate = RecordingDelegate(probe: Probe())
        delegate.refusedPaths = ["tabs/browse/product#2", "tabs/split/mailbox"]
        let tree = try Shop.busyTree()
        let session = try await relaunch(saving: tree, delegate: delegate)
        #expect(session.report.outcome == .restored)
        #expect(session.tree.node(at: "tabs/browse")?.children.count == 2)
        #expect(session.tree.node(at: "tabs/split")?.children.map(\.identifier) == ["message"])
        let skipped = session.report.skipped.map { "\($0.path) \($0.reason)" }
        #expect(
            skipped == [
                "tabs/browse/product#2 delegate-returned-nil",
                "tabs/browse/product#2/compose ancestor-skipped",
                "tabs/browse/review#3 stack-truncated",
                "tabs/split/mailbox delegate-returned-nil",
            ])
    }

    @Test("a custom container preserves only the children it chooses, and hears which came back")
    func containerChoosesChildren() async throws {
        var tree = try Shop.busyTree()
        try tree.update(SplitScreen.self, at: "split") { $0.transientChildren = ["mailbox"] }
        let probe = Probe()
        let session = try await relaunch(saving: tree, delegate: RecordingDelegate(probe: probe))
        #expect(session.saveReport?.skipped.map(\.path).contains("tabs/split/mailbox") == true)
        #expect(session.tree.node(at: "tabs/split")?.children.map(\.identifier) == ["message"])
        #expect(probe.recorded.contains("children message"))
    }

    @Test("should-save declining writes nothing and keeps the previous archive")
    func shouldSaveDeclines() async throws {
        let store = InMemoryStore()
        var delegate = RecordingDelegate(probe: Probe())
        let first = RestorationCoordinator(screens: Shop.declaration(), store: store, delegate: delegate)
        try await first.save(try Shop.busyTree())
        let archived = try store.read(.main)
        delegate.allowSave = false
        let second = RestorationCoordinator(screens: Shop.declaration(), store: store, delegate: delegate)
        let report = try await second.save(try Shop.declaration().makeInitialTree())
        #expect(report.saved == false)
        #expect(try store.read(.main) == archived)
    }

    @Test("should-restore declining starts fresh and says so")
    func shouldRestoreDeclines() async throws {
        var delegate = RecordingDelegate(probe: Probe())
        delegate.allowRestore = false
        let session = try await relaunch(saving: try Shop.busyTree(), delegate: delegate)
        #expect(session.report.outcome == .fresh)
        #expect(session.report.freshReason?.code == .declinedByDelegate)
        #expect(session.tree == (try Shop.declaration().makeInitialTree()))
    }

    @Test("a tab removed from the declaration is skipped; the others come back")
    func removedTab() async throws {
        let tree = try Shop.busyTree(Shop.declaration(drafts: true))
        let session = try await relaunch(saving: tree, declaration: Shop.declaration(drafts: false))
        #expect(session.report.outcome == .restored)
        #expect(session.report.skipped.map(\.path) == ["tabs/draft"])
        #expect(session.report.skipped.first?.reason == .notDeclared)
        #expect(session.tree.screen(ProductScreen.self, at: "product#2")?.state.quantity == 3)
    }
}
