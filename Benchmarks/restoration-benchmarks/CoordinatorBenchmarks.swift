import Foundation
import StateRestoration

// The workloads as screen hierarchies, saved and launched through the real
// RestorationCoordinator, on a FileStore in a temporary directory and on an
// InMemoryStore.

struct SearchScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "search"
    var state: SearchState
}

struct ProductScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    var state: ProductState
}

struct DraftScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "draft"
    var state: DraftState
}

struct RouteScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "route"
    var state: RouteState
}

/// A workload as a declaration and a hierarchy: tabs of navigation stacks whose
/// root is a search and onto which products, drafts and routes are pushed.
struct Hierarchy {
    var declaration: ScreenDeclaration
    var tree: ScreenTree
    /// How many screens (states) a save writes.
    var screenCount: Int

    static let emptySearch = SearchState(
        query: "", filters: SearchFilters(categories: [], priceRange: nil, sort: .relevance, inStockOnly: false),
        resultIDs: [], selectedResultID: nil, scrollOffset: 0, lastRefreshed: Date(timeIntervalSinceReferenceDate: 0),
        sessionID: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))

    init(_ workload: Workload) throws {
        let model = workload.tree
        declaration = ScreenDeclaration {
            Tabs("tabs", selected: model.tabs.first?.identifier) {
                for tab in model.tabs {
                    Stack(tab.identifier, root: SearchScreen(state: Self.emptySearch)) {
                        ProductScreen.self
                        DraftScreen.self
                        RouteScreen.self
                    }
                }
            }
        }
        try declaration.validate()
        var tree = try declaration.makeInitialTree()
        for tab in model.tabs {
            let stack = NodeReference(IdentifierPath(["tabs", tab.identifier]))
            for (position, entry) in tab.screens.enumerated() {
                switch (position, entry.state) {
                case (0, .search(let state)):
                    try tree.update(
                        SearchScreen.self, at: NodeReference(IdentifierPath(["tabs", tab.identifier, "search#0"]))
                    ) {
                        $0.state = state
                    }
                case (0, _), (_, .search):
                    throw BenchmarkFailure("\(workload.name): a stack has a search at its root and nowhere else")
                case (_, .product(let state)): try tree.push(ProductScreen(state: state), onto: stack)
                case (_, .draft(let state)): try tree.push(DraftScreen(state: state), onto: stack)
                case (_, .route(let state)): try tree.push(RouteScreen(state: state), onto: stack)
                }
            }
        }
        try tree.selectTab(model.selectedTab, in: "tabs")
        self.tree = tree
        screenCount = model.screenCount
        let paths = tree.restorablePaths.count
        guard paths == 1 + model.tabs.count + screenCount else {
            throw BenchmarkFailure(
                "\(workload.name): the hierarchy has \(paths) saved nodes, expected \(1 + model.tabs.count + screenCount)"
            )
        }
    }

    /// The same tree with one screen's state changed (the last screen of the last tab).
    func withOneScreenChanged(_ generation: Int) throws -> ScreenTree {
        var changed = tree
        guard let tab = changed.root.children.last, let top = tab.children.last, let id = tab.identifier else {
            throw BenchmarkFailure("the hierarchy has no screen to change")
        }
        let path = NodeReference(IdentifierPath(["tabs", id, tab.component(ofLast: top)]))
        switch top.screen {
        case is ProductScreen: try changed.update(ProductScreen.self, at: path) { $0.state.quantity += generation }
        case is DraftScreen: try changed.update(DraftScreen.self, at: path) { $0.state.cursorPosition += generation }
        case is RouteScreen: try changed.update(RouteScreen.self, at: path) { $0.state.zoom += Double(generation) }
        default: throw BenchmarkFailure("unexpected screen \(String(describing: top.screen)) on top of a stack")
        }
        return changed
    }
}

extension ScreenNode {
    /// The path component of the last child of this stack (`route#24`).
    func component(ofLast child: ScreenNode) -> String {
        "\(child.identifier ?? "")#\(children.count - 1)"
    }
}

/// The figures of one coordinator benchmark.
struct CoordinatorResult: Codable, Sendable {
    var name: String
    var workload: String
    var store: String
    var medianMicroseconds: Double
    var meanMicroseconds: Double
    var minimumMicroseconds: Double
    var maximumMicroseconds: Double
    var samples: Int
    /// The archive's size in bytes, when the benchmark saves one.
    var archiveBytes: Int?

