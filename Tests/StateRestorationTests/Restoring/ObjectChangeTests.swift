import Synchronization
import StateRestoration
import TestScreens
import Testing

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
