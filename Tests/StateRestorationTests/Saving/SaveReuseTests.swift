import Foundation
import StateRestoration
import Synchronization
import Testing

private struct NumberState: Codable, Sendable, Equatable {
    var value = 0
}

/// A plain screen: a struct with a stored state and the default hook.
private struct CountedScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "counted"
    var state: NumberState
}

/// Another screen type with the same state type, to put at a path a `CountedScreen` had.
private struct OtherScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "other"
    var state: NumberState
}

/// The state version `VersionedScreen` declares, changed by the test that uses it.
private let currentVersion = Atomic(1)

/// A screen whose state version a test changes between two saves.
private struct VersionedScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "versioned"
    static var stateVersion: Int { currentVersion.load(ordering: .relaxed) }
    var state: NumberState
}

/// Its state's `==` ignores `note`, against the documented contract.
private struct LaxScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "lax"
    struct State: Codable, Sendable, Equatable {
        var value = 0
        var note = ""

        static func == (a: State, b: State) -> Bool { a.value == b.value }
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

/// A container that preserves both its children, or only the first when the live value is 2:
/// asked on every save.
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

/// A plain container, whose children a test replaces.
private struct BoxScreen: RestorableContainer {
    static let typeKey: ScreenTypeKey = "box"
    var state = NumberState()
}

/// Lets a test see whether a screen of a saved tree is still alive.
private final class Token: Sendable {}

/// A screen that holds something besides its state.
private struct TokenScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "token"
    var state = NumberState()
    var token = Token()
    init(state: NumberState) { self.state = state }
}

/// A save reuses the previous save's encodings where the values are equal, and writes what a
/// save by a new coordinator writes.
@Suite struct SaveReuseTests {
    private let savedAt = Date(timeIntervalSince1970: 1_790_000_000)

    private func counted(_ value: Int) -> CountedScreen {
        CountedScreen(state: NumberState(value: value))
    }

    /// Tabs of `stacks` stacks of counted screens; the first stack's screens can present a sheet.
    private func declaration(stacks: Int = 2) -> ScreenDeclaration {
        ScreenDeclaration {
            Tabs("tabs", selected: "s0") {
                for stack in 0..<stacks {
                    Stack("s\(stack)", root: counted(100 * stack)) {
                        Screen(CountedScreen.self, id: "counted").presents { Screen(CountedScreen.self, id: "sheet") }
                    }
                }
            }
        }
    }

    /// The declaration's tree with `pushed` screens pushed onto each stack.
    private func tree(_ declaration: ScreenDeclaration, stacks: Int = 2, pushed: Int) throws -> ScreenTree {
        var tree = try declaration.makeInitialTree()
        for stack in 0..<stacks {
            for index in 1...pushed { try tree.push(counted(100 * stack + index), onto: NodeReference("s\(stack)")) }
        }
        return tree
    }

    /// A coordinator with a fixed clock saving to a new store.
    private func coordinator(
        _ declaration: ScreenDeclaration
    ) -> (InMemoryStore, RestorationCoordinator<DefaultRestorationDelegate>) {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(
            screens: declaration, store: store, configuration: RestorationConfiguration(now: { savedAt }))
        return (store, coordinator)
    }