    init(_ name: String, workload: String, store: String, _ measurement: Measurement, archiveBytes: Int? = nil) {
        self.name = name
        self.workload = workload
        self.store = store
        medianMicroseconds = measurement.medianNanoseconds / 1000
        meanMicroseconds = measurement.meanNanoseconds / 1000
        minimumMicroseconds = measurement.minimumNanoseconds / 1000
        maximumMicroseconds = measurement.maximumNanoseconds / 1000
        samples = measurement.batchCount
        self.archiveBytes = archiveBytes
    }
}

/// Saves and launches through the real coordinator.
@MainActor
struct CoordinatorBenchmarks {
    var harness: Harness
    var log: (String) -> Void
    /// A fresh temporary directory for this run's FileStores, removed by ``removeDirectory()``.
    let directory: URL

    init(harness: Harness, log: @escaping (String) -> Void) {
        self.harness = harness
        self.log = log
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("restoration-benchmarks-\(UUID().uuidString)", isDirectory: true)
    }

    func removeDirectory() {
        try? FileManager.default.removeItem(at: directory)
    }

    func fileStore(_ name: String) -> FileStore {
        FileStore(directory: directory.appendingPathComponent(name, isDirectory: true))
    }

    typealias Coordinator = RestorationCoordinator<DefaultRestorationDelegate>

    /// (a) A full save and a launch, end to end, through a FileStore.
    func saveAndLaunch(_ workload: Workload) async throws -> [CoordinatorResult] {
        let hierarchy = try Hierarchy(workload)
        let store = fileStore("end-to-end-\(workload.name)")
        let screens = hierarchy.declaration
        let tree = hierarchy.tree

        // Check once: a save writes every state, and a launch restores the same tree.
        let report = try await Coordinator(screens: screens, store: store).save(tree)
        guard report.saved, report.encodedStateCount == hierarchy.screenCount, report.reusedStateCount == 0 else {
            throw BenchmarkFailure("\(workload.name): the first save encoded \(report.encodedStateCount) states")
        }
        let session = try await Coordinator(screens: screens, store: store).launch()
        guard session.report.outcome == .restored, session.report.skipped.isEmpty, session.tree == tree else {
            throw BenchmarkFailure(
                "\(workload.name): the launch did not restore the saved tree: \(session.report.outcome),"
                    + " \(session.report.freshReason?.message ?? "\(session.report.skipped.count) skipped")")
        }

        let save = try await harness.measureAsync(prepare: { Coordinator(screens: screens, store: store) }) {
            try await $0.save(tree)
        }
        // A launch into a host, as an app's: the time until the host holds the restored tree (what
        // the user waits for), and until the restoration finished.
        let initial = try screens.makeInitialTree()
        var handovers: [Double] = []
        let launch = try await harness.measureAsync(
            prepare: { (Coordinator(screens: screens, store: store), BenchmarkHost(tree: initial)) }
        ) { prepared in
            let report = try await prepared.0.launch(into: prepared.1)
            // As an app does once its screens are built: the marker goes, so the next launch
            // restores the archive again.
            await prepared.0.restoredInterfaceDidAppear()
            guard report.outcome == .restored else {
                let reason = report.freshReason?.message ?? ""
                throw BenchmarkFailure("\(workload.name): a launch did not restore: \(reason)")
            }
            if let handover = prepared.1.handover { handovers.append(handover.nanoseconds) }
            return report
        }
        // The warm-up's handovers came first: keep as many of the last as the launch kept.
        let kept = Array(handovers.suffix(launch.batchCount))
        let handover = Measurement(
            medianNanoseconds: median(kept), meanNanoseconds: mean(kept), minimumNanoseconds: kept.min() ?? .nan,
            maximumNanoseconds: kept.max() ?? .nan, iterationsPerBatch: 1, batchCount: kept.count)
        log(
            "  \(workload.name): save \(format(save.medianNanoseconds / 1e6)) ms, launch: tree in the app's hands \(format(handover.medianNanoseconds / 1e6)) ms, restoration finished \(format(launch.medianNanoseconds / 1e6)) ms"
        )
        return [
            CoordinatorResult(
                "save", workload: workload.name, store: "FileStore", save, archiveBytes: report.byteCount),
            CoordinatorResult(
                "launch, tree handed over", workload: workload.name, store: "FileStore", handover,
                archiveBytes: report.byteCount),
            CoordinatorResult(
                "launch", workload: workload.name, store: "FileStore", launch, archiveBytes: report.byteCount),
        ]
    }

    /// Two journal cycles of a `FileStore`: 256 records and the rewrite of the archive file, twice.
    nonisolated static let savesInARow = 2 * 257

    /// The name of the series of one-changed saves in a row.
    nonisolated static let inARowName = "one-changed saves, \(savesInARow) in a row"

