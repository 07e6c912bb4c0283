import Foundation
import StateRestoration

/// A small shop app's screens, as an app would declare them.
struct SearchScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "search"
    struct State: Codable, Sendable, Equatable {
        var query = ""
        var filters: [String] = []
        var scrollOffset = 0.0
        var editingText: String?
    }
    var state = State()
    var probe: Probe?
    var restoredPath: IdentifierPath?
    /// Text in the search field that the UI has not committed to `state` yet.
    var liveText: String?

    init(state: State = State()) { self.state = state }

    mutating func willEncodeRestorableState() {
        if let liveText { state.editingText = liveText }
    }
}

struct ProductScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var quantity = 1
        var viewedAt: Date?
    }
    var state: State
    var probe: Probe?
    var restoredPath: IdentifierPath?

    init(state: State) { self.state = state }
    init(_ productID: String, quantity: Int = 1) { self.state = State(productID: productID, quantity: quantity) }
}

struct ReviewScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "review"
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var rating: Int
        var draft: String
    }
    var state: State
    var probe: Probe?
    var restoredPath: IdentifierPath?

    init(state: State) { self.state = state }
}

struct ComposeScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "compose"
    struct State: Codable, Sendable, Equatable {
        var to = ""
        var body = ""
        var focusedField: String?
    }
    var state = State()
    var probe: Probe?
    var restoredPath: IdentifierPath?

    init(state: State = State()) { self.state = state }
}

struct SettingsScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "settings"
    struct State: Codable, Sendable, Equatable {
        var notifications = true
        var region = "eu"
    }
    var state = State()
    var probe: Probe?
    var restoredPath: IdentifierPath?

    init(state: State = State()) { self.state = state }
}

struct DraftScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "draft"
    struct State: Codable, Sendable, Equatable { var text = "" }
    var state = State()
    var probe: Probe?
    var restoredPath: IdentifierPath?

    init(state: State = State()) { self.state = state }
}

struct ScratchScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "scratch"
    struct State: Codable, Sendable, Equatable { var note = "" }
    var state = State()
    var probe: Probe?
    var restoredPath: IdentifierPath?

    init(state: State = State()) { self.state = state }
}

/// A custom container: a split view whose panes the app adds.
struct SplitScreen: RestorableContainer, ProbedScreen {
    static let typeKey: ScreenTypeKey = "split"
    struct State: Codable, Sendable, Equatable {
        var ratio = 0.4
        var restoredChildren: [String] = []
    }
    var state = State()
    var probe: Probe?
    var restoredPath: IdentifierPath?
    /// Child identifiers the container leaves out of the archive.
    var transientChildren: Set<String> = []

    init(state: State = State()) { self.state = state }

    func childrenToPreserve(_ children: [String?]) -> [String] {
        children.compactMap { $0 }.filter { !transientChildren.contains($0) }
    }

    mutating func didRestoreChildren(_ identifiers: [String]) {
        probe?.record("children \(identifiers.joined(separator: ","))")
    }
}

struct MailboxScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "mailbox"
    struct State: Codable, Sendable, Equatable { var folder = "inbox" }
    var state = State()
    var probe: Probe?
    var restoredPath: IdentifierPath?

    init(state: State = State()) { self.state = state }
}

struct MessageScreen: ProbedScreen {
    static let typeKey: ScreenTypeKey = "message"
    struct State: Codable, Sendable, Equatable { var messageID: UUID }
    var state: State
    var probe: Probe?
    var restoredPath: IdentifierPath?

    init(state: State) { self.state = state }
}

enum Shop {
    /// The shop's declaration: tabs with a browsing stack (products and reviews
    /// pushed, a compose sheet presented over products), settings, an optional
    /// draft tab, a custom split container, and a scratch tab that is never saved.
    static func declaration(drafts: Bool = true) -> ScreenDeclaration {
        ScreenDeclaration {
            Tabs("tabs", selected: "browse") {
                Stack("browse", root: SearchScreen()) {
                    Screen(ProductScreen.self, id: "product")
                        .presents { Screen(ComposeScreen.self, id: "compose") }
                    Screen(ReviewScreen.self, id: "review")
                }
                Screen(SettingsScreen(), id: "settings")
                if drafts {
                    Screen(DraftScreen(), id: "draft")
                }
                Container(SplitScreen(), id: "split") {
                    Screen(MailboxScreen.self, id: "mailbox")
                    Screen(MessageScreen.self, id: "message")
                }
                Screen(ScratchScreen())
            }
        }
    }

    /// A hierarchy a user left: a search, two products pushed, a review, a
    /// compose sheet over the second product, a split with two panes, the split
    /// tab selected.
    static func busyTree(_ declaration: ScreenDeclaration = Shop.declaration()) throws -> ScreenTree {
        var tree = try declaration.makeInitialTree()
        try tree.update(SearchScreen.self, at: "tabs/browse/search#0") {
            $0.state.query = "milk"
            $0.state.filters = ["organic", "1l"]
            $0.state.scrollOffset = 412.5
        }
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.push(ProductScreen("p-2", quantity: 3), onto: "browse")
        try tree.push(ReviewScreen(state: .init(productID: "p-2", rating: 4, draft: "Creamy")), onto: "browse")
        try tree.present(
            ComposeScreen(state: .init(to: "shop@example.com", body: "Is it lactose", focusedField: "body")),
            over: "tabs/browse/product#2")
        try tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "jp" }
        try tree.update(DraftScreen.self, at: "draft") { $0.state.text = "half-written" }
        try tree.addChild(MailboxScreen(state: .init(folder: "archive")), to: "split")
        try tree.addChild(
            MessageScreen(
                state: .init(
                    messageID: UUID(
                        uuid: (
                            0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E,
                            0x5F
                        )))),
            to: "split")
        try tree.selectTab("split", in: "tabs")
        return tree
    }
}
