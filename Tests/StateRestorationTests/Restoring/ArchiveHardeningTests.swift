import Foundation
import Synchronization
import StateRestoration
import TestScreens
import Testing

@Suite struct ArchiveHardeningTests {
    /// Seals an archive body made from the model, as a save would.
    private func sealed(_ archive: RestorationArchive) throws -> Data {
        ArchiveEnvelope.seal(try ArchiveEncoder().encode(archive), formatVersion: RestorationArchive.formatVersion)
    }

    @Test("a save date no save could write is rejected by name, never trapped on", arguments: [-1e300, 1e300, -1.0])
    func implausibleSaveDate(_ seconds: Double) async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        let body = try #require(try store.read(.main)).dropFirst(ArchiveEnvelope.headerSize)
        var archive = try ArchiveDecoder().decode(RestorationArchive.self, from: Data(body))
        archive.savedAt = Date(timeIntervalSince1970: seconds)
        try store.write(try sealed(archive), to: .main)

        let session = try await RestorationCoordinator(
            screens: Shop.declaration(), store: store,
            configuration: RestorationConfiguration(maximumArchiveAge: .seconds(3_600))
        ).launch()
        #expect(session.report.outcome == .fresh)
        #expect(session.report.rejectedCheck == "invalid-save-date")
        #expect(await RestorationCoordinator(screens: Shop.declaration(), store: store).savedArchiveInfo() == nil)
    }

    @Test("damage inside a nested node is rejected under the codec's own check, not a generic one")
    func nestedCheckIsNamed() async throws {
        let archive = RestorationArchive(
            appVersion: nil, savedAt: Date(timeIntervalSince1970: 1_790_000_000), metadata: RestorationMetadata(),
            encodedRoot: Data("not a node at all, but long enough".utf8))
        let store = InMemoryStore()
        try store.write(try sealed(archive), to: .main)
        let session = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(session.report.rejectedCheck == "bad-magic")
    }

    @Test("a launch that cannot read the store leaves an earlier crash's marker, so the next one still refuses")
    func unreadableStoreKeepsMarker() async throws {
        let store = LockableStore()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(try Shop.busyTree())
        try store.write(Data("restoring since an earlier launch".utf8), to: .marker("main"))

        store.failingReads.withLock { $0 = true }
        let unreadable = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(unreadable.report.freshReason?.code == .storeUnreadable)
        #expect(try store.read(.marker("main")) != nil)

        store.failingReads.withLock { $0 = false }
        let next = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
        #expect(next.report.freshReason?.code == .crashedDuringRestoration)
    }

    @Test("an archive file over the store's size limit is a fresh launch that names the limit, and is moved aside")
    func oversizedArchive() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "oversized-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let roomy = FileStore(directory: directory)
        try await RestorationCoordinator(screens: Shop.declaration(), store: roomy).save(try Shop.busyTree())
        let saved = try #require(try roomy.read(.main))

        let tight = FileStore(directory: directory, maximumArchiveSize: saved.count - 1)
        let session = try await RestorationCoordinator(screens: Shop.declaration(), store: tight).launch()
        #expect(session.report.outcome == .fresh)
        #expect(session.report.freshReason?.code == .archiveRejected)
        #expect(session.report.freshReason?.message.contains("more than the store's limit") == true)
        #expect(session.report.rejectedCheck == "too-large")
        let moved = try #require(session.report.rejectedArchive)
        #expect(FileManager.default.contents(atPath: moved) == saved)
        #expect(try roomy.read(.main) == nil)
    }

    @Test("an archive whose root has another identifier than the declaration's root starts fresh")
    func renamedRoot() async throws {
        let store = InMemoryStore()
        let old = ScreenDeclaration { Tabs("main") { Screen(SettingsScreen(), id: "settings") } }
        var tree = try old.makeInitialTree()
        try tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "jp" }
        try await RestorationCoordinator(screens: old, store: store).save(tree)
        let renamed = ScreenDeclaration { Tabs("root") { Screen(SettingsScreen(), id: "settings") } }
        let session = try await RestorationCoordinator(screens: renamed, store: store).launch()
        #expect(session.report.outcome == .fresh)
        #expect(session.report.freshReason?.code == .rootNotRestored)
        #expect(session.tree.screen(SettingsScreen.self, at: "settings")?.state.region == "eu")
    }

    @Test("a saved tab selection that is no longer a tab falls back to the declared selection")
    func removedSelectedTab() async throws {
        let store = InMemoryStore()
        var tree = try Shop.declaration(drafts: true).makeInitialTree()
        try tree.selectTab("draft", in: "tabs")
        try await RestorationCoordinator(screens: Shop.declaration(drafts: true), store: store).save(tree)
        let session = try await RestorationCoordinator(screens: Shop.declaration(drafts: false), store: store).launch()
        #expect(session.tree.root.selectedChild?.identifier == "browse")
    }

    @Test("a container preserving one child twice saves it once")
    func duplicatePreservedChild() async throws {
        struct Doubling: RestorableContainer {
            static let typeKey: ScreenTypeKey = "doubling"
            struct State: Codable, Sendable, Equatable { var x = 0 }
            var state = State()
            func childrenToPreserve(_ children: [String?]) -> [String] {
                children.compactMap { $0 } + children.compactMap { $0 }
            }
        }
        let declaration = ScreenDeclaration {
            Container(Doubling(), id: "pair") { Screen(MailboxScreen.self, id: "mailbox") }
        }
        var tree = try declaration.makeInitialTree()
        try tree.addChild(MailboxScreen(state: .init(folder: "sent")), to: "pair")
        let store = InMemoryStore()
        let report = try await RestorationCoordinator(screens: declaration, store: store).save(tree)
        #expect(report.savedPaths == ["pair", "pair/mailbox"])
        let session = try await RestorationCoordinator(screens: declaration, store: store).launch()
        #expect(session.report.skipped.isEmpty)
        #expect(session.tree == tree)
    }

    @Test("a hierarchy nested deeper than a launch reads is not saved, and the previous archive stays")
    func saveRefusesTooDeep() async throws {
        /// `levels` tab bars, each the only tab of the one above, over a settings screen.
        func nested(_ levels: Int) -> [DeclarationNode] {
            guard levels > 0 else {
                return DeclarationBuilder.buildExpression(Screen(SettingsScreen(), id: "settings"))
            }
            return DeclarationBuilder.buildExpression(Tabs("level-\(levels)") { nested(levels - 1) })
        }
        let store = InMemoryStore()
        let shallow = ScreenDeclaration { nested(ArchivedNode.maximumDepth - 1) }
        try await RestorationCoordinator(screens: shallow, store: store).save(try shallow.makeInitialTree())
        let saved = try #require(try store.read(.main))
        let restored = try await RestorationCoordinator(screens: shallow, store: store).launch()
        #expect(restored.report.outcome == .restored)

        let deep = ScreenDeclaration { nested(ArchivedNode.maximumDepth) }
        let error = try await #require(throws: RestorationError.self) {
            try await RestorationCoordinator(screens: deep, store: store).save(try deep.makeInitialTree())
        }
        #expect(error.code == .encodingFailed)
        #expect("\(error)".contains("nests deeper than \(ArchivedNode.maximumDepth) levels"))
        #expect(try store.read(.main) == saved)
    }

    @Test("nodes nested past the limit are refused by name, and the limit itself decodes")
    func nestingLimit() throws {
        func chain(_ depth: Int) -> ArchivedNode {
            var node = ArchivedNode(id: "leaf", kind: .stack, children: [])
            for level in 1..<depth { node = ArchivedNode(id: "n\(level)", kind: .stack, children: [node]) }
            return node
        }
        let atLimit = try chain(ArchivedNode.maximumDepth).encoded()
        #expect(
            try ArchivedNode(decoding: atLimit, depth: 1).reduce(0) { count, _ in count + 1 }
                == ArchivedNode.maximumDepth)
        let past = try chain(ArchivedNode.maximumDepth + 1).encoded()
        #expect { try ArchivedNode(decoding: past, depth: 1) } throws: { error in
            (error as? ArchiveError)?.code == .depthLimitExceeded
        }
    }
}