    /// (b) A full save against a save where one screen changed, on both stores.
    func incrementalSave(_ workload: Workload) async throws -> [CoordinatorResult] {
        let hierarchy = try Hierarchy(workload)
        let screens = hierarchy.declaration
        let full = hierarchy.tree
        let trees = [try hierarchy.withOneScreenChanged(1), try hierarchy.withOneScreenChanged(2)]
        var results: [CoordinatorResult] = []
        for (storeName, store) in [
            ("InMemoryStore", InMemoryStore() as any RestorationStore), ("FileStore", fileStore("incremental")),
        ] {
            // Check once: a fresh coordinator encodes every state; the next save of a
            // tree with one changed screen encodes one and reuses the others.
            let coordinator = Coordinator(screens: screens, store: store)
            let first = try await coordinator.save(full)
            let second = try await coordinator.save(trees[0])
            guard first.encodedStateCount == hierarchy.screenCount, second.encodedStateCount == 1,
                second.reusedStateCount == hierarchy.screenCount - 1
            else {
                throw BenchmarkFailure(
                    "\(workload.name) on \(storeName): saves encoded \(first.encodedStateCount) then"
                        + " \(second.encodedStateCount) states (reused \(second.reusedStateCount)); expected"
                        + " \(hierarchy.screenCount) then 1")
            }

            // In alternating blocks, so that the machine's load falls on both alike: a fresh
            // coordinator saves the whole tree (it has no earlier encodings); the long-lived one
            // saves a tree where one screen changed since its previous save. The first save of
            // each block of one-changed saves, right after full saves, is reported on its own:
            // it finds the caches full of the full saves' data.
            var generation = 0
            let (fullSave, oneChanged, _, oneChangedAfterFull) = try await harness.measureAlternating(
                (
                    prepare: { Coordinator(screens: screens, store: store) },
                    run: { try await $0.save(full) }
                ),
                (
                    prepare: { () -> ScreenTree in
                        generation += 1
                        return trees[generation % 2]
                    },
                    run: { try await coordinator.save($0) }
                ))
            generation += 1
            let check = try await coordinator.save(trees[generation % 2])
            guard check.encodedStateCount == 1 else {
                throw BenchmarkFailure("\(storeName): a one-changed save encoded \(check.encodedStateCount) states")
            }
            // The same saves in a row, as many as two of a FileStore's journal cycles: it
            // rewrites its archive file once in 257 small saves (256 journal records, then the
            // file), a rate the alternating blocks, fewer saves, may not reach. The mean of this
            // series counts the rewrites, and the new journal after each, at their real rate.
            let inARow = try await harness.measureSeries(
                count: Self.savesInARow,
                (
                    prepare: { () -> ScreenTree in
                        generation += 1
                        return trees[generation % 2]
                    },
                    run: {
                        let report = try await coordinator.save($0)
                        guard report.encodedStateCount == 1 else {
                            throw BenchmarkFailure(
                                "\(storeName): a one-changed save in a row encoded \(report.encodedStateCount) states")
                        }
                    }
                ))
            log(
                "  \(workload.name) on \(storeName): full save \(format(fullSave.medianNanoseconds / 1e6)) ms,"
                    + " one changed \(format(oneChanged.medianNanoseconds / 1e6)) ms")
            results.append(CoordinatorResult("full save", workload: workload.name, store: storeName, fullSave))
            results.append(CoordinatorResult("one-changed save", workload: workload.name, store: storeName, oneChanged))
            results.append(
                CoordinatorResult(Self.inARowName, workload: workload.name, store: storeName, inARow))
            results.append(
                CoordinatorResult(
                    "one-changed save right after a full save", workload: workload.name, store: storeName,
                    oneChangedAfterFull))
            if storeName == "InMemoryStore" {
                results.append(
                    try await rebuiltSave(workload, hierarchy, full: full, store: store, storeName: storeName))
            }
        }
        return results
    }

    /// (b') The one-changed save again, but of a tree built anew for each save (untimed), which
    /// shares no storage with any tree saved before (as when a UI layer makes a fresh tree from
    /// its own state every time): every screen is visited, none is skipped as unchanged.
    func rebuiltSave(
        _ workload: Workload, _ hierarchy: Hierarchy, full: ScreenTree, store: any RestorationStore, storeName: String
    ) async throws -> CoordinatorResult {
        let screens = hierarchy.declaration
        let coordinator = Coordinator(screens: screens, store: store)
        try await coordinator.save(try Hierarchy(workload).withOneScreenChanged(1))
        let check = try await coordinator.save(try Hierarchy(workload).withOneScreenChanged(2))
        guard check.encodedStateCount == 1, check.reusedStateCount == hierarchy.screenCount - 1 else {
            throw BenchmarkFailure("\(storeName): a save of a rebuilt tree encoded \(check.encodedStateCount) states")
        }
        var generation = 0
        let (_, rebuilt, _, _) = try await harness.measureAlternating(
            (
                prepare: { Coordinator(screens: screens, store: store) },
                run: { try await $0.save(full) }
            ),
            (
                prepare: { () -> ScreenTree in
                    generation += 1
                    return try Hierarchy(workload).withOneScreenChanged(generation % 2 + 1)
                },
                run: { try await coordinator.save($0) }
            ))
        log(
            "  \(workload.name) on \(storeName): one changed, tree rebuilt for each save"
                + " \(format(rebuilt.medianNanoseconds / 1e6)) ms")
        return CoordinatorResult(
            "one-changed save, tree rebuilt for each save", workload: workload.name, store: storeName, rebuilt)
    }

