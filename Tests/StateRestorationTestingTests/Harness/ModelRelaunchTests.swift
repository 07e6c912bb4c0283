import StateRestoration
import StateRestorationTesting
import Synchronization
import TestScreens
import Testing

/// A cart shared by screens, saved with the archive.
private final class Cart: RestorableObject {
    struct State: Codable, Sendable { var items: [String] }
    private let items = Mutex<[String]>([])
    var contents: [String] { items.withLock { $0 } }
    func add(_ item: String) { items.withLock { $0.append(item) } }
    func encodeRestorableState() async -> State { State(items: contents) }
    func decodeRestorableState(_ state: State) async { items.withLock { $0 = state.items } }
}

/// The harness drives a model through launch, edits, background, end of process and relaunch.
@MainActor
@Suite struct ModelRelaunchTests {
    @Test func editsMadeThroughTheProjectionsComeBack() async throws {
        let harness = RestorationHarness(screens: TestApp.declaration)
        let relaunched = try await harness.relaunchModel { model in
            model.state(of: SearchScreen.self, at: "search#0")?.wrappedValue.query = "milk"
            model.path(of: "browse").wrappedValue.append(ScreenEntry(ProductScreen(state: .init(productID: "p-1"))))
            let product = try #require(model.path(of: "browse").wrappedValue.last)
            model.presented(over: product.reference).wrappedValue = ScreenEntry(
                ComposeScreen(state: .init(to: "a@b.c")))
            model.selectedTab(in: "tabs").wrappedValue = "settings"
        }
        #expect(relaunched.report.outcome == .restored)
        #expect(relaunched.model.tree == relaunched.endedTree)
        #expect(relaunched.model.selectedTab(in: "tabs").wrappedValue == "settings")
        let product = try #require(relaunched.model.path(of: "browse").wrappedValue.last)
        #expect(relaunched.model.presented(over: product.reference).wrappedValue?.typeKey == "compose")
        #expect(relaunched.saveReport.saved)
    }

    @Test func sharedObjectsAreRegisteredInEachProcess() async throws {
        let harness = RestorationHarness(screens: TestApp.declaration)
        var prepared: [ObjectIdentifier] = []
        let relaunched = try await harness.relaunchModel(
            objects: { ["cart": Cart()] },
            prepare: { _, objects in prepared += objects.values.map { ObjectIdentifier($0) } }
        ) { _, objects in
            (objects["cart"] as? Cart)?.add("p-42")
        }
        let cart = try #require(relaunched.objects["cart"] as? Cart)
        #expect(cart.contents == ["p-42"])
        #expect(prepared.count == 2)  // each process's prepare got that process's cart
        #expect(prepared.last == ObjectIdentifier(cart))
        // The app's own model type, so the app's UI code takes it.
        let model: RestorationModel<DefaultRestorationDelegate> = relaunched.model
        #expect(model.launchReport?.outcome == .restored)
    }

    @Test func aRefusedChangeFailsTheDrive() async throws {
        let harness = RestorationHarness(screens: TestApp.declaration)
        await #expect(throws: HarnessError.self) {
            _ = try await harness.relaunchModel { model in
                model.selectedTab(in: "tabs").wrappedValue = "nowhere"
            }
        }
    }
}
