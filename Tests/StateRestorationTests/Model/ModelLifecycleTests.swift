import Foundation
import StateRestoration
import Synchronization
import TestScreens
import Testing

/// The model's launch, saves on phase changes, background time, and preparation hooks.
@MainActor
@Suite struct ModelLifecycleTests {
    @Test func inactiveThenBackgroundSavesOnce() async throws {
        let store = CountingStore()
        let model = try RestorationModel(screens: Shop.declaration(), store: store)
        try await model.launch()
        try model.tree.push(ProductScreen("p-1"), onto: "browse")

        // Both phases before the save starts: one save.
        model.handle(.active)
        model.handle(.inactive)
        model.handle(.background)
        await model.savesFinished()
        #expect(store.writeCount == 1)

        // The inactive save ends before the app reaches the background: still one save.
        model.handle(.active)
        try model.tree.push(ProductScreen("p-2"), onto: "browse")
        model.handle(.inactive)
        await model.savesFinished()
        model.handle(.background)
        await model.savesFinished()
        #expect(store.writeCount == 2)

        // A change between inactive and background is saved by the background save.
        model.handle(.active)
        model.handle(.inactive)
        await model.savesFinished()
        try model.tree.update(ProductScreen.self, at: "product#2") { $0.state.quantity = 4 }
        model.handle(.background)
        await model.savesFinished()
        #expect(store.writeCount == 4)
        #expect(model.lastSaveError == nil)

        let relaunched = try RestorationModel(screens: Shop.declaration(), store: store)
        try await relaunched.launch()
        #expect(relaunched.tree == model.tree)
    }

    @Test(
        "a background save after the app's own save writes the tab the user went back to, not the one that save wrote")
    func backgroundSaveAfterAnExplicitSaveKeepsTheLastTab() async throws {
        let store = CountingStore()
        let model = try RestorationModel(screens: Shop.declaration(), store: store)
        try await model.launch()
        model.handle(.active)
        model.handle(.inactive)  // saved with browse selected
        await model.savesFinished()
        model.selectedTab(in: "tabs").wrappedValue = "settings"
        try await model.save()
        model.selectedTab(in: "tabs").wrappedValue = "browse"
        model.handle(.background)
        await model.savesFinished()
        #expect(model.lastSaveError == nil)

        let relaunched = try RestorationModel(screens: Shop.declaration(), store: store)
        try await relaunched.launch()
        #expect(relaunched.selectedTab(in: "tabs").wrappedValue == "browse")
        #expect(relaunched.tree == model.tree)
    }

    @Test(
        "a background save after the app's own save, awaited or not, writes the draft's last words, not the words that save wrote",
        arguments: [true, false])
    func backgroundSaveAfterAnExplicitSaveKeepsTheLastDraft(awaited: Bool) async throws {
        let store = CountingStore()
        let model = try RestorationModel(screens: Shop.declaration(), store: store)
        try await model.launch()
        let draft = try #require(model.state(of: DraftScreen.self, at: "draft"))
        draft.wrappedValue.text = "Dear Ada,"
        model.handle(.active)
        model.handle(.inactive)  // saved with "Dear Ada,"
        await model.savesFinished()
        draft.wrappedValue.text = "Dear Ada, I quit"
        let explicit = Task { try await model.save() }
        if awaited { _ = try await explicit.value } else { await Task.yield() }
        draft.wrappedValue.text = "Dear Ada,"
        model.handle(.background)
        await model.savesFinished()
        _ = try await explicit.value

        let relaunched = try RestorationModel(screens: Shop.declaration(), store: store)
        try await relaunched.launch()
        #expect(relaunched.tree.screen(DraftScreen.self, at: "draft")?.state.text == "Dear Ada,")
    }

    @Test func phasesSaveOnlyOnTheWayOut() async throws {
        let store = CountingStore()
        let model = try RestorationModel(screens: Shop.declaration(), store: store)
        model.handle(.inactive)  // a cold launch passes through inactive before the handover
        model.handle(.background)
        await model.savesFinished()
        #expect(store.writeCount == 0)
        #expect(model.lastSaveError == nil)

        try await model.launch()
        model.handle(.active)
        model.handle(.inactive)
        model.handle(.background)
        await model.savesFinished()
        #expect(store.writeCount == 1)
        model.handle(.inactive)  // on the way back in
        await model.savesFinished()
        #expect(store.writeCount == 1)
        model.handle(.active)
        #expect(store.writeCount == 1)
    }

