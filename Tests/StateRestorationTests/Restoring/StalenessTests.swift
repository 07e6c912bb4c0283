import Foundation
import StateRestoration
import TestScreens
import Testing

/// A route found on the map: worth restoring for an hour, not for a week.
private struct RouteScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "route"
    static let maximumStateAge: Duration? = .seconds(3_600)
    struct State: Codable, Sendable, Equatable { var destination = "" }
    var state = State()
}

@Suite struct StalenessTests {
    private let declaration = ScreenDeclaration {
        Tabs("tabs") {
            Screen(SettingsScreen(), id: "settings")
            Screen(RouteScreen(), id: "route")
        }
    }
    private let savedAt = Date(timeIntervalSince1970: 1_790_000_000)

    /// Saves an edited tree at `savedAt` and launches `elapsed` seconds later.
    private func launch(after elapsed: TimeInterval, maximumArchiveAge: Duration?) async throws -> RestorationSession {
        let store = InMemoryStore()
        var tree = try declaration.makeInitialTree()
        try tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "jp" }
        try tree.update(RouteScreen.self, at: "route") { $0.state.destination = "Kyoto" }
        let savedAt = savedAt
        try await RestorationCoordinator(
            screens: declaration, store: store, configuration: RestorationConfiguration(now: { savedAt })
        ).save(tree)
        let later = savedAt.addingTimeInterval(elapsed)
        return try await RestorationCoordinator(
            screens: declaration, store: store,
            configuration: RestorationConfiguration(maximumArchiveAge: maximumArchiveAge, now: { later })
        ).launch()
    }

    @Test("an archive older than the configured age is not restored, and the report says how old it was")
    func staleArchive() async throws {
        let session = try await launch(after: 8 * 86_400, maximumArchiveAge: .seconds(7 * 86_400))
        #expect(session.report.outcome == .fresh)
        #expect(session.report.freshReason?.code == .stale)
        #expect(
            session.report.freshReason?.message
                == "archive main was saved 8 days ago; archives older than 7 days are not restored")
    }

    @Test("a younger archive restores; a screen past its own maximum age is skipped, the rest comes back")
    func staleScreen() async throws {
        let fresh = try await launch(after: 600, maximumArchiveAge: .seconds(7 * 86_400))
        #expect(fresh.report.outcome == .restored)
        #expect(fresh.tree.screen(RouteScreen.self, at: "route")?.state.destination == "Kyoto")

        let hoursLater = try await launch(after: 2 * 3_600, maximumArchiveAge: nil)
        #expect(hoursLater.report.outcome == .restored)
        #expect(hoursLater.report.skipped.map(\.reason) == [.stale])
        #expect(hoursLater.tree.screen(RouteScreen.self, at: "route")?.state.destination == "")
        #expect(hoursLater.tree.screen(SettingsScreen.self, at: "settings")?.state.region == "jp")
    }
}
