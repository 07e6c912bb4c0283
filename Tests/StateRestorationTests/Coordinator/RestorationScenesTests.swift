import Foundation
import StateRestoration
import TestScreens
import Testing

/// A delegate that writes its scene's identifier into every archive it saves.
private struct SceneDelegate: RestorationDelegate {
    let sceneIdentifier: String

    func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool {
        try? metadata.set(sceneIdentifier, forKey: "scene")
        return true
    }
}

/// Several scenes over one FileStore: each saves and restores its own hierarchy,
/// and discarding one forgets only its archive.
@Suite struct RestorationScenesTests {
    /// The second window: settings selected, one product pushed.
    private func otherTree() throws -> ScreenTree {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-9", quantity: 5), onto: "browse")
        try tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "us" }
        try tree.selectTab("settings", in: "tabs")
        return tree
    }

    private func makeScenes(in directory: TemporaryDirectory) -> RestorationScenes<DefaultRestorationDelegate> {
        RestorationScenes(screens: Shop.declaration(), store: FileStore(directory: directory.url))
    }

    /// A scene's archive as a store reads it: its file with its journal applied.
    private func archiveBytes(_ scene: String, in directory: TemporaryDirectory) throws -> Data {
        let key = try #require(StoreKey(rawValue: "scene-\(scene)"))
        return try #require(try FileStore(directory: directory.url).read(key))
    }

    @Test("two scenes with different hierarchies are saved and restored independently, each its own tree")
    func independentScenes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Shop.busyTree()
        let second = try otherTree()
        #expect(first != second)
        let saving = makeScenes(in: directory)
        try await saving.coordinator(for: "window-1").save(first)
        try await saving.coordinator(for: "window-2").save(second)
        #expect(try directory.fileNames() == ["scene-window-1.restoration", "scene-window-2.restoration"])

        let relaunched = makeScenes(in: directory)
        let restoredSecond = try await relaunched.coordinator(for: "window-2").launch()
        let restoredFirst = try await relaunched.coordinator(for: "window-1").launch()
        #expect(restoredFirst.report.outcome == .restored)
        #expect(restoredSecond.report.outcome == .restored)
        #expect(restoredFirst.tree == first)
        #expect(restoredSecond.tree == second)
        #expect(restoredSecond.tree.root.selectedChild?.identifier == "settings")
    }

    @Test("saving or launching one scene never changes another scene's archive bytes")
    func savingOneLeavesTheOtherAlone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scenes = makeScenes(in: directory)
        try await scenes.coordinator(for: "window-2").save(try otherTree())
        try await scenes.coordinator(for: "window-1").save(try Shop.busyTree())
        let secondBefore = try archiveBytes("window-2", in: directory)
        let firstBefore = try archiveBytes("window-1", in: directory)

        var tree = try Shop.busyTree()
        for quantity in 1...3 {
            try tree.update(ProductScreen.self, at: "tabs/browse/product#1") { $0.state.quantity = quantity * 10 }
            try await scenes.coordinator(for: "window-1").save(tree)
        }
        _ = try await scenes.coordinator(for: "window-1").launch()

        #expect(try archiveBytes("window-1", in: directory) != firstBefore)
        #expect(try archiveBytes("window-2", in: directory) == secondBefore)
    }

    @Test("a scene's coordinator is made once, with the base configuration and the scene's own key and delegate")
    func coordinatorPerScene() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let base = RestorationConfiguration(appVersion: "3.1 (400)", extensionTimeout: .seconds(7))
        let scenes = RestorationScenes(
            screens: Shop.declaration(), store: FileStore(directory: directory.url), configuration: base
        ) { sceneIdentifier in
            SceneDelegate(sceneIdentifier: sceneIdentifier)
        }
        let coordinator = try scenes.coordinator(for: "window-1")
        #expect(try scenes.coordinator(for: "window-1") === coordinator)
        #expect(try scenes.coordinator(for: "window-2") !== coordinator)
        #expect(coordinator.configuration.storeKey == "scene-window-1")
        #expect(coordinator.configuration.appVersion == "3.1 (400)")
        #expect(coordinator.configuration.extensionTimeout == .seconds(7))
        #expect(coordinator.delegate.sceneIdentifier == "window-1")

        try await coordinator.save(try Shop.busyTree())
        let session = try await scenes.coordinator(for: "window-1").launch()
        let info = try #require(session.report.archiveInfo)
        #expect(info.appVersion == "3.1 (400)")
        #expect(info.metadata.value(String.self, forKey: "scene") == "window-1")
    }

    @Test("saved scenes are listed from the store's keys, without other archives or restoration markers")
    func listsSavedScenes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileStore(directory: directory.url)
        let scenes = RestorationScenes(screens: Shop.declaration(), store: store)
        #expect(try scenes.savedScenes() == [])

        try await scenes.coordinator(for: "window-2").save(try otherTree())
        try await scenes.coordinator(for: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F").save(try Shop.busyTree())
        try await scenes.coordinator(for: "window-1").save(try Shop.busyTree())
        // What else may share the store: a single-window archive, and the marker a
        // coordinator keeps beside a scene's archive while a launch restores it.
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        try store.write(Data("restoring since now".utf8), to: .marker("scene-window-1"))
        try store.write(Data("not an archive".utf8), to: "scenery")

        #expect(try scenes.savedScenes() == ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "window-1", "window-2"])
    }

    @Test("discarding a scene removes its archive and marker; its next launch is fresh, the other still restores")
    func discardScene() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileStore(directory: directory.url)
        let scenes = RestorationScenes(screens: Shop.declaration(), store: store)
        let discarded = try scenes.coordinator(for: "window-1")
        try await discarded.save(try Shop.busyTree())
        try await scenes.coordinator(for: "window-2").save(try otherTree())
        try store.write(Data("restoring since now".utf8), to: .marker("scene-window-1"))

        try await scenes.discardScene("window-1")

        #expect(try directory.fileNames() == ["scene-window-2.restoration"])
        #expect(try scenes.savedScenes() == ["window-2"])
        #expect(try scenes.coordinator(for: "window-1") !== discarded)
        let relaunched = makeScenes(in: directory)
        let fresh = try await relaunched.coordinator(for: "window-1").launch()
        #expect(fresh.report.outcome == .fresh)
        #expect(fresh.report.freshReason?.code == .noArchive)
        #expect(fresh.tree == (try Shop.declaration().makeInitialTree()))
        let kept = try await relaunched.coordinator(for: "window-2").launch()
        #expect(kept.report.outcome == .restored)
        #expect(kept.tree == (try otherTree()))
        // Discarding a scene that has nothing saved does nothing.
        try await scenes.discardScene("window-3")
        #expect(try scenes.savedScenes() == ["window-2"])
    }

    @Test(
        "an identifier that cannot name an archive is a clear error, and nothing is read or removed",
        arguments: [
            ("", "the scene identifier is empty"),
            ("a/b", #""a/b" contains "/"; scene identifiers use only A-Z, a-z, 0-9, ".", "_" and "-""#),
            ("../main", #""../main" contains "/""#),
            ("café", #""café" contains U+00E9"#),
            ("window 1", #""window 1" contains " ""#),
            ("window-1.restoring", #"ends in ".restoring", which names restoration markers"#),
            ("x.rejected-y", #"contains ".rejected-", which names rejected archives"#),
            (String(repeating: "w", count: 95), "has 95 characters; scene identifiers have at most 94"),
        ])
    func invalidIdentifiers(identifier: String, problem: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scenes = makeScenes(in: directory)
        try await scenes.coordinator(for: "window-1").save(try Shop.busyTree())
        for attempt in [
            { _ = try scenes.coordinator(for: identifier) },
            { try await scenes.discardScene(identifier) },
            { _ = try RestorationScenes<DefaultRestorationDelegate>.storeKey(for: identifier) },
        ] as [() async throws -> Void] {
            let error = try await #require(throws: RestorationError.self) { try await attempt() }
            #expect(error.code == .invalidSceneIdentifier)
            #expect(error.message.hasPrefix("invalid scene identifier: "))
            #expect(error.message.contains(problem))
        }
        #expect(try scenes.savedScenes() == ["window-1"])
    }

    @Test("the longest valid identifier and a UUID make valid keys")
    func validIdentifiers() throws {
        typealias Scenes = RestorationScenes<DefaultRestorationDelegate>
        let longest = String(repeating: "w", count: Scenes.maximumIdentifierLength)
        #expect(try Scenes.storeKey(for: longest).rawValue == "scene-" + longest)
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        #expect(try Scenes.storeKey(for: uuid).rawValue == "scene-" + uuid)
        #expect(try Scenes.storeKey(for: ".hidden") == "scene-.hidden")
    }
}
