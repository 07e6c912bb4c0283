import Observation
import StateRestoration
import Synchronization
import TestScreens
import Testing

/// A projection tells its observers of the changes it shows, and of no other.
@MainActor
@Suite struct ProjectionObservationTests {
    let model: RestorationModel<DefaultRestorationDelegate>

    init() throws {
        model = try RestorationModel(screens: Shop.declaration(), store: InMemoryStore())
        try model.tree.push(ProductScreen("p-1"), onto: "browse")
    }

    @Test func stackPathSeesPushesAndPopsOnly() throws {
        let path = model.path(of: "browse")
        #expect(
            try changeIsObserved(reading: { _ = path.wrappedValue }) {
                try model.tree.push(ProductScreen("p-2"), onto: "browse")
            })
        #expect(try changeIsObserved(reading: { _ = path.wrappedValue }) { try model.tree.pop(from: "browse") })
        #expect(
            !changeIsObserved(reading: { _ = path.wrappedValue }) {
                try? model.tree.update(ProductScreen.self, at: "product#1") { $0.state.quantity = 5 }
            })
        #expect(
            !changeIsObserved(reading: { _ = path.wrappedValue }) { try? model.tree.selectTab("settings", in: "tabs") })
        #expect(
            !changeIsObserved(reading: { _ = path.wrappedValue }) {
                try? model.tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "jp" }
            })
    }

    @Test func stateSeesItsOwnScreenOnly() throws {
        let query = try #require(model.state(of: SearchScreen.self, at: "search#0"))
        #expect(
            try changeIsObserved(reading: { _ = query.wrappedValue }) {
                try model.tree.update(SearchScreen.self, at: "search#0") { $0.state.query = "milk" }
            })
        #expect(query.wrappedValue.query == "milk")
        #expect(
            !changeIsObserved(reading: { _ = query.wrappedValue }) {
                try? model.tree.push(ProductScreen("p-2"), onto: "browse")
            })
        #expect(
            !changeIsObserved(reading: { _ = query.wrappedValue }) {
                try? model.tree.update(ProductScreen.self, at: "product#1") { $0.state.quantity = 5 }
            })
        #expect(
            !changeIsObserved(reading: { _ = query.wrappedValue }) { try? model.tree.selectTab("settings", in: "tabs") }
        )
    }

    @Test func selectedTabSeesSelectionOnly() throws {
        let tab = model.selectedTab(in: "tabs")
        #expect(tab.wrappedValue == "browse")
        #expect(
            try changeIsObserved(reading: { _ = tab.wrappedValue }) { try model.tree.selectTab("settings", in: "tabs") }
        )
        #expect(tab.wrappedValue == "settings")
        #expect(
            !changeIsObserved(reading: { _ = tab.wrappedValue }) {
                try? model.tree.push(ProductScreen("p-2"), onto: "browse")
            })
        #expect(
            !changeIsObserved(reading: { _ = tab.wrappedValue }) {
                try? model.tree.update(SearchScreen.self, at: "search#0") { $0.state.query = "tea" }
            })
    }

    @Test func presentedSeesPresentingAndDismissingOnly() throws {
        let sheet = model.presented(over: "product#1")
        #expect(
            try changeIsObserved(reading: { _ = sheet.wrappedValue }) {
                try model.tree.present(ComposeScreen(), over: "product#1")
            })
        #expect(
            !changeIsObserved(reading: { _ = sheet.wrappedValue }) {
                try? model.tree.update(ComposeScreen.self, at: "compose") { $0.state.body = "Hello" }
            })
        #expect(try changeIsObserved(reading: { _ = sheet.wrappedValue }) { try model.tree.dismiss(from: "product#1") })
    }

    @Test func aScreenClosedTellsItsStateObservers() throws {
        let product = try #require(model.state(of: ProductScreen.self, at: "product#1"))
        #expect(try changeIsObserved(reading: { _ = product.wrappedValue }) { try model.tree.pop(from: "browse") })
        // The closed screen's last state stays readable; a write (a field committing as its
        // sheet closes) is dropped without a refusal.
        #expect(product.wrappedValue.productID == "p-1")
        let tree = model.tree
        try product.set(.init(productID: "p-9"))
        product.wrappedValue = .init(productID: "p-9")
        #expect(model.lastRefusal == nil)
        #expect(model.tree == tree)
    }

    @Test func aReferenceByIdentifierSeesWhatItNamesChange() throws {
        let sheet = model.presented(over: "product")  // one product on the stack: product#1
        #expect(
            try changeIsObserved(reading: { _ = sheet.wrappedValue }) {
                try model.tree.push(ProductScreen("p-2"), onto: "browse")  // now two nodes are named product
            })
        #expect(sheet.wrappedValue == nil)
    }

    @Test func theRootIdentityChangesOnlyWithTheRoot() async throws {
        #expect(
            !changeIsObserved(reading: { _ = model.rootID }) {
                try? model.tree.push(ProductScreen("p-2"), onto: "browse")
            })
        let fired = Atomic<Bool>(false)
        let draftBeforeLaunch = withObservationTracking {
            _ = model.rootID
            return model.state(of: DraftScreen.self, at: "draft")
        } onChange: {
            fired.store(true, ordering: .relaxed)
        }
        #expect(!model.isLaunched)
        try await model.launch()
        #expect(model.isLaunched)
        // A view that made its projection before the handover runs again, and makes it anew.
        let wasFired = fired.load(ordering: .relaxed)
        #expect(wasFired)
        let draft = try #require(model.state(of: DraftScreen.self, at: "draft"))
        draft.wrappedValue.text = "typed after the launch"
        #expect(model.tree.screen(DraftScreen.self, at: "draft")?.state.text == "typed after the launch")
        #expect(draftBeforeLaunch?.wrappedValue.text == "")
    }

    @Test("a view that shows the window once the model is launched redraws at the handover, instead of staying blank")
    func launchedIsToldAtTheHandover() async throws {
        let fired = Atomic<Bool>(false)
        #expect(withObservationTracking { model.isLaunched } onChange: { fired.store(true, ordering: .relaxed) } == false)
        try await model.launch()
        let wasFired = fired.load(ordering: .relaxed)
        #expect(wasFired)
        #expect(model.isLaunched)
    }

    @Test(
        "a view keyed on the root's identity runs again at the handover, so it reports the restored interface and the next launch keeps the archive"
    )
    func rootIdentityIsToldAtTheHandover() async throws {
        let fired = Atomic<Bool>(false)
        let before = withObservationTracking { model.rootID } onChange: { fired.store(true, ordering: .relaxed) }
        try await model.launch()
        let wasFired = fired.load(ordering: .relaxed)
        #expect(wasFired)
        #expect(model.rootID != before)
    }

    @Test func writingBackTheSamePathTellsNoOne() throws {
        let path = model.path(of: "browse")
        let shown = path.wrappedValue
        #expect(!changeIsObserved(reading: { _ = model.tree }) { path.wrappedValue = shown })
    }

    @Test func theWholeTreeSeesEveryChange() throws {
        #expect(
            try changeIsObserved(reading: { _ = model.tree }) {
                try model.tree.update(SearchScreen.self, at: "search#0") { $0.state.query = "tea" }
            })
    }
}
