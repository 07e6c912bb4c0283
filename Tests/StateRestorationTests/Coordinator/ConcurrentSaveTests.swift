import StateRestoration
import TestScreens
import Testing

/// A delegate whose first should-save (or will-finish-launching) waits at a gate.
private struct GatedDelegate: RestorationDelegate {
    let probe: Probe
    let gate: Gate
    var gateLaunch = false

    func willFinishLaunching(_ context: RestorationContext) async {
        probe.record("will-finish-launching")
        if gateLaunch { await gate.wait() }
    }

    func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
        probe.record("did-finish-launching")
    }

    func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool {
        probe.record("should-save")
        if !gateLaunch { await gate.wait() }
        return true
    }
}

@Suite struct ConcurrentSaveTests {
    /// The shop tree with one product pushed, identified by its product ID.
    private func tree(_ productID: String) throws -> ScreenTree {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen(productID), onto: "browse")
        return tree
    }

    @Test("saves requested during a save coalesce: the newest tree is written once, after the running one")
    func coalescing() async throws {
        let store = InMemoryStore()
        let probe = Probe()
        let gate = Gate()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: GatedDelegate(probe: probe, gate: gate))
        let first = try tree("first")
        let second = try tree("second")
        let third = try tree("third")

        async let firstReport = coordinator.save(first)
        #expect(await eventually { gate.waiterCount == 1 })
        async let secondReport = coordinator.save(second)
        #expect(await eventually { await coordinator.waitingCount == 1 })
        async let thirdReport = coordinator.save(third)
        #expect(await eventually { await coordinator.waitingCount == 2 })
        gate.open()
        let reports = try await [firstReport, secondReport, thirdReport]

        #expect(reports.allSatisfy { $0.saved })
        #expect(probe.recorded == ["should-save", "should-save"])  // the second request was superseded
        #expect(reports[1] == reports[2])
        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(restored.tree == third)
    }

    @Test(
        "a save requested while a launch decodes waits for it, and writes nothing when its tree predates the handover"
    )
    func saveWaitsForLaunch() async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try tree("saved"))
        let probe = Probe()
        let gate = Gate()
        let coordinator = RestorationCoordinator(
            screens: Shop.declaration(), store: store,
            delegate: GatedDelegate(probe: probe, gate: gate, gateLaunch: true))
        async let session = coordinator.launch()
        #expect(await eventually { gate.waiterCount == 1 })
        async let saved = coordinator.save(try tree("during launch"))
        #expect(await eventually { await coordinator.waitingCount == 1 })
        gate.open()
        let restored = try await session
        do {
            _ = try await saved
            Issue.record("a tree made before the launch handed its tree over was saved")
        } catch let error as RestorationError {
            #expect(error.code == .treePredatesLaunch)
        }
        #expect(restored.tree == (try tree("saved")))
        #expect(probe.recorded == ["will-finish-launching", "did-finish-launching"])
        // The archive being restored was not replaced by the older tree; the restored one saves.
        let relaunched = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(relaunched.tree == (try tree("saved")))
        try await coordinator.save(restored.tree)
        #expect(probe.recorded.last == "should-save")
    }

    // Which of the 20 arrives last is up to the scheduler; `coalescing` above checks the order
    // with saves whose arrival it controls.
    @Test("many concurrent saves all save, and the store holds one of their trees, whole")
    func manyConcurrentSaves() async throws {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
        for round in 0..<20 {
            try await coordinator.save(try tree("round-\(round)"))
        }
        let trees = try (0..<20).map { try tree("concurrent-\($0)") }
        try await withThrowingTaskGroup(of: SaveReport.self) { group in
            for tree in trees {
                group.addTask { try await coordinator.save(tree) }
            }
            for try await report in group { #expect(report.saved) }
        }
        let restored = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(trees.contains(restored.tree))
    }
}
