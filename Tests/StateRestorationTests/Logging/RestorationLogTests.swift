import Foundation
import Synchronization
import StateRestoration
import TestScreens
import Testing

/// Collects the events a coordinator logs.
private final class EventCollector: Sendable {
    private let events = Mutex<[RestorationLogEvent]>([])
    var handler: ClosureLogHandler { ClosureLogHandler { event in self.events.withLock { $0.append(event) } } }
    var recorded: [RestorationLogEvent] { events.withLock { $0 } }
    func lines(_ kind: RestorationLogEvent.Kind) -> [String] { recorded.filter { $0.kind == kind }.map(\.description) }
}

/// The product screen of a build that made its identifier a string, with a migration from version 1.
private struct MigratedProductScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 2
    struct State: Codable, Sendable, Equatable { var productID: String }
    static let stateMigrations = [
        StateMigration<State>(from: 1, OldProductScreen.State.self) { State(productID: "p-\($0.productID)") }
    ]
    var state: State
}

/// A shared object that only counts.
private final class Tally: RestorableObject {
    struct State: Codable, Sendable { var count: Int }
    func encodeRestorableState() async -> State { State(count: 3) }
    func decodeRestorableState(_ state: State) async {}
}

/// A failure an extension ends with.
private struct SignInFailed: Error, CustomStringConvertible {
    var description: String { "the token expired" }
}

/// The product screen of an older build, whose state no longer decodes.
private struct OldProductScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable { var productID: Int }
    var state: State
}

@Suite struct RestorationLogTests {
    @Test("a save logs its phases with durations, skipped nodes with reasons, every saved path and a total")
    func saveEvents() async throws {
        let events = EventCollector()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: InMemoryStore(),
            configuration: RestorationConfiguration(logHandler: events.handler))
        let report = try await coordinator.save(try Shop.busyTree())

