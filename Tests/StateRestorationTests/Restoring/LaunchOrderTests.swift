import StateRestoration
import TestScreens
import Testing

/// REFERENCE.md, "The order of a launch that restores": will-finish-launching,
/// should-restore, re-creation and decode top-down, app did-decode,
/// did-finish-launching, the tree handed to the app, extensions, finished-restoring
/// in tree order.
@Suite struct LaunchOrderTests {
    /// Saves `tree`, and returns the probe and the delegate of the launch that restores it: the
    /// delegate adds one extension, which records that it ran.
    private func saving(_ tree: ScreenTree, to store: InMemoryStore) async throws -> (Probe, RecordingDelegate) {
        try await RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: RecordingDelegate(probe: Probe())
        ).save(tree)
        let probe = Probe()
        var delegate = RecordingDelegate(probe: probe)
        delegate.appExtension = { probe.record("extension ran") }
        return (probe, delegate)
    }

    @Test("a launch into a host hands the tree over after did-finish-launching, before the extensions run")
    func handoverPoint() async throws {
        let store = InMemoryStore()
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        let (probe, delegate) = try await saving(tree, to: store)
        let host = try await TreeHost(Shop.declaration(), probe: probe)
        let report = try await RestorationCoordinator(screens: Shop.declaration(), store: store, delegate: delegate)
            .launch(into: host)

        let screens = ["tabs/browse/search#0", "tabs/browse/product#1", "tabs/settings", "tabs/draft", "tabs/split"]
        var expected = ["will-finish-launching", "should-restore"]
        for path in screens {
            expected += ["make \(path)", "decode \(path)"]
        }
        expected += [
            "children ", "did-decode nil", "did-finish-launching restored", "tree handed over", "extension ran",
        ]
        expected += screens.map { "finish \($0)" }
        #expect(probe.recorded == expected)
        #expect(report.extensions.map(\.result) == [.completed])
        #expect(await host.tree == tree)
    }

    @Test("a restoring launch calls every hook in UIKit's order")
    func restoringLaunch() async throws {
        let store = InMemoryStore()
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.present(ComposeScreen(), over: "product#1")
        let (probe, delegate) = try await saving(tree, to: store)
        let session = try await RestorationCoordinator(screens: Shop.declaration(), store: store, delegate: delegate)
            .launch()

        let screens = [
            "tabs/browse/search#0", "tabs/browse/product#1", "tabs/browse/product#1/compose", "tabs/settings",
            "tabs/draft", "tabs/split",
        ]
        var expected = ["will-finish-launching", "should-restore"]
        for path in screens {
            expected += ["make \(path)", "decode \(path)"]
        }
        expected += ["children ", "did-decode nil", "did-finish-launching restored", "extension ran"]
        expected += screens.map { "finish \($0)" }
        #expect(probe.recorded == expected)
        #expect(session.report.restoredPaths == screens.map { IdentifierPath(stringLiteral: $0) })
        #expect(session.report.extensions.map(\.result) == [.completed])
    }

    @Test("a fresh launch calls will-finish and did-finish only, and no screen hook")
    func freshLaunch() async throws {
        let probe = Probe()
        let session = try await RestorationCoordinator(
            screens: Shop.declaration(), store: InMemoryStore(), delegate: RecordingDelegate(probe: probe)
        ).launch()
        #expect(probe.recorded == ["will-finish-launching", "did-finish-launching fresh"])
        #expect(session.report.outcome == .fresh)
        #expect(session.report.freshReason?.code == .noArchive)
        #expect(session.tree == (try Shop.declaration().makeInitialTree()))
    }

    @Test("a save asks should-save, then will-encode")
    func saveOrder() async throws {
        let probe = Probe()
        try await RestorationCoordinator(
            screens: Shop.declaration(), store: InMemoryStore(), delegate: RecordingDelegate(probe: probe)
        ).save(try Shop.busyTree())
        #expect(probe.recorded == ["should-save", "will-encode"])
    }
}
