import Foundation
import StateRestoration
import StateRestorationTesting
import Synchronization
import TestScreens
import Testing

@Suite struct RestorationHarnessTests {
    @Test("a whole hierarchy comes back equal in one call")
    func roundTrip() async throws {
        let tree = try TestApp.busyTree()
        let relaunched = try await RestorationHarness(screens: TestApp.declaration).relaunch(saving: tree)
        #expect(relaunched.tree == tree)
        #expect(relaunched.report.outcome == .restored)
        #expect(relaunched.report.skipped.isEmpty)
        #expect(relaunched.saveReport?.savedPaths == tree.restorablePaths)
        #expect(relaunched.tree.screen(ComposeScreen.self, at: "tabs/browse/product#2/compose")?.state.body == "Is it")
    }

    @Test("the relaunch differs from the saved tree when the restore loses something")
    func detectsLoss() async throws {
        // A declaration without the container: its saved subtree cannot come back.
        let smaller = ScreenDeclaration {
            Tabs("tabs", selected: "browse") {
                Stack("browse", root: SearchScreen()) {
                    Screen(ProductScreen.self, id: "product").presents { Screen(ComposeScreen.self, id: "compose") }
                }
                Screen(SettingsScreen(), id: "settings")
            }
        }
        let relaunched = try await RestorationHarness(screens: smaller).relaunch(
            savingWith: TestApp.declaration, tree: try TestApp.busyTree())
        #expect(relaunched.tree != (try TestApp.busyTree()))
        #expect(relaunched.report.skipped.map(\.path) == ["tabs/split", "tabs/split/note"])
    }

    @Test("the delegate's calls of both processes are recorded in UIKit's order")
    func lifecycle() async throws {
        var tree = try TestApp.declaration.makeInitialTree()
        try tree.push(ProductScreen(state: .init(productID: "p-1")), onto: "browse")
        let relaunched = try await RestorationHarness(screens: TestApp.declaration).relaunch(saving: tree)
        #expect(
            relaunched.lifecycle.map(\.description) == [
                "should-save", "will-encode",
                "will-finish-launching", "should-restore",
                "make tabs/browse/search#0", "make tabs/browse/product#1", "make tabs/settings", "make tabs/split",
                "did-decode (no app state)", "did-finish-launching restored",
            ])
    }

    @Test("the wrapped delegate still decides: its answers and app state pass through the recorder")
    func delegateAnswersPassThrough() async throws {
        struct Refusing: RestorationDelegate {
            struct AppState: Codable, Sendable { var cart: Int }
            func shouldRestore(_ archive: ArchiveInfo) async -> Bool { archive.appVersion == "2.0" }
            func willEncodeRestorableState() async -> AppState? { AppState(cart: 3) }
        }
        var harness = RestorationHarness(
            screens: TestApp.declaration, configuration: RestorationConfiguration(appVersion: "1.0")
        ) { Refusing() }
        let tree = try TestApp.busyTree()
        let refused = try await harness.relaunch(saving: tree)
        #expect(refused.report.freshReason?.code == .declinedByDelegate)
        #expect(refused.lifecycle.contains(.shouldRestore(false)))

        harness.configuration.appVersion = "2.0"
        let accepted = try await harness.relaunch(saving: tree)
        #expect(accepted.tree == tree)
        #expect(accepted.lifecycle.contains(.didDecodeRestorableState(hasAppState: true)))
    }

    @Test("every process gets a new coordinator, delegate and store; only the storage is shared")
    func nothingSharedButStorage() async throws {
        final class CountingDelegate: RestorationDelegate {
            static let made = Mutex(0)
            let number: Int
            init() {
                number = Self.made.withLock {
                    $0 += 1; return $0
                }
            }
        }
        let storage = InMemoryStore.Storage()
        let harness = RestorationHarness(screens: TestApp.declaration, storage: .inMemory(storage)) {
            CountingDelegate()
        }
        let before = CountingDelegate.made.withLock { $0 }
        let first = try await harness.relaunch(saving: try TestApp.busyTree())
        let second = try await harness.relaunch(saving: first.tree)
        // Four processes: two saves, two launches, each with its own delegate.
        #expect(CountingDelegate.made.withLock { $0 } - before == 4)
        #expect(first.coordinator.delegate.wrapped.number != second.coordinator.delegate.wrapped.number)
        #expect(first.coordinator !== second.coordinator)
        let firstStore = try #require(first.coordinator.store as? InMemoryStore)
        let secondStore = try #require(second.coordinator.store as? InMemoryStore)
        #expect(firstStore !== secondStore)
        #expect(firstStore.storage === storage && secondStore.storage === storage)
    }

    @Test("a launch reads only the storage: a property outside the state is gone, an emptied storage is a fresh launch")
    func readsOnlyStorage() async throws {
        var tree = try TestApp.declaration.makeInitialTree()
        try tree.update(SearchScreen.self, at: "search#0") {
            $0.state.query = "milk"
            $0.cachedResults = ["oat", "soy"]
        }
        let storage = InMemoryStore.Storage()
        let harness = RestorationHarness(screens: TestApp.declaration, storage: .inMemory(storage))
        let relaunched = try await harness.relaunch(saving: tree)
        let search = try #require(relaunched.tree.screen(SearchScreen.self, at: "search#0"))
        #expect(search.state.query == "milk")
        #expect(search.cachedResults == nil)

        try await harness.save(tree)
        try InMemoryStore(storage: storage).remove(.main)
        let emptied = try await harness.launch()
        #expect(emptied.report.freshReason?.code == .noArchive)
        #expect(
            emptied.lifecycle.map(\.description) == [
                "will-finish-launching", "did-finish-launching fresh",
            ])
    }

    @Test("a FileStore over one directory round-trips too, through the file on disk")
    func directoryStorage() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("harness-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = RestorationHarness(screens: TestApp.declaration, storage: .directory(directory))
        let tree = try TestApp.busyTree()
        let relaunched = try await harness.relaunch(saving: tree)
        #expect(relaunched.tree == tree)
        #expect(relaunched.coordinator.store is FileStore)
        let onDisk = try Data(contentsOf: FileStore(directory: directory).fileURL(for: .main))
        #expect(try harness.storedArchive() == onDisk)
    }

    @Test("the relaunched coordinator carries on: its next save is what the following launch restores")
    func relaunchedCoordinatorSaves() async throws {
        let harness = RestorationHarness(screens: TestApp.declaration)
        var relaunched = try await harness.relaunch(saving: try TestApp.busyTree())
        try relaunched.tree.pop(from: "browse")
        try await relaunched.coordinator.save(relaunched.tree)
        let next = try await harness.launch()
        #expect(next.tree == relaunched.tree)
        #expect(next.tree.node(at: "tabs/browse")?.children.count == 2)
    }
}