    /// The report and archive of a save by a coordinator that never saved before.
    private func fullSave(_ tree: ScreenTree, _ declaration: ScreenDeclaration) async throws -> (SaveReport, Data) {
        let (store, coordinator) = coordinator(declaration)
        let report = try await coordinator.save(tree)
        return (report, try #require(try store.read(.main)))
    }

    /// Saves `tree`, expects the report's counts, and the archive a new coordinator writes.
    private func expectSave(
        _ tree: ScreenTree, by coordinator: RestorationCoordinator<DefaultRestorationDelegate>,
        into store: InMemoryStore, _ declaration: ScreenDeclaration, encoded: Int, reused: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let report = try await coordinator.save(tree)
        #expect(report.encodedStateCount == encoded, sourceLocation: sourceLocation)
        #expect(report.reusedStateCount == reused, sourceLocation: sourceLocation)
        let (_, full) = try await fullSave(tree, declaration)
        #expect(try store.read(.main) == full, sourceLocation: sourceLocation)
    }

    @Test("a save of 500 screens where one changed encodes that one and reuses the 499 others")
    func oneChangedOfMany() async throws {
        let declaration = declaration(stacks: 4)
        let (store, coordinator) = coordinator(declaration)
        var tree = try tree(declaration, stacks: 4, pushed: 124)
        let first = try await coordinator.save(tree)
        #expect(first.encodedStateCount == 500)
        #expect(first.reusedStateCount == 0)

        try tree.update(CountedScreen.self, at: "tabs/s2/counted#77") { $0.state.value = -1 }
        try await expectSave(tree, by: coordinator, into: store, declaration, encoded: 1, reused: 499)

        // A tree built anew, equal to the saved one, shares nothing with it: reused all the same.
        var rebuilt = try self.tree(declaration, stacks: 4, pushed: 124)
        try rebuilt.update(CountedScreen.self, at: "tabs/s2/counted#77") { $0.state.value = -1 }
        let third = try await coordinator.save(rebuilt)
        #expect(third.encodedStateCount == 0)
        #expect(third.reusedStateCount == 500)
    }

    @Test(
        "a save after three or more screens were pushed since the previous one writes them, instead of crashing the app and losing everything since that save",
        arguments: [1, 3, 4, 9])
    func stackGrewSincePreviousSave(pushed: Int) async throws {
        let declaration = declaration()
        let (store, coordinator) = coordinator(declaration)
        var tree = try declaration.makeInitialTree()
        try await coordinator.save(tree)

        for index in 1...pushed { try tree.push(counted(index), onto: "s0") }
        try await expectSave(tree, by: coordinator, into: store, declaration, encoded: pushed, reused: 2)
        let restored = try await RestorationCoordinator(screens: declaration, store: store).launch()
        #expect(restored.tree == tree)

        // And back down: the stack shrinks below what the previous save held.
        try tree.popToRoot(of: "s0")
        try await expectSave(tree, by: coordinator, into: store, declaration, encoded: 0, reused: 2)
    }

    @Test("a state changed and changed back between two saves is reused; after a save in between it is encoded")
    func changedAndChangedBack() async throws {
        let declaration = declaration()
        let (store, coordinator) = coordinator(declaration)
        var tree = try tree(declaration, pushed: 3)
        try await coordinator.save(tree)
        let saved = try store.read(.main)

        try tree.update(CountedScreen.self, at: "tabs/s0/counted#2") { $0.state.value = 42 }
        try tree.update(CountedScreen.self, at: "tabs/s0/counted#2") { $0.state.value = 2 }
        let back = try await coordinator.save(tree)
        #expect(back.encodedStateCount == 0)
        #expect(back.reusedStateCount == 8)
        #expect(try store.read(.main) == saved)

        try tree.update(CountedScreen.self, at: "tabs/s0/counted#2") { $0.state.value = 42 }
        #expect(try await coordinator.save(tree).encodedStateCount == 1)
        try tree.update(CountedScreen.self, at: "tabs/s0/counted#2") { $0.state.value = 2 }
        #expect(try await coordinator.save(tree).encodedStateCount == 1)
        #expect(try store.read(.main) == saved)
    }

    @Test("another screen type at the same path, with an equal state, is encoded again")
    func otherTypeAtSamePath() async throws {
        let declaration = ScreenDeclaration {
            Container(BoxScreen(), id: "box") {
                Screen(CountedScreen.self)
                Screen(OtherScreen.self)
            }
        }
        let (store, coordinator) = coordinator(declaration)
        var tree = try declaration.makeInitialTree()
        try tree.addChild(counted(5), id: "pane", to: "box")
        try await coordinator.save(tree)

        try tree.removeChild("pane", from: "box")
        try tree.addChild(OtherScreen(state: NumberState(value: 5)), id: "pane", to: "box")
        // The box's own state is reused.
        try await expectSave(tree, by: coordinator, into: store, declaration, encoded: 1, reused: 1)
        let restored = try await RestorationCoordinator(screens: declaration, store: store).launch().tree
        #expect(restored.screen(OtherScreen.self, at: "box/pane")?.state.value == 5)
    }

    @Test("an equal state under a new state version is encoded again")
    func stateVersionChange() async throws {
        let declaration = ScreenDeclaration {
            Stack("stack", root: VersionedScreen(state: NumberState(value: 3))) {}
        }
        let (store, coordinator) = coordinator(declaration)
        let tree = try declaration.makeInitialTree()
        currentVersion.store(1, ordering: .relaxed)
        try await coordinator.save(tree)
        #expect(try await coordinator.save(tree).reusedStateCount == 1)

        currentVersion.store(2, ordering: .relaxed)
        try await expectSave(tree, by: coordinator, into: store, declaration, encoded: 1, reused: 0)
    }

    @Test("a screen moved to another path is encoded again, though an equal state was saved elsewhere")
    func movedToAnotherPath() async throws {
        let declaration = declaration()
        let (store, coordinator) = coordinator(declaration)
        var tree = try tree(declaration, pushed: 2)
        try await coordinator.save(tree)

        let moved = try tree.pop(from: "s0")
        try tree.push(try #require(moved.screen as? CountedScreen), onto: "s1")
        try await expectSave(tree, by: coordinator, into: store, declaration, encoded: 1, reused: 5)
        let restored = try await RestorationCoordinator(screens: declaration, store: store).launch().tree
        #expect(restored.screen(CountedScreen.self, at: "tabs/s1/counted#3")?.state.value == 2)
    }

    @Test("a state whose == ignores a field does not save a change of that field alone, as documented")
    func customEqualityContract() async throws {
        let declaration = ScreenDeclaration {
            Stack("stack", root: LaxScreen(state: .init(value: 1, note: "first"))) {}
        }
        let (store, coordinator) = coordinator(declaration)
        var tree = try declaration.makeInitialTree()
        try await coordinator.save(tree)

        try tree.update(LaxScreen.self, at: "stack/lax#0") { $0.state.note = "second" }
        let unsaved = try await coordinator.save(tree)
        #expect(unsaved.encodedStateCount == 0)
        var restored = try await RestorationCoordinator(screens: declaration, store: store).launch().tree
        #expect(restored.screen(LaxScreen.self, at: "stack/lax#0")?.state.note == "first")

        try tree.update(LaxScreen.self, at: "stack/lax#0") { $0.state.value = 2 }
        #expect(try await coordinator.save(tree).encodedStateCount == 1)
        restored = try await RestorationCoordinator(screens: declaration, store: store).launch().tree
        #expect(restored.screen(LaxScreen.self, at: "stack/lax#0")?.state.value == 2)
        #expect(restored.screen(LaxScreen.self, at: "stack/lax#0")?.state.note == "second")
    }

    @Test("every kind of change writes what a full save writes")
    func changesAgainstFullSaves() async throws {
        let declaration = declaration()
        let (store, coordinator) = coordinator(declaration)
        var tree = try tree(declaration, pushed: 3)
        try await coordinator.save(tree)
        let steps: [(String, (inout ScreenTree) throws -> Void)] = [
            ("update in s1", { try $0.update(CountedScreen.self, at: "tabs/s1/counted#1") { $0.state.value = 7 } }),
            ("push onto s0", { try $0.push(self.counted(9), onto: "s0") }),
            ("present over s0", { try $0.present(self.counted(5), over: "tabs/s0/counted#2") }),
            ("update the sheet", { try $0.update(CountedScreen.self, at: "sheet") { $0.state.value = 6 } }),
            (
                "update s1, the sheet up",
                { try $0.update(CountedScreen.self, at: "tabs/s1/counted#2") { $0.state.value = 8 } }
            ),
            (
                "update below the sheet",
                { try $0.update(CountedScreen.self, at: "tabs/s0/counted#1") { $0.state.value = 4 } }
            ),
            ("dismiss", { try $0.dismiss(from: "tabs/s0/counted#2") }),
            ("pop from s1", { try $0.pop(from: "s1") }),
            ("select s1", { try $0.selectTab("s1", in: "tabs") }),
            ("change back", { try $0.update(CountedScreen.self, at: "tabs/s1/counted#1") { $0.state.value = 101 } }),
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
        let declaration = declaration()
        let (_, coordinator) = coordinator(declaration)
        var tree = try tree(declaration, pushed: 2)
        let first = try await coordinator.save(tree)
        let (firstFull, _) = try await fullSave(tree, declaration)
        try tree.push(counted(9), onto: "s0")
        // A longer varint: the state's size changes.
        try tree.update(CountedScreen.self, at: "tabs/s1/counted#1") { $0.state.value = 123_456_789 }
        let second = try await coordinator.save(tree)
        let (secondFull, _) = try await fullSave(tree, declaration)

        // The first report's lists are made only now, after the second save reused its nodes.
        #expect(first.savedPaths == firstFull.savedPaths)
        #expect(first.stateSizes == firstFull.stateSizes)
        #expect(second.savedPaths == secondFull.savedPaths)
        #expect(second.stateSizes == secondFull.stateSizes)
        #expect(second.savedPaths.count == first.savedPaths.count + 1)
        let changed = { (report: SaveReport) in report.stateSizes.first { $0.path == "tabs/s1/counted#1" }?.byteCount }
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
        let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "a") {
                Stack("a", root: counted(0)) {
                    Screen(CountedScreen.self, id: "counted")
                }
                .presents { Screen(CountedScreen.self, id: "modal") }
                Stack("b", root: counted(100)) {}
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.push(counted(1), onto: "a")
        try tree.push(counted(2), onto: "a")
        try tree.present(counted(5), over: "tabs/a")
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

    @Test("a state that lives outside the tree (a hook, a model, a class) is read again on every save")
    func statesOutsideTheTreeAreReadAgain() async throws {
        let hookLive = LiveValue()
        let model = LiveValue()
        let object = ObjectScreen(state: NumberState())
        let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "hook") {
                Stack("hook", root: HookScreen(live: hookLive)) {}
                Stack("computed", root: ComputedScreen(model: model)) {}
                Stack("object", root: object) {}
            }
        }
        // The app's save: the hook captures into the host's tree on the main actor.
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(screens: declaration, store: store)
        let host = try await TreeHost.launched(by: coordinator)
        for round in 1...2 {
            hookLive.current = round * 10 + 1
            model.current = round * 10 + 2
            object.state.value = round * 10 + 3
            let report = try await coordinator.save(host)
            #expect(report.encodedStateCount == 3)
            let restored = try await RestorationCoordinator(screens: declaration, store: store).launch().tree
            #expect(restored.screen(HookScreen.self, at: "tabs/hook/hook#0")?.state.value == round * 10 + 1)
            #expect(restored.screen(ComputedScreen.self, at: "tabs/computed/computed#0")?.state.value == round * 10 + 2)
            #expect(restored.screen(ObjectScreen.self, at: "tabs/object/object#0")?.state.value == round * 10 + 3)
        }
    }

    @Test("a node skipped for want of an identifier is reported on every save")
    func skippedNodesStayReported() async throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "a") {
                Stack("a", root: counted(0)) {
                    Screen(CountedScreen.self)  // no identifier: never saved
                }
                Stack("b", root: counted(1)) {}
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.push(counted(2), onto: "a")
        let coordinator = RestorationCoordinator(screens: declaration, store: InMemoryStore())
        let first = try await coordinator.save(tree)
        let second = try await coordinator.save(tree)
        #expect(first.skipped.map(\.reason) == [.noIdentifier])
        #expect(second.skipped == first.skipped)
        #expect(second.savedPaths == first.savedPaths)
    }

    @Test("a custom container is asked which children to preserve on every save")
    func containersAreAlwaysAsked() async throws {
        let live = LiveValue()
        live.current = 1
        let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "pick") {
                Container(PickScreen(live: live), id: "pick") {
                    Screen(CountedScreen.self, id: "pane")
                }
                Stack("b", root: counted(1)) {}
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.addChild(counted(10), id: "one", to: "pick")
        try tree.addChild(counted(20), id: "two", to: "pick")
        let coordinator = RestorationCoordinator(screens: declaration, store: InMemoryStore())
        let first = try await coordinator.save(tree)
        #expect(first.savedPaths.contains("tabs/pick/one") && first.savedPaths.contains("tabs/pick/two"))
        #expect(first.skipped.isEmpty)
        live.current = 2
        let second = try await coordinator.save(tree)
        #expect(second.savedPaths.contains("tabs/pick/one") && !second.savedPaths.contains("tabs/pick/two"))
        #expect(second.skipped.map(\.reason) == [.notPreserved])
    }

    @Test("a coordinator keeps the states it saved, not the screens")
    func screensAreReleased() async throws {
        let declaration = ScreenDeclaration {
            Stack("a", root: TokenScreen(state: NumberState())) {
                Screen(TokenScreen.self, id: "token")
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
            firstToken = first.screen(TokenScreen.self, at: "a/token#1")?.token
            try await coordinator.save(first)
        }
        #expect(firstToken == nil)
        let report = try await coordinator.save(try build())
        #expect(report.encodedStateCount == 0)
        #expect(report.reusedStateCount == 2)
    }
}
