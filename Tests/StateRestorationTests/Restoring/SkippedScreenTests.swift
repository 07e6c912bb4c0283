import StateRestoration
import TestScreens
import Testing

/// A product screen from an older build: same type key, another State shape.
private struct OldProductScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable { var productID: Int }
    var state: State
}

/// A screen whose type key the current build no longer declares.
private struct LegacyScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "legacy-product"
    struct State: Codable, Sendable, Equatable { var sku = "x" }
    var state = State()
}

/// The product screen after its Swift type was renamed; its type key is unchanged.
private struct RenamedProductDetailScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    var state: ProductScreen.State
}

@Suite struct SkippedScreenTests {
    @Test("renaming a screen's Swift type keeps old archives restorable: only the type key is saved")
    func renamedType() async throws {
        let store = InMemoryStore()
        let old = Self.declaration(product: ProductScreen.self)
        var tree = try old.makeInitialTree()
        try tree.push(ProductScreen("p-7", quantity: 2), onto: "browse")
        try await RestorationCoordinator(screens: old, store: store).save(tree)

        let session = try await RestorationCoordinator(
            screens: Self.declaration(product: RenamedProductDetailScreen.self), store: store
        ).launch()
        #expect(session.report.skipped.isEmpty)
        let restored = session.tree.screen(RenamedProductDetailScreen.self, at: "product#1")
        #expect(restored?.state == ProductScreen.State(productID: "p-7", quantity: 2))
    }

    /// The shop declaration with another product screen type under the same identifier.
    private static func declaration<P: RestorableScreen>(product: P.Type) -> ScreenDeclaration {
        ScreenDeclaration {
            Tabs("tabs") {
                Stack("browse", root: SearchScreen()) {
                    Screen(P.self, id: "product")
                    Screen(ReviewScreen.self, id: "review")
                }
                Screen(SettingsScreen(), id: "settings")
            }
        }
    }

    @Test("a state that no longer decodes skips only that screen and what is above it on its stack")
    func decodeFailure() async throws {
        let store = InMemoryStore()
        let old = Self.declaration(product: OldProductScreen.self)
        var tree = try old.makeInitialTree()
        try tree.update(SearchScreen.self, at: "search#0") { $0.state.query = "milk" }
        try tree.push(OldProductScreen(state: .init(productID: 42)), onto: "browse")
        try tree.push(ReviewScreen(state: .init(productID: "42", rating: 5, draft: "")), onto: "browse")
        try tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "jp" }
        try await RestorationCoordinator(screens: old, store: store).save(tree)

        let current = Self.declaration(product: ProductScreen.self)
        let session = try await RestorationCoordinator(screens: current, store: store).launch()
        #expect(session.report.outcome == .restored)
        #expect(session.report.skipped.map(\.reason) == [.decodeFailed, .stackTruncated])
        #expect(session.report.skipped.map(\.path) == ["tabs/browse/product#1", "tabs/browse/review#2"])
        #expect(session.report.skipped.first?.message.contains("ProductScreen.State did not decode") == true)
        #expect(session.tree.screen(SearchScreen.self, at: "search#0")?.state.query == "milk")
        #expect(session.tree.screen(SettingsScreen.self, at: "settings")?.state.region == "jp")
        #expect(session.tree.node(at: "tabs/browse")?.children.count == 1)
    }

    @Test("an archive naming a type key no declared screen has is never instantiated")
    func unknownTypeKey() async throws {
        let store = InMemoryStore()
        let old = Self.declaration(product: LegacyScreen.self)
        var tree = try old.makeInitialTree()
        try tree.push(LegacyScreen(), onto: "browse")
        try await RestorationCoordinator(screens: old, store: store).save(tree)

        let session = try await RestorationCoordinator(
            screens: Self.declaration(product: ProductScreen.self), store: store
        ).launch()
        let skipped = try #require(session.report.skipped.first)
        #expect(skipped.reason == .unknownType)
        #expect(skipped.path == "tabs/browse/product#1")
        #expect(skipped.message == "the archive names type key legacy-product, which no declared screen has")
        #expect(session.tree.node(at: "tabs/browse")?.children.count == 1)
    }

    @Test("a State version the build does not know skips the screen")
    func stateVersionMismatch() async throws {
        struct VersionedScreen: RestorableScreen {
            static let typeKey: ScreenTypeKey = "product"
            static let stateVersion = 2
            struct State: Codable, Sendable, Equatable {
                var productID: String
                var quantity = 1
                var viewedAt: Double?
            }
            var state: State
        }
        let store = InMemoryStore()
        let old = Self.declaration(product: ProductScreen.self)
        var tree = try old.makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try await RestorationCoordinator(screens: old, store: store).save(tree)
        let session = try await RestorationCoordinator(
            screens: Self.declaration(product: VersionedScreen.self), store: store
        ).launch()
        #expect(session.report.skipped.map(\.reason) == [.stateVersionMismatch])
    }
}
