import StateRestoration
import Testing

/// The path component a stack gives each child, `base#position`, which a save writes for every
/// screen on a stack and a launch reads back.
@Suite struct PositionalIdentifierTests {
    /// A stack's root.
    private struct Cover: RestorableScreen {
        struct State: Codable, Sendable, Equatable {}
        var state = State()
        init(state: State = State()) { self.state = state }
    }

    /// A screen pushed many times.
    private struct Page: RestorableScreen {
        struct State: Codable, Sendable, Equatable { var number: Int }
        var state: State
        init(state: State) { self.state = state }
    }

    @Test(
        "a stack's children are base#position, byte for byte, for identifiers of every length, and come back there",
        arguments: ["a", "product", "fourteen-bytes", "fifteen-bytes-x", "a-much-longer-identifier", "café", "日本", "🙂"]
    )
    func components(base: String) async throws {
        let declaration = ScreenDeclaration {
            Stack("stack", root: Cover()) {
                Screen(Page.self, id: base)
            }
        }
        var tree = try declaration.makeInitialTree()
        let count = 120
        for number in 1...count { try tree.push(Page(state: .init(number: number)), onto: "stack") }
        let pages = tree.restorablePaths.dropFirst(2)  // the stack, then its root
        #expect(pages.count == count)
        for (position, path) in zip(1..., pages) {
            // Byte for byte: `==` on strings would accept a canonically equivalent spelling.
            let component = try #require(path.components.last)
            #expect(Array(component.utf8) == Array("\(base)#\(position)".utf8), "\(path)")
        }

        let store = InMemoryStore()
        _ = try await RestorationCoordinator(screens: declaration, store: store).save(tree)
        let session = try await RestorationCoordinator(screens: declaration, store: store).launch()
        #expect(session.report.outcome == .restored)
        #expect(session.report.skipped.isEmpty)
        #expect(session.tree.restorablePaths == tree.restorablePaths)
        #expect(session.tree.screen(Page.self, at: NodeReference("stack/\(base)#\(count)"))?.state.number == count)
    }
}
