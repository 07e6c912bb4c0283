import Foundation
@testable import StateRestoration
import Synchronization
import Testing

/// How many times `CountedScreen.State`'s `==` ran, by the run each state carries, so that tests
/// running at once count apart.
private let comparisons = Mutex<[UUID: Int]>([:])

/// A plain screen (a struct, a stored `state`, the default hook) whose state counts comparisons.
private struct CountedScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "counted"
    struct State: Codable, Sendable, Equatable {
        var run: UUID
        var value: Int

        static func == (a: State, b: State) -> Bool {
            comparisons.withLock { $0[a.run, default: 0] += 1 }
            return a.run == b.run && a.value == b.value
        }
    }
    var state: State
}

/// What the UI holds outside the tree, shared by copies of a screen.
private final class LiveValue: @unchecked Sendable {
    private let value = Mutex(0)
    var current: Int {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

private struct NumberState: Codable, Sendable, Equatable {
    var value = 0
}

/// Captures the live value in its will-encode hook, as a screen with an uncommitted text field does.
private struct HookScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "hook"
    var state = NumberState()
    var live = LiveValue()
    init(state: NumberState) { self.state = state }
    init(live: LiveValue) { self.live = live }
    mutating func willEncodeRestorableState() { state.value = live.current }
}

/// Its state is computed from a model it holds: the same screen value, a different state.
private struct ComputedScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "computed"
    var model = LiveValue()
    init(state: NumberState) { model.current = state.value }
    init(model: LiveValue) { self.model = model }
    var state: NumberState {
        get { NumberState(value: model.current) }
        set { model.current = newValue.value }
    }
}

/// A class: the tree holds a reference to an object whose stored state changes in place.
private final class ObjectScreen: RestorableScreen, @unchecked Sendable {
    static let typeKey: ScreenTypeKey = "object"
    var state: NumberState
    init(state: NumberState) { self.state = state }
}

/// Its own hook captures the live value, and calls another type's default hook on the way.
private struct DelegatingHookScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "delegating"
    var state = NumberState()
    var live = LiveValue()
    init(state: NumberState) { self.state = state }
    init(live: LiveValue) { self.live = live }
    mutating func willEncodeRestorableState() {
        var inner = CountedScreen(state: .init(run: UUID(), value: 0))
        inner.willEncodeRestorableState()
        state.value = live.current
    }
}

/// A plain container that preserves both its children, or only the first when the live value
/// is 2: asked on every save.
private struct PickScreen: RestorableContainer {
    static let typeKey: ScreenTypeKey = "pick"
    var state = NumberState()
    var live = LiveValue()
    init(state: NumberState) { self.state = state }
    init(live: LiveValue) { self.live = live }
    func childrenToPreserve(_ children: [String?]) -> [String] {
        live.current == 2 ? ["one"] : ["one", "two"]
    }
}

/// Its requirement `state` comes from a protocol extension, computed from a model; its own
/// stored `state` is another property, of another type.
private protocol ModelBacked: RestorableScreen where State == NumberState {
    var model: LiveValue { get }
}

extension ModelBacked {
    var state: NumberState {
        get { NumberState(value: model.current) }
        set { model.current = newValue.value }
    }
}

private struct ShadowedStateScreen: ModelBacked {
    static let typeKey: ScreenTypeKey = "shadowed"
    var state = 0
    var model = LiveValue()
    init(state: NumberState) { model.current = state.value }
}

/// Lets a test see whether a screen of a saved tree is still alive.
private final class Token: Sendable {}

/// A plain screen that holds something besides its state.
private struct TokenScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "token"
    var state = NumberState()
    var token = Token()
    init(state: NumberState) { self.state = state }
}

@Suite struct UnchangedStorageTests {
    private let savedAt = Date(timeIntervalSince1970: 1_790_000_000)

    private func counted(_ run: UUID, _ value: Int) -> CountedScreen {
        CountedScreen(state: .init(run: run, value: value))
    }

    /// Two stacks of counted screens, each with a screen that can be presented over it.
    private func declaration(_ run: UUID) -> ScreenDeclaration {
        ScreenDeclaration {
            Tabs("tabs", selected: "a") {
                Stack("a", root: counted(run, 0)) {
                    Screen(CountedScreen.self, id: "counted").presents { Screen(CountedScreen.self, id: "sheet") }
                }
                Stack("b", root: counted(run, 100)) {
                    Screen(CountedScreen.self, id: "counted")
                }
            }
        }
    }

