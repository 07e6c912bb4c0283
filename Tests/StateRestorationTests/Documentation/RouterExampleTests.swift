import StateRestoration
import Testing

// An example, as much documentation as test: an app built around a router (a
// "coordinator" in the iOS sense) restores its navigation with no view-layer
// hooks. The router keeps no navigation state of its own: it reads its routes
// from the ScreenTree and navigates by changing the ScreenTree, so whatever the
// restoration coordinator brings back, the router sees.

// MARK: - The app's screens

private struct FeedScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "feed"
    struct State: Codable, Sendable, Equatable { var topic = "all" }
    var state = State()
}

private struct ArticleScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "article"
    struct State: Codable, Sendable, Equatable { var articleID: String }
    var state: State
}

private struct AuthorScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "author"
    struct State: Codable, Sendable, Equatable { var name: String }
    var state: State
}

private struct ProfileScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "profile"
    struct State: Codable, Sendable, Equatable { var userID = "me" }
    var state = State()
}

private struct EditProfileScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "edit-profile"
    struct State: Codable, Sendable, Equatable { var bio = "" }
    var state = State()
}

// MARK: - The app's routing

/// The app's router: navigation by route, routes read back from the tree.
private struct Router {
    /// Where the user can go, in the app's own words.
    enum Route: Hashable, Sendable {
        case article(id: String)
        case author(name: String)
        case editProfile
    }

    /// The app's tabs; each has its own navigation path.
    enum Tab: String, CaseIterable, Sendable {
        case feed, profile
    }

    static let screens = ScreenDeclaration {
        Tabs("tabs", selected: "feed") {
            Stack("feed", root: FeedScreen()) {
                ArticleScreen.self
                AuthorScreen.self
            }
            Stack("profile", root: ProfileScreen()) {
                EditProfileScreen.self
            }
        }
    }

    /// The hierarchy: the only navigation state there is.
    private(set) var tree: ScreenTree

    init(tree: ScreenTree) {
        self.tree = tree
    }

    /// The selected tab, read from the tree.
    var selectedTab: Tab {
        tree.root.selectedChild?.identifier.flatMap(Tab.init(rawValue:)) ?? .feed
    }

    /// The selected tab's navigation path.
    var path: [Route] { path(of: selectedTab) }

    /// A tab's navigation path, read from its stack: one route per screen above the root.
    func path(of tab: Tab) -> [Route] {
        let stack = tree.node(at: ["tabs", tab.rawValue])
        return (stack?.children.dropFirst() ?? []).compactMap { Self.route(showing: $0.screen) }
    }

    /// Every tab's path, to compare two routers at once.
    var paths: [Tab: [Route]] {
        Dictionary(uniqueKeysWithValues: Tab.allCases.map { ($0, path(of: $0)) })
    }

    mutating func select(_ tab: Tab) throws {
        try tree.selectTab(tab.rawValue, in: "tabs")
    }

    /// Navigates to a route in the selected tab, by pushing its screen on the tree.
    mutating func navigate(to route: Route) throws {
        let stack = NodeReference(IdentifierPath(["tabs", selectedTab.rawValue]))
        switch route {
        case .article(let id): try tree.push(ArticleScreen(state: .init(articleID: id)), onto: stack)
        case .author(let name): try tree.push(AuthorScreen(state: .init(name: name)), onto: stack)
        case .editProfile: try tree.push(EditProfileScreen(), onto: stack)
        }
    }

    mutating func goBack() throws {
        try tree.pop(from: NodeReference(IdentifierPath(["tabs", selectedTab.rawValue])))
    }

    /// The route a screen shows; nil for a tab's root.
    private static func route(showing screen: (any RestorableScreen)?) -> Route? {
        switch screen {
        case let article as ArticleScreen: .article(id: article.state.articleID)
        case let author as AuthorScreen: .author(name: author.state.name)
        case is EditProfileScreen: .editProfile
        default: nil
        }
    }
}

/// Refuses to re-create one screen, as an app would for an article taken down.
private struct RefusingDelegate: RestorationDelegate {
    let refused: IdentifierPath

    func screen(forIdentifierPath path: IdentifierPath, request: ScreenRequest) async -> (any RestorableScreen)? {
        path == refused ? nil : request.makeScreen()
    }
}

// MARK: - The example

@Suite struct RouterExampleTests {
    /// A user's session: reads an article, its author, another article, then
    /// starts editing their profile and goes back to the feed.
    private func navigatedRouter() async throws -> (Router, InMemoryStore.Storage) {
        let storage = InMemoryStore.Storage()
        let coordinator = RestorationCoordinator(screens: Router.screens, store: InMemoryStore(storage: storage))
        var router = Router(tree: try await coordinator.launch().tree)
        try router.navigate(to: .article(id: "a-1"))
        try router.navigate(to: .author(name: "Ada"))
        try router.navigate(to: .article(id: "a-7"))
        try router.select(.profile)
        try router.navigate(to: .editProfile)
        try router.select(.feed)
        try await coordinator.save(router.tree)  // the app goes to the background
        return (router, storage)
    }

    /// The next launch, in a new process: a new store over the same storage.
    private func relaunch(
        _ storage: InMemoryStore.Storage, delegate: some RestorationDelegate = DefaultRestorationDelegate()
    ) async throws -> (Router, LaunchReport) {
        let coordinator = RestorationCoordinator(
            screens: Router.screens, store: InMemoryStore(storage: storage), delegate: delegate)
        let session = try await coordinator.launch()
        return (Router(tree: session.tree), session.report)
    }

    @Test("a navigation done by the router is saved, restored by a new coordinator, and rebuilt route for route")
    func routerRebuildsItsRoutes() async throws {
        let (router, storage) = try await navigatedRouter()
        #expect(router.path == [.article(id: "a-1"), .author(name: "Ada"), .article(id: "a-7")])

        let (restored, report) = try await relaunch(storage)

        #expect(report.outcome == .restored)
        #expect(restored.selectedTab == .feed)
        #expect(restored.path == [.article(id: "a-1"), .author(name: "Ada"), .article(id: "a-7")])
        #expect(restored.path(of: .profile) == [.editProfile])
        #expect(restored.paths == router.paths)
        #expect(restored.tree == router.tree)
    }

    @Test("the restored router goes on navigating from where the user left, and that is saved too")
    func restoredRouterKeepsNavigating() async throws {
        let (_, storage) = try await navigatedRouter()
        var (router, _) = try await relaunch(storage)

        try router.goBack()
        try router.navigate(to: .article(id: "a-9"))
        #expect(router.path == [.article(id: "a-1"), .author(name: "Ada"), .article(id: "a-9")])
        try await RestorationCoordinator(screens: Router.screens, store: InMemoryStore(storage: storage))
            .save(router.tree)

        let (again, _) = try await relaunch(storage)
        #expect(again.paths == router.paths)
    }

    @Test("a route whose screen does not come back ends the path there: the router never invents routes")
    func routesFollowWhatWasRestored() async throws {
        let (_, storage) = try await navigatedRouter()
        let (restored, report) = try await relaunch(
            storage, delegate: RefusingDelegate(refused: "tabs/feed/author#2"))

        #expect(restored.path == [.article(id: "a-1")])
        #expect(restored.path(of: .profile) == [.editProfile])
        #expect(report.skipped.map(\.path) == ["tabs/feed/author#2", "tabs/feed/article#3"])
    }
}
