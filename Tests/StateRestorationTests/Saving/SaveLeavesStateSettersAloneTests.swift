import StateRestoration
import Testing

/// Counts the `didSet`s of `ObservedScreen.state` (a class, so copies of the screen share it).
final class SetCounter: @unchecked Sendable {
    var count = 0
}

/// A screen whose `state` has a `didSet`, as a screen that mirrors its state into a view might.
struct ObservedScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "observed"
    struct State: Codable, Sendable, Equatable {
        var value = 0
    }
    var state = State() {
        didSet { counter.count += 1 }
    }
    var counter = SetCounter()

    init(state: State) {
        self.state = state
    }

    init() {}
}

@Suite struct SaveLeavesStateSettersAloneTests {
    @Test("a save reads each screen's state: it never runs the state's setter or didSet")
    func saveDoesNotSetState() async throws {
        let counter = SetCounter()
        var screen = ObservedScreen()
        screen.counter = counter
        let declaration = ScreenDeclaration {
            Stack("stack", root: screen) {}
        }
        let coordinator = RestorationCoordinator(screens: declaration, store: InMemoryStore())
        let tree = try declaration.makeInitialTree()
        counter.count = 0
        try await coordinator.save(tree)
        let second = try await coordinator.save(tree)  // compares with the first save's state
        #expect(second.reusedStateCount == 1)
        #expect(counter.count == 0)
    }
}