    /// (c) How long `save` holds the main actor: a probe job enqueued on the main
    /// actor just before `await coordinator.save(tree)` runs as soon as the main
    /// actor is free, so its start minus the time before the call is how long the
    /// call kept the main actor.
    func mainActorOccupancy(_ workload: Workload, runs: Int) async throws -> [CoordinatorResult] {
        let hierarchy = try Hierarchy(workload)
        let screens = hierarchy.declaration
        let tree = hierarchy.tree
        let store = fileStore("main-actor")
        let clock = ContinuousClock()
        var held: [Double] = []
        var total: [Double] = []
        for run in 0..<(runs + harness.options.warmUpCount) {
            let coordinator = Coordinator(screens: screens, store: store)
            let start = clock.now
            let probe = Task { @MainActor in clock.now }
            let report = try await coordinator.save(tree)
            let end = clock.now
            let probed = await probe.value
            guard report.encodedStateCount == hierarchy.screenCount else {
                throw BenchmarkFailure("the main-actor probe's save encoded \(report.encodedStateCount) states")
            }
            guard probed <= end else {
                throw BenchmarkFailure("the probe ran after save returned: the main actor was held for the whole save")
            }
            if run >= harness.options.warmUpCount {
                held.append((probed - start).nanoseconds)
                total.append((end - start).nanoseconds)
            }
        }
        func measurement(_ samples: [Double]) -> Measurement {
            Measurement(
                medianNanoseconds: median(samples), meanNanoseconds: mean(samples),
                minimumNanoseconds: samples.min() ?? .nan,
                maximumNanoseconds: samples.max() ?? .nan, iterationsPerBatch: 1, batchCount: samples.count)
        }
        log(
            "  \(workload.name): main actor held \(format(median(held) / 1000)) µs of a"
                + " \(format(median(total) / 1000)) µs save")
        return [
            CoordinatorResult(
                "main actor held during save", workload: workload.name, store: "FileStore", measurement(held)),
            CoordinatorResult(
                "save seen from the main actor", workload: workload.name, store: "FileStore", measurement(total)),
        ]
    }
}

/// An app's model in a launch benchmark: it notes how long after it was made the launch
/// handed it the restored tree.
@MainActor
final class BenchmarkHost: RestorationHost {
    private let made = ContinuousClock.now
    /// How long after the host was made the tree arrived; nil until it did.
    private(set) var handover: Duration?

    var tree: ScreenTree {
        didSet { if handover == nil { handover = ContinuousClock.now - made } }
    }

    init(tree: ScreenTree) {
        self.tree = tree
    }
}

extension CoordinatorBenchmarks {
    /// (d) One keystroke typed into a draft through a window model's state projection,
    /// as a SwiftUI text field bound to it writes: the tree copied and changed, the
    /// changed parts found for the observers, the tree set.
    @MainActor
    func modelKeystroke(_ workload: Workload) throws -> CoordinatorResult {
        let hierarchy = try Hierarchy(workload)
        let model = try RestorationModel(
            coordinator: Coordinator(screens: hierarchy.declaration, store: InMemoryStore()))
        model.tree = hierarchy.tree
        guard let node = model.tree.nodes.first(where: { $0.node.screen is DraftScreen }),
            let draft = model.state(of: DraftScreen.self, at: .node(node.id))
        else { throw BenchmarkFailure("\(workload.name): no draft screen to type into") }
        var typed = 0
        let keystroke = try harness.measure([
            {
                typed &+= 1
                draft.wrappedValue.cursorPosition = typed
            }
        ])[0]
        guard model.tree.screen(DraftScreen.self, at: .node(node.id))?.state.cursorPosition == typed else {
            throw BenchmarkFailure("\(workload.name): the keystrokes did not reach the tree")
        }
        log(
            "  \(workload.name): a keystroke through a model's projection \(format(keystroke.medianNanoseconds / 1000)) µs"
        )
        return CoordinatorResult("keystroke through a model projection", workload: workload.name, store: "-", keystroke)
    }
}