        let phases = events.recorded.filter { $0.kind == .phase }
        #expect(phases.map(\.message) == ["should-save", "will-encode", "encode", "write"])
        #expect(phases.allSatisfy { $0.duration != nil && $0.description.hasSuffix(" ms)") })
        #expect(events.lines(.nodeSkipped).count == 1)
        #expect(
            events.lines(.nodeSkipped).first?.hasPrefix("save node-skipped tabs/<scratch>: no-identifier: ") == true)
        #expect(events.recorded.filter { $0.kind == .nodeSaved }.compactMap(\.path) == report.savedPaths)
        #expect(events.recorded.filter { $0.kind == .nodeSaved }.allSatisfy { $0.level == .debug })
        let finished = try #require(events.lines(.finished).first)
        #expect(
            finished.hasPrefix(
                "save finished: \(report.savedPaths.count) nodes saved, \(report.encodedStateCount) states encoded, 0 reused, "
            ))
        #expect(events.recorded.allSatisfy { !$0.description.contains("\n") })
    }

    @Test("a launch logs the archive, its phases, skipped screens with the reason, and a total")
    func launchEvents() async throws {
        let store = InMemoryStore()
        let old = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) { Screen(OldProductScreen.self, id: "product") }
        }
        var tree = try old.makeInitialTree()
        try tree.push(OldProductScreen(state: .init(productID: 1)), onto: "browse")
        try await RestorationCoordinator(screens: old, store: store, configuration: .init(appVersion: "1.0")).save(tree)

        let events = EventCollector()
        let current = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) { Screen(ProductScreen.self, id: "product") }
        }
        _ = try await RestorationCoordinator(
            screens: current, store: store, configuration: RestorationConfiguration(logHandler: events.handler)
        ).launch()

        #expect(events.recorded.first?.description == "launch started: archive main")
        #expect(
            events.lines(.archiveRead).first?.hasPrefix("launch archive-read: main, format 1, app 1.0, saved ") == true)
        #expect(
            events.recorded.filter { $0.kind == .phase }.map(\.message) == [
                "will-finish-launching", "read archive, write restoration marker", "should-restore",
                "restore shared objects",
                "re-create and decode screens", "did-decode", "did-finish-launching",
                "extensions, finished restoring", "remove restoration marker",
            ])
        let skipped = try #require(events.recorded.first { $0.kind == .screenSkipped })
        #expect(skipped.level == .warning)
        #expect(skipped.description.hasPrefix("launch screen-skipped browse/product#1: decode-failed: "))
        #expect(events.lines(.screenRestored) == ["launch screen-restored browse/search#0: restored"])
        #expect(
            events.lines(.finished).first?.hasPrefix("launch finished: restored, 1 screens restored, 1 skipped (")
                == true)
    }

    @Test("a rejected archive and a failed save are warnings that say what happened")
    func warnings() async throws {
        let store = InMemoryStore()
        try store.write(Data(String(repeating: "not an archive ", count: 4).utf8), to: .main)
        let events = EventCollector()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store,
            configuration: RestorationConfiguration(
                budget: SizeBudget(perScreen: 10, perArchive: nil, isEnforced: true), logHandler: events.handler))
        _ = try await coordinator.launch()
        #expect(
            events.lines(.archiveRejected).first?.hasPrefix("launch archive-rejected: moved aside to main.rejected-")
                == true)
        #expect(
            events.lines(.fresh).first?.hasPrefix("launch fresh: archive-rejected: archive main rejected (bad-magic)")
                == true)

        await #expect(throws: RestorationError.self) { try await coordinator.save(try Shop.busyTree()) }
        let failed = try #require(events.recorded.first { $0.kind == .failed })
        #expect(failed.level == .warning)
        #expect(failed.description.hasPrefix("save failed: not saved: "))
    }

    @Test("without a handler nothing is logged, and the standard-error handler filters by level")
    func levels() {
        #expect(RestorationConfiguration().logHandler == nil)
        #expect(RestorationLogEvent.Level.debug < .info && RestorationLogEvent.Level.info < .warning)
        let event = RestorationLogEvent(.save, .info, .phase, message: "two\nlines", duration: .microseconds(1_234))
        #expect(event.description == "save phase: two lines (1.23 ms)")
    }

    @Test(
        "a launch logs migrated screens, restored objects and how each extension ended; a save logs a declined save and budget warnings"
    )
    func outcomeEvents() async throws {
        let store = InMemoryStore()
        let old = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) { Screen(OldProductScreen.self, id: "product") }
        }
        var tree = try old.makeInitialTree()
        try tree.push(OldProductScreen(state: .init(productID: 7)), onto: "browse")
        let saving = RestorationCoordinator(screens: old, store: store)
        await saving.register(Tally(), identifier: "tally")
        try await saving.save(tree)

        let events = EventCollector()
        let current = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) { Screen(MigratedProductScreen.self, id: "product") }
        }
        var delegate = RecordingDelegate(probe: Probe())
        delegate.appExtension = { throw SignInFailed() }
        let restoring = RestorationCoordinator(
            screens: current, store: store, delegate: delegate,
            configuration: RestorationConfiguration(logHandler: events.handler))
        await restoring.register(Tally(), identifier: "tally")
        let session = try await restoring.launch()

        #expect(session.tree.screen(MigratedProductScreen.self, at: "browse/product#1")?.state.productID == "p-7")
        #expect(events.lines(.screenMigrated) == ["launch screen-migrated browse/product#1: State version 1 to 2"])
        #expect(events.lines(.objectRestored) == ["launch object-restored: tally"])
        let ended = try #require(events.recorded.first { $0.kind == .extensionFinished })
        #expect(ended.level == .warning)
        #expect(ended.description == "launch extension-finished: app extension: failed(\"the token expired\")")

        // A declined save says the previous archive stays, and does not claim a total.
        var refusing = delegate
        refusing.allowSave = false
        let declining = RestorationCoordinator(
            screens: current, store: store, delegate: refusing,
            configuration: RestorationConfiguration(logHandler: events.handler))
        let declined = try await declining.save(session.tree)
        #expect(!declined.saved)
        #expect(events.lines(.declined) == ["save declined: should-save declined; the previous archive stays"])
        #expect(events.recorded.filter { $0.operation == .save && $0.kind == .finished }.isEmpty)

        // A budget that only warns logs the warning and saves.
        let warned = EventCollector()
        let small = RestorationCoordinator(
            screens: current, store: store,
            configuration: RestorationConfiguration(
                budget: SizeBudget(perScreen: 4, perArchive: nil), logHandler: warned.handler))
        let report = try await small.save(session.tree)
        #expect(report.saved)
        let warning = try #require(warned.recorded.first { $0.kind == .budgetExceeded })
        #expect(warning.level == .warning)
        #expect(warning.description.contains("over the per-screen budget of 4"))
    }
}