    private func tree(_ run: UUID, pushed: Int) throws -> ScreenTree {
        var tree = try declaration(run).makeInitialTree()
        for index in 1...pushed {
            try tree.push(counted(run, index), onto: "a")
            try tree.push(counted(run, 100 + index), onto: "b")
        }
        return tree
    }

    /// The declaration, and a coordinator with a fixed clock saving it to a new store.
    private func declared(
        _ run: UUID
    ) -> (ScreenDeclaration, InMemoryStore, RestorationCoordinator<DefaultRestorationDelegate>) {
        let declaration = declaration(run)
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(
            screens: declaration, store: store, configuration: RestorationConfiguration(now: { savedAt }))
        return (declaration, store, coordinator)
    }

    /// The report and archive of a save by a coordinator that never saved before.
    private func fullSave(_ tree: ScreenTree, _ declaration: ScreenDeclaration) async throws -> (SaveReport, Data) {
        let store = InMemoryStore()
        let report = try await RestorationCoordinator(
            screens: declaration, store: store, configuration: RestorationConfiguration(now: { savedAt })
        ).save(tree)
        return (report, try #require(try store.read(.main)))
    }

    @Test("children in the storage the previous save saw are not walked again; the save is a full save's")
    func unchangedStorageIsNotWalked() async throws {
        let run = UUID()
        let (declaration, store, coordinator) = declared(run)
        var tree = try tree(run, pushed: 3)
        try await coordinator.save(tree)

        try tree.update(CountedScreen.self, at: "tabs/a/counted#2") { $0.state.value = 42 }
        comparisons.withLock { $0[run] = 0 }
        let report = try await coordinator.save(tree)
        // Stack a's four states were compared (one differed); stack b was the same storage.
        #expect(comparisons.withLock { $0[run] } == 4)
        #expect(report.encodedStateCount == 1)
        #expect(report.reusedStateCount == 7)

        let (full, bytes) = try await fullSave(tree, declaration)
        #expect(report.savedPaths == full.savedPaths)
        #expect(report.stateSizes == full.stateSizes)
        #expect(try store.read(.main) == bytes)
        #expect(try await RestorationCoordinator(screens: declaration, store: store).launch().tree == tree)
    }

    @Test("every kind of change under unchanged storage elsewhere writes what a full save writes")
    func changesAgainstFullSaves() async throws {
        let run = UUID()
        let (declaration, store, coordinator) = declared(run)
        var tree = try tree(run, pushed: 3)
        try await coordinator.save(tree)
        let steps: [(String, (inout ScreenTree) throws -> Void)] = [
            ("update in b", { try $0.update(CountedScreen.self, at: "tabs/b/counted#1") { $0.state.value = 7 } }),
            ("push onto a", { try $0.push(self.counted(run, 9), onto: "a") }),
            ("present over a", { try $0.present(self.counted(run, 5), over: "tabs/a/counted#2") }),
            ("update the sheet", { try $0.update(CountedScreen.self, at: "sheet") { $0.state.value = 6 } }),
            (
                "update b, the sheet up",
                { try $0.update(CountedScreen.self, at: "tabs/b/counted#2") { $0.state.value = 8 } }
            ),
            (
                "update below the sheet",
                { try $0.update(CountedScreen.self, at: "tabs/a/counted#1") { $0.state.value = 4 } }
            ),
            ("dismiss", { try $0.dismiss(from: "tabs/a/counted#2") }),
            ("pop from b", { try $0.pop(from: "b") }),
            ("select b", { try $0.selectTab("b", in: "tabs") }),
            ("change back", { try $0.update(CountedScreen.self, at: "tabs/b/counted#1") { $0.state.value = 101 } }),
            ("nothing", { _ in }),
        ]
        for (name, step) in steps {
            try step(&tree)
            let report = try await coordinator.save(tree)
            let (full, bytes) = try await fullSave(tree, declaration)
            #expect(try store.read(.main) == bytes, "after \(name)")
            #expect(report.savedPaths == full.savedPaths, "after \(name)")
            #expect(report.stateSizes == full.stateSizes, "after \(name)")
            #expect(report.encodedStateCount + report.reusedStateCount == full.encodedStateCount, "after \(name)")
        }
        #expect(try await RestorationCoordinator(screens: declaration, store: store).launch().tree == tree)
    }

    @Test("a report read after later saves lists what its own save wrote; a list set on a copy stays with it")
    func reportsKeepTheirOwnLists() async throws {
        let run = UUID()
        let (declaration, _, coordinator) = declared(run)
        var tree = try tree(run, pushed: 2)
        let first = try await coordinator.save(tree)
        let (firstFull, _) = try await fullSave(tree, declaration)
        try tree.push(counted(run, 9), onto: "a")
        // A longer varint: the state's size changes.
        try tree.update(CountedScreen.self, at: "tabs/b/counted#1") { $0.state.value = 123_456_789 }
        let second = try await coordinator.save(tree)
        let (secondFull, _) = try await fullSave(tree, declaration)

        // The first report's lists are made only now, after the second save reused its nodes.
        #expect(first.savedPaths == firstFull.savedPaths)
        #expect(first.stateSizes == firstFull.stateSizes)
        #expect(second.savedPaths == secondFull.savedPaths)
        #expect(second.stateSizes == secondFull.stateSizes)
        #expect(second.savedPaths.count == first.savedPaths.count + 1)
        let changed = { (report: SaveReport) in report.stateSizes.first { $0.path == "tabs/b/counted#1" }?.byteCount }
        #expect(try #require(changed(second)) > #require(changed(first)))

        var edited = first
        edited.savedPaths.append("extra")
        edited.stateSizes.removeAll()
        #expect(edited.savedPaths == firstFull.savedPaths + ["extra"])
        #expect(edited.stateSizes.isEmpty)
        #expect(first.savedPaths == firstFull.savedPaths)
        #expect(first.stateSizes == firstFull.stateSizes)
        #expect(edited != first)
    }

    @Test("a report lists a node, its children in order, then what it presents, as the tree walks them")
    func reportOrderWithPresentedOverChildren() async throws {
        let run = UUID()
        let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "a") {
                Stack("a", root: counted(run, 0)) {
                    Screen(CountedScreen.self, id: "counted")
                }
                .presents { Screen(CountedScreen.self, id: "modal") }
                Stack("b", root: counted(run, 100)) {}
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.push(counted(run, 1), onto: "a")
        try tree.push(counted(run, 2), onto: "a")
        try tree.present(counted(run, 5), over: "tabs/a")
        let coordinator = RestorationCoordinator(screens: declaration, store: InMemoryStore())
        let first = try await coordinator.save(tree)
        try tree.update(CountedScreen.self, at: "tabs/b/counted#0") { $0.state.value = 7 }
        let second = try await coordinator.save(tree)
        #expect(second.encodedStateCount == 1)
        for report in [first, second] {
            #expect(report.savedPaths == tree.restorablePaths)
            let components = report.savedPaths.map { $0.components.dropFirst().joined(separator: "/") }
            let modal = try #require(components.firstIndex { $0.hasSuffix("modal") })
            let stackB = try #require(components.firstIndex(of: "b"))
            // After stack a and its three screens, before stack b.
            #expect(components[modal - 4] == "a" && modal == stackB - 1, "\(components)")
            #expect(report.stateSizes.map(\.path) == report.savedPaths.filter { $0.components.count > 2 })
        }
        var appended = second
        for index in 0..<1_000 { appended.savedPaths.append(IdentifierPath(["extra", "\(index)"])) }
        #expect(appended.savedPaths.count == second.savedPaths.count + 1_000)
        #expect(second.savedPaths == tree.restorablePaths)
    }

    @Test("a report's == covers every stored property: a new one fails here until == compares it")
    func reportEqualityCoversItsProperties() {
        // The properties `SaveReport.==` compares, or reads through (`hierarchy` and the
        // `assigned` lists are what `savedPaths` and `stateSizes` read).
        let compared: Set = [
            "saved", "skipped", "byteCount", "encodedStateCount", "reusedStateCount", "budgetWarnings", "hierarchy",
            "assignedPaths", "assignedSizes",
        ]
        let stored = Set(Mirror(reflecting: SaveReport(saved: true)).children.compactMap(\.label))
        #expect(stored == compared)
    }

    @Test("a screen whose state is not a stored value is read again on every save, even in unchanged storage")
    func notPlainScreensAreAlwaysRead() async throws {
        let hookLive = LiveValue()
        let delegatingLive = LiveValue()
        let model = LiveValue()
        let object = ObjectScreen(state: NumberState())
        // Each alone on a stack, whose children would otherwise be skipped as unchanged.
        let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "hook") {
                Stack("hook", root: HookScreen(live: hookLive)) {}
                Stack("computed", root: ComputedScreen(model: model)) {}
                Stack("object", root: object) {}
                Stack("delegating", root: DelegatingHookScreen(live: delegatingLive)) {}
            }
        }
        let tree = try declaration.makeInitialTree()
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: declaration, store: store)
        // Twice: the second save finds each type already probed.
        for round in 1...2 {
            hookLive.current = round * 10 + 1
            model.current = round * 10 + 2
            object.state.value = round * 10 + 3
            delegatingLive.current = round * 10 + 4
            let report = try await coordinator.save(tree)
            if round == 2 { #expect(report.encodedStateCount == 2) }
            let restored = try await RestorationCoordinator(screens: declaration, store: store).launch().tree
            #expect(restored.screen(ComputedScreen.self, at: "tabs/computed/computed#0")?.state.value == round * 10 + 2)
            #expect(restored.screen(ObjectScreen.self, at: "tabs/object/object#0")?.state.value == round * 10 + 3)
        }
    }

    @Test("which screen types are plain values")
    func plainTypes() {
        var counted = CountedScreen(state: .init(run: UUID(), value: 1))
        var computed = ComputedScreen(state: NumberState())
        var object = ObjectScreen(state: NumberState())
        var shadowed = ShadowedStateScreen(state: NumberState())
        for _ in 1...2 {
            #expect(!PlainScreenTypes.willEncode(&shadowed))
            #expect(PlainScreenTypes.willEncode(&counted))
            #expect(!PlainScreenTypes.willEncode(&computed))
            #expect(!PlainScreenTypes.willEncode(&object))
        }
    }

    @Test("a node skipped under unchanged storage is reported on every save")
    func skippedNodesStayReported() async throws {
        let run = UUID()
        let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "a") {
                Stack("a", root: counted(run, 0)) {
                    Screen(CountedScreen.self)  // no identifier: never saved
                }
                Stack("b", root: counted(run, 1)) {}
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.push(counted(run, 2), onto: "a")
        let coordinator = RestorationCoordinator(screens: declaration, store: InMemoryStore())
        let first = try await coordinator.save(tree)
        let second = try await coordinator.save(tree)
        #expect(first.skipped.map(\.reason) == [.noIdentifier])
        #expect(second.skipped == first.skipped)
        #expect(second.savedPaths == first.savedPaths)
    }

    @Test("a custom container is asked which children to preserve on every save, even in unchanged storage")
    func containersAreAlwaysAsked() async throws {
        let run = UUID()
        let live = LiveValue()
        live.current = 1
        let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "pick") {
                Container(PickScreen(live: live), id: "pick") {
                    Screen(CountedScreen.self, id: "pane")
                }
                Stack("b", root: counted(run, 1)) {}
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.addChild(counted(run, 10), id: "one", to: "pick")
        try tree.addChild(counted(run, 20), id: "two", to: "pick")
        let coordinator = RestorationCoordinator(screens: declaration, store: InMemoryStore())
        let first = try await coordinator.save(tree)
        #expect(first.savedPaths.contains("tabs/pick/one") && first.savedPaths.contains("tabs/pick/two"))
        #expect(first.skipped.isEmpty)
        live.current = 2
        let second = try await coordinator.save(tree)
        #expect(second.savedPaths.contains("tabs/pick/one") && !second.savedPaths.contains("tabs/pick/two"))
        #expect(second.skipped.map(\.reason) == [.notPreserved])
    }

    @Test("a save keeps alive no screens but those of the tree it last saw")
    func oldTreesAreReleased() async throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "a") {
                Stack("a", root: TokenScreen(state: NumberState())) {
                    Screen(TokenScreen.self, id: "token")
                }
                Stack("b", root: TokenScreen(state: NumberState())) {}
            }
        }
        func build() throws -> ScreenTree {
            var tree = try declaration.makeInitialTree()
            try tree.push(TokenScreen(state: NumberState(value: 1)), onto: "a")
            return tree
        }
        let coordinator = RestorationCoordinator(screens: declaration, store: InMemoryStore())
        weak var firstToken: Token?
        do {
            let first = try build()
            firstToken = first.screen(TokenScreen.self, at: "tabs/a/token#1")?.token
            try await coordinator.save(first)
        }
        #expect(firstToken != nil)  // the entries keep the saved tree's storage, to compare
        // A tree built anew, equal to the first: every node unchanged, in other storage.
        let second = try build()
        let report = try await coordinator.save(second)
        #expect(report.encodedStateCount == 0)
        #expect(firstToken == nil)
        withExtendedLifetime(second) {}
    }
}
