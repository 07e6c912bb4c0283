import StateRestoration
import TestScreens
import Testing

/// Scenes whose windows show different screens: each scene keeps the declaration it
/// was made with.
@Suite struct SceneDeclarationTests {
    /// A compose window: one screen, with a note in it.
    private let compose = ScreenDeclaration {
        Screen(ComposeScreen(), id: "compose")
    }

    private func composeTree(_ body: String) throws -> ScreenTree {
        var tree = try compose.makeInitialTree()
        try tree.update(ComposeScreen.self, at: "compose") { $0.state.body = body }
        return tree
    }

    @Test("two windows with different declarations save and restore independently")
    func differentDeclarations() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let saving = RestorationScenes(screens: Shop.declaration(), store: FileStore(directory: directory.url))
        let browsing = try saving.coordinator(for: "browse-1")
        let composing = try saving.coordinator(for: "compose-1", screens: compose)
        #expect(composing.declaration.root?.identifier == "compose")
        _ = try await browsing.launch()
        _ = try await composing.launch()
        try await browsing.save(try Shop.busyTree())
        try await composing.save(try composeTree("Dear shop,"))

        let scenes = RestorationScenes(screens: Shop.declaration(), store: FileStore(directory: directory.url))
        let restoredCompose = try await scenes.coordinator(for: "compose-1", screens: compose).launch()
        let restoredBrowse = try await scenes.coordinator(for: "browse-1").launch()
        #expect(restoredCompose.report.outcome == .restored)
        #expect(restoredBrowse.report.outcome == .restored)
        #expect(restoredCompose.tree == (try composeTree("Dear shop,")))
        #expect(restoredBrowse.tree == (try Shop.busyTree()))
        #expect(try scenes.savedScenes() == ["browse-1", "compose-1"])
    }

    @Test("a scene asked for with another declaration than its coordinator's is a one-line error; the same one is not")
    func conflictingDeclaration() throws {
        let scenes = RestorationScenes(screens: Shop.declaration(), store: InMemoryStore())
        let composing = try scenes.coordinator(for: "window-1", screens: compose)
        // The same structure, made again, and the scene's coordinator without a declaration.
        #expect(
            try scenes.coordinator(
                for: "window-1", screens: ScreenDeclaration { Screen(ComposeScreen(), id: "compose") }) === composing)
        #expect(try scenes.coordinator(for: "window-1") === composing)

        let error = try #require(throws: RestorationError.self) {
            try scenes.coordinator(for: "window-1", screens: Shop.declaration())
        }
        #expect(error.code == .sceneDeclarationConflict)
        #expect(
            error.message
                == "scene window-1 already has a coordinator with another screen declaration; discard the scene before giving it other screens"
        )
        let browsing = try scenes.coordinator(for: "window-2")
        #expect(throws: RestorationError.self) { try scenes.coordinator(for: "window-2", screens: compose) }
        #expect(try scenes.coordinator(for: "window-2", screens: Shop.declaration()) === browsing)
        #expect(throws: RestorationError.self) {
            try scenes.coordinator(for: "window-2", screens: Shop.declaration(drafts: false))
        }
    }

    @Test("a discarded scene may come back with other screens")
    func discardedSceneTakesOtherScreens() async throws {
        let scenes = RestorationScenes(screens: Shop.declaration(), store: InMemoryStore())
        let browsing = try scenes.coordinator(for: "window-1")
        try await browsing.save(try Shop.busyTree())
        try await scenes.discardScene("window-1")
        let composing = try scenes.coordinator(for: "window-1", screens: compose)
        #expect(composing !== browsing)
        let session = try await composing.launch()
        #expect(session.report.freshReason?.code == .noArchive)
    }
}