    @Test func theBackgroundSaveRunsWhenSharedStateMayHaveChanged() async throws {
        let store = CountingStore()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: DefaultRestorationDelegate())
        let account = Account()
        await coordinator.register(account, identifier: "account")
        let model = try RestorationModel(coordinator: coordinator)
        try await model.launch()
        model.handle(.active)
        model.handle(.inactive)
        await model.savesFinished()
        account.signature = "Ada"  // changed while inactive; the tree is not
        model.handle(.background)
        await model.savesFinished()
        #expect(store.writeCount == 2)

        let relaunchedCoordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: DefaultRestorationDelegate())
        let restored = Account()
        await relaunchedCoordinator.register(restored, identifier: "account")
        _ = try await relaunchedCoordinator.launch()
        #expect(restored.signature == "Ada")
    }

    @Test func backgroundTimeIsHeldWhileTheSaveRuns() async throws {
        let time = TestBackgroundTime()
        let gate = Gate()
        let model = try RestorationModel(
            screens: Shop.declaration(), store: InMemoryStore(), delegate: GatedSaveDelegate(gate: gate),
            backgroundTime: time)
        try await model.launch()
        model.handle(.background)
        #expect(time.begun == [1])  // asked for before handle returned
        #expect(await eventually { gate.waiterCount == 1 })
        #expect(time.ended.isEmpty)
        gate.open()
        await model.savesFinished()
        #expect(time.ended == [1])
        #expect(model.lastSaveReport?.saved == true)
    }

    @Test func expiredBackgroundTimeLeavesThePreviousArchiveWhole() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileStore(directory: directory.url)
        let time = TestBackgroundTime()
        let gate = Gate()
        let model = try RestorationModel(
            screens: Shop.declaration(), store: store, delegate: GatedSaveDelegate(gate: gate), backgroundTime: time)
        try await model.launch()
        try model.tree.update(DraftScreen.self, at: "draft") { $0.state.text = "saved draft" }
        gate.open()
        try await model.save()
        let files = try directory.fileNames()
        let previous = try #require(try store.read(.main))

        let later = Gate()
        let slow = try RestorationModel(
            coordinator: RestorationCoordinator(
                screens: Shop.declaration(), store: store, delegate: GatedSaveDelegate(gate: later)),
            backgroundTime: time)
        try await slow.launch()
        await slow.restoredInterfaceDidAppear()
        try slow.tree.update(DraftScreen.self, at: "draft") { $0.state.text = "newer draft" }
        slow.handle(.background)
        #expect(await eventually { later.waiterCount == 1 })
        time.expire()
        #expect(time.ended == [1])  // ended from the expiration call itself
        later.open()
        await slow.savesFinished()

        #expect((slow.lastSaveError as? RestorationError)?.code == .cancelled)
        #expect(try store.read(.main) == previous)
        #expect(try directory.fileNames() == files)  // no temporary file left
        let relaunched = try RestorationModel(screens: Shop.declaration(), store: store)
        try await relaunched.launch()
        #expect(relaunched.tree.screen(DraftScreen.self, at: "draft")?.state.text == "saved draft")
    }

    @Test func aSaveRequestedAfterTheTimeExpiredStillRuns() async throws {
        let store = CountingStore()
        let time = TestBackgroundTime()
        let gate = Gate()
        let model = try RestorationModel(
            screens: Shop.declaration(), store: store, delegate: GatedSaveDelegate(gate: gate), backgroundTime: time)
        try await model.launch()
        model.handle(.background)
        #expect(await eventually { gate.waiterCount == 1 })
        time.expire()  // the cancelled save still waits at the gate

        model.handle(.active)
        try model.tree.push(ProductScreen("p-1"), onto: "browse")
        model.handle(.background)
        #expect(time.begun == [1, 2])
        gate.open()
        await model.savesFinished()
        #expect(store.writeCount == 1)  // the second save wrote; the first stopped before writing
        #expect(time.ended == [1, 2])
        let relaunched = try RestorationModel(screens: Shop.declaration(), store: store)
        try await relaunched.launch()
        #expect(relaunched.tree["product#1"] != nil)
    }

    @Test func aRelaunchShowsWhatTheProjectionsShowed() async throws {
        let store = InMemoryStore()
        let model = try RestorationModel(screens: Shop.declaration(), store: store)
        try await model.launch()
        model.path(of: "browse").wrappedValue = [ScreenEntry(ProductScreen("p-1")), ScreenEntry(ProductScreen("p-2"))]
        let product = try #require(model.path(of: "browse").wrappedValue.last)
        model.state(of: ProductScreen.self, at: product.reference)?.wrappedValue.quantity = 3
        model.presented(over: product.reference).wrappedValue = ScreenEntry(ComposeScreen())
        let compose = try #require(model.presented(over: product.reference).wrappedValue)
        model.state(of: ComposeScreen.self, at: compose.reference)?.wrappedValue.body = "Is it organic?"
        model.selectedTab(in: "tabs").wrappedValue = "draft"
        model.state(of: DraftScreen.self, at: "draft")?.wrappedValue.text = "half"
        model.handle(.background)
        await model.savesFinished()

        let relaunched = try RestorationModel(screens: Shop.declaration(), store: store)
        try await relaunched.launch()
        #expect(relaunched.shown("browse") == model.shown("browse"))
        #expect(relaunched.selectedTab(in: "tabs").wrappedValue == "draft")
        let restoredProduct = try #require(relaunched.path(of: "browse").wrappedValue.last)
        let restoredCompose = try #require(relaunched.presented(over: restoredProduct.reference).wrappedValue)
        #expect(
            relaunched.state(of: ComposeScreen.self, at: restoredCompose.reference)?.wrappedValue.body
                == "Is it organic?")
        #expect(relaunched.state(of: DraftScreen.self, at: "draft")?.wrappedValue.text == "half")
        #expect(relaunched.tree == model.tree)
    }

    @Test func everyScreenPassesThroughItsPreparationHook() async throws {
        let store = InMemoryStore()
        let first = try RestorationModel(screens: Shop.declaration(), store: store)
        var arrivals: [String] = []
        first.prepare(ProductScreen.self) { screen, arrival in
            arrivals.append("\(screen.state.productID) \(arrival)")
        }
        first.prepare(SearchScreen.self) { screen, arrival in
            screen.liveText = nil
            arrivals.append("search \(arrival)")
        }
        #expect(arrivals == ["search initial"])  // the screen already in the tree
        try await first.launch()
        #expect(arrivals == ["search initial", "search initial"])  // the fresh launch's tree
        try first.tree.push(ProductScreen("p-1"), onto: "browse")
        first.path(of: "browse").wrappedValue.append(ScreenEntry(ProductScreen("p-2")))
        try first.tree.update(ProductScreen.self, at: "product#1") { $0.state.quantity = 2 }  // not an arrival
        #expect(arrivals == ["search initial", "search initial", "p-1 added", "p-2 added"])
        try await first.save()

        arrivals = []
        let second = try RestorationModel(screens: Shop.declaration(), store: store)
        second.prepare(ProductScreen.self) { screen, arrival in
            arrivals.append("\(screen.state.productID) \(arrival)")
        }
        try await second.launch()
        #expect(arrivals == ["p-1 restored", "p-2 restored"])
    }

    @Test func theRestoredTreeIsObservableBeforeTheExtensionsEnd() async throws {
        let store = InMemoryStore()
        let saved = try RestorationModel(screens: Shop.declaration(), store: store)
        try await saved.launch()
        try saved.tree.push(ProductScreen("p-1"), onto: "browse")
        try await saved.save()

        let gate = Gate()
        var delegate = RecordingDelegate(probe: Probe())
        delegate.appExtension = { await gate.wait() }
        let model = try RestorationModel(screens: Shop.declaration(), store: store, delegate: delegate)
        let launch = Task { try await model.launch() }
        #expect(await eventually { model.tree["product#1"] != nil })
        #expect(model.isRestoring)
        gate.open()
        let report = try await launch.value
        #expect(!model.isRestoring)
        #expect(model.launchReport?.outcome == report.outcome)
    }
}

/// An account object, saved with the archive.
private final class Account: RestorableObject {
    struct State: Codable, Sendable { var signature: String }
    private let stored = Mutex("")
    var signature: String {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
    func encodeRestorableState() async -> State { State(signature: signature) }
    func decodeRestorableState(_ state: State) async { signature = state.signature }
}
